//! Comparing results with a baseline: did a bench get slower, faster, or neither?
//!
//! A change is judged by Welch's unequal-variance t-test between the two results' means (Pilot
//! paper §III-F), using the statistics saved in each result document, and reported as a
//! relative change with Fieller's confidence interval. A verdict needs both: significance
//! (`p < alpha`, default 0.01) **and** a change beyond the noise threshold (default 1%).
//!
//! # Which variance
//! Repeated runs of unchanged code differ by more than one process's interval says: what a
//! process starts with (memory layout, where its pages land, the machine's state) stays fixed
//! within it and changes between processes (Kalibera & Jones, "Rigorous benchmarking in
//! reasonable time", 2013). So the comparison uses, for each side, the variance of its mean
//! estimate that the result itself stands for:
//!
//! - **several process executions** (`--processes N`, the default when saving or comparing
//!   baselines): the variance between the processes' estimates, which includes run-to-run
//!   variation. This is the sound case.
//! - **one process on one side, several on the other**: the single process is one draw from
//!   the distribution of process estimates, so it is given the other side's between-process
//!   variance on top of its own.
//! - **one process on both sides**: only the within-process variance (subsession analysis,
//!   widened by the variation between rounds) is known. Run-to-run variation is unseen and the
//!   verdict may be over-confident; [`Comparison::method`] says so.
//!
//! The degrees of freedom come from the Welch–Satterthwaite formula over every variance
//! component.

use crate::stats::Summary;
use crate::stats::ratio::fieller_interval;
use crate::stats::summary::t_critical;
use crate::store::{SavedEstimate, SavedResult};

/// Process executions per bench when a run saves or compares with a baseline and
/// `--processes` is not given, whatever the cap: a comparison must see the run-to-run
/// variation that one process cannot (see the module docs), and eight let the processes of a
/// minority layout be left out of each side (the default count of a bench capped at 2 s or
/// more).
pub const BASELINE_PROCESSES: usize = 8;

/// The thresholds of a comparison.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CompareOptions {
    /// Significance level: a change needs `p < alpha`. Default 0.01.
    pub alpha: f64,
    /// Noise threshold: a change needs `|change| > noise` (relative). Default 0.01.
    pub noise: f64,
    /// Confidence level of the change's interval; `None` takes the new result's.
    pub confidence: Option<f64>,
}

impl Default for CompareOptions {
    fn default() -> Self {
        CompareOptions {
            alpha: 0.01,
            noise: 0.01,
            confidence: None,
        }
    }
}

/// What a comparison concluded about one bench.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// Significantly faster, by more than the noise threshold.
    Improved,
    /// Significantly slower, by more than the noise threshold.
    Regressed,
    /// The change is within the noise threshold: its interval lies inside ± noise, or it is
    /// significant but smaller than the threshold.
    NoChange,
    /// Neither: the data cannot tell (the interval reaches past the threshold, p ≥ alpha).
    Undecided,
    /// The bench has no result in the baseline (added, or renamed).
    New,
    /// The baseline has a bench the new results lack (removed, renamed, or not run).
    Missing,
    /// One side has no estimate (the bench failed or never settled).
    Failed,
}

impl Verdict {
    /// The verdict as written in tables and JSON: `improved`, `regressed`, `no change`,
    /// `undecided`, `new`, `missing`, `failed`.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Improved => "improved",
            Verdict::Regressed => "regressed",
            Verdict::NoChange => "no change",
            Verdict::Undecided => "undecided",
            Verdict::New => "new",
            Verdict::Missing => "missing",
            Verdict::Failed => "failed",
        }
    }
}

