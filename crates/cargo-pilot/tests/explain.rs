//! End-to-end test of the regression explained: `cargo pilot bench --against REV
//! --instructions` on a git repository of the fixture workspace `tests/fixture-bench` with two
//! commits, the second giving one of the `explain` bench's three inner functions 10% more
//! work. The function given the work is named first, in the terminal, in the Markdown and in
//! the report. Likewise the `allocs` bench, whose call site `allocs::buffers` allocates once
//! more an iteration in the second commit: that site is named with both sides' allocations,
//! and the unchanged sites are not. And the other way round: a bench whose time moved and
//! whose instructions did not (the `layout` bench, its loads spread by the environment) is
//! said to have met the environment, not a change of its code, and fails nothing.
//!
//! Without `valgrind` on the PATH the test says it skipped, unless `PILOT_REQUIRE_VALGRIND=1`
//! (as CI sets it): then it fails.

use std::path::{Path, PathBuf};
use std::process::Output;

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
    for entry in std::fs::read_dir(src.join("benches")).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, dir.join("benches").join(path.file_name().unwrap())).unwrap();
    }
    std::fs::write(dir.join(".gitignore"), "target\n").unwrap();
}

/// A git repository of the fixture at `repo`, its files in one commit, `base`.
fn fixture_repo(repo: &Path) {
    copy_fixture(repo);
    git(repo, &["init", "--quiet"]);
    git(repo, &["add", "-A"]);
    git(repo, &["commit", "--quiet", "-m", "base"]);
}

fn edit(file: &Path, from: &str, to: &str) {
    let s = std::fs::read_to_string(file).unwrap();
    assert!(s.contains(from), "`{from}` not in {}", file.display());
    std::fs::write(file, s.replace(from, to)).unwrap();
}

/// `cargo pilot ARGS` in `repo`, its results in `target`, no `PILOT_*` setting of the outer
/// environment; builds in folders that outlive the test's target directory.
fn cargo_pilot(repo: &Path, target: &Path, args: &[&str]) -> Output {
    command(repo, target).args(args).output().unwrap()
}

/// The command [`cargo_pilot`] runs, before its arguments.
fn command(repo: &Path, target: &Path) -> std::process::Command {
    let mut cmd = common::cargo_pilot(env!("CARGO_BIN_EXE_cargo-pilot"));
    cmd.current_dir(repo)
        .env("CARGO_TARGET_DIR", target)
        .env("CARGO_BUILD_BUILD_DIR", common::fixture_build_dir())
        .env("CI", "1");
    cmd
}

/// `--against HEAD~1 --instructions` on the `explain` bench, in `format`.
fn against(repo: &Path, target: &Path, format: &str) -> Output {
    against_bench(repo, target, "explain", format)
}

/// `--against HEAD~1 --instructions` on bench target `bench` (built with the feature of its
/// name), in `format`.
fn against_bench(repo: &Path, target: &Path, bench: &str, format: &str) -> Output {
    let base = common::fixture_base_build_dir();
    let base = base.to_str().unwrap();
    cargo_pilot(
        repo,
        target,
        &[
            "bench",
            "--against",
            "HEAD~1",
            "--features",
            bench,
            "--bench",
            bench,
            "--instructions",
            "--max-time",
            "0.5",
            "--ci",
            "0.05",
            "--format",
            format,
            "--base-target-dir",
            base,
        ],
    )
}

/// The first function named after `heading` in `text`: the first cell of the table's first
/// row (terminal or Markdown), or the first `<code>` of the report's table.
fn first_function<'t>(text: &'t str, heading: &str) -> &'t str {
    let (_, rest) = text
        .split_once(heading)
        .unwrap_or_else(|| panic!("no `{heading}` in:\n{text}"));
    if let Some((_, cell)) = rest.split_once("<tbody>\n<tr><td><code>") {
        return cell.split_once("</code>").unwrap().0;
    }
    let row = rest
        .lines()
        .skip_while(|l| !l.contains("function"))
        .skip(1)
        .find(|l| !l.trim().is_empty() && !l.starts_with("|---"))
        .unwrap_or_else(|| panic!("no function row after `{heading}`:\n{rest}"));
    row.trim_start_matches(['|', ' ', '`'])
        .split(['`', ' '])
        .next()
        .unwrap()
}

