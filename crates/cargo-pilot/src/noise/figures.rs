//! The figures of `cargo pilot noise`, from its rounds, as the `pilot.noise/1` document: per
//! workload the spread between rounds, the band a next run lands in, how far two runs of the
//! same code differ, and the smallest change a saved baseline and `--against` detect; the
//! machine and its load; what to do with them.
//!
//! The statistics are pilot's ([`pilot_stats`]); this module only chooses their
//! inputs: each round's first process is one draw of the machine's state (rounds are seconds
//! apart), and the two processes of a round are a pair as `--against` runs them (back to
//! back, the order alternating from round to round).

use pilot_engine::probe::plain::{PLAIN_CALLS, PLAIN_WORKLOADS};
use pilot_format::MachineDoc;
use pilot_stats::{
    DEFAULT_TRIM, Summary, Trimmed, detectable_between_runs, detectable_in_pairs,
    sample_prediction_half_width,
};
use serde::Serialize;

use super::rounds::Rounds;

/// The `schema` of the document.
pub const SCHEMA: &str = "pilot.noise/1";

/// The power the smallest detectable changes are stated at: a change that large is detected
/// 80 times in 100.
pub const POWER: f64 = 0.8;

/// The least time a process of `--against` runs, seconds: its session's least cap
/// (`against::plan`'s `PROCESS_CAP`). A pair of `--against` lasts two processes as long as
/// noise's or two of these, whichever is longer.
pub const LEAST_AGAINST_PROCESS_S: f64 = 0.1;

/// What the figures are asked at.
#[derive(Debug, Clone, Copy)]
pub struct Asked {
    /// Confidence of the next run's band.
    pub confidence: f64,
    /// Significance level of a comparison (`--alpha`).
    pub alpha: f64,
    /// The time an `--against` comparison is given, seconds.
    pub against_time_s: f64,
}

/// A `pilot.noise/1` document: what `cargo pilot noise --format json` prints.
#[derive(Debug, Clone, Serialize)]
pub struct NoiseDoc {
    /// `pilot.noise/1`.
    pub schema: &'static str,
    /// When the first round started (RFC 3339).
    pub started: String,
    /// From the first round's start to the last one's end, seconds.
    pub elapsed_s: f64,
    /// Start to start of consecutive rounds on average, seconds.
    pub spacing_s: f64,
    /// A process's wall time (start to end, its executable's start-up included), the median
    /// over every process, seconds.
    pub process_s: f64,
    /// Calls of each workload in each process (the process's reading is their median).
    pub calls: usize,
    /// Confidence of the next run's band.
    pub confidence: f64,
    /// Significance level of the comparisons the detectable changes are for.
    pub alpha: f64,
    /// Power of those: a change of the detectable size is detected this often.
    pub power: f64,
    /// The time an `--against` comparison is given, seconds.
    pub against_time_s: f64,
    /// A pair of `--against`'s processes, seconds: two processes as long as these, each at
    /// least 0.1 s (the least session `--against` gives a process).
    pub against_pair_s: f64,
    /// The pairs that fit in `against_time_s`.
    pub against_pairs: usize,
    /// The machine (as a result's `machine`).
    pub machine: MachineDoc,
    /// Other processes' load over the whole time and during the rounds; `null` where it
    /// cannot be read (not Linux).
    pub busy: Option<BusyDoc>,
    /// Each workload's figures.
    pub workloads: Vec<WorkloadDoc>,
    /// What to do with them.
    pub advice: AdviceDoc,
    /// Every round, in order.
    pub rounds: Vec<RoundDoc>,
}

/// Other processes' load.
#[derive(Debug, Clone, Serialize)]
pub struct BusyDoc {
    /// The machine's cores.
    pub cores: f64,
    /// Cores other processes kept busy, on average over the whole time.
    pub others_cores: f64,
    /// The same during the rounds only (while noise's processes ran), on average over them.
    pub others_cores_rounds: f64,
    /// The most they kept busy during one round.
    pub others_cores_max: f64,
    /// Share of the CPU time the hypervisor stole over the whole time.
    pub steal: f64,
}

