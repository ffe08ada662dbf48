//! End-to-end test of `cargo pilot bench --against REV`: the real binary on a git repository
//! made from the fixture workspace `tests/fixture-bench`, whose bench cost is the constant
//! `SOURCE_COST` in its source. The base is the commit tagged `base`; the working tree is
//! edited between steps, as a developer's would be.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

mod common;
use common::{git, text};

fn tmp() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
}

/// The fixture's files copied to `dir`, its pilot dependency pointed at this checkout's, its
/// version tagged with the folder's name (see `common::fixture_copy_files`).
fn copy_fixture(dir: &Path) {
    let _ = std::fs::remove_dir_all(dir);
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixture-bench");
    std::fs::create_dir_all(dir.join("benches")).unwrap();
    let tag = dir.file_name().unwrap().to_str().unwrap();
    let (manifest, lock) = common::fixture_copy_files(tag);
    std::fs::write(dir.join("Cargo.toml"), manifest).unwrap();
    std::fs::write(dir.join("Cargo.lock"), lock).unwrap();
    for bench in [
        "cost.rs",
        "checks.rs",
        "crit.rs",
        "dvn.rs",
        "counts.rs",
        "explain.rs",
        "allocs.rs",
        "layout.rs",
    ] {
        std::fs::copy(
            src.join("benches").join(bench),
            dir.join("benches").join(bench),
        )
        .unwrap();
    }
    std::fs::write(dir.join(".gitignore"), "target\n").unwrap();
}

/// `cargo pilot bench --against ARGS` in `dir`, short sessions, no `PILOT_*` setting of the
/// outer environment.
fn against(dir: &Path, target: &Path, args: &[&str]) -> Output {
    against_for(dir, target, args, &["--max-time", "1", "--ci", "0.05"])
}

/// `cargo pilot bench --against ARGS`, each bench capped by the settings `time`. The base
/// builds into the target directory every copy's base shares, which outlives the test's
/// (each run starts without one), so that pilot is built once and a rerun compiles only the
/// fixture.
fn against_for(dir: &Path, target: &Path, args: &[&str], time: &[&str]) -> Output {
    let base = common::fixture_base_build_dir();
    against_command(dir, target, args, time)
        .arg("--base-target-dir")
        .arg(base)
        .output()
        .unwrap()
}

fn against_command(dir: &Path, target: &Path, args: &[&str], time: &[&str]) -> Command {
    let mut cmd = common::cargo_pilot(env!("CARGO_BIN_EXE_cargo-pilot"));
    cmd.args(["bench", "--against"])
        .args(args)
        .args(time)
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", target)
        // The build directory the fixture's own builds use, which outlives the test's target
        // directory (each run starts without one): the copy's version keeps its executables
        // apart from the fixture's (`common::fixture_copy_files`).
        .env("CARGO_BUILD_BUILD_DIR", common::fixture_build_dir())
        .env("CI", "1");
    cmd
}

/// The fixture in a new git repository at `repo`, committed and tagged `base`.
fn fixture_repo(repo: &Path) {
    copy_fixture(repo);
    git(repo, &["init", "--quiet"]);
    git(repo, &["add", "-A"]);
    git(repo, &["commit", "--quiet", "-m", "base"]);
    git(repo, &["tag", "base"]);
}

/// `git ARGS` in `dir`: its standard output.
fn git_out(dir: &Path, args: &[&str]) -> String {
    let o = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .unwrap();
    assert!(o.status.success(), "git {args:?}: {}", text(&o));
    String::from_utf8(o.stdout).unwrap()
}

