//! `cargo pilot bench --against REV`: two builds compared in one job. REV is checked out into
//! a git worktree under `target/pilot/against/` and built into a target directory of its own
//! (both kept, so a second run rebuilds only what changed); the working tree is built as
//! `cargo pilot bench` builds it. Every bench present in both builds is then measured in
//! pairs of processes, one of each build back to back, first one side then the other (ABBA),
//! until the change's verdict is settled or the time cap comes: the machine's state at each
//! moment is in both processes of a pair, and cancels in their ratio
//! ([`pilot::cargo_api::compare::compare_paired`]).

mod git;
mod groups;
mod pairs;
mod report;

use std::path::Path;
use std::process::ExitCode;

use anyhow::{Context, anyhow};
use pilot::cargo_api::compare::{CompareOptions, Comparison, Verdict};
use pilot::cargo_api::store::schema::ResultDoc;

use crate::args::{BenchArgs, CargoOptions, Format};
use crate::cargo::{self, BenchExe};
use crate::exit::{self, Failure, comparison_exit};
use crate::interrupt;
use pairs::{Outcome, Plan};
use report::Saved;

/// The least pairs of processes per bench (`--processes N` asks for more): six log ratios
/// give a t-test with five degrees of freedom, enough to call a clear change, and an even
/// count balances the ABBA order.
const LEAST_PAIRS: usize = 6;

/// A bench of the comparison: where it is in each build.
struct Bench<'a> {
    /// The bench target as results name it (`cost`, from `cost-<hash>`).
    target: String,
    name: String,
    base: Option<&'a BenchExe>,
    head: Option<&'a BenchExe>,
}

/// Where the comparison prints: progress goes to standard error when standard output carries
/// Markdown or JSON, so that the output can be redirected into a comment or a file as is.
struct Out {
    format: Format,
}

impl Out {
    fn say(&self, line: &str) {
        if self.format == Format::Table {
            println!("{line}");
        } else {
            eprintln!("{line}");
        }
    }
}

/// The two builds, ready to be measured.
struct Builds {
    /// The working tree's target directory: results and baselines go under it.
    target_dir: std::path::PathBuf,
    /// REV's commit, by its first 12 hex digits: the baseline's name.
    short: String,
    base_exes: Vec<BenchExe>,
    head_exes: Vec<BenchExe>,
}

/// Runs `cargo pilot bench --against REV`: both builds, then the benches in pairs.
pub fn run(args: &BenchArgs, rev: &str) -> Result<ExitCode, Failure> {
    let out = Out {
        format: args.format,
    };
    // From here on Ctrl-C reaches git and cargo too (from the terminal, or passed on): a step
    // it stops is reported as interrupted, not as the step's own failure.
    interrupt::install();
    let mut step = String::from("starting");
    let builds = prepare(args, rev, &out, &mut step);
    if interrupt::happened() {
        eprintln!(
            "cargo pilot: interrupted while {step}; nothing was measured or saved (the base's \
             checkout and builds are kept for the next run)"
        );
        return Ok(ExitCode::from(exit::INTERRUPTED));
    }
    compare_builds(args, rev, &builds?, &out)
}