/// One workload's figures. Spreads and bands are of logarithms of times: relative (0.01 is
/// 1%); changes are relative (`exp(δ) − 1` of a difference of logarithms `δ`).
#[derive(Debug, Clone, Serialize)]
pub struct WorkloadDoc {
    /// `compute` or `sort`.
    pub name: &'static str,
    /// What it does.
    pub what: &'static str,
    /// The rounds' level: the geometric mean of each round's first process's median, ns.
    pub level_ns: f64,
    /// The least, median and largest of those medians, ns.
    pub min_ns: f64,
    pub median_ns: f64,
    pub max_ns: f64,
    /// The fastest call of any process, ns.
    pub fastest_ns: f64,
    /// Rounds the spread is from.
    pub rounds: usize,
    /// Standard deviation of the logarithm of each round's first process's median.
    pub spread: f64,
    /// Half-width of the band a next run lands in around the level, at `confidence`:
    /// `t((1 + c)/2, n − 1) · spread · √(1 + 1/n)`.
    pub next_run: Option<f64>,
    /// The same without `√(1 + 1/n)`, `t((1 + c)/2, n − 1) · spread`: pilot's own
    /// "run-to-run variation ±x%" of a bench (the sd of its earlier runs' estimates times t).
    pub run_to_run: Option<f64>,
    /// How far two runs of the same code differ, `1 − alpha` of the time:
    /// `t(1 − α/2, n − 1) · √2 · spread`.
    pub same_code: Option<f64>,
    /// The smallest change a comparison with a saved baseline detects with probability
    /// `power` at `alpha`, each run one draw of the spread:
    /// `(t(1 − α/2, n − 1) + t(power, n − 1)) · √2 · spread`.
    pub baseline_detectable: Option<f64>,
    /// Standard deviation of the log ratios of the rounds' two processes, the order
    /// alternating (ABBA): the spread a pair of `--against` has with no change.
    pub pair_spread: Option<f64>,
    /// The same winsorized at 20% (`s_w`, what the trimmed mean's standard error is made of:
    /// about 0.64 × `pair_spread` when no pair is far out).
    pub pair_winsorized_sd: Option<f64>,
    /// The smallest change `--against` detects in `against_time_s` with probability `power`
    /// at `alpha`: the 20%-trimmed mean of the `m = against_pairs` pairs that fit, as
    /// `--against` judges them (`h = m − 2⌊0.2m⌋` kept, Yuen's standard error),
    /// `(t(1 − α/2, h − 1) + t(power, h − 1)) · s_w · √((m − 1) / (h(h − 1)))`, with `s_w`
    /// `pair_winsorized_sd` (from fewer than 10 rounds `pair_spread`, which errs large).
    pub against_detectable: Option<f64>,
}

/// What to do with the figures.
#[derive(Debug, Clone, Serialize)]
pub struct AdviceDoc {
    /// The least `--noise` for a saved baseline here: the workloads' largest `same_code`,
    /// rounded up to half a percent.
    pub noise: Option<f64>,
    /// Whether `--against` detects smaller changes in `against_time_s` than a saved baseline,
    /// for every workload.
    pub prefer_against: bool,
    /// The advice in words, one line each.
    pub lines: Vec<String>,
}

/// One round.
#[derive(Debug, Clone, Serialize)]
pub struct RoundDoc {
    /// When it started, seconds after the first.
    pub at_s: f64,
    /// Each process's wall time, seconds.
    pub process_s: [f64; 2],
    /// Each process's median per workload, ns (`[process][workload]`).
    pub medians_ns: [Vec<f64>; 2],
    /// Cores other processes kept busy during the round.
    pub others_cores: Option<f64>,
}