#[test]
fn the_function_given_more_work_is_named_first_in_the_terminal_markdown_and_report() {
    if !common::valgrind_here() {
        return;
    }
    let repo = tmp().join("explain-repo");
    let target = tmp().join("explain-target");
    let _ = std::fs::remove_dir_all(&target);
    fixture_repo(&repo);
    let source = repo.join("benches/explain.rs");
    edit(
        &source,
        "const B_STEPS: u64 = 1000;",
        "const B_STEPS: u64 = 1100;",
    );
    git(
        &repo,
        &["commit", "--quiet", "-am", "inner_b does 10% more"],
    );

    // The instructions rose by about a thirtieth: a regression (exit 3) whatever the time says,
    // and `inner_b` is named first.
    let md = against(&repo, &target, "md");
    assert_eq!(md.status.code(), Some(3), "{}", text(&md));
    let stdout = String::from_utf8_lossy(&md.stdout);
    let first = first_function(&stdout, "#### Where the instructions of `three`");
    assert_eq!(first, "explain::inner_b", "{}", text(&md));

    // The report draws the last run's comparison: the same function first, and a flame graph.
    let report = cargo_pilot(&repo, &target, &["report"]);
    assert_eq!(report.status.code(), Some(0), "{}", text(&report));
    let html = std::fs::read_to_string(target.join("pilot/report/index.html")).expect("the report");
    assert_eq!(
        first_function(&html, "<section id=\"explained\">"),
        "explain::inner_b"
    );
    assert!(html.contains("<svg"), "no flame graph");
    assert!(!html.contains("<script"), "a script in the page");

    let table = against(&repo, &target, "table");
    assert_eq!(table.status.code(), Some(3), "{}", text(&table));
    let stdout = String::from_utf8_lossy(&table.stdout);
    let first = first_function(&stdout, "where the instructions of `three`");
    assert_eq!(first, "explain::inner_b", "{}", text(&table));
}

/// One more allocation an iteration at one call site (`allocs::buffers`, 2 → 3) between two
/// commits: that site, and only it, is named with both sides' allocations per iteration, in
/// the terminal, the compare document and the report (the Markdown's table is the same rows,
/// `explain`'s unit tests check it).
#[test]
fn the_call_site_given_one_more_allocation_is_named_with_both_counts() {
    if !common::valgrind_here() {
        return;
    }
    let repo = tmp().join("explain-allocs-repo");
    let target = tmp().join("explain-allocs-target");
    let _ = std::fs::remove_dir_all(&target);
    fixture_repo(&repo);
    edit(
        &repo.join("benches/allocs.rs"),
        "const BUFFERS: u64 = 2;",
        "const BUFFERS: u64 = 3;",
    );
    git(
        &repo,
        &["commit", "--quiet", "-am", "buffers allocates once more"],
    );

    // More instructions with the allocation: a regression (exit 3), explained in the
    // terminal.
    let table = against_bench(&repo, &target, "allocs", "table");
    assert_eq!(table.status.code(), Some(3), "{}", text(&table));
    let stdout = String::from_utf8_lossy(&table.stdout);
    let (_, explained) = stdout
        .split_once("where the instructions of `sites`")
        .unwrap_or_else(|| panic!("`sites` is not explained:\n{}", text(&table)));
    let rows: Vec<&str> = explained
        .lines()
        .skip_while(|l| !l.contains("call site"))
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .collect();
    assert_eq!(rows.len(), 1, "{}", text(&table));
    assert!(
        rows[0].contains("allocs::buffers") && rows[0].contains("2.000 → 3.000 (+50.0%)"),
        "{}",
        text(&table)
    );

    // The run's compare document (`--format json` prints the same).
    let run: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(target.join("pilot/last-run.json")).expect("the last run"),
    )
    .unwrap();
    let bench = run["comparison"]["benches"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["name"] == "sites")
        .unwrap_or_else(|| panic!("no `sites` in {run:#}"));
    let sites = bench["explained"]["allocation_sites"]
        .as_array()
        .unwrap_or_else(|| panic!("no allocation sites explained: {bench:#}"));
    assert_eq!(sites.len(), 1, "{bench:#}");
    assert_eq!(sites[0]["name"], "allocs::buffers", "{bench:#}");
    let (base, new) = (
        sites[0]["base"].as_f64().unwrap(),
        sites[0]["new"].as_f64().unwrap(),
    );
    assert!(
        (base - 2.0).abs() < 1e-9 && (new - 3.0).abs() < 1e-9,
        "{bench:#}"
    );

    // The report's explained section.
    let report = cargo_pilot(&repo, &target, &["report"]);
    assert_eq!(report.status.code(), Some(0), "{}", text(&report));
    let html = std::fs::read_to_string(target.join("pilot/report/index.html")).expect("the report");
    let (_, section) = html
        .split_once("<section id=\"explained\">")
        .expect("an explained section");
    assert!(
        section.contains("<code>allocs::buffers</code>") && section.contains("2.000 → 3.000"),
        "{section}"
    );
    assert!(!section.contains("<code>allocs::boxes</code>"), "{section}");
}

