//! The machine's run-to-run variation, learnt from the speed probe of every run on it and the
//! benches' estimates in them (`target/pilot/machine.json`).
//!
//! Kalibera & Jones's levels of variation are readings within rounds, rounds within a process,
//! processes within a run, and the machine's state from one run to the next: laptops change
//! frequency with temperature and power, shared machines with their neighbours' load. A session
//! sees the first levels; the last only shows across runs. Each bench run times the probe
//! ([`super::speed`]) as it starts and records it, with each bench's estimate; the spread of
//! those over the recent runs is what a bench's reproducibility band is learnt from
//! ([`super::reproducibility`]). Until enough runs are known it is unknown, and the output
//! says so.
//!
//! A machine's state lasts minutes: runs seconds apart (a script that runs each bench in a
//! process of its own, `--exact` after `--exact`) see one state, and their probes agree far
//! better than runs an hour apart do. Counted as independent, such a burst teaches pilot a
//! band far narrower than the machine's moves between phases, and flushes the older, wider
//! history out of the file. So a run counts towards the variation only when it started at least
//! [`SPACING_S`] after the last run that counted, a bench's own earlier runs only when they
//! are as far apart, and when the file is full the runs dropped first are those that did not
//! count.

use std::path::{Path, PathBuf};

use crate::probe::{MachineVariation, Source};
use pilot_format::{MACHINE_HISTORY_SCHEMA, MachineDoc, MachineHistoryDoc, ProbeRunDoc};
#[cfg(test)]
use pilot_stats::Summary;
use pilot_stats::summary::median;

pub(crate) use super::reproducibility::RUNS_NEEDED;

/// Most recent runs the variation is learnt from: the machine of a month ago may not be
/// today's.
pub(crate) const RUNS_USED: usize = 30;

/// Runs kept in the file.
const RUNS_KEPT: usize = 100;

/// Least time between the starts of two runs that both count towards the variation, in
/// seconds: the machine's state changes over minutes (a shared machine's neighbours, a
/// laptop's temperature), not between runs a second apart (`lab/reproducibility-band.sh`
/// checks the band against runs this far apart).
pub(crate) const SPACING_S: u64 = 60;

/// Where the history of the machine behind `target_dir` is kept.
pub(crate) fn history_path(target_dir: &Path) -> PathBuf {
    target_dir.join("pilot").join("machine.json")
}

/// The machine's probe history, as read at the start of a run.
pub(crate) struct History {
    path: PathBuf,
    doc: MachineHistoryDoc,
}

impl History {
    /// Reads the history at `path` for `machine`. A missing file, or one from another CPU or
    /// probe kernel, starts a new history; an unreadable one too, with a warning naming it (the file is
    /// pilot's own record of the machine, not a result: losing it costs a few runs of learning).
    pub(crate) fn load(path: PathBuf, machine: &MachineDoc) -> (Self, Option<String>) {
        let fresh = MachineHistoryDoc {
            schema: MACHINE_HISTORY_SCHEMA.to_string(),
            cpu: machine.cpu.clone(),
            cores: machine.cores,
            probe: super::speed::PROBE_KERNEL.to_string(),
            runs: Vec::new(),
        };
        let (doc, warning) = match std::fs::read(&path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => (fresh, None),
            Err(e) => (
                fresh,
                Some(format!(
                    "cannot read the machine's history `{}` ({e}): starting a new one",
                    path.display()
                )),
            ),
            Ok(bytes) => match serde_json::from_slice::<MachineHistoryDoc>(&bytes) {
                Ok(d) if d.schema == MACHINE_HISTORY_SCHEMA && valid(&d) => {
                    if d.cpu == machine.cpu
                        && d.cores == machine.cores
                        && d.probe == super::speed::PROBE_KERNEL
                    {
                        (d, None)
                    } else {
                        (fresh, None)
                    }
                }
                Ok(_) | Err(_) => (
                    fresh,
                    Some(format!(
                        "the machine's history `{}` is corrupt or from another pilot: starting a \
                         new one",
                        path.display()
                    )),
                ),
            },
        };
        (History { path, doc }, warning)
    }