/// One bench's comparison.
#[derive(Debug, Clone, PartialEq)]
pub struct Comparison {
    /// Bench name.
    pub name: String,
    /// Bench target (binary); empty when the results do not say.
    pub target: String,
    /// The baseline's time per unit (ns), when it has one.
    pub base: Option<SavedEstimate>,
    /// The new time per unit (ns), when there is one.
    pub new: Option<SavedEstimate>,
    /// Relative change of the mean, `new / base − 1`: +0.05 is 5% slower.
    pub change: Option<f64>,
    /// Confidence interval of the relative change (Fieller); `None` when unbounded.
    pub change_ci: Option<(f64, f64)>,
    /// Confidence level of `change_ci`.
    pub confidence: f64,
    /// Two-sided p-value of "equal means".
    pub p: Option<f64>,
    /// The conclusion.
    pub verdict: Verdict,
    /// How the verdict was reached, in words: the test and the samples it compared.
    pub method: String,
    /// The pairs of processes the change came from, when the two sides were measured
    /// interleaved (`cargo pilot bench --against`); `None` for a comparison of saved results.
    pub pairs: Option<usize>,
    /// Why the verdict is `undecided` though `method` gave an answer: too few pairs of
    /// processes finished in the time given for the verdict to be taken (`--against`).
    pub reason: Option<String>,
}

/// What comparing two estimates of one bench found.
#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    /// Relative change of the mean, `new / base − 1`: +0.05 is 5% slower.
    pub change: f64,
    /// Confidence interval of the relative change (Fieller); `None` when unbounded.
    pub change_ci: Option<(f64, f64)>,
    /// Two-sided p-value of "equal means" (Welch's t-test).
    pub p: f64,
    /// The conclusion.
    pub verdict: Verdict,
    /// How it was reached: the test and the samples it compared.
    pub method: String,
}

/// Variance components of one side's mean: `(variance of the mean, degrees of freedom)`.
type Components = Vec<(f64, f64)>;

/// The variance between a result's process estimates, with its degrees of freedom.
fn between_processes(e: &SavedEstimate) -> Option<(f64, f64)> {
    if e.process_means.len() < 2 {
        return None;
    }
    let s = Summary::of(&e.process_means).ok()?;
    Some((s.variance, (s.n - 1) as f64))
}

/// Compares two estimates of the same bench. See the module docs for the method.
///
/// Assumes each side's mean is roughly normal with the variance its result stands for, and
/// that the two sides are independent. Time: O(number of process estimates).
pub fn compare_estimates(
    base: &SavedEstimate,
    new: &SavedEstimate,
    options: &CompareOptions,
) -> Change {
    let confidence = options.confidence.unwrap_or(new.confidence);
    let (cb, cn, method) = components(base, new);
    let se2 = |c: &Components| c.iter().map(|(v, _)| v).sum::<f64>();
    let (se2_base, se2_new) = (se2(&cb), se2(&cn));
    let total = se2_base + se2_new;
    let dof = {
        let denom: f64 = cb.iter().chain(&cn).map(|(v, d)| v * v / d).sum();
        if denom > 0.0 {
            total * total / denom
        } else {
            1.0
        }
    };
    let difference = new.mean - base.mean;
    let p = if total > 0.0 {
        2.0 * student_t_sf((difference / total.sqrt()).abs(), dof)
    } else if difference == 0.0 {
        1.0
    } else {
        0.0
    };
    let change = new.mean / base.mean - 1.0;
    let t = t_critical(confidence, dof);
    let change_ci = fieller_interval(new.mean, se2_new, base.mean, se2_base, t)
        .map(|(lo, hi)| (lo - 1.0, hi - 1.0));
    Change {
        change,
        change_ci,
        p: p.min(1.0),
        verdict: verdict_of(change, change_ci, p, options),
        method,
    }
}