/// The least pairs the book promises before a verdict ("A verdict needs at least 6 pairs"),
/// read from it, so that the book and the code cannot part.
fn least_pairs() -> u64 {
    let page = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../book/src/comparing.md"),
    )
    .unwrap();
    let (_, rest) = page
        .split_once("A verdict needs at least ")
        .expect("the book's `--against` section (book/src/comparing.md) gives the least pairs");
    let n = rest.split_whitespace().next().unwrap();
    n.parse()
        .unwrap_or_else(|_| panic!("not a number of pairs: `{n}`"))
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
            let decided = ["no change", "regressed", "improved"];
            if decided.contains(&b["verdict"].as_str().unwrap()) {
                assert!(b["pairs"].as_u64().unwrap() >= least_pairs(), "{b}");
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
    fixture_repo(&repo);
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

    // 3b. Too little time for the least pairs: no verdict is taken from the few pairs there
    //     are; each such bench is `undecided` with the reason, and undecided is no error
    //     (exit 0). A target too narrow to meet keeps each process to its share of a 0.5 s
    //     cap, or to the least analysed time after which it is out of reach: how many pairs
    //     fit depends on the machine's speed, so what is asserted is the rule, bench by bench
    //     (a decided bench had the least pairs, `verdicts` checks).
    let o = against_for(
        &repo,
        &target,
        &["base", "--format", "json", "--noise", "0.1"],
        &["--max-time", "0.5", "--ci", "0.0001"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let least = least_pairs();
    let needed = format!("at least {least} are needed: raise --max-time");
    let doc: Value = serde_json::from_slice(&o.stdout).unwrap();
    for b in doc["benches"].as_array().unwrap() {
        if b["pairs"].as_u64().unwrap() < least {
            assert_eq!(b["verdict"], "undecided", "{b}");
            let reason = b["reason"]
                .as_str()
                .unwrap_or_else(|| panic!("no reason: {b}"));
            assert!(reason.ends_with(&needed), "{b}");
        }
    }
    verdicts(&o);
    // 3c. Time for a pair or two (0.2 s a process pair, 0.4 s for both builds): a bench with
    //     too few pairs says why there is no verdict on the terminal, and nothing is claimed
    //     saved unless a bench had two processes a side.
    let o = against_for(
        &repo,
        &target,
        &["base"],
        &["--max-time", "0.2", "--ci", "0.0001"],
    );
    let out = text(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    for name in ["spin", "units"] {
        let why = format!("`{name}` (cost) is undecided: ");
        if let Some(line) = out.lines().find(|l| l.starts_with(&why)) {
            assert!(line.ends_with(&needed), "{out}");
        }
    }
    // The closing line claims a save or says there was none, never both.
    assert_ne!(
        out.contains("saved as baseline"),
        out.contains("nothing of the base `base`"),
        "{out}"
    );

    // 4. Four times the work in the working tree: regressed, exit 3, as Markdown for a PR.
    edit(
        &source,
        "const SOURCE_COST: f64 = 1.0;",
        "const SOURCE_COST: f64 = 4.0;",
    );
    // A verdict needs the least pairs: a cap with room for them on a loaded machine.
    let o = against_for(
        &repo,
        &target,
        &["base", "--format", "md"],
        &["--max-time", "3", "--ci", "0.05"],
    );
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

    // 4b. Instructions counted under callgrind beside the pairs: an unchanged tree counts the
    //     same instructions in both builds; 0.5% more work is flagged in the instructions'
    //     column (exit 3) as the code's change, whatever the time says.
    if common::valgrind_here() {
        let counted = |args: &[&str]| {
            let mut all = vec![
                "base",
                "spin",
                "--exact",
                "--instructions",
                "--format",
                "json",
            ];
            all.extend_from_slice(args);
            let o = against_for(&repo, &target, &all, &["--max-time", "0.5", "--ci", "0.05"]);
            let doc: Value = serde_json::from_slice(&o.stdout)
                .unwrap_or_else(|e| panic!("not JSON ({e}): {}", text(&o)));
            (o, doc["benches"][0].clone())
        };
        let (o, spin) = counted(&["--noise", "0.5"]);
        assert_eq!(o.status.code(), Some(0), "{}", text(&o));
        assert_eq!(spin["instructions"]["verdict"], "no change", "{spin:#}");
        assert_eq!(spin["instructions"]["change"], 0.0, "{spin:#}");
        edit(
            &source,
            "const SOURCE_COST: f64 = 1.0;",
            "const SOURCE_COST: f64 = 1.005;",
        );
        let (o, spin) = counted(&["--noise", "0.5"]);
        assert_eq!(o.status.code(), Some(3), "{}", text(&o));
        assert_eq!(spin["instructions"]["verdict"], "regressed", "{spin:#}");
        let change = spin["instructions"]["change"].as_f64().unwrap();
        assert!((0.004..0.006).contains(&change), "{spin:#}");
        assert_eq!(spin["changed"], "code", "{spin:#}");
        edit(
            &source,
            "const SOURCE_COST: f64 = 1.005;",
            "const SOURCE_COST: f64 = 1.0;",
        );
    }

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
    // The same code in both builds: a noise threshold wide enough that the builds' own
    // layouts and a busy machine make no verdict (as in the A/A steps above).
    let o = against(
        &repo,
        &target,
        &["base", "--features", "groups", "pick", "--noise", "0.5"],
    );
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
    // Four times the work ranks second on any machine; `slower` once the cap settled it.
    assert!(
        rows[1].contains("vs pick_quarter")
            && (rows[1].contains("slower") || rows[1].ends_with("undecided")),
        "{ranking}"
    );
}

/// `target/pilot/against/worktree`, or a folder above it, made a symbolic link to the user's
/// repository, or a folder of the user's put there: refused, and nothing of the user's
/// (uncommitted edits, untracked files, HEAD) touched. Refused before anything is built.
#[cfg(unix)]
#[test]
fn the_base_checkout_never_resets_a_folder_pilot_did_not_make() {
    let repo = tmp().join("against-link-repo");
    let target = tmp().join("against-link-target");
    let _ = std::fs::remove_dir_all(&target);
    fixture_repo(&repo);
    let source = repo.join("benches/cost.rs");
    edit(
        &source,
        "/// `steps` rounds",
        "/// `steps` (uncommitted) rounds",
    );
    let edited = std::fs::read_to_string(&source).unwrap();
    std::fs::write(repo.join("notes.txt"), "untracked").unwrap();
    let head = git_out(&repo, &["rev-parse", "HEAD"]);
    let branch = git_out(&repo, &["symbolic-ref", "HEAD"]);
    let pilot = target.join("pilot");
    let worktree = pilot.join("against/worktree");
    let own_folder = tmp().join("against-link-own");
    let _ = std::fs::remove_dir_all(&own_folder);
    std::fs::create_dir_all(own_folder.join("src")).unwrap();
    std::fs::write(own_folder.join("src/keep.txt"), "mine").unwrap();
    // (what is made a link, what the message names)
    let cases: [(&Path, &Path, &str); 4] = [
        (&worktree, &repo, "is a symbolic link"),
        (&pilot.join("against"), &repo, "is a symbolic link"),
        (&pilot, &repo, "is a symbolic link"),
        // Not a link: the user's folder at that path itself.
        (
            &worktree,
            &own_folder,
            "is not the base checkout pilot made",
        ),
    ];
    for (at, to, says) in cases {
        let _ = std::fs::remove_dir_all(&target);
        std::fs::create_dir_all(at.parent().unwrap()).unwrap();
        if to == own_folder.as_path() {
            copy_dir(to, at);
        } else {
            std::os::unix::fs::symlink(to, at).unwrap();
        }
        let o = against(&repo, &target, &["base"]);
        let out = text(&o);
        assert_eq!(o.status.code(), Some(1), "{}: {out}", at.display());
        assert!(out.contains(&format!("`{}` {says}", at.display())), "{out}");
        assert!(!out.contains("== building"), "{out}");
        assert_eq!(std::fs::read_to_string(&source).unwrap(), edited);
        assert!(repo.join("notes.txt").is_file());
        assert!(!repo.join("worktree").exists() && !repo.join("against").exists());
        assert_eq!(git_out(&repo, &["rev-parse", "HEAD"]), head);
        assert_eq!(git_out(&repo, &["symbolic-ref", "HEAD"]), branch);
        if to == own_folder.as_path() {
            assert_eq!(
                std::fs::read_to_string(at.join("src/keep.txt")).unwrap(),
                "mine"
            );
        }
    }
}

/// A copy of the files of `from` at `to`.
fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &to.join(e.file_name()));
        } else {
            std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    }
}