    /// Adds this run of `build` and its probe (taken as the run starts) and writes the
    /// history. A failed write is a warning: the run's results do not depend on it.
    pub(crate) fn record(&mut self, at: &str, probe_ns: f64, build: &str) -> Option<String> {
        self.doc.runs.push(ProbeRunDoc {
            at: at.to_string(),
            probe_ns,
            build: build.to_string(),
            benches: Default::default(),
        });
        while self.doc.runs.len() > RUNS_KEPT {
            // A run that did not count (seconds after the one that did) goes first; the run
            // just recorded stays.
            let counted = counted(&self.doc.runs);
            let drop = (0..self.doc.runs.len() - 1)
                .find(|i| !counted[*i])
                .unwrap_or(0);
            self.doc.runs.remove(drop);
        }
        self.write()
    }

    /// Notes bench `name`'s mean time per unit in the run recorded last (written with
    /// [`History::finish`]).
    pub(crate) fn add_bench(&mut self, name: &str, mean_ns: f64) {
        if let Some(last) = self.doc.runs.last_mut()
            && mean_ns.is_finite()
            && mean_ns > 0.0
        {
            last.benches.insert(name.to_string(), mean_ns);
        }
    }

    /// Bench `name`'s estimates in the earlier runs of the same build as the run recorded
    /// last, oldest first, spaced as the probe's runs are: walking back from the last run, an
    /// earlier one is taken when it started at least [`SPACING_S`] before the run taken after
    /// it. A burst of runs seconds apart saw one state of the machine: its newest run stands
    /// for it. At most [`RUNS_USED`] runs with the last one.
    pub(crate) fn bench_series(&self, name: &str) -> Vec<f64> {
        self.series(name, true)
    }

    /// Bench `name`'s estimates in the earlier runs of any build, spaced and at most as many
    /// as [`bench_series`](Self::bench_series)'s, oldest first.
    pub(crate) fn bench_builds(&self, name: &str) -> Vec<f64> {
        self.series(name, false)
    }

    fn series(&self, name: &str, same_build: bool) -> Vec<f64> {
        let Some((last, earlier)) = self.doc.runs.split_last() else {
            return Vec::new();
        };
        if same_build && last.build.is_empty() {
            return Vec::new();
        }
        let mut after = start_of(last);
        let mut series = Vec::new();
        for r in earlier
            .iter()
            .rev()
            .filter(|r| !same_build || r.build == last.build)
        {
            if series.len() + 1 >= RUNS_USED {
                break;
            }
            let Some(&mean) = r.benches.get(name) else {
                continue;
            };
            let at = start_of(r);
            if spaced(at, after) {
                series.push(mean);
                after = at.or(after);
            }
        }
        series.reverse();
        series
    }

    /// Each earlier machine state's shift shared by its benches, oldest first
    /// ([`super::reproducibility::run_shifts`]). A state is a run that counts and the runs
    /// that started within [`SPACING_S`] of it (which do not count): a `cargo bench` that runs
    /// each bench target in a process of its own records one run per target, seconds apart,
    /// and all of them saw the state the first one did, so every bench measured in it tells
    /// of its shift, not only the first target's. Over the recent states before this run's
    /// (this run's own state left out, its benches still to come), each bench's estimate in
    /// a state (its first there) over the runs of one build is a cell. Time: O(runs ·
    /// benches · log benches).
    pub(crate) fn run_effects(&self) -> Vec<f64> {
        let runs = &self.doc.runs;
        let mut state = 0usize;
        let states: Vec<usize> = counted(runs)
            .into_iter()
            .enumerate()
            .map(|(i, counts)| {
                state += usize::from(counts && i > 0);
                state
            })
            .collect();
        let Some(&current) = states.last() else {
            return Vec::new();
        };
        let first = current.saturating_sub(RUNS_USED);
        let mut cells: std::collections::BTreeMap<(&str, &str), Vec<(usize, f64)>> =
            Default::default();
        for (r, &s) in runs.iter().zip(&states) {
            if s < first || s >= current || r.build.is_empty() {
                continue;
            }
            for (bench, mean) in &r.benches {
                let cell = cells.entry((bench.as_str(), r.build.as_str())).or_default();
                if cell.last().is_none_or(|(seen, _)| *seen != s - first) {
                    cell.push((s - first, mean.ln()));
                }
            }
        }
        let cells: Vec<Vec<(usize, f64)>> = cells.into_values().collect();
        super::reproducibility::run_shifts(current - first, &cells)
    }

