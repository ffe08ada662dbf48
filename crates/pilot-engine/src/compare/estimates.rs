//! Two estimates of one bench compared: each side's variance components, Welch's t over them
//! with Welch–Satterthwaite's degrees of freedom, Fieller's interval of the relative change,
//! and the verdict.

use super::{Change, CompareOptions, Verdict};
use crate::store::SavedEstimate;
use pilot_stats::Summary;
use pilot_stats::fieller_interval;
use pilot_stats::summary::t_critical;

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
    compare_sides(base, new, options, Readings::OfOneProcess)
}

/// What a side's readings are: a bench's, taken within the processes its estimate names; or a
/// command-line program's, each reading a run of the program in a process of its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Readings {
    OfOneProcess,
    EachAProcess,
}

/// [`compare_estimates`], its method naming what the readings are.
pub(crate) fn compare_sides(
    base: &SavedEstimate,
    new: &SavedEstimate,
    options: &CompareOptions,
    readings: Readings,
) -> Change {
    let confidence = options.confidence.unwrap_or(new.confidence);
    let (cb, cn, method) = components(base, new, readings);
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
    let mut verdict = verdict_of(change, change_ci, p, options);
    let mut method = method;
    if !modes_allow(verdict, base, new) {
        verdict = Verdict::Undecided;
        method.push_str(
            "; undecided: a side's processes split into speeds its run could not tell apart, \
             which bounds its code's cost from above only",
        );
    }
    Change {
        change,
        change_ci,
        p: p.min(1.0),
        verdict,
        method,
    }
}

/// Whether `verdict` stands when a side's processes split into speeds its run could not tell
/// apart (`interval_from` `modes`). Such a side's interval spans the speeds and is no normal
/// mean's interval; what it proves is an upper bound: interference only adds time, so the
/// code's cost is at most about its fastest processes' speed, and those may have been slowed
/// too. A regression stands when the baseline is such a side and the new run's interval lies
/// wholly above the baseline's (slower than even its slowed processes); an improvement stands
/// when the new run is such a side and its interval lies wholly below the baseline's; nothing
/// else does (the other side may equal the code's cost anywhere under the bound). Time: O(1).
fn modes_allow(verdict: Verdict, base: &SavedEstimate, new: &SavedEstimate) -> bool {
    let modes = |e: &SavedEstimate| e.interval_from == "modes";
    match (modes(base), modes(new), verdict) {
        (false, false, _) | (_, _, Verdict::NoChange | Verdict::Undecided) => true,
        (true, false, Verdict::Regressed) => new.low > base.high,
        (false, true, Verdict::Improved) => new.high < base.low,
        _ => false,
    }
}

/// Each side's variance components, and the method that names them: each side's own standard
/// error; the spread of one side's process estimates added to the other's when only one side
/// ran several processes; and the machine's run-to-run variation on each side, when known.
///
/// Each side is one run, one draw of the machine's state: its estimate's variance across runs
/// is its reproducibility's `sd²` (relative, the run's own noise included), so what it adds to
/// the run's own variance is the excess `max(0, sd² − se²)`, with the degrees of freedom it
/// was learnt with. A side that has not learnt it is given the other side's excess (the same
/// machine, as results are compared).
fn components(
    base: &SavedEstimate,
    new: &SavedEstimate,
    readings: Readings,
) -> (Components, Components, String) {
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
        (None, None) if readings == Readings::EachAProcess => format!(
            "Welch's t over each program's runs, a process each ({} vs {} subsession samples)",
            base.samples.count, new.samples.count
        ),
        (None, None) => format!(
            "Welch's t within one process each ({} vs {} subsession samples)",
            base.samples.count, new.samples.count
        ),
    };
    // The relative variance a side's run adds beyond its own standard error.
    let excess = |e: &SavedEstimate| {
        e.run_to_run.map(|r| {
            let se2 = e.standard_error_squared() / (e.mean * e.mean);
            ((r.sd * r.sd - se2).max(0.0), r.dof.max(1.0), r)
        })
    };
    let machine = excess(base).or(excess(new));
    let mut method = method;
    if let Some((_, _, learnt)) = machine {
        for (components, e) in [(&mut cb, base), (&mut cn, new)] {
            let (relative, dof, _) = excess(e).or(machine).expect("one side learnt it");
            components.push((relative * e.mean * e.mean, dof));
        }
        method.push_str(&format!(
            "; with the machine's run-to-run variation on each side (sd {:.2}%, {} runs)",
            100.0 * learnt.sd,
            learnt.runs
        ));
    } else if base.is_multi_process() || new.is_multi_process() {
        method.push_str("; the machine's run-to-run variation not known yet");
    }
    (cb, cn, method)
}

/// The verdict on a relative `change` with interval `change_ci` and p-value `p`: regressed or
/// improved when significant and beyond the noise threshold; no change when its interval lies
/// inside ± noise, or when it is significant but smaller than the threshold; else undecided.
pub(super) fn verdict_of(
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

/// `P(T_ν > t)` for Student's t with `dof` degrees of freedom.
pub(super) fn student_t_sf(t: f64, dof: f64) -> f64 {
    use statrs::distribution::{ContinuousCDF, StudentsT};
    match StudentsT::new(0.0, 1.0, dof) {
        Ok(d) => d.sf(t),
        Err(_) => f64::NAN,
    }
}