/// The same code, measured again where it meets the memory differently (`layout`'s loads
/// spread a page apart by `PILOT_FIXTURE_STRIDE`: what a busier machine or another layout does
/// to a bench): the time rises far beyond its noise and the instructions do not move, so the
/// comparison with the saved baseline says the environment changed, not the code's work, in
/// the terminal and the document, and exits 0: no regression to gate on.
#[test]
fn a_time_change_with_the_same_instructions_is_the_environments() {
    if !common::valgrind_here() {
        return;
    }
    let dir = tmp().join("explain-layout");
    let target = tmp().join("explain-layout-target");
    let _ = std::fs::remove_dir_all(&target);
    copy_fixture(&dir);
    let bench = |stride: &str, args: &[&str]| {
        command(&dir, &target)
            .args(["bench", "--features", "layout", "--bench", "layout"])
            .args(["--instructions", "--max-time", "0.5"])
            .args(args)
            .env("PILOT_FIXTURE_STRIDE", stride)
            .output()
            .unwrap()
    };
    let o = bench("1", &["--save-baseline", "near"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));

    let json = tmp().join("explain-layout.json");
    let o = bench(
        "512",
        &["--baseline", "near", "--json", json.to_str().unwrap()],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(
        stdout.contains("walk: the environment changed, not the code's work"),
        "{}",
        text(&o)
    );
    assert!(
        !stdout.contains("where the instructions of"),
        "{}",
        text(&o)
    );
    let run: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).expect("the run's document")).unwrap();
    let walk = &run["comparison"]["benches"][0];
    assert_eq!(walk["name"], "walk", "{run:#}");
    assert_eq!(walk["verdict"], "environment", "{walk:#}");
    assert_eq!(walk["instructions"]["verdict"], "no change", "{walk:#}");
    assert!(walk["change"].as_f64().unwrap() > 0.5, "{walk:#}");
}

/// `cargo pilot bisect --instructions` names the culprit, then explains it: the function the
/// culprit gave more work is named first, counted in the last fast commit's build and the
/// culprit's. The culprit triples `inner_b`'s work (the unit about two thirds slower), so
/// that the time's verdicts hold on a busy machine; the commits around it change a comment.
#[test]
fn bisect_explains_its_culprit_by_the_function_given_more_work() {
    if !common::valgrind_here() {
        return;
    }
    let repo = tmp().join("explain-bisect-repo");
    let target = tmp().join("explain-bisect-target");
    // Bisect's checkout belonged to an earlier run's repository: made again.
    let _ = std::fs::remove_dir_all(target.join("pilot/bisect/worktree"));
    fixture_repo(&repo);
    let source = repo.join("benches/explain.rs");
    let mut culprit = String::new();
    for i in 1..=3 {
        if i == 2 {
            edit(
                &source,
                "const B_STEPS: u64 = 1000;",
                "const B_STEPS: u64 = 3000;",
            );
        } else {
            let s = std::fs::read_to_string(&source).unwrap();
            std::fs::write(&source, format!("{s}// edit {i}\n")).unwrap();
        }
        git(&repo, &["commit", "--quiet", "-am", &format!("step {i}")]);
        if i == 2 {
            culprit = git(&repo, &["rev-parse", "HEAD"]);
        }
    }
    let o = cargo_pilot(
        &repo,
        &target,
        &[
            "bisect",
            "HEAD~3",
            "HEAD",
            "--features",
            "explain",
            "--bench",
            "explain",
            "--instructions",
            "--max-time",
            "0.5",
            "--noise",
            "0.2",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(
        stdout.contains(&format!("first slower commit: {culprit} step 2")),
        "{}",
        text(&o)
    );
    let (_, explained) = stdout
        .split_once("== the culprit explained")
        .unwrap_or_else(|| panic!("the culprit is not explained:\n{}", text(&o)));
    assert!(explained.contains("instructions per unit"), "{}", text(&o));
    let first = first_function(explained, "where the instructions of `three`");
    assert_eq!(first, "explain::inner_b", "{}", text(&o));
}
