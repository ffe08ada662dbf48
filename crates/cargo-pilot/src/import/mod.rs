//! `cargo pilot import criterion|hyperfine`: another harness's saved measurements as a pilot
//! baseline, so that `cargo pilot compare NAME` compares them with today's pilot results.
//!
//! Each benchmark's readings (criterion: `times[i] / iters[i]`, the time per iteration of each
//! sample; hyperfine: each run's time) give its time per unit as the harness gives its own
//! mean, the mean of every reading, with pilot's interval: subsession analysis merges
//! correlated readings and the interval is over the merged samples; change points are found
//! and reported, not cut (see [`mod@document`]). Each becomes a `pilot.result/1`
//! document named as pilot names the same bench (see [`criterion::BenchmarkId::pilot_name`]
//! and [`hyperfine`]). The whole baseline is written to a hidden folder beside the baselines
//! and renamed into place, so bad input saves nothing and an existing baseline is replaced
//! only with `--force`, whole.

mod check;
pub mod criterion;
mod document;
pub mod hyperfine;

use check::check_time;
use document::{analysis_config, analyze_series, checked_text, document};

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, anyhow, bail};
use pilot_engine::report::{columns, format_estimate};
use pilot_engine::settings::{BaselineName, Confidence, Fraction};
use pilot_engine::store::check_folder_name;
use pilot_format::ResultDoc;

use crate::args::Workspace;
use crate::exit::Failure;

/// Import another harness's saved results as a pilot baseline.
#[derive(clap::Args, Debug)]
pub struct ImportArgs {
    #[command(subcommand)]
    source: Source,
}

#[derive(clap::Subcommand, Debug)]
enum Source {
    /// criterion's saved samples (`target/criterion`, each bench's `new/` or `base/` folder)
    Criterion(CriterionArgs),
    /// A hyperfine `--export-json` file
    Hyperfine(HyperfineArgs),
}

#[derive(clap::Args, Debug)]
struct CriterionArgs {
    /// criterion's output folder, a group's folder or one bench's [default: the workspace's
    /// `target/criterion`]
    #[arg(value_name = "DIR")]
    dir: Option<PathBuf>,
    /// The pilot bench target the benches belong to now; without it they match a pilot bench
    /// of the same name in any target
    #[arg(long = "bench", value_name = "TARGET", value_parser = target_name)]
    bench_target: Option<String>,
    /// Name each bench by criterion's whole id, `group/function/value`, rather than as pilot
    /// names a group's member (`function/value`)
    #[arg(long)]
    full_ids: bool,
    #[command(flatten)]
    common: Common,
}

#[derive(clap::Args, Debug)]
struct HyperfineArgs {
    /// The JSON file hyperfine wrote with `--export-json`
    #[arg(value_name = "FILE")]
    file: PathBuf,
    #[command(flatten)]
    common: Common,
}

#[derive(clap::Args, Debug)]
struct Common {
    /// The baseline to save the results as (`cargo pilot compare NAME` reads it)
    #[arg(long, value_name = "NAME", required = true)]
    baseline: BaselineName,
    /// Replace the baseline if it exists
    #[arg(long)]
    force: bool,
    /// Confidence level of the intervals
    #[arg(long, default_value = pilot_settings::default_of("confidence"), value_name = "C")]
    confidence: Confidence,
    /// Target half-width relative to the mean: a result narrower is `ok`, a wider one
    /// `time cap` (the other harness stopped first)
    #[arg(long = "ci", default_value = pilot_settings::default_of("ci"), value_name = "REL")]
    target: Fraction,
    #[command(flatten)]
    workspace: Workspace,
}

/// `--bench TARGET`: a bench target's name, which becomes one folder of the baseline.
fn target_name(raw: &str) -> Result<String, String> {
    check_folder_name(raw)
        .map(|()| raw.to_string())
        .map_err(|e| format!("`{raw}` is not a bench target's name: {e}"))
}

/// One benchmark's readings, read from another harness's files.
#[derive(Debug, Clone)]
pub struct Series {
    /// The name pilot gives the same bench.
    pub name: String,
    /// The other harness's name for it.
    pub origin: String,
    /// The pilot bench target; empty to match a bench of the same name in any target.
    pub target: String,
    /// The file the readings came from.
    pub source: PathBuf,
    /// Unit readings in nanoseconds, in the order they were taken.
    pub readings: Vec<f64>,
    /// Measured time in all, nanoseconds.
    pub total_ns: f64,
    /// Work units (iterations, runs) in all.
    pub work: u64,
    /// Work per unit and its unit, when the bench declared a throughput.
    pub throughput: Option<(f64, &'static str)>,
    /// `Micro` (time per iteration) or `Full` (time per run).
    pub form: pilot_format::Form,
    /// What the readings are, for the document's warnings.
    pub what: String,
}

/// A harness whose saved results pilot reads.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Harness {
    /// criterion's `sample.json` and `benchmark.json`, in a bench's folder or any folder above
    Criterion,
    /// hyperfine's `--export-json` file
    Hyperfine,
}

/// Every bench in `path` as `harness` saved it (criterion's benches match any target).
pub fn read_series(harness: Harness, path: &Path) -> anyhow::Result<Vec<Series>> {
    match harness {
        Harness::Criterion => criterion::read(path, "", false),
        Harness::Hyperfine => hyperfine::read(path),
    }
}

