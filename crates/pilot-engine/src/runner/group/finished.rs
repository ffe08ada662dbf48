//! A finished group's report: its ranking table for the terminal and its entry in the run
//! document.

use std::time::Duration;

use crate::fmt::format_estimate;
use crate::report::{GroupRow, TimePer, render_group};
use crate::runner::registry::Bench;
use crate::runner::workload::form;
use crate::session::group_session::PairComparison;
use pilot_format::{FEW_ROUNDS, GroupDoc, MemberDoc, PairDoc, RangeDoc, row_verdict};

/// A finished group, for the table and the run document.
pub struct GroupReport {
    name: String,
    /// Member names and estimates, in ranking order.
    ranked: Vec<(String, f64, f64, f64)>,
    pairs: Vec<(String, String, PairComparison)>,
    settled: bool,
    cycles: usize,
    elapsed: Duration,
    /// When the ranking was settled, in an interleaved run.
    ranking_settled: Option<Duration>,
    confidence: f64,
    /// What the members' times are per (the title of the time column).
    per: String,
    /// Whether every member had run its most units (`--max-runs`) when the group stopped.
    at_most_units: bool,
}

impl GroupReport {
    /// The members' names, in ranking order.
    pub(crate) fn members(&self) -> impl Iterator<Item = &str> {
        self.ranked.iter().map(|(name, ..)| name.as_str())
    }

    /// The report of a group whose `members` are these benches: their times are per iteration
    /// when all are micro-form, per unit when none is.
    pub(super) fn of_members(mut self, members: &[&Bench]) -> Self {
        let per = members.iter().map(|b| TimePer::of_form(form(&b.def.body)));
        self.per = TimePer::title(per).unwrap_or_else(|| "time".to_string());
        self
    }

    /// The report of a group that stopped because every member had run its most units
    /// (`--max-runs`), not at its time cap.
    pub fn stopped_at_most_units(mut self, yes: bool) -> Self {
        self.at_most_units = yes;
        self
    }
}

/// A group's entry in the run document's `groups`.
pub fn group_doc(g: &GroupReport, interleaved: bool) -> GroupDoc {
    GroupDoc {
        name: g.name.clone(),
        ranking: g.ranked.iter().map(|r| r.0.clone()).collect(),
        pairs: g
            .pairs
            .iter()
            .map(|(a, b, p)| PairDoc {
                a: a.clone(),
                b: b.clone(),
                ratio: p.ratio,
                ratio_ci: RangeDoc {
                    low: p.ratio_ci.low,
                    high: p.ratio_ci.high,
                },
                p: p.p,
                verdict: p.verdict.as_str().to_string(),
                caveat: p.few_rounds.then(|| FEW_ROUNDS.to_string()),
            })
            .collect(),
        members: g
            .ranked
            .iter()
            .map(|(name, mean, low, high)| MemberDoc {
                name: name.clone(),
                mean: *mean,
                ci: RangeDoc {
                    low: *low,
                    high: *high,
                },
            })
            .collect(),
        status: if g.settled {
            "settled"
        } else if g.at_most_units {
            "most runs"
        } else {
            "time cap"
        }
        .to_string(),
        interleaved,
        cycles: g.cycles,
        elapsed_s: g.elapsed.as_secs_f64(),
        ranking_settled_s: g.ranking_settled.map(|t| t.as_secs_f64()),
    }
}

/// A finished group's report: its members' `names` in the order of `estimates`, and what the
/// interleaved (or sequential) comparison found.
#[allow(clippy::too_many_arguments)]
pub fn group_report(
    group: &str,
    names: &[String],
    ranking: &[usize],
    pairs: Vec<PairComparison>,
    estimates: &[Option<(f64, f64, f64)>],
    confidence: f64,
    settled: bool,
    cycles: usize,
    elapsed: Duration,
    ranking_settled: Option<Duration>,
) -> GroupReport {
    let ranked = ranking
        .iter()
        .filter_map(|&i| {
            let (mean, low, high) = estimates[i]?;
            Some((names[i].clone(), mean, low, high))
        })
        .collect();
    let pairs = pairs
        .into_iter()
        .map(|p| (names[p.a].clone(), names[p.b].clone(), p))
        .collect();
    GroupReport {
        name: group.to_string(),
        ranked,
        pairs,
        settled,
        cycles,
        elapsed,
        ranking_settled,
        confidence,
        per: "time per unit".to_string(),
        at_most_units: false,
    }
}