    /// Replaces the probe of the run recorded last by the mean of its start and `end_ns`, once
    /// the run has finished.
    pub(crate) fn finish(&mut self, end_ns: f64) -> Option<String> {
        let last = self.doc.runs.last_mut()?;
        last.probe_ns = (last.probe_ns + end_ns) / 2.0;
        self.write()
    }

    fn write(&self) -> Option<String> {
        let bytes = serde_json::to_vec_pretty(&self.doc).expect("documents serialise");
        crate::files::write_atomic(&self.path, &bytes)
            .err()
            .map(|e| {
                format!(
                    "cannot write the machine's history `{}`: {e}",
                    self.path.display()
                )
            })
    }

    /// The probe times of the recent runs that count (each started at least [`SPACING_S`]
    /// after the previous one that counts), oldest first.
    pub(crate) fn probes(&self) -> Vec<f64> {
        let runs = &self.doc.runs;
        let probes: Vec<f64> = runs
            .iter()
            .zip(counted(runs))
            .filter(|(_, c)| *c)
            .map(|(r, _)| r.probe_ns)
            .collect();
        probes[probes.len().saturating_sub(RUNS_USED)..].to_vec()
    }
}

/// Which of `runs` (oldest first) count towards the machine's variation: the first, and each
/// that started at least [`SPACING_S`] after the last one counted. A run whose start time does
/// not parse counts (as every run did before the spacing).
fn counted(runs: &[ProbeRunDoc]) -> Vec<bool> {
    let mut last: Option<std::time::SystemTime> = None;
    runs.iter()
        .map(|r| {
            let Some(at) = start_of(r) else {
                return true;
            };
            let counts = spaced(last, Some(at));
            if counts {
                last = Some(at);
            }
            counts
        })
        .collect()
}

/// When run `r` started; `None` when its time does not parse.
fn start_of(r: &ProbeRunDoc) -> Option<std::time::SystemTime> {
    humantime::parse_rfc3339(&r.at).ok()
}

/// Whether a run that started `at` started at least [`SPACING_S`] before the run that started
/// `after`; yes when either time is unknown (as every run counted before the spacing).
fn spaced(at: Option<std::time::SystemTime>, after: Option<std::time::SystemTime>) -> bool {
    match (at, after) {
        (Some(at), Some(after)) => after
            .duration_since(at)
            .is_ok_and(|d| d.as_secs() >= SPACING_S),
        _ => true,
    }
}

/// Whether every probe time is a positive finite number.
fn valid(doc: &MachineHistoryDoc) -> bool {
    let positive = |x: f64| x.is_finite() && x > 0.0;
    doc.runs
        .iter()
        .all(|r| positive(r.probe_ns) && r.benches.values().all(|&m| positive(m)))
}

