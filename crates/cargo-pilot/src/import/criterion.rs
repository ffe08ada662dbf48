//! Reading criterion's saved samples (`target/criterion/**/new/`) as pilot series.
//!
//! Each benchmark criterion measured leaves a folder `<id>/new/` (the last run; the one before
//! is `<id>/base/`) with `benchmark.json` (its id: `group_id`, `function_id`, `value_str`,
//! `full_id`, `throughput`) and `sample.json`: `{"sampling_mode", "iters", "times"}` since
//! criterion 0.3.3, the pair `[iters, times]` in criterion 0.3.0 to 0.3.2. Sample `i` timed
//! `iters[i]` iterations together, `times[i]` nanoseconds in all; `times[i] / iters[i]` is one
//! unit reading of pilot's, the time per iteration, in the order criterion took them.

use std::path::{Path, PathBuf};

use anyhow::{Context, anyhow, bail};
use serde::Deserialize;
use serde_json::Value;

use super::{Series, check_time};

/// Folder levels searched below the given folder: criterion nests `group/function/value`,
/// each of whose parts may itself hold `/`.
const MAX_DEPTH: usize = 16;

/// A benchmark's id as criterion writes it in `benchmark.json`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct BenchmarkId {
    /// `benchmark_group`'s name, or `bench_function`'s.
    pub group_id: String,
    /// The function's name inside a group.
    #[serde(default)]
    pub function_id: Option<String>,
    /// The parameter's value (`BenchmarkId::new(_, value)`, `from_parameter`).
    #[serde(default)]
    pub value_str: Option<String>,
    /// `group/function/value` as criterion prints it.
    #[serde(default)]
    pub full_id: Option<String>,
    /// Work per iteration, when the bench declared it.
    #[serde(default)]
    pub throughput: Option<Throughput>,
}

/// criterion's `Throughput`, serialised as serde's externally tagged enum.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
pub enum Throughput {
    /// Bits per iteration.
    Bits(u64),
    /// Bytes per iteration.
    Bytes(u64),
    /// Bytes per iteration, shown by criterion in decimal multiples.
    BytesDecimal(u64),
    /// Elements per iteration.
    Elements(u64),
    /// Both; the elements are criterion's primary throughput.
    ElementsAndBytes {
        /// Elements per iteration.
        elements: u64,
        /// Bytes per iteration.
        bytes: u64,
    },
}

impl Throughput {
    /// Work per iteration and the unit pilot names it with (`B`, `bit`, `elements`).
    pub fn per_iteration(self) -> (f64, &'static str) {
        match self {
            Throughput::Bits(n) => (n as f64, "bit"),
            Throughput::Bytes(n) | Throughput::BytesDecimal(n) => (n as f64, "B"),
            Throughput::Elements(n) | Throughput::ElementsAndBytes { elements: n, .. } => {
                (n as f64, "elements")
            }
        }
    }
}

impl BenchmarkId {
    /// The name pilot gives the same bench: `function/value` inside a group (the group is
    /// pilot's `group`, not part of a member's name), `group/value` for a parameterised bench
    /// without a function name, `group` alone for `bench_function`.
    pub fn pilot_name(&self) -> String {
        let mut name = self
            .function_id
            .clone()
            .unwrap_or_else(|| self.group_id.clone());
        if let Some(v) = &self.value_str {
            name.push('/');
            name.push_str(v);
        }
        name
    }

    /// criterion's own `group/function/value`.
    pub fn criterion_name(&self) -> String {
        self.full_id.clone().unwrap_or_else(|| {
            [
                Some(self.group_id.as_str()),
                self.function_id.as_deref(),
                self.value_str.as_deref(),
            ]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join("/")
        })
    }
}