/// Each side's variance components, and the method that names them: each side's own standard
/// error; the spread of one side's process estimates added to the other's when only one side
/// ran several processes; and the machine's run-to-run variation on each side, when known.
fn components(base: &SavedEstimate, new: &SavedEstimate) -> (Components, Components, String) {
    let own =
        |e: &SavedEstimate| -> Components { vec![(e.standard_error_squared(), e.dof.max(1.0))] };
    let (mut cb, mut cn) = (own(base), own(new));
    let method = match (between_processes(base), between_processes(new)) {
        (Some(_), Some(_)) => format!(
            "Welch's t over {} vs {} process estimates",
            base.process_means.len(),
            new.process_means.len()
        ),
        (Some(extra), None) => {
            cn.push(extra);
            format!(
                "1 process vs the baseline's {} process estimates (their spread added to the new run's)",
                base.process_means.len()
            )
        }
        (None, Some(extra)) => {
            cb.push(extra);
            format!(
                "the baseline's 1 process vs {} process estimates (their spread added to the baseline's)",
                new.process_means.len()
            )
        }
        (None, None) => format!(
            "Welch's t within one process each ({} vs {} subsession samples): run-to-run \
             variation unseen, use --processes N (group members always run in one process)",
            base.samples.count, new.samples.count
        ),
    };
    // Each side's machine state was one draw of the machine's run-to-run variation: added to
    // each side that learnt it, with the other side's when only one did (the same machine).
    let machine = base.run_to_run.or(new.run_to_run);
    let mut method = method;
    if let Some((sd, runs)) = machine {
        for (components, e) in [(&mut cb, base), (&mut cn, new)] {
            let (sd, runs) = e.run_to_run.unwrap_or((sd, runs));
            components.push(((sd * e.mean).powi(2), (runs.max(2) - 1) as f64));
        }
        method.push_str(&format!(
            "; with the machine's run-to-run variation on each side (sd {:.2}%, {runs} runs)",
            100.0 * sd
        ));
    } else if base.is_multi_process() || new.is_multi_process() {
        method.push_str("; the machine's run-to-run variation not known yet");
    }
    (cb, cn, method)
}

/// The verdict on a relative `change` with interval `change_ci` and p-value `p`: regressed or
/// improved when significant and beyond the noise threshold; no change when its interval lies
/// inside ± noise, or when it is significant but smaller than the threshold; else undecided.
fn verdict_of(
    change: f64,
    change_ci: Option<(f64, f64)>,
    p: f64,
    options: &CompareOptions,
) -> Verdict {
    let inside_noise =
        change_ci.is_some_and(|(lo, hi)| lo >= -options.noise && hi <= options.noise);
    let significant = p < options.alpha;
    if significant && change.abs() > options.noise {
        if change > 0.0 {
            Verdict::Regressed
        } else {
            Verdict::Improved
        }
    } else if inside_noise || significant {
        Verdict::NoChange
    } else {
        Verdict::Undecided
    }
}

/// Compares two builds measured in interleaved pairs of processes (`cargo pilot bench
/// --against`): `pairs[i]` is (base, new) of pair i, each one process's mean time per unit.
///
/// The change comes from the per-pair log ratios `dᵢ = ln(newᵢ / baseᵢ)`: their 20%-trimmed
/// mean `d̃` with Yuen's standard error `se` (Student's t with `h − 1` degrees of freedom, `h`
/// the pairs left after trimming; with fewer than 5 pairs nothing is trimmed and this is the
/// paired t-test) gives the relative change `exp(d̃) − 1`, its interval `exp(d̃ ± t·se) − 1`
/// and the two-sided p of `d̃ = 0` (the one-sample trimmed-mean test, Tukey–McLaughlin with
/// Yuen's standard error). The verdict follows the rule of [`compare_estimates`].
///
/// Why trimmed: a process that runs its whole life far slower (a bad layout, a neighbour's
/// burst) makes one pair's ratio far out on either side, and a mean over pairs follows it;
/// either side can be the slow one, so trimming both ends alike is unbiased.
///
/// Why pairs: the two processes of a pair run back to back, so the machine's state of that
/// moment (its clock speed, the other load on it) is in both and cancels in their ratio; what
/// stays is the variation of a process (memory layout, where its pages land) and the machine's
/// change within the pair's few seconds. Assumes the log ratios are independent and roughly
/// normal; the caller alternates which side runs first (ABBA), so an effect of position
/// cancels over the pairs too. Logs make a slowdown and the inverse speed-up the same size.
///
/// `None` with fewer than two pairs or a mean that is not positive and finite. Time:
/// O(n log n).
pub fn compare_paired(
    pairs: &[(f64, f64)],
    confidence: f64,
    options: &CompareOptions,
) -> Option<Change> {
    let usable = |x: f64| x.is_finite() && x > 0.0;
    if pairs.len() < 2 || !pairs.iter().all(|&(b, n)| usable(b) && usable(n)) {
        return None;
    }
    let logs: Vec<f64> = pairs.iter().map(|&(b, n)| (n / b).ln()).collect();
    let loc = crate::stats::trimmed_location(&logs, crate::stats::DEFAULT_TRIM, confidence).ok()?;
    let (d, dof) = (loc.value, loc.dof);
    let se = loc.trimmed.yuen_std_error();
    let p = if se > 0.0 {
        2.0 * student_t_sf((d / se).abs(), dof)
    } else if d == 0.0 {
        1.0
    } else {
        0.0
    };
    let t = t_critical(confidence, dof);
    let change = d.exp() - 1.0;
    let change_ci = Some(((d - t * se).exp() - 1.0, (d + t * se).exp() - 1.0));
    Some(Change {
        change,
        change_ci,
        p: p.min(1.0),
        verdict: verdict_of(change, change_ci, p, options),
        method: "paired: pairs of processes of the two builds, run alternately (ABBA); the \
                 20%-trimmed mean of the pairs' log ratios with Yuen's standard error"
            .to_string(),
    })
}