/// Checks REV out and builds both sides; `step` says what it is doing, for an interrupt.
fn prepare(args: &BenchArgs, rev: &str, out: &Out, step: &mut String) -> Result<Builds, Failure> {
    *step = "reading the workspace".into();
    let metadata = cargo::metadata(&args.cargo)?;
    let target_dir = cargo::target_dir(&args.cargo, &metadata);
    let root = metadata.workspace_root.clone().into_std_path_buf();
    let repo = git::Repo::find(&root)?;
    let commit = repo.resolve(rev)?;
    let short = commit[..12.min(commit.len())].to_string();
    let packages = cargo::pilot_packages(&metadata, &args.cargo)?;
    if packages.is_empty() {
        return Err(Failure::Error(anyhow!(
            "no bench target uses pilot in this workspace (a package needs `pilot` or \
             `pilot-criterion` among its dependencies and a `[[bench]]` with `harness = false`)"
        )));
    }
    // The base side: REV's checkout, its manifest at the place the working tree's is.
    let against = target_dir.join("pilot").join("against");
    let worktree = against.join("worktree");
    // A Ctrl-C sent to this process alone stops it between steps (git is not told).
    let go_on = || {
        if interrupt::happened() {
            Err(Failure::Error(anyhow!("interrupted")))
        } else {
            Ok(())
        }
    };
    *step = format!("checking `{rev}` out");
    repo.checkout(&target_dir, &worktree, &commit)
        .with_context(|| format!("failed to check `{rev}` out into `{}`", worktree.display()))?;
    let base_options = base_options(
        args,
        (&repo.top, &root),
        (&against, &target_dir),
        &format!("`{rev}` ({short})"),
    )?;
    go_on()?;
    out.say(&format!(
        "\n== building the base: `{rev}` ({short}) in `{}`",
        worktree.display()
    ));
    *step = format!("building the base `{rev}` ({short})");
    let base_metadata = cargo::metadata(&base_options)
        .with_context(|| format!("the base `{rev}` ({short}) has no readable workspace"))?;
    let base_packages: Vec<String> = cargo::pilot_packages(&base_metadata, &base_options)?
        .into_iter()
        .filter(|p| packages.contains(p))
        .collect();
    let base_exes = if base_packages.is_empty() {
        Vec::new()
    } else {
        cargo::build(&base_options, &base_packages)
            .with_context(|| format!("the base `{rev}` ({short}) does not build"))?
    };
    go_on()?;
    out.say("\n== building the working tree");
    *step = "building the working tree".into();
    let head_exes = cargo::build(&args.cargo, &packages)
        .context("the working tree (the new side) does not build")?;
    Ok(Builds {
        target_dir,
        short,
        base_exes,
        head_exes,
    })
}

/// The cargo options of the base's build: the manifest at the place the working tree's is,
/// inside REV's checkout under `against`, and a target directory of its own. `base` names REV
/// for messages.
fn base_options(
    args: &BenchArgs,
    (top, root): (&Path, &Path),
    (against, target_dir): (&Path, &Path),
    base: &str,
) -> Result<CargoOptions, Failure> {
    let worktree = against.join("worktree");
    let manifest = match &args.cargo.manifest_path {
        Some(path) => std::fs::canonicalize(path)
            .with_context(|| format!("failed to find `{}`", path.display()))?,
        None => root.join("Cargo.toml"),
    };
    let relative = manifest.strip_prefix(top).map_err(|_| {
        anyhow!(
            "`{}` is outside the repository `{}`",
            manifest.display(),
            top.display()
        )
    })?;
    let base_manifest = worktree.join(relative);
    if !base_manifest.is_file() {
        return Err(Failure::Error(anyhow!(
            "{base} has no `{}`: the workspace did not exist there",
            relative.display()
        )));
    }
    let base_target = args
        .base_target_dir
        .clone()
        .unwrap_or_else(|| against.join("target"));
    // cargo names a workspace's own artifacts by their path inside the workspace, so the two
    // builds in one target directory would overwrite each other's executables.
    let same = |a: &Path, b: &Path| {
        std::fs::canonicalize(a)
            .ok()
            .is_some_and(|a| std::fs::canonicalize(b).ok() == Some(a))
    };
    if same(&base_target, target_dir) {
        return Err(Failure::Usage(anyhow!(
            "--base-target-dir `{}` is the working tree's own target directory: the two builds \
             would overwrite each other's bench executables; give REV a directory of its own",
            base_target.display()
        )));
    }
    Ok(CargoOptions {
        manifest_path: Some(base_manifest),
        target_dir: Some(base_target),
        packages: Vec::new(),
        ..args.cargo.clone()
    })
}