/// The sample of `sample.json`, in either of criterion's forms.
#[derive(Debug, Clone, PartialEq)]
pub struct Sample {
    /// Iterations of each sample.
    pub iters: Vec<f64>,
    /// Nanoseconds of each sample.
    pub times: Vec<f64>,
    /// `Linear` or `Flat` (0.3.3 and later); `None` in the older array form.
    pub sampling_mode: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SavedSample {
    #[serde(default)]
    sampling_mode: Option<String>,
    iters: Vec<f64>,
    times: Vec<f64>,
}

/// Reads and checks a `sample.json`: its form, equal lengths, at least two samples, positive
/// iteration counts, and times (each sample's and each iteration's) that a clock can have
/// measured (see [`check_time`]). Errors name the file, the key and the value.
pub fn read_sample(path: &Path) -> anyhow::Result<Sample> {
    let value = read_json(path)?;
    let sample = match value {
        Value::Array(parts) if parts.len() == 2 => {
            let [iters, times]: [Value; 2] = parts.try_into().expect("two parts");
            let numbers = |v: Value, what: &str| {
                serde_json::from_value::<Vec<f64>>(v).map_err(|e| {
                    anyhow!(
                        "`{}`: the {what} of criterion's `[iters, times]` form are not numbers \
                         ({e})",
                        path.display()
                    )
                })
            };
            Sample {
                iters: numbers(iters, "iteration counts")?,
                times: numbers(times, "times")?,
                sampling_mode: None,
            }
        }
        v @ Value::Object(_) => {
            let s: SavedSample = serde_path_to_error::deserialize(v).map_err(|e| {
                anyhow!(
                    "`{}`: not a criterion sample (expected `iters` and `times`): `{}`: {}",
                    path.display(),
                    e.path(),
                    e.inner()
                )
            })?;
            Sample {
                iters: s.iters,
                times: s.times,
                sampling_mode: s.sampling_mode,
            }
        }
        _ => bail!(
            "`{}`: not a criterion sample: expected `{{\"iters\", \"times\"}}` (criterion 0.3.3 \
             and later) or `[iters, times]` (criterion 0.3.0 to 0.3.2)",
            path.display()
        ),
    };
    if sample.iters.len() != sample.times.len() {
        bail!(
            "`{}`: {} iteration counts but {} times",
            path.display(),
            sample.iters.len(),
            sample.times.len()
        );
    }
    if sample.times.len() < 2 {
        bail!(
            "`{}`: {} sample(s); an interval needs at least 2",
            path.display(),
            sample.times.len()
        );
    }
    for (i, (&n, &t)) in sample.iters.iter().zip(&sample.times).enumerate() {
        if !(n.is_finite() && n >= 1.0) {
            bail!(
                "`{}`: `iters[{i}]` is {n}, expected 1 or more",
                path.display()
            );
        }
        check_time(path, &format!("times[{i}]"), t, "ns")?;
        check_time(path, &format!("times[{i}] / iters[{i}]"), t / n, "ns")?;
    }
    Ok(sample)
}

/// Reads a `benchmark.json`. An id whose name is empty is refused: pilot names the bench by
/// it.
pub fn read_id(path: &Path) -> anyhow::Result<BenchmarkId> {
    let value = read_json(path)?;
    let id: BenchmarkId = serde_path_to_error::deserialize(value).map_err(|e| {
        anyhow!(
            "`{}`: not a criterion benchmark id (expected `group_id`, `function_id`, \
             `value_str`): `{}`: {}",
            path.display(),
            e.path(),
            e.inner()
        )
    })?;
    let names = [
        ("group_id", Some(&id.group_id)),
        ("function_id", id.function_id.as_ref()),
        ("full_id", id.full_id.as_ref()),
    ];
    if let Some((key, _)) = names.iter().find(|(_, v)| v.is_some_and(|v| v.is_empty())) {
        bail!(
            "`{}`: `{key}` is empty: pilot names the bench by criterion's id",
            path.display()
        );
    }
    Ok(id)
}

fn read_json(path: &Path) -> anyhow::Result<Value> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("failed to read `{}`", path.display()))?;
    serde_json::from_str(&text).map_err(|e| anyhow!("`{}`: malformed JSON ({e})", path.display()))
}

/// Whether `dir` holds a saved run of a benchmark.
fn holds_run(dir: &Path) -> bool {
    dir.join("sample.json").is_file() || dir.join("benchmark.json").is_file()
}

/// The folder of the saved run of the benchmark whose folder is `bench`: `new/`, else
/// `base/`.
fn run_folder(bench: &Path) -> Option<PathBuf> {
    ["new", "base"]
        .into_iter()
        .map(|f| bench.join(f))
        .find(|d| holds_run(d))
}

/// Every benchmark's run folder under `dir`, sorted. A benchmark's folder may also hold
/// others' (criterion nests `group/function/value`), so the search goes on below it, past its
/// runs (`new`, `base`, `change`, criterion's named baselines, which hold the files
/// themselves) and criterion's HTML `report`. Symbolic links to folders are not followed:
/// criterion makes none, and a link to a folder above (`ln -s . x`) would make the walk
/// endless, a few such links in each folder multiplying it at every level.
fn run_folders(dir: &Path, depth: usize, out: &mut Vec<PathBuf>) -> anyhow::Result<()> {
    out.extend(run_folder(dir));
    if depth == 0 {
        return Ok(());
    }
    let entries =
        std::fs::read_dir(dir).with_context(|| format!("failed to read `{}`", dir.display()))?;
    let mut subdirs: Vec<PathBuf> = entries
        .flatten()
        // The entry's own type: a link is not a folder, wherever it points.
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .map(|e| e.path())
        .filter(|p| !holds_run(p))
        .filter(|p| {
            p.file_name().is_some_and(|n| {
                !["new", "base", "change", "report"].contains(&&*n.to_string_lossy())
            })
        })
        .collect();
    subdirs.sort();
    for d in subdirs {
        run_folders(&d, depth - 1, out)?;
    }
    Ok(())
}