/// Ctrl-C at a terminal (SIGINT to the whole process group), or SIGINT to cargo pilot alone
/// (a CI runner cancelling the job; passed on to cargo), while the base builds: exit 130, said
/// to be an interruption, not a base that does not build. The base builds from nothing in a
/// target directory of its own, and is stopped at cargo's first `Compiling`.
#[cfg(unix)]
#[test]
fn ctrl_c_while_the_base_builds_is_an_interruption() {
    let repo = tmp().join("against-sigint-repo");
    fixture_repo(&repo);
    for to_group in [true, false] {
        let target = tmp().join(format!("against-sigint-target-{to_group}"));
        let _ = std::fs::remove_dir_all(&target);
        let (code, out, err) = interrupt_base_build(&repo, &target, to_group);
        assert!(out.contains("== building the base"), "{out}");
        assert!(!out.contains("== building the working tree"), "{out}");
        assert_eq!(code, Some(130), "to the group: {to_group}; {out}");
        assert!(
            err.contains("interrupted while building the base `base`"),
            "{out}"
        );
        assert!(!out.contains("does not build"), "{out}");
    }
}

/// `--against base` in `repo`, sent SIGINT (to its process group, or to it alone) at cargo's
/// first `Compiling`: its exit code, all it printed, and its standard error.
#[cfg(unix)]
fn interrupt_base_build(
    repo: &Path,
    target: &Path,
    to_group: bool,
) -> (Option<i32>, String, String) {
    use std::io::BufRead;
    use std::os::unix::process::CommandExt;

    let mut cmd = against_command(repo, target, &["base"], &["--max-time", "1"]);
    cmd.process_group(0)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    let stderr = child.stderr.take().unwrap();
    let mut seen = Vec::new();
    let mut lines = std::io::BufReader::new(stderr).lines();
    for line in lines.by_ref() {
        let line = line.unwrap();
        let compiling = line.trim_start().starts_with("Compiling");
        seen.push(line);
        if compiling {
            break;
        }
    }
    // The child leads a process group of its own: `-ID` names that group.
    let to = if to_group {
        format!("-{}", child.id())
    } else {
        child.id().to_string()
    };
    let killed = Command::new("kill")
        .args(["-INT", "--", &to])
        .status()
        .unwrap();
    assert!(killed.success());
    seen.extend(lines.map_while(Result::ok));
    let o = child.wait_with_output().unwrap();
    let err = seen.join("\n");
    let out = format!(
        "{}\n--- stderr ---\n{err}",
        String::from_utf8_lossy(&o.stdout)
    );
    (o.status.code(), out, err)
}