/// `P(T_ν > t)` for Student's t with `dof` degrees of freedom.
fn student_t_sf(t: f64, dof: f64) -> f64 {
    use statrs::distribution::{ContinuousCDF, StudentsT};
    match StudentsT::new(0.0, 1.0, dof) {
        Ok(d) => d.sf(t),
        Err(_) => f64::NAN,
    }
}

/// Compares every bench of `new` with the same bench in `base`, matched by (target, name), or
/// by name alone when one side does not record its target. Benches on one side only are
/// [`Verdict::New`] or [`Verdict::Missing`]; a side without an estimate is
/// [`Verdict::Failed`]. Sorted by (target, name).
pub fn compare(
    base: &[SavedResult],
    new: &[SavedResult],
    options: &CompareOptions,
) -> Vec<Comparison> {
    let same = |a: &SavedResult, b: &SavedResult| {
        a.name == b.name && (a.target == b.target || a.target.is_empty() || b.target.is_empty())
    };
    let mut out: Vec<Comparison> = Vec::new();
    for n in new {
        let b = base.iter().find(|b| same(b, n));
        out.push(compare_pair(b, Some(n), options));
    }
    for b in base {
        if !new.iter().any(|n| same(b, n)) {
            out.push(compare_pair(Some(b), None, options));
        }
    }
    out.sort_by(|a, b| (&a.target, &a.name).cmp(&(&b.target, &b.name)));
    out
}

/// Compares a run's results with a baseline's, as a bench binary and `cargo pilot bench` both
/// do at the end of a run: only the baseline's benches the run `selected` (by its filters,
/// `--skip`, ignored benches) take part, so a bench left out is not [`Verdict::Missing`].
pub fn against_baseline(
    base: &[SavedResult],
    new: &[SavedResult],
    selected: impl Fn(&SavedResult) -> bool,
    options: &CompareOptions,
) -> Vec<Comparison> {
    let base: Vec<SavedResult> = base.iter().filter(|r| selected(r)).cloned().collect();
    compare(&base, new, options)
}

/// Warnings for two sides measured on different machines or toolchains: a different CPU
/// model, core count or compiler (`rustc -V`), each named with its two values. A change
/// between such sides may be the machine's or the compiler's, not the code's. Results whose
/// documents do not record a field are not compared on it.
pub fn machine_mismatch(base: &[SavedResult], new: &[SavedResult]) -> Vec<String> {
    let first = |side: &[SavedResult]| side.iter().find_map(|r| r.machine.clone());
    let (Some(a), Some(b)) = (first(base), first(new)) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut differ = |what: &str, x: Option<String>, y: Option<String>, meaning: &str| {
        if let (Some(x), Some(y)) = (x, y) {
            if x != y {
                out.push(format!(
                    "the two sides were measured with different {what} (`{x}` and `{y}`): {meaning}"
                ));
            }
        }
    };
    differ(
        "CPUs",
        a.cpu.clone(),
        b.cpu.clone(),
        "a change may be the machine's, not the code's",
    );
    differ(
        "core counts",
        a.cores.map(|c| c.to_string()),
        b.cores.map(|c| c.to_string()),
        "a change may be the machine's, not the code's",
    );
    differ(
        "compilers",
        a.rustc.clone(),
        b.rustc.clone(),
        "a change may be the compiler's, not the code's",
    );
    out
}

