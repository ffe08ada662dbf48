//! End-to-end test of `cargo pilot bench --against REV`: the real binary on a git repository
//! made from the fixture workspace `tests/fixture-bench`, whose bench cost is the constant
//! `SOURCE_COST` in its source. The base is the commit tagged `base`; the working tree is
//! edited between steps, as a developer's would be.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

mod common;
use common::text;

fn tmp() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
}

/// The fixture's files copied to `dir`, its pilot dependency pointed at this checkout's.
fn copy_fixture(dir: &Path) {
    let _ = std::fs::remove_dir_all(dir);
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixture-bench");
    let pilot =
        std::fs::canonicalize(Path::new(env!("CARGO_MANIFEST_DIR")).join("../pilot")).unwrap();
    std::fs::create_dir_all(dir.join("benches")).unwrap();
    let manifest = std::fs::read_to_string(src.join("Cargo.toml")).unwrap();
    // Both pilot and pilot-criterion (`../../pilot/pilot-criterion`) are under `../../pilot`.
    let manifest = manifest.replace(
        "path = \"../../pilot",
        &format!("path = \"{}", pilot.display()),
    );
    assert!(manifest.contains(&pilot.display().to_string()));
    assert!(
        !manifest.contains("../../"),
        "a path left relative: {manifest}"
    );
    std::fs::write(dir.join("Cargo.toml"), manifest).unwrap();
    std::fs::copy(src.join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    for bench in ["cost.rs", "checks.rs", "crit.rs"] {
        std::fs::copy(
            src.join("benches").join(bench),
            dir.join("benches").join(bench),
        )
        .unwrap();
    }
    std::fs::write(dir.join(".gitignore"), "target\n").unwrap();
}

fn git(dir: &Path, args: &[&str]) {
    let o = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args([
            "-c",
            "user.name=pilot",
            "-c",
            "user.email=pilot@example.com",
        ])
        .args(args)
        .output()
        .unwrap();
    assert!(o.status.success(), "git {args:?}: {}", text(&o));
}

/// `cargo pilot bench --against ARGS` in `dir`, short sessions, no `PILOT_*` setting of the
/// outer environment.
fn against(dir: &Path, target: &Path, args: &[&str]) -> Output {
    let mut cmd = common::cargo_pilot(env!("CARGO_BIN_EXE_cargo-pilot"));
    cmd.args(["bench", "--against"])
        .args(args)
        .args(["--max-time", "1", "--ci", "0.05", "--processes", "3"])
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", target)
        .env("CI", "1");
    cmd.output().unwrap()
}

/// The (name, verdict) rows of a `--format json` comparison.
fn verdicts(o: &Output) -> Vec<(String, String)> {
    let doc: Value =
        serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {}", text(o)));
    assert_eq!(doc["schema"], "pilot.compare/1");
    assert_eq!(doc["method"], "paired", "{}", text(o));
    doc["benches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            if b["verdict"] != "new" && b["verdict"] != "missing" {
                assert!(b["pairs"].as_u64().unwrap() >= 2, "{b}");
            }
            (
                b["name"].as_str().unwrap().to_string(),
                b["verdict"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// `--against base` as JSON with a wide noise threshold, where nothing was made slower: exit 0
/// and its verdicts.
fn unchanged_verdicts(repo: &Path, target: &Path) -> Vec<(String, String)> {
    let o = against(
        repo,
        target,
        &["base", "--format", "json", "--noise", "0.1"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    verdicts(&o)
}

fn edit(file: &Path, from: &str, to: &str) {
    let s = std::fs::read_to_string(file).unwrap();
    assert!(s.contains(from), "`{from}` not in {}", file.display());
    std::fs::write(file, s.replace(from, to)).unwrap();
}

// One function on purpose: every step reuses the builds and the worktree of the steps before
// it, as a developer's repeated runs do.
#[test]
fn two_builds_are_compared_interleaved_in_one_job() {
    let target = tmp().join("against-target");
    let _ = std::fs::remove_dir_all(&target);

    // 1. Outside a git repository: a clear error, nothing built.
    let loose = std::env::temp_dir().join(format!("pilot-against-loose-{}", std::process::id()));
    copy_fixture(&loose);
    let o = against(&loose, &target, &["HEAD"]);
    let _ = std::fs::remove_dir_all(&loose);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        text(&o).contains("is not in a git repository"),
        "{}",
        text(&o)
    );

    // The repository: the fixture committed and tagged `base`.
    let repo = tmp().join("against-repo");
    copy_fixture(&repo);
    git(&repo, &["init", "--quiet"]);
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "--quiet", "-m", "base"]);
    git(&repo, &["tag", "base"]);
    let source = repo.join("benches/cost.rs");

    // 2. A revision the repository does not know: named, nothing built or written.
    let o = against(&repo, &target, &["no-such-rev"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        text(&o).contains("unknown revision `no-such-rev`"),
        "{}",
        text(&o)
    );
    assert!(!target.join("pilot").exists());

    // 3. A/A: only a comment differs. No verdict beyond the (wide) noise threshold.
    edit(&source, "/// `steps` rounds", "/// `steps` (edited) rounds");
    let got = unchanged_verdicts(&repo, &target);
    let names: Vec<&str> = got.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["spin", "units"], "{got:?}");
    for (name, verdict) in &got {
        assert!(
            verdict == "no change" || verdict == "undecided",
            "{name}: {verdict} in {got:?}"
        );
    }
    // The base saved as a baseline named after its commit, the working tree as the latest.
    let short = String::from_utf8(
        Command::new("git")
            .arg("-C")
            .arg(&repo)
            .args(["rev-parse", "base"])
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap()[..12]
        .to_string();
    let saved = target.join(format!("pilot/baselines/{short}/cost/spin.json"));
    let latest = target.join("pilot/results/cost/spin.json");
    for file in [&saved, &latest] {
        let doc: Value = serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
        assert_eq!(doc["schema"], "pilot.result/1");
        assert!(doc["processes"]["count"].as_u64().unwrap() >= 2, "{doc}");
    }

    // 4. Four times the work in the working tree: regressed, exit 3, as Markdown for a PR.
    edit(
        &source,
        "const SOURCE_COST: f64 = 1.0;",
        "const SOURCE_COST: f64 = 4.0;",
    );
    let o = against(&repo, &target, &["base", "--format", "md"]);
    assert_eq!(o.status.code(), Some(3), "{}", text(&o));
    let md = String::from_utf8_lossy(&o.stdout);
    assert!(
        md.starts_with("### pilot: 2 benches, 2 regressed"),
        "{}",
        text(&o)
    );
    assert!(md.contains("pairs of processes"), "{md}");
    edit(
        &source,
        "const SOURCE_COST: f64 = 4.0;",
        "const SOURCE_COST: f64 = 1.0;",
    );

    // 5. An interrupted run left the worktree dirty: repaired. A bench renamed in the working
    //    tree: the old name is missing, the new one new.
    let worktree = target.join("pilot/against/worktree");
    std::fs::write(worktree.join("benches/cost.rs"), "not rust").unwrap();
    std::fs::write(worktree.join("stray.txt"), "left behind").unwrap();
    edit(&source, "fn units(", "fn units_renamed(");
    let got = unchanged_verdicts(&repo, &target);
    let find = |name: &str| {
        got.iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.clone())
            .unwrap_or_else(|| panic!("no `{name}` in {got:?}"))
    };
    assert_eq!(find("units"), "missing");
    assert_eq!(find("units_renamed"), "new");
    assert!(!worktree.join("stray.txt").exists());

    // 6. A group: each member compared with itself across the builds, and the working tree's
    //    ranking (a quarter of the work first, clearly faster than the whole).
    let o = against(&repo, &target, &["base", "--features", "groups", "pick"]);
    let out = text(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(out.contains("how: paired:"), "{out}");
    let ranking = out
        .split("group `pick` (cost) in the working tree")
        .nth(1)
        .unwrap_or_else(|| panic!("no ranking of `pick`: {out}"));
    let rows: Vec<&str> = ranking.lines().filter(|l| l.contains("pick_")).collect();
    assert_eq!(rows.len(), 2, "{ranking}");
    assert!(rows[0].starts_with("1  pick_quarter"), "{ranking}");
    assert!(
        rows[1].contains("vs pick_quarter") && rows[1].ends_with("faster"),
        "{ranking}"
    );
}