/// Runs `cargo pilot import`.
pub fn run(args: &ImportArgs) -> Result<ExitCode, Failure> {
    let (common, series, source, folder) = match &args.source {
        Source::Criterion(c) => {
            let dir = match &c.dir {
                Some(d) => d.clone(),
                None => root(&c.common)?.join("criterion"),
            };
            let target = c.bench_target.clone().unwrap_or_default();
            let folder = c
                .bench_target
                .clone()
                .unwrap_or_else(|| "criterion".to_string());
            (
                &c.common,
                criterion::read(&dir, &target, c.full_ids)?,
                "criterion",
                folder,
            )
        }
        Source::Hyperfine(h) => (
            &h.common,
            hyperfine::read(&h.file)?,
            "hyperfine",
            hyperfine::TARGET.to_string(),
        ),
    };
    check_unique(&series, source)?;
    let config = analysis_config(common.confidence.0, common.target.0);
    let docs = series
        .iter()
        .map(|s| {
            let doc = document(s, &analyze_series(s, &config)?, &config, source);
            let text = checked_text(s, &doc)?;
            Ok((s, doc, text))
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    let root = root(common)?;
    let name = &common.baseline.0;
    let dest = save(&root, name, &folder, &docs, common.force)?;
    let rows: Vec<Vec<String>> = docs
        .iter()
        .map(|(s, d, _)| {
            let pi = &d.pis[0];
            let bound = |b: Option<f64>| b.unwrap_or(f64::NAN);
            vec![
                d.name.clone(),
                format_estimate(bound(pi.mean), bound(pi.ci.low), bound(pi.ci.high)),
                d.status.clone(),
                s.origin.clone(),
            ]
        })
        .collect();
    let header = [
        "bench".to_string(),
        format!("time per unit ({}% CI)", 100.0 * common.confidence.0),
        "status".to_string(),
        format!("{source}'s name"),
    ];
    pilot_engine::out!("{}", columns(&header, &rows, &[0, 2, 3], ""));
    let name = pilot_engine::fmt::terminal(name);
    pilot_engine::outln!(
        "saved {} result(s) as baseline `{name}` in `{}`; compare with `cargo pilot compare {name}`",
        docs.len(),
        pilot_engine::fmt::terminal_path(&dest)
    );
    Ok(ExitCode::SUCCESS)
}

fn root(common: &Common) -> anyhow::Result<PathBuf> {
    common.workspace.target_dir()
}

/// Two benches that pilot would store in one file: an error naming both.
fn check_unique(series: &[Series], source: &str) -> anyhow::Result<()> {
    let mut seen: std::collections::BTreeMap<(&str, &str), &Series> = Default::default();
    for s in series {
        if let Some(other) = seen.insert((&s.target, &s.name), s) {
            bail!(
                "{source}'s `{}` (`{}`) and `{}` (`{}`) would both be pilot's bench `{}`{}",
                other.origin,
                other.source.display(),
                s.origin,
                s.source.display(),
                s.name,
                if source == "criterion" {
                    ": import with --full-ids to keep criterion's group in the names"
                } else {
                    ""
                }
            );
        }
    }
    Ok(())
}

/// Writes the documents (each with its checked JSON) as baseline `name` under `root`, in
/// `folder`: all into a hidden folder beside the baselines, then renamed into place (over an
/// existing baseline only with `force`, which is moved aside first and removed last). On any
/// error nothing under the baselines has changed. Returns the baseline's folder.
fn save(
    root: &Path,
    name: &str,
    folder: &str,
    docs: &[(&Series, ResultDoc, String)],
    force: bool,
) -> anyhow::Result<PathBuf> {
    use pilot_engine::files::write_atomic;
    use pilot_engine::store::{baseline_path, baselines_dir};
    // Both become folders: a name that is not one folder of its own could lead outside.
    for (what, value) in [("baseline", name), ("bench target", folder)] {
        check_folder_name(value).map_err(|e| anyhow!("`{value}` is not a {what}'s name: {e}"))?;
    }
    let dir = baselines_dir(root);
    let dest = dir.join(name);
    if dest.exists() && !force {
        bail!(
            "baseline `{name}` exists (`{}`): pass --force to replace it, or choose another name",
            dest.display()
        );
    }
    std::fs::create_dir_all(&dir)
        .with_context(|| format!("failed to create `{}`", dir.display()))?;
    let staging = tempfile::Builder::new()
        .prefix(&format!(".{name}.import."))
        .tempdir_in(&dir)
        .with_context(|| format!("failed to create a folder in `{}`", dir.display()))?;
    for (s, doc, text) in docs {
        let file = baseline_path(root, name, folder, &doc.name);
        let relative = file
            .strip_prefix(&dest)
            .expect("checked names and encoded bench names stay inside the baseline's folder");
        // Errors name where the file goes, not the hidden folder it is written in first.
        write_atomic(&staging.path().join(relative), text.as_bytes()).with_context(|| {
            format!(
                "failed to write `{}` (`{}` of `{}`)",
                file.display(),
                s.origin,
                s.source.display()
            )
        })?;
    }
    let staged = staging.keep();
    let aside = dest
        .exists()
        .then(|| dir.join(format!(".{name}.replaced.{}", std::process::id())));
    if let Some(aside) = &aside {
        std::fs::rename(&dest, aside)
            .with_context(|| format!("failed to move `{}` aside", dest.display()))?;
    }
    if let Err(e) = std::fs::rename(&staged, &dest) {
        if let Some(aside) = &aside {
            let _ = std::fs::rename(aside, &dest);
        }
        let _ = std::fs::remove_dir_all(&staged);
        return Err(anyhow!(e).context(format!("failed to create `{}`", dest.display())));
    }
    if let Some(aside) = aside {
        std::fs::remove_dir_all(&aside)
            .with_context(|| format!("failed to remove the replaced `{}`", aside.display()))?;
    }
    Ok(dest)
}