/// The run-to-run variation of the speed probe's per-run times: a robust standard deviation of
/// their logarithms (for small spreads, the relative standard deviation), `1.4826 · MAD` (the
/// median absolute deviation from the median, scaled to equal the standard deviation of
/// normal data), with the number of runs. `None` with fewer than [`RUNS_NEEDED`] runs.
///
/// Why robust: the variation should describe the machine as it is, not its worst hour. The
/// sample standard deviation of 30 runs of which 3 fell in a noisy hour (±15%) is about 5%
/// for every later run until those 3 leave the window; the MAD's stays at the quiet runs'
/// spread while fewer than half of the runs are noisy, and follows the machine when most are.
/// Its lower efficiency is paid in degrees of freedom ([`MachineVariation::robust`]).
///
/// Assumes the runs' machine states are independent draws of the same distribution (runs
/// minutes apart on one machine); a probe's own noise is part of the spread, which makes the
/// variation, if anything, a little wide. Time: O(runs).
pub(crate) fn variation(probes: &[f64]) -> Option<MachineVariation> {
    if probes.len() < RUNS_NEEDED {
        return None;
    }
    let logs: Vec<f64> = probes.iter().map(|p| p.ln()).collect();
    let centre = median(&logs);
    let deviations: Vec<f64> = logs.iter().map(|l| (l - centre).abs()).collect();
    Some(MachineVariation::robust(
        1.482_602_218_505_602 * median(&deviations),
        probes.len(),
        Source::Probe,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn machine(cpu: &str) -> MachineDoc {
        MachineDoc {
            cpu: Some(cpu.into()),
            cores: Some(2),
            ..MachineDoc::default()
        }
    }

    #[test]
    fn variation_is_the_robust_spread_of_the_log_probe_times() {
        assert!(variation(&[1.0, 2.0, 3.0, 4.0]).is_none());
        // ln of 100, 102, 98, 101, 99: median ln 100; absolute deviations ln(1.02),
        // ln(100/98), ln(1.01), ln(100/99), 0, whose median is ln(100/99) = 0.0100503…;
        // times 1.4826 (scipy.stats.median_abs_deviation(scale="normal")).
        let v = variation(&[100.0, 102.0, 98.0, 101.0, 99.0]).unwrap();
        let expected = 1.482_602_218_505_602 * (100f64 / 99.0).ln();
        assert!((v.sd - expected).abs() < 1e-15, "{}", v.sd);
        assert!((v.sd - 0.0149).abs() < 1e-4, "{}", v.sd);
        assert_eq!(v.runs, 5);
    }

    #[test]
    fn a_noisy_hour_does_not_set_the_variation_for_every_later_run() {
        // 27 quiet runs within ±1% and 3 runs of a noisy hour at +15%, -15%, +15%: the sample
        // sd of the logs is about 5%; the robust one stays at the quiet runs' spread.
        let mut probes: Vec<f64> = (0..27)
            .map(|i| 100.0 * (1.0 + 0.01 * ((i % 5) as f64 - 2.0) / 2.0))
            .collect();
        probes.extend([115.0, 85.0, 115.0]);
        let v = variation(&probes).unwrap();
        assert!(v.sd < 0.012, "{}", v.sd);
        let logs: Vec<f64> = probes.iter().map(|p| p.ln()).collect();
        assert!(Summary::of(&logs).unwrap().std_dev > 0.04);
    }

    /// A history with one run per `(seconds after 00:00:00, probe)`.
    fn history_of(dir: &Path, runs: &[(u64, f64)]) -> History {
        let (mut h, _) = History::load(history_path(dir), &machine("a"));
        for &(at, probe) in runs {
            h.record(&at_seconds(at), probe, "b");
        }
        h
    }

    /// The time `seconds` after a fixed start, as a run's start is written.
    fn at_seconds(seconds: u64) -> String {
        let at = std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_790_000_000 + seconds);
        humantime::format_rfc3339_seconds(at).to_string()
    }

    /// Adds runs of `build` at `(seconds, {bench: mean})` to `h`, each with a probe of 100.
    fn add_runs(h: &mut History, build: &str, runs: &[(u64, &[(&str, f64)])]) {
        for (at, benches) in runs {
            h.record(&at_seconds(*at), 100.0, build);
            for (name, mean) in *benches {
                h.add_bench(name, *mean);
            }
        }
    }

    #[test]
    fn a_benchs_own_runs_count_only_a_minute_apart() {
        let dir = tempfile::tempdir().unwrap();
        let (mut h, _) = History::load(history_path(dir.path()), &machine("a"));
        // Runs at 0 s, then a burst at 100, 101, 102 s, then 130 s and 200 s (this run).
        // Walking back from 200 s: 130 s is 70 s before it (taken); 102, 101 and 100 s are
        // within 60 s of 130 s (one state of the machine with it); 0 s is 130 s before it
        // (taken). A run of another build, and one without the bench, are not in it.
        add_runs(
            &mut h,
            "b1",
            &[
                (0, &[("sort", 1.0)]),
                (100, &[("sort", 2.0)]),
                (101, &[("sort", 3.0)]),
                (102, &[("sort", 4.0)]),
            ],
        );
        add_runs(&mut h, "b2", &[(110, &[("sort", 50.0)])]);
        add_runs(
            &mut h,
            "b1",
            &[(120, &[("hash", 7.0)]), (130, &[("sort", 5.0)]), (200, &[])],
        );
        assert_eq!(h.bench_series("sort"), vec![1.0, 5.0]);
        // Over every build, the run of b2 at 110 s is 20 s before 130 s: one state with it.
        assert_eq!(h.bench_builds("sort"), vec![1.0, 5.0]);
        // Ten seconds later, the newest run stands for the state it shares with 200 s: the
        // same runs before it, 200 s not among them (it is this run's state).
        h.add_bench("sort", 6.0);
        add_runs(&mut h, "b1", &[(210, &[])]);
        assert_eq!(h.bench_series("sort"), vec![1.0, 5.0]);
        // A run whose time does not parse counts, as every run did before the spacing.
        h.record("yesterday", 100.0, "b1");
        assert_eq!(h.bench_series("sort"), vec![1.0, 5.0, 6.0]);
        // A run of another build, a minute and more after the last: in the bench's runs over
        // its builds, not in its build's.
        add_runs(&mut h, "b3", &[(400, &[("sort", 8.0)])]);
        add_runs(&mut h, "b1", &[(500, &[])]);
        assert_eq!(h.bench_series("sort"), vec![1.0, 5.0, 6.0]);
        assert_eq!(h.bench_builds("sort"), vec![1.0, 5.0, 6.0, 8.0]);
    }

    #[test]
    fn a_runs_shift_is_its_benches_mean_deviation_from_their_levels() {
        let dir = tempfile::tempdir().unwrap();
        let (mut h, _) = History::load(history_path(dir.path()), &machine("a"));
        // Three runs a minute apart of build b1, with two benches; then a run of build b2
        // with one (a cell of one run: no level, no deviation); then this run.
        add_runs(
            &mut h,
            "b1",
            &[
                (0, &[("sort", 100.0), ("hash", 10.0)]),
                (60, &[("sort", 102.0), ("hash", 10.4)]),
                (120, &[("sort", 98.0)]),
            ],
        );
        add_runs(&mut h, "b2", &[(180, &[("sort", 50.0)]), (240, &[])]);
        // By hand: sort's level is (ln 100 + ln 102 + ln 98) / 3, hash's (ln 10 + ln 10.4)
        // / 2; the first run's shift is the mean of their two deviations, the second's
        // likewise, the third's sort's alone. The run of b2 has no cell of two runs.
        let sort = ([100.0f64, 102.0, 98.0].map(f64::ln).iter().sum::<f64>()) / 3.0;
        let hash = (10f64.ln() + 10.4f64.ln()) / 2.0;
        let expected = [
            ((100f64.ln() - sort) + (10f64.ln() - hash)) / 2.0,
            ((102f64.ln() - sort) + (10.4f64.ln() - hash)) / 2.0,
            98f64.ln() - sort,
        ];
        let effects = h.run_effects();
        assert_eq!(effects.len(), 3, "{effects:?}");
        for (e, x) in effects.iter().zip(expected) {
            assert!((e - x).abs() < 1e-15, "{effects:?} against {expected:?}");
        }
        // A run 5 s after one that counted (240 s, of b2, no bench) is not a state of its
        // own: its estimate is the shift of the state at 240 s, and joins sort's cell of b1.
        add_runs(&mut h, "b1", &[(245, &[("sort", 200.0)]), (300, &[])]);
        let sort = ([100.0f64, 102.0, 98.0, 200.0]
            .map(f64::ln)
            .iter()
            .sum::<f64>())
            / 4.0;
        let effects = h.run_effects();
        assert_eq!(effects.len(), 4, "{effects:?}");
        assert!(
            (effects[3] - (200f64.ln() - sort)).abs() < 1e-15,
            "{effects:?}"
        );
        assert!(
            (effects[2] - (98f64.ln() - sort)).abs() < 1e-15,
            "{effects:?}"
        );
    }

    #[test]
    fn a_state_shift_takes_every_bench_run_in_it_not_only_the_first() {
        let dir = tempfile::tempdir().unwrap();
        let (mut h, _) = History::load(history_path(dir.path()), &machine("a"));
        // `cargo bench` of two bench targets, three times a minute and more apart: each target
        // a run of its own build, the second 2 s after the first. Then a fourth time, whose
        // second target is this run: the first target's estimate, 2 s before, is of this
        // run's state, still to be measured in full, and is left out.
        for (at, sort, hash) in [(0, 100.0, 10.0), (65, 110.0, 11.5), (130, 90.0, 9.4)] {
            add_runs(&mut h, "s", &[(at, &[("sort", sort)])]);
            add_runs(&mut h, "h", &[(at + 2, &[("hash", hash)])]);
        }
        add_runs(&mut h, "s", &[(195, &[("sort", 300.0)])]);
        add_runs(&mut h, "h", &[(197, &[])]);
        // By hand: each state's shift is the mean of sort's and hash's deviations from their
        // levels over the three states.
        let level = |v: [f64; 3]| v.map(f64::ln).iter().sum::<f64>() / 3.0;
        let (sort, hash) = (level([100.0, 110.0, 90.0]), level([10.0, 11.5, 9.4]));
        let expected = [
            ((100f64.ln() - sort) + (10f64.ln() - hash)) / 2.0,
            ((110f64.ln() - sort) + (11.5f64.ln() - hash)) / 2.0,
            ((90f64.ln() - sort) + (9.4f64.ln() - hash)) / 2.0,
        ];
        let effects = h.run_effects();
        assert_eq!(effects.len(), 3, "{effects:?}");
        for (e, x) in effects.iter().zip(expected) {
            assert!((e - x).abs() < 1e-15, "{effects:?} against {expected:?}");
        }
    }

    #[test]
    fn a_burst_of_runs_seconds_apart_counts_once() {
        let dir = tempfile::tempdir().unwrap();
        // Five runs one second apart, then two a minute and more later: three count (at 0 s,
        // at 64 s, and at 130 s, which is 66 s after the one before it that counted).
        let h = history_of(
            dir.path(),
            &[
                (0, 100.0),
                (1, 101.0),
                (2, 102.0),
                (3, 103.0),
                (4, 104.0),
                (64, 110.0),
                (130, 120.0),
            ],
        );
        assert_eq!(h.probes(), vec![100.0, 110.0, 120.0]);
        // Fewer than RUNS_NEEDED runs that count: the variation is not known yet, however many
        // runs the burst held.
        assert!(variation(&h.probes()).is_none());
        let h = history_of(dir.path(), &[(200, 90.0), (300, 95.0)]);
        assert_eq!(h.probes().len(), 5);
        assert!(variation(&h.probes()).is_some());
    }

    #[test]
    fn a_full_file_drops_the_runs_that_did_not_count_first() {
        let dir = tempfile::tempdir().unwrap();
        // RUNS_KEPT runs a minute apart, then a burst of 10 runs a second apart: the burst's
        // later runs go, the minute-apart history stays.
        let mut runs: Vec<(u64, f64)> = (0..RUNS_KEPT as u64).map(|i| (60 * i, 100.0)).collect();
        let t = 60 * RUNS_KEPT as u64;
        runs.extend((0..10).map(|i| (t + i, 50.0)));
        let h = history_of(dir.path(), &runs);
        assert_eq!(h.doc.runs.len(), RUNS_KEPT);
        // An old run goes only when no other run is left to drop: as the burst's first run
        // came (it counts) and as its second came (the newest run stays). The burst's second
        // to ninth runs went after that; its first and its newest stay.
        let old = h.doc.runs.iter().filter(|r| r.probe_ns == 100.0).count();
        assert_eq!(old, RUNS_KEPT - 2);
        let counted = counted(&h.doc.runs);
        assert_eq!(counted.iter().filter(|c| !**c).count(), 1);
        assert_eq!(h.doc.runs.last().unwrap().probe_ns, 50.0);
        assert_eq!(h.probes().len(), RUNS_USED);
    }

    #[test]
    fn a_history_is_kept_per_cpu_and_survives_corruption() {
        let dir = tempfile::tempdir().unwrap();
        let path = history_path(dir.path());
        let (mut h, w) = History::load(path.clone(), &machine("a"));
        assert!(w.is_none());
        assert!(h.record("2026-01-01T00:00:00Z", 100.0, "b1").is_none());
        h.add_bench("sort", 5.0);
        assert!(h.finish(110.0).is_none());
        let (mut h, _) = History::load(path.clone(), &machine("a"));
        assert_eq!(h.probes(), vec![105.0]);
        // A later run of the same build sees the bench's earlier means; another build does not.
        h.record("2026-01-01T00:01:00Z", 100.0, "b1");
        assert_eq!(h.bench_series("sort"), vec![5.0]);
        assert!(h.bench_series("hash").is_empty());
        h.record("2026-01-01T00:02:00Z", 100.0, "b2");
        assert!(h.bench_series("sort").is_empty());
        // Another CPU: a new history.
        let (h, w) = History::load(path.clone(), &machine("b"));
        assert!(h.probes().is_empty() && w.is_none());
        // A corrupt file: a warning naming it, and a new history.
        std::fs::write(&path, b"{\"schema\": 3").unwrap();
        let (h, w) = History::load(path.clone(), &machine("a"));
        assert!(h.probes().is_empty());
        assert!(w.unwrap().contains("machine.json"));
    }
}