/// Measures every bench of both builds in pairs, saves each side's results and reports.
fn compare_builds(
    args: &BenchArgs,
    rev: &str,
    builds: &Builds,
    out: &Out,
) -> Result<ExitCode, Failure> {
    let options = args.baselines.thresholds.options();
    let (target_dir, short) = (&builds.target_dir, builds.short.as_str());
    let benches = match_benches(args, &builds.base_exes, &builds.head_exes, out)?;
    let plan = Plan::from_args(args);
    out.say(&format!(
        "\n== {} benches: {} in both builds, measured in pairs of processes (at least {}, \
         up to {} s a bench), {short} against the working tree",
        benches.len(),
        benches
            .iter()
            .filter(|b| b.base.is_some() && b.head.is_some())
            .count(),
        plan.least,
        // Whole seconds, but a cap under a second is not shown as 0.
        (plan.budget.as_secs_f64() * 10.0).round() / 10.0
    ));
    let machine = pilot::cargo_api::processes::machine();
    if pilot::cargo_api::store::baselines_dir(target_dir)
        .join(short)
        .is_dir()
    {
        out.say(&format!(
            "baseline `{short}` exists: the results of these benches replace its own"
        ));
    }
    let mut comparisons = Vec::new();
    let mut head_docs: Vec<ResultDoc> = Vec::new();
    let mut saved = Saved::default();
    let mut failed = false;
    for b in &benches {
        let outcome = pairs::measure(b, &plan, out);
        if interrupt::happened() {
            eprintln!(
                "cargo pilot: interrupted while comparing `{}`; every bench compared before it \
                 is saved (latest results, and baseline `{short}` for the base)",
                b.name
            );
            return Ok(ExitCode::from(exit::INTERRUPTED));
        }
        let done = finish_bench(b, outcome, &options, &plan, &machine, short);
        failed |= done.comparison.verdict == Verdict::Failed;
        // Each bench's results are saved as it finishes: an interrupted run keeps them.
        if let Some(doc) = done.base {
            let ok = save_base(&doc, target_dir, short);
            failed |= !ok;
            saved.base += usize::from(ok);
        }
        if let Some(doc) = done.head {
            let path = pilot::cargo_api::store::latest_path(target_dir, &b.target, &b.name);
            let ok = save(&doc, &path);
            failed |= !ok;
            saved.head += usize::from(ok);
            head_docs.push(doc);
        }
        comparisons.push(done.comparison);
        if failed && args.fail_fast {
            break;
        }
    }
    report::report(
        args,
        &comparisons,
        &head_docs,
        (&options, target_dir),
        (rev, short),
        (saved, &plan),
        out,
    )?;
    let ranked = groups::rankings(&builds.head_exes, &head_docs, &options);
    if !ranked.is_empty() {
        out.say(ranked.trim());
    }
    Ok(comparison_exit(failed, &comparisons))
}

/// The benches selected in each build, matched by target and name, sorted.
fn match_benches<'a>(
    args: &BenchArgs,
    base: &'a [BenchExe],
    head: &'a [BenchExe],
    out: &Out,
) -> Result<Vec<Bench<'a>>, Failure> {
    let mut found: Vec<Bench<'a>> = Vec::new();
    for (side, exes) in [("base", base), ("working tree", head)] {
        for exe in exes {
            if !cargo::is_pilot(&exe.path) {
                out.say(&format!(
                    "cargo pilot: bench target `{}` of `{}` in the {side} is not a pilot bench \
                     binary: its benches are left out of that side",
                    exe.target, exe.package
                ));
                continue;
            }
            let target = pilot::cargo_api::store::bench_target_of(&exe.path);
            let names = cargo::list_selected(exe, &args.filters, args.exact, &args.skip)
                .with_context(|| format!("failed to list the benches of the {side}"))?;
            for name in names {
                let at = found
                    .iter()
                    .position(|b| b.target == target && b.name == name);
                let b = match at {
                    Some(i) => &mut found[i],
                    None => {
                        found.push(Bench {
                            target: target.clone(),
                            name,
                            base: None,
                            head: None,
                        });
                        found.last_mut().expect("just pushed")
                    }
                };
                if side == "base" {
                    b.base = Some(exe);
                } else {
                    b.head = Some(exe);
                }
            }
        }
    }
    found.sort_by(|a, b| (&a.target, &a.name).cmp(&(&b.target, &b.name)));
    if found.is_empty() {
        return Err(Failure::Error(anyhow!(
            "no pilot bench matches in either build"
        )));
    }
    Ok(found)
}

/// What comparing one bench gave.
struct Finished {
    comparison: Comparison,
    /// The working tree's result over its processes, saved as the latest result.
    head: Option<ResultDoc>,
    /// The base's, saved into the baseline named after its commit.
    base: Option<ResultDoc>,
}