/// Whether any bench regressed (the CI verdict: exit code 3).
pub fn any_regressed(comparisons: &[Comparison]) -> bool {
    comparisons.iter().any(|c| c.verdict == Verdict::Regressed)
}

/// Compares one bench's two results, either of which may be absent.
pub fn compare_pair(
    base: Option<&SavedResult>,
    new: Option<&SavedResult>,
    options: &CompareOptions,
) -> Comparison {
    let named = new.or(base).expect("one side is present");
    let confidence = options
        .confidence
        .or_else(|| new.and_then(|n| n.time.as_ref()).map(|t| t.confidence))
        .unwrap_or(0.95);
    let mut c = Comparison {
        name: named.name.clone(),
        target: named.target.clone(),
        base: base.and_then(|b| b.time.clone()),
        new: new.and_then(|n| n.time.clone()),
        change: None,
        change_ci: None,
        confidence,
        p: None,
        verdict: Verdict::Failed,
        method: String::new(),
        pairs: None,
        reason: None,
    };
    match (base, new) {
        (None, _) => {
            c.verdict = Verdict::New;
            c.method = "no result in the baseline".into();
        }
        (_, None) => {
            c.verdict = Verdict::Missing;
            c.method = "in the baseline, not in the new results".into();
        }
        (Some(b), Some(n)) => match (&b.time, &n.time) {
            (Some(bt), Some(nt)) => {
                let found = compare_estimates(
                    bt,
                    nt,
                    &CompareOptions {
                        confidence: Some(confidence),
                        ..*options
                    },
                );
                c.change = Some(found.change);
                c.change_ci = found.change_ci;
                c.p = Some(found.p);
                c.verdict = found.verdict;
                c.method = found.method;
            }
            (bt, _) => {
                let side = if bt.is_none() { b } else { n };
                c.method = format!(
                    "no estimate in `{}` (status {})",
                    side.path.display(),
                    side.status
                );
            }
        },
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::SampleMoments;

    /// A one-process estimate of `mean` with standard error `se` from 100 subsession samples.
    fn est(mean: f64, se: f64) -> SavedEstimate {
        let half = t_critical(0.95, 99.0) * se;
        SavedEstimate {
            mean,
            low: mean - half,
            high: mean + half,
            confidence: 0.95,
            interval_from: "readings".into(),
            dof: 99.0,
            samples: SampleMoments {
                count: 100,
                mean,
                variance: se * se * 100.0,
                variance_inflation: 1.0,
            },
            process_means: Vec::new(),
            run_to_run: None,
            run_low: mean - half,
            run_high: mean + half,
        }
    }

    fn verdict(base: SavedEstimate, new: SavedEstimate) -> Verdict {
        compare_estimates(&base, &new, &CompareOptions::default()).verdict
    }

    #[test]
    fn the_machines_run_to_run_variation_is_a_component_of_each_side() {
        // 100 vs 104, each with se 1 over 99 degrees of freedom: alone, p ≈ 0.005, regressed.
        assert_eq!(
            verdict(est(100.0, 1.0), est(104.0, 1.0)),
            Verdict::Regressed
        );
        // With the machine's sd of 2% over 10 runs on each side, the variances are 1, 1,
        // 2² and 2.08², the degrees of freedom 99, 99, 9, 9; scipy:
        // 2 · t.sf(4 / √10.3264, 27.499228249188544) = 0.22372432453315155.
        let base = SavedEstimate {
            run_to_run: Some((0.02, 10)),
            ..est(100.0, 1.0)
        };
        let found = compare_estimates(&base, &est(104.0, 1.0), &CompareOptions::default());
        assert!((found.p - 0.22372432453315155).abs() < 1e-9, "{}", found.p);
        assert_eq!(found.verdict, Verdict::Undecided);
        assert!(
            found.method.contains("run-to-run variation on each side"),
            "{}",
            found.method
        );
    }

    #[test]
    fn verdicts_need_significance_and_a_change_beyond_the_noise() {
        // 5% slower, se 0.1%: p tiny, change > 1%.
        assert_eq!(
            verdict(est(100.0, 0.1), est(105.0, 0.1)),
            Verdict::Regressed
        );
        assert_eq!(verdict(est(100.0, 0.1), est(95.0, 0.1)), Verdict::Improved);
        // 0.5% slower with se 0.05%: significant, but within the 1% threshold.
        assert_eq!(
            verdict(est(100.0, 0.05), est(100.5, 0.05)),
            Verdict::NoChange
        );
        // 0.2% with se 0.1%: not significant, interval inside ±1%.
        assert_eq!(verdict(est(100.0, 0.1), est(100.2, 0.1)), Verdict::NoChange);
        // 3% with se 2%: not significant, interval reaches past 1%.
        assert_eq!(
            verdict(est(100.0, 2.0), est(103.0, 2.0)),
            Verdict::Undecided
        );
    }

    fn saved(name: &str, time: Option<SavedEstimate>) -> SavedResult {
        SavedResult {
            path: format!("{name}.json").into(),
            name: name.into(),
            target: "t".into(),
            status: if time.is_some() { "ok" } else { "failed" }.into(),
            status_detail: None,
            time,
            finished: None,
            warnings: Vec::new(),
            machine: None,
        }
    }

    #[test]
    fn sides_from_other_machines_or_compilers_are_named() {
        let on = |cpu: &str, rustc: &str| {
            let mut r = saved("a", None);
            r.machine = Some(crate::schema::MachineDoc {
                cpu: Some(cpu.into()),
                cores: Some(2),
                rustc: Some(rustc.into()),
                ..Default::default()
            });
            r
        };
        let base = [on("EPYC 7B13", "rustc 1.90.0")];
        assert!(machine_mismatch(&base, &[on("EPYC 7B13", "rustc 1.90.0")]).is_empty());
        let w = machine_mismatch(&base, &[on("Xeon E5", "rustc 1.91.0")]);
        assert_eq!(w.len(), 2, "{w:?}");
        assert!(w[0].contains("`EPYC 7B13` and `Xeon E5`"), "{w:?}");
        assert!(w[1].contains("compilers"), "{w:?}");
        // A document without a machine record is not compared.
        assert!(machine_mismatch(&base, &[saved("a", None)]).is_empty());
    }

    #[test]
    fn renamed_removed_and_failed_benches_are_rows_not_errors() {
        let base = vec![
            saved("kept", Some(est(100.0, 0.1))),
            saved("old_name", Some(est(50.0, 0.1))),
            saved("broke", Some(est(10.0, 0.1))),
        ];
        let new = vec![
            saved("kept", Some(est(100.1, 0.1))),
            saved("new_name", Some(est(50.0, 0.1))),
            saved("broke", None),
        ];
        let cs = compare(&base, &new, &CompareOptions::default());
        let got: Vec<(&str, Verdict)> = cs.iter().map(|c| (c.name.as_str(), c.verdict)).collect();
        assert_eq!(
            got,
            vec![
                ("broke", Verdict::Failed),
                ("kept", Verdict::NoChange),
                ("new_name", Verdict::New),
                ("old_name", Verdict::Missing),
            ]
        );
        assert!(cs[0].method.contains("broke.json"), "{}", cs[0].method);
    }

    #[test]
    fn p_is_symmetric_and_the_change_ci_holds_the_change() {
        let (a, b) = (est(100.0, 0.7), est(102.0, 0.4));
        let ab = compare_estimates(&a, &b, &CompareOptions::default());
        let ba = compare_estimates(&b, &a, &CompareOptions::default());
        assert!((ab.p - ba.p).abs() < 1e-12);
        let (lo, hi) = ab.change_ci.unwrap();
        assert!(lo < ab.change && ab.change < hi);
    }
}
