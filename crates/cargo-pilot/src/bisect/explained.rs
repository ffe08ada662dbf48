//! The culprit explained: with `--instructions`, the bisected benches counted under callgrind
//! in the build of the last commit known to be fast and in the culprit's, and the functions
//! whose instructions per unit changed named, as `--against --instructions` names them.

use anyhow::anyhow;
use pilot_engine::runner::counting::Valgrind;
use pilot_format::ResultDoc;

use super::{Bisect, State, Step, short, verdict};
use crate::against::counts::count_sides;
use crate::against::finished::Finished;
use crate::cargo::BenchExe;
use crate::exit::Failure;
use crate::explain;

impl Bisect<'_> {
    /// With `--instructions`, explains the culprit the bisection found among `commits` (by
    /// their `states`), from the `step` that named it: against the last commit known to be
    /// fast (GOOD's build `good.1` is kept; a later one is built again).
    pub(super) fn explain_found(
        &mut self,
        good: (&str, &[BenchExe]),
        (commits, states): (&[String], &[State]),
        (step, half): (&Step, f64),
    ) -> Result<(), Failure> {
        let Some(valgrind) = self.valgrind.take() else {
            return Ok(());
        };
        let fast = match states.iter().rposition(|s| *s == State::Good) {
            Some(i) => (commits[i].as_str(), None),
            None => (good.0, Some(good.1)),
        };
        let culprit = states
            .iter()
            .position(|s| *s == State::Bad)
            .expect("BAD is bad");
        self.explain_culprit(&valgrind, fast, &commits[culprit], (step, half))
    }

    /// Counts each bench `step` found slower at the culprit (by [`verdict::slower`] at `half`),
    /// in `fast`'s build (the last commit known to be as fast as GOOD, `fast_exes` when already
    /// built) and the culprit's, and prints the functions whose instructions changed (or that
    /// none did: then the culprit changed the time without changing the code's work, as a
    /// layout does). Counting runs after every timed step, never beside one.
    pub(super) fn explain_culprit(
        &mut self,
        valgrind: &Valgrind,
        (fast, fast_exes): (&str, Option<&[BenchExe]>),
        culprit: &str,
        (step, half): (&Step, f64),
    ) -> Result<(), Failure> {
        pilot_engine::outln!(
            "\n== the culprit explained: instructions counted under callgrind at {} and {}",
            short(fast),
            short(culprit)
        );
        let fast_exes = match fast_exes {
            Some(exes) => exes.to_vec(),
            None => {
                let Some(exes) = self.build(fast)? else {
                    return Err(Failure::Error(anyhow!(
                        "{} no longer builds: the culprit cannot be explained",
                        short(fast)
                    )));
                };
                self.keep(&exes, "fast-bin")?
            }
        };
        let culprit_exes = self.build(culprit)?.ok_or_else(|| {
            Failure::Error(anyhow!(
                "the culprit {} no longer builds: it cannot be explained",
                short(culprit)
            ))
        })?;
        // The benches that made the step bad: a step undecided after measuring more and
        // classed by the nearer level has none "regressed", and its culprit is still explained.
        let slower: Vec<(String, String)> = verdict::slower(&step.comparisons, half)
            .into_iter()
            .map(|c| (c.target.clone(), c.name.clone()))
            .collect();
        let benches = self.benches(&fast_exes, &culprit_exes, Some(&slower))?;
        let cache_sim = self.args.settings.on("cache_sim");
        for b in &benches {
            let Some(i) = step
                .comparisons
                .iter()
                .position(|c| c.target == b.target && c.name == b.name)
            else {
                continue;
            };
            let (base, head) = step.sides[i].clone();
            let mut done = Finished {
                comparison: step.comparisons[i].clone(),
                base,
                head,
            };
            let counted = count_sides(
                valgrind,
                b,
                &mut done,
                (&self.plan, &self.plan.options, cache_sim),
                &self.out,
            )
            .map_err(|e| {
                Failure::Error(anyhow!(
                    "the instructions of `{}` were not counted: {e}",
                    pilot_engine::fmt::terminal(&b.name)
                ))
            })?;
            if !counted {
                return Err(Failure::Error(anyhow!("interrupted")));
            }
            pilot_engine::outln!("{}", explained(&b.target, &b.name, &done));
        }
        Ok(())
    }
}

/// What the counts of one bench say: its instructions per unit on both sides, then the
/// functions whose instructions changed (the terminal's table of `--against`).
fn explained(target: &str, name: &str, done: &Finished) -> String {
    let per_unit = |doc: &Option<ResultDoc>| {
        let c = doc.as_ref()?.counts.as_ref()?;
        let n = c.process_means.len();
        (n > 0).then(|| c.process_means.iter().sum::<f64>() / n as f64)
    };
    let mut out = match (per_unit(&done.base), per_unit(&done.head)) {
        (Some(b), Some(n)) => format!(
            "{} ({}): instructions per unit {}",
            pilot_engine::fmt::terminal(name),
            pilot_engine::fmt::terminal(target),
            explain::change(b, n)
        ),
        _ => format!(
            "{} ({}): not counted",
            pilot_engine::fmt::terminal(name),
            pilot_engine::fmt::terminal(target)
        ),
    };
    let profiles = (
        done.base.as_ref().and_then(explain::profile),
        done.head.as_ref().and_then(explain::profile),
    );
    if let (Some(base), Some(new)) = profiles {
        out.push_str(&explain::terminal_bench(
            name,
            target,
            &explain::explain(&base, &new),
        ));
    }
    out
}