/// The document of `rounds`, taken on `machine` from `started`.
pub fn document(rounds: &Rounds, machine: MachineDoc, started: String, asked: Asked) -> NoiseDoc {
    let r = &rounds.rounds;
    let process_s = median(r.iter().flat_map(|x| x.process_s).collect());
    let spacing_s = if r.len() > 1 {
        (r[r.len() - 1].at_s - r[0].at_s) / (r.len() - 1) as f64
    } else {
        0.0
    };
    // A process of `--against` runs a session of its own, at least `LEAST_AGAINST_PROCESS_S`.
    let pair_s = 2.0 * process_s.max(LEAST_AGAINST_PROCESS_S);
    let against_pairs = (asked.against_time_s / pair_s).floor() as usize;
    let workloads: Vec<WorkloadDoc> = PLAIN_WORKLOADS
        .iter()
        .enumerate()
        .map(|(w, &(name, what))| {
            let first: Vec<f64> = r
                .iter()
                .map(|x| x.readings[0].workloads[w].median_ns)
                .collect();
            let second: Vec<f64> = r
                .iter()
                .map(|x| x.readings[1].workloads[w].median_ns)
                .collect();
            let fastest_ns = r
                .iter()
                .flat_map(|x| x.readings.iter().map(|p| p.workloads[w].min_ns))
                .fold(f64::INFINITY, f64::min);
            workload(
                name,
                what,
                &first,
                &second,
                fastest_ns,
                against_pairs,
                asked,
            )
        })
        .collect();
    let during: Vec<f64> = r
        .iter()
        .filter_map(|x| x.busy.map(|b| b.others_cores))
        .collect();
    let busy = rounds.busy.map(|b| BusyDoc {
        cores: b.cores,
        others_cores: b.others_cores,
        others_cores_rounds: if during.is_empty() {
            f64::NAN
        } else {
            during.iter().sum::<f64>() / during.len() as f64
        },
        others_cores_max: during.iter().copied().fold(0.0, f64::max),
        steal: b.steal,
    });
    let advice = advice(&workloads, busy.as_ref(), r.len(), asked);
    NoiseDoc {
        schema: SCHEMA,
        started,
        elapsed_s: rounds.elapsed_s,
        spacing_s,
        process_s,
        calls: r.first().map_or(PLAIN_CALLS, |x| x.readings[0].calls),
        confidence: asked.confidence,
        alpha: asked.alpha,
        power: POWER,
        against_time_s: asked.against_time_s,
        against_pair_s: pair_s,
        against_pairs,
        machine,
        busy,
        workloads,
        advice,
        rounds: r
            .iter()
            .map(|x| RoundDoc {
                at_s: x.at_s,
                process_s: x.process_s,
                medians_ns: x
                    .readings
                    .clone()
                    .map(|p| p.workloads.iter().map(|t| t.median_ns).collect()),
                others_cores: x.busy.map(|b| b.others_cores),
            })
            .collect(),
    }
}

/// One workload's figures: `first[i]` and `second[i]` are round `i`'s two processes' medians.
fn workload(
    name: &'static str,
    what: &'static str,
    first: &[f64],
    second: &[f64],
    fastest_ns: f64,
    against_pairs: usize,
    asked: Asked,
) -> WorkloadDoc {
    let n = first.len();
    let logs: Vec<f64> = first.iter().map(|x| x.ln()).collect();
    let s = Summary::of(&logs).ok();
    let spread = s.map_or(0.0, |s| s.std_dev);
    let dof = (n as f64 - 1.0).max(0.0);
    let rel = |d: Option<f64>| d.map(f64::exp_m1);
    let known = n >= 2;
    // The ABBA order: in even rounds the first process is "A", in odd ones "B"; with no
    // change between them their log ratios B/A spread as a pair of `--against` does, the
    // effect of going first (a processor still waking up) included.
    let ratios: Vec<f64> = first
        .iter()
        .zip(second)
        .enumerate()
        .map(|(i, (a, b))| {
            let d = (b / a).ln();
            if i % 2 == 0 { d } else { -d }
        })
        .collect();
    let pair_spread = (ratios.len() >= 2)
        .then(|| Summary::of(&ratios).ok().map(|s| s.std_dev))
        .flatten();
    let pair_winsorized_sd = Trimmed::of(&ratios, DEFAULT_TRIM)
        .ok()
        .map(|t| t.winsorized_variance.sqrt());
    let mut sorted = first.to_vec();
    sorted.sort_unstable_by(f64::total_cmp);
    WorkloadDoc {
        name,
        what,
        level_ns: s.map_or(f64::NAN, |s| s.mean.exp()),
        min_ns: sorted.first().copied().unwrap_or(f64::NAN),
        median_ns: median(sorted.clone()),
        max_ns: sorted.last().copied().unwrap_or(f64::NAN),
        fastest_ns,
        rounds: n,
        spread,
        next_run: sample_prediction_half_width(spread, n, asked.confidence),
        run_to_run: known.then(|| pilot_stats::summary::t_critical(asked.confidence, dof) * spread),
        same_code: known
            .then(|| detectable_between_runs(spread, dof, asked.alpha, 0.5))
            .flatten()
            .map(f64::exp_m1),
        baseline_detectable: rel(known
            .then(|| detectable_between_runs(spread, dof, asked.alpha, POWER))
            .flatten()),
        pair_spread,
        pair_winsorized_sd,
        against_detectable: rel(
            pair_sd_for_against(pair_spread, pair_winsorized_sd, n).and_then(|sw| {
                detectable_in_pairs(sw, against_pairs, DEFAULT_TRIM, asked.alpha, POWER)
            }),
        ),
    }
}