/// One group's ranking table, with a line saying how it was measured.
pub fn render_report(g: &GroupReport, sequential: bool) -> String {
    let mut out = String::new();
    let how = match (sequential, g.settled) {
        (true, true) => "one after another, settled".to_string(),
        (true, false) => "one after another, not settled".to_string(),
        (false, true) => format!("settled after {} cycles", g.cycles),
        (false, false) if g.at_most_units => {
            format!("every member ran its most runs after {} cycles", g.cycles)
        }
        (false, false) => format!("time cap after {} cycles", g.cycles),
    };
    // A ranking settled long before the end: the rest went to the members' targets.
    let how = match g.ranking_settled {
        Some(t) if !sequential && g.elapsed.as_secs_f64() > 1.5 * t.as_secs_f64() => {
            format!("{how}; the ranking was settled at {:.1} s", t.as_secs_f64())
        }
        _ => how,
    };
    out.push_str(&format!(
        "group {} ({how}, {:.1} s; {:.0}% CI)\n",
        crate::fmt::terminal(&g.name),
        g.elapsed.as_secs_f64(),
        100.0 * g.confidence
    ));
    let Some(&(_, fastest, f_low, f_high)) = g.ranked.first() else {
        out.push_str("  no member has an estimate\n\n");
        return out;
    };
    let f_rel = (f_high - f_low) / 2.0 / fastest;
    let rows: Vec<GroupRow> = g
        .ranked
        .iter()
        .enumerate()
        .map(|(k, (name, mean, low, high))| {
            let rel = (high - low) / 2.0 / mean;
            let ratio = mean / fastest;
            let ratio_hw = ratio * (rel * rel + f_rel * f_rel).sqrt();
            let vs_fastest = if k == 0 {
                "1.00×".to_string()
            } else {
                format!("{ratio:.2}× ± {ratio_hw:.2}×")
            };
            let (vs_next, p, verdict) = match k.checked_sub(1).map(|j| &g.pairs[j]) {
                Some((a, _, pair)) => (
                    format!(
                        "{:.3}× [{:.3}, {:.3}] vs {a}",
                        pair.ratio, pair.ratio_ci.low, pair.ratio_ci.high
                    ),
                    pair.p.map_or("-".to_string(), crate::fmt::format_p),
                    row_verdict(pair.verdict.as_str(), pair.few_rounds.then_some(FEW_ROUNDS)),
                ),
                None => (String::new(), String::new(), String::new()),
            };
            GroupRow {
                rank: (k + 1).to_string(),
                name: name.clone(),
                time: format_estimate(*mean, *low, *high),
                vs_fastest,
                vs_next,
                p,
                verdict,
            }
        })
        .collect();
    out.push_str(&render_group(&rows, &g.per));
    out.push('\n');
    out
}

/// The note under the rankings when a member of some pair had fewer analysed rounds than the
/// usual rule needs (once, however many groups it touches); `None` otherwise.
pub fn few_rounds_note(reports: &[GroupReport]) -> Option<&'static str> {
    reports
        .iter()
        .any(|g| g.pairs.iter().any(|(_, _, p)| p.few_rounds))
        .then_some(
            "few analysed rounds: a member had fewer rounds than the usual rule needs, so the \
             pair's verdict comes from a wider interval that must clear the noise band: only a \
             clear difference is settled; give the group more time (--max-time) for the rest\n",
        )
}
