//! `cargo pilot bench --partition`: the fixture's suite (its pilot, criterion and divan
//! targets) split three ways, the three runners at once, each with a target directory of its
//! own, into one history; read back with `history:HEAD` it is one run, each bench exactly once,
//! the same benches as one unpartitioned run, and one report. On SQLite, and on PostgreSQL
//! with `PILOT_TEST_POSTGRES` (see [`backends`]).

use std::collections::BTreeSet;

use super::*;

/// Short sessions of every bench target the features build.
const QUICK: &[&str] = &[
    "--features",
    "criterion,divan",
    "--max-time",
    "1",
    "--ci",
    "0.05",
    "--processes",
    "2",
];

/// The benches a `pilot.run/1` document at `path` holds results of, as `target/name`.
fn run_benches(path: &Path) -> Vec<String> {
    let doc: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    doc["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            format!(
                "{}/{}",
                r["target"].as_str().unwrap(),
                r["name"].as_str().unwrap()
            )
        })
        .collect()
}

/// The benches of `cargo pilot export --format md`'s table, one per row, in its order.
fn table_benches(md: &str) -> Vec<String> {
    md.lines()
        .filter_map(|l| l.strip_prefix("| `"))
        .filter_map(|l| l.split_once("` |").map(|(name, _)| name.to_string()))
        .collect()
}

/// `cargo pilot bench ARGS` in `repo` with target directory `target`, and the quick settings.
fn bench_into(repo: &Path, target: &Path, args: &[&str]) -> Output {
    let mut all = vec!["bench"];
    all.extend_from_slice(args);
    all.extend_from_slice(QUICK);
    let build = common::fixture_build_dir();
    pilot(
        repo,
        &all,
        &[
            ("CARGO_TARGET_DIR", target.to_str().unwrap()),
            ("CARGO_BUILD_BUILD_DIR", build.to_str().unwrap()),
            ("PILOT_FIXTURE_COST", "1"),
        ],
    )
}

#[test]
fn a_suite_split_three_ways_into_one_history_is_one_run() {
    let dir = tmp("partition");
    let repo_dir = dir.join("repo");
    copy_fixture(&repo_dir);
    git(&repo_dir, &["init", "--quiet", "--initial-branch=main"]);
    git(&repo_dir, &["add", "-A"]);
    git(&repo_dir, &["commit", "--quiet", "-m", "base"]);

    // A spec that is no share is the flag's mistake, said before anything is built.
    for (spec, says) in [
        ("count:0/3", "shares are counted from 1"),
        ("count:4/3", "K is at most N"),
        ("foo:1/2", "unknown partition kind `foo`"),
        ("hash:1/0", "N is at least 1"),
    ] {
        let o = pilot(&repo_dir, &["bench", "--partition", spec], &[]);
        assert_eq!(o.status.code(), Some(2), "{spec}: {}", text(&o));
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains("--partition") && err.contains(says),
            "{spec}: {err}"
        );
    }

    // One runner's whole suite, the set the shares must make up.
    let whole_json = dir.join("whole.json");
    let o = bench_into(
        &repo_dir,
        &dir.join("target-whole"),
        &["--history", "off", "--json", whole_json.to_str().unwrap()],
    );
    assert!(o.status.success(), "{}", text(&o));
    let mut whole = run_benches(&whole_json);
    whole.sort();
    assert!(whole.len() >= 6, "{whole:?}");

    for (i, backend) in backends(&dir, "partition").into_iter().enumerate() {
        let flag = backend.flag();
        // Count on SQLite, hash on PostgreSQL: both splits, each into a store.
        let split = if i == 0 { "count" } else { "hash" };
        let outs: Vec<(Output, PathBuf)> = std::thread::scope(|s| {
            let runners: Vec<_> = (1..=3)
                .map(|k| {
                    let (repo_dir, dir, flag) = (&repo_dir, &dir, &flag);
                    s.spawn(move || {
                        let json = dir.join(format!("part-{i}-{k}.json"));
                        let spec = format!("{split}:{k}/3");
                        let o = bench_into(
                            repo_dir,
                            &dir.join(format!("target-{i}-{k}")),
                            &[
                                "--partition",
                                &spec,
                                "--history",
                                flag,
                                "--json",
                                json.to_str().unwrap(),
                            ],
                        );
                        (o, json)
                    })
                })
                .collect();
            runners.into_iter().map(|r| r.join().unwrap()).collect()
        });
        let mut union = Vec::new();
        for (k, (o, json)) in outs.iter().enumerate() {
            assert!(
                o.status.success(),
                "{backend:?} share {}: {}",
                k + 1,
                text(o)
            );
            let said = format!("partition {split}:{}/3: ", k + 1);
            assert!(
                String::from_utf8_lossy(&o.stdout).contains(&said),
                "{}",
                text(o)
            );
            union.extend(run_benches(json));
        }
        union.sort();
        // Disjoint and whole: every bench of the suite in exactly one share.
        assert_eq!(union, whole, "{backend:?}");

        // The history's run of the commit: the union, each bench once.
        let o = pilot(
            &repo_dir,
            &[
                "export",
                "--format",
                "md",
                "history:HEAD",
                "--history",
                &flag,
            ],
            &[(
                "CARGO_TARGET_DIR",
                dir.join("target-whole").to_str().unwrap(),
            )],
        );
        assert!(o.status.success(), "{backend:?}: {}", text(&o));
        let read = table_benches(&String::from_utf8_lossy(&o.stdout));
        let distinct: BTreeSet<&String> = read.iter().collect();
        assert_eq!(distinct.len(), read.len(), "a bench twice: {read:?}");
        let mut read = read.clone();
        read.sort();
        assert_eq!(read, whole, "{backend:?}");

        // One report of it.
        let out = dir.join(format!("report-{i}"));
        std::fs::create_dir_all(&out).unwrap();
        let o = pilot(
            &repo_dir,
            &[
                "report",
                "--results",
                "history:HEAD",
                "--history",
                &flag,
                "--out",
                out.to_str().unwrap(),
            ],
            &[(
                "CARGO_TARGET_DIR",
                dir.join("target-whole").to_str().unwrap(),
            )],
        );
        assert!(o.status.success(), "{backend:?}: {}", text(&o));
        assert!(out.join("index.html").is_file());
        assert!(
            String::from_utf8_lossy(&o.stdout).contains(&format!("({} benches", whole.len())),
            "{}",
            text(&o)
        );
    }

    // A share that holds no bench is no error: it says so, and runs nothing.
    let o = bench_into(
        &repo_dir,
        &dir.join("target-whole"),
        &[
            "spin",
            "--exact",
            "--partition",
            "count:2/3",
            "--history",
            "off",
        ],
    );
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("nothing to run"),
        "{}",
        text(&o)
    );
}