/// The comparison row of bench `b` from its processes, and each side's result document.
fn finish_bench(
    b: &Bench,
    outcome: Outcome,
    options: &CompareOptions,
    plan: &Plan,
    machine: &pilot::cargo_api::store::schema::MachineDoc,
    short: &str,
) -> Finished {
    let combined = |side: &[pilot::cargo_api::processes::ChildReport], target_name: &str| {
        (side.len() >= 2).then(|| {
            pilot::cargo_api::processes::combine_children(
                &b.name,
                target_name,
                side,
                plan.target_ci,
                Some(machine),
                outcome.elapsed,
                (outcome.started.clone(), outcome.finished.clone()),
            )
        })
    };
    let head_doc = combined(&outcome.head, &b.target);
    let base_doc = combined(&outcome.base, &b.target);
    let estimate = |doc: &Option<ResultDoc>, at: &Path| {
        doc.as_ref()
            .and_then(|d| pilot::cargo_api::store::from_document(d, at).ok())
            .and_then(|r| r.time)
    };
    let mut c = Comparison {
        name: b.name.clone(),
        target: b.target.clone(),
        base: estimate(&base_doc, Path::new(&format!("{short}/{}", b.name))),
        new: estimate(&head_doc, Path::new(&b.name)),
        change: None,
        change_ci: None,
        confidence: plan.confidence,
        p: None,
        verdict: Verdict::Failed,
        method: String::new(),
        pairs: None,
        reason: None,
    };
    if let Some(failure) = &outcome.failure {
        c.method = failure.clone();
    } else if b.base.is_none() {
        c.verdict = Verdict::New;
        c.method = "not in the base revision".into();
    } else if b.head.is_none() {
        c.verdict = Verdict::Missing;
        c.method = "in the base revision, not in the working tree".into();
    } else {
        let pairs: Vec<(f64, f64)> = outcome
            .base
            .iter()
            .zip(&outcome.head)
            .map(|(b, h)| (b.mean(), h.mean()))
            .collect();
        let found = pilot::cargo_api::compare::compare_paired(&pairs, plan.confidence, options);
        let too_few = pairs.len() < plan.least;
        match found {
            Some(found) => {
                c.change = Some(found.change);
                c.change_ci = found.change_ci;
                c.p = Some(found.p);
                c.verdict = found.verdict;
                c.method = found.method;
                c.pairs = Some(pairs.len());
            }
            None if too_few => {
                c.pairs = Some(pairs.len());
                c.method = "paired: no interval from fewer than two pairs".into();
            }
            None => c.method = "the processes' means cannot be compared".into(),
        }
        // Too few pairs for the verdict the README promises: the interval reached is shown,
        // the verdict is not taken from it.
        if too_few {
            c.verdict = Verdict::Undecided;
            c.reason = Some(too_few_pairs(pairs.len(), plan.least));
        }
    }
    Finished {
        comparison: c,
        head: head_doc,
        base: base_doc,
    }
}

/// Why a bench measured in fewer than `least` pairs has no verdict.
fn too_few_pairs(pairs: usize, least: usize) -> String {
    let only = match pairs {
        0 => "no pair of processes finished".to_string(),
        1 => "only 1 pair".to_string(),
        n => format!("only {n} pairs"),
    };
    format!("{only} in the time given; at least {least} are needed: raise --max-time")
}

/// Writes `doc` to `path` (checked first, written atomically); false after an error, which is
/// printed.
fn save(doc: &ResultDoc, path: &Path) -> bool {
    if let Err(e) = doc.validate() {
        eprintln!(
            "error: the result of `{}` would not read back, so it was not saved (a bug in \
             pilot): {e}",
            doc.name
        );
        return false;
    }
    let bytes = serde_json::to_vec_pretty(doc).expect("documents serialise");
    match pilot::cargo_api::store::write_atomic(path, &bytes) {
        Ok(()) => true,
        Err(e) => {
            eprintln!("error: failed to write `{}`: {e}", path.display());
            false
        }
    }
}

/// Saves a result of the base into baseline `name` (its commit's short hash); false after
/// an error.
fn save_base(doc: &ResultDoc, target_dir: &Path, name: &str) -> bool {
    save(
        doc,
        &pilot::cargo_api::store::baseline_path(target_dir, name, &doc.target, &doc.name),
    )
}