/// Rounds from which the A/A pairs' winsorized spread is taken: from fewer, winsorizing at
/// 20% replaces one pair at each end, and the spread of the few left can be far below the
/// truth. Below it the plain spread stands in, which errs the other way (about 1.6 times
/// `s_w` at normal log ratios): a figure from few rounds is then too large, never too small.
const LEAST_ROUNDS_WINSORIZED: usize = 10;

/// The spread of the A/A pairs' log ratios that `--against`'s detectable change is computed
/// from, out of `rounds` rounds: their winsorized sd, or with few rounds their plain one (see
/// [`LEAST_ROUNDS_WINSORIZED`]).
fn pair_sd_for_against(plain: Option<f64>, winsorized: Option<f64>, rounds: usize) -> Option<f64> {
    if rounds >= LEAST_ROUNDS_WINSORIZED {
        winsorized
    } else {
        plain
    }
}

/// What to do with `workloads`' figures, from `rounds` rounds with `busy` beside them.
fn advice(
    workloads: &[WorkloadDoc],
    busy: Option<&BusyDoc>,
    rounds: usize,
    asked: Asked,
) -> AdviceDoc {
    let mut lines = Vec::new();
    let same_code = workloads
        .iter()
        .filter_map(|w| w.same_code)
        .reduce(f64::max);
    let noise = same_code.map(|x| (x * 200.0).ceil() / 200.0);
    let default_noise: f64 = pilot_settings::default_of("noise")
        .parse()
        .expect("the table's default noise is a number");
    match noise {
        Some(x) if x > default_noise => lines.push(format!(
            "use `--noise {x}` or more with `--baseline` on this machine (the default is \
             {default_noise}): two runs of the same code differ by up to {} here",
            percent(same_code.unwrap_or(x))
        )),
        Some(_) => lines.push(format!(
            "the default `--noise {default_noise}` is wide enough for `--baseline` on this \
             machine"
        )),
        None => {}
    }
    let pairs: Vec<(f64, f64)> = workloads
        .iter()
        .filter_map(|w| Some((w.baseline_detectable?, w.against_detectable?)))
        .collect();
    let prefer_against = pairs.len() == workloads.len() && pairs.iter().all(|(b, a)| a < b);
    if prefer_against {
        let (b, a) = pairs
            .iter()
            .copied()
            .reduce(|x, y| (x.0.max(y.0), x.1.max(y.1)))
            .expect("at least one workload");
        lines.push(format!(
            "prefer `--against`: in {} it detects changes of {} where a saved baseline needs {}",
            seconds(asked.against_time_s),
            percent(a),
            percent(b)
        ));
    }
    if let Some(b) = busy
        && b.others_cores >= 0.5
    {
        lines.push(format!(
            "other processes kept {:.2} of {} cores busy: the figures hold while the \
                 machine is this busy; measure again when it is quieter to see its floor",
            b.others_cores, b.cores
        ));
    }
    if rounds < 10 {
        lines.push(format!(
            "{rounds} rounds are few: the figures are rough (measure for longer, `--time 90`)"
        ));
    }
    AdviceDoc {
        noise,
        prefer_against,
        lines,
    }
}

/// `x` (0.01 is 1%) as a percentage with two significant figures (`7.3%`, `0.58%`,
/// `0.0041%`), at least no decimals (`12%`).
pub fn percent(x: f64) -> String {
    let p = 100.0 * x;
    if p == 0.0 || !p.is_finite() {
        return format!("{p}%");
    }
    let decimals = (1 - p.abs().log10().floor() as i32).clamp(0, 6) as usize;
    format!("{p:.decimals$}%")
}

/// Seconds, as short as they read well: `60 s`, `2.5 s`.
pub fn seconds(s: f64) -> String {
    if s.fract() == 0.0 {
        format!("{s:.0} s")
    } else {
        format!("{s:.1} s")
    }
}

/// The median of `xs` (NaN when empty).
fn median(mut xs: Vec<f64>) -> f64 {
    if xs.is_empty() {
        return f64::NAN;
    }
    xs.sort_unstable_by(f64::total_cmp);
    let mid = xs.len() / 2;
    if xs.len() % 2 == 1 {
        xs[mid]
    } else {
        (xs[mid - 1] + xs[mid]) / 2.0
    }
}

#[cfg(test)]
mod tests;