/// Every benchmark saved under `dir` (criterion's output folder, a group's folder or one
/// benchmark's), as series of unit readings in nanoseconds per iteration, in `target`.
pub fn read(dir: &Path, target: &str, full_ids: bool) -> anyhow::Result<Vec<Series>> {
    if !dir.is_dir() {
        bail!(
            "criterion's results folder `{}` does not exist (run the criterion benches first, or \
             name the folder criterion wrote: `target/criterion` by default)",
            dir.display()
        );
    }
    let mut folders = Vec::new();
    if holds_run(dir) {
        // One run's folder, named directly (`…/new`).
        folders.push(dir.to_path_buf());
    } else {
        run_folders(dir, MAX_DEPTH, &mut folders)?;
    }
    if folders.is_empty() {
        bail!(
            "no criterion results under `{}`: no `new/sample.json` or `base/sample.json` found",
            dir.display()
        );
    }
    folders
        .iter()
        .map(|run| {
            let id = read_id(&run.join("benchmark.json"))?;
            let sample_path = run.join("sample.json");
            let sample = read_sample(&sample_path)?;
            let readings = sample
                .iters
                .iter()
                .zip(&sample.times)
                .map(|(n, t)| t / n)
                .collect();
            Ok(Series {
                name: if full_ids {
                    id.criterion_name()
                } else {
                    id.pilot_name()
                },
                origin: id.criterion_name(),
                target: target.to_string(),
                source: sample_path,
                readings,
                total_ns: sample.times.iter().sum(),
                work: sample.iters.iter().sum::<f64>() as u64,
                throughput: id.throughput.map(Throughput::per_iteration),
                form: pilot_format::Form::Micro,
                what: format!(
                    "{} samples of criterion's ({}), each `times[i] / iters[i]` one reading",
                    sample.times.len(),
                    sample
                        .sampling_mode
                        .as_deref()
                        .map_or("criterion 0.3.0–0.3.2 array form".to_string(), |m| {
                            format!("{} sampling", m.to_lowercase())
                        })
                ),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(json: &str) -> BenchmarkId {
        serde_json::from_str(json).unwrap()
    }

    /// The ids criterion 0.8 writes for `bench_function`, a group's function with a parameter,
    /// and `from_parameter` (criterion's `BenchmarkId` serialised, `src/report.rs`).
    #[test]
    fn criterion_ids_become_pilot_names() {
        let f = id(
            r#"{"group_id":"sort_10k","function_id":null,"value_str":null,"throughput":null,
                "full_id":"sort_10k","directory_name":"sort_10k","title":"sort_10k"}"#,
        );
        assert_eq!(
            (f.pilot_name(), f.criterion_name()),
            ("sort_10k".into(), "sort_10k".into())
        );
        let g = id(
            r#"{"group_id":"iterate","function_id":"vec","value_str":"1000",
                "throughput":{"Elements":1000},"full_id":"iterate/vec/1000",
                "directory_name":"iterate/vec/1000","title":"iterate/vec/1000"}"#,
        );
        assert_eq!(g.pilot_name(), "vec/1000");
        assert_eq!(g.criterion_name(), "iterate/vec/1000");
        assert_eq!(g.throughput.unwrap().per_iteration(), (1000.0, "elements"));
        let p = id(r#"{"group_id":"sum","function_id":null,"value_str":"4096",
                "throughput":{"ElementsAndBytes":{"elements":4,"bytes":4096}},
                "full_id":"sum/4096","directory_name":"sum/4096","title":"sum/4096"}"#);
        assert_eq!(p.pilot_name(), "sum/4096");
        assert_eq!(p.throughput.unwrap().per_iteration(), (4.0, "elements"));
        // An id without `full_id`: built from the parts.
        let old =
            id(r#"{"group_id":"g","function_id":"f","value_str":"1","throughput":{"Bytes":8}}"#);
        assert_eq!(old.criterion_name(), "g/f/1");
        assert_eq!(old.throughput.unwrap().per_iteration(), (8.0, "B"));
    }
}
