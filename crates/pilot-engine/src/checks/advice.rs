//! What each check means and what to do about it, said once per kind (the end-of-run summary)
//! and fitted to where the bench runs: a remedy the bench already follows is never given.
//!
//! A check's message (in its result document) states what was seen, with figures; the remedy
//! is chosen here from the [`Context`] the bench ran in: a member of an interleaved group is
//! not told to compare alternatives in a group, a bench on one thread is not told to use fewer
//! threads, a run under `--against` is not told to compare two builds in one job, and a CI
//! runner is not told to stop the other work it cannot see.

use super::Kind;

/// Where a bench ran, as far as its advice depends on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Context {
    /// The bench is a member of a group, measured interleaved with its alternatives.
    pub(crate) grouped: bool,
    /// The most threads the bench runs on.
    pub(crate) threads: usize,
    /// The run compares two builds interleaved in one job (`cargo pilot bench --against`).
    pub(crate) against: bool,
    /// The run is on a CI runner.
    pub(crate) ci: bool,
}

impl Context {
    /// The context every one of `contexts` shares: grouped or on CI only when all are, threads
    /// the most of any. Advice for a kind that fired on several benches fits them all.
    pub(crate) fn common(contexts: impl IntoIterator<Item = Context>) -> Context {
        let mut it = contexts.into_iter();
        let Some(first) = it.next() else {
            return Context::default();
        };
        it.fold(first, |a, c| Context {
            grouped: a.grouped && c.grouped,
            threads: a.threads.max(c.threads),
            against: a.against && c.against,
            ci: a.ci && c.ci,
        })
    }
}

impl Kind {
    /// Every kind, in the order the summary lists them: the machine and the build first, then
    /// what the sessions found.
    pub(crate) const ALL: [Kind; 19] = [
        Kind::DebugBuild,
        Kind::VirtualMachine,
        Kind::FewCores,
        Kind::FrequencyScaling,
        Kind::Turbo,
        Kind::BusyMachine,
        Kind::CpuSteal,
        Kind::Throttled,
        Kind::SaturatedDevice,
        Kind::MachineDrift,
        Kind::Outliers,
        Kind::Slowdown,
        Kind::Speedup,
        Kind::Leak,
        Kind::NoSteadyState,
        Kind::ColdStart,
        Kind::ProcessModes,
        Kind::ClockOverhead,
        Kind::InstrumentationOverhead,
    ];

    /// The kind named `name` (its `kind` key), if pilot knows it.
    pub(crate) fn parse(name: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.as_str() == name)
    }

    /// Whether the kind is a state of the run (the build, the machine as the run started)
    /// rather than something a bench's session found: the summary names no benches for it.
    pub(crate) fn is_run_wide(self) -> bool {
        matches!(
            self,
            Kind::DebugBuild
                | Kind::VirtualMachine
                | Kind::FewCores
                | Kind::FrequencyScaling
                | Kind::Turbo
        )
    }

    /// The words the summary heads the kind with.
    pub(crate) fn label(self) -> &'static str {
        match self {
            Kind::BusyMachine => "busy machine",
            Kind::CpuSteal => "CPU steal",
            Kind::Throttled => "throttled",
            Kind::SaturatedDevice => "saturated device",
            Kind::FrequencyScaling => "frequency scaling",
            Kind::Turbo => "turbo boost",
            Kind::DebugBuild => "debug build",
            Kind::FewCores => "few free cores",
            Kind::VirtualMachine => "virtual machine",
            Kind::ClockOverhead => "clock overhead",
            Kind::InstrumentationOverhead => "recording overhead",
            Kind::Outliers => "outliers",
            Kind::Slowdown => "slowdown",
            Kind::Speedup => "speed-up",
            Kind::Leak => "leak",
            Kind::MachineDrift => "machine drift",
            Kind::NoSteadyState => "no steady state",
            Kind::ColdStart => "cold start",
            Kind::ProcessModes => "process modes",
        }
    }

    /// The one word a bench's line shows when the check fired on it.
    pub(crate) fn marker(self) -> &'static str {
        match self {
            Kind::BusyMachine => "busy",
            Kind::CpuSteal => "steal",
            Kind::Throttled => "throttled",
            Kind::SaturatedDevice => "device",
            Kind::FrequencyScaling => "governor",
            Kind::Turbo => "turbo",
            Kind::DebugBuild => "debug",
            Kind::FewCores => "cores",
            Kind::VirtualMachine => "vm",
            Kind::ClockOverhead => "clock",
            Kind::InstrumentationOverhead => "overhead",
            Kind::Outliers => "outliers",
            Kind::Slowdown => "slowdown",
            Kind::Speedup => "speed-up",
            Kind::Leak => "leak",
            Kind::MachineDrift => "drift",
            Kind::NoSteadyState => "unsteady",
            Kind::ColdStart => "cold",
            Kind::ProcessModes => "modes",
        }
    }

    /// What the check means for the numbers, in a sentence.
    pub(crate) fn meaning(self) -> &'static str {
        match self {
            Kind::BusyMachine => {
                "other processes kept cores busy during the rounds: the times are slower and \
                 noisier than on a quiet machine"
            }
            Kind::CpuSteal => {
                "the hypervisor gave the virtual machine's cores to its neighbours during the \
                 rounds: the times follow their load"
            }
            Kind::Throttled => {
                "the process's cgroup ran out of CPU quota during the rounds, and the bench waited"
            }
            Kind::SaturatedDevice => {
                "a disk or network link the bench used was at least 80% busy: its I/O waited \
                 on a device it does not declare, loaded by the bench or by another process"
            }
            Kind::FrequencyScaling => {
                "the CPU governor changes the clock speed with the load, so speed changes \
                 within and between runs"
            }
            Kind::Turbo => "the clock speed depends on temperature and busy cores, so it drifts",
            Kind::DebugBuild => {
                "the benches were built without optimisations: their times say little about \
                 an optimised build"
            }
            Kind::FewCores => {
                "fewer cores were free than the benches' threads as the run started: threads \
                 wait for each other's cores"
            }
            Kind::VirtualMachine => {
                "neighbours share the host, so the speed changes between runs by more than one \
                 run's interval shows"
            }
            Kind::ClockOverhead => {
                "reading the clock costs more than 1% of a timed unit, and every reading \
                 carries that cost"
            }
            Kind::InstrumentationOverhead => {
                "recording each unit costs more than 1% of it (measured with recording on and \
                 off)"
            }
            Kind::Outliers => {
                "a few readings far from the rest moved the mean: interruptions by other work, \
                 or a workload with more than one speed; the time (a trimmed mean) leaves them \
                 out, `time_with_interruptions` keeps them"
            }
            Kind::Slowdown => {
                "the bench got slower from round to round while the machine's speed held: a \
                 leak or growing state"
            }
            Kind::Speedup => {
                "the bench got faster from round to round while the machine's speed held: \
                 caches, the allocator or branch predictors warming beyond the cut warm-up"
            }
            Kind::Leak => {
                "the process's memory grew from round to round: the bench keeps what it \
                 allocates"
            }
            Kind::MachineDrift => {
                "the bench's times drifted with the machine (another process starting or \
                 stopping, or the clock speed changing), not with the workload"
            }
            Kind::NoSteadyState => "the readings never settled into a stable phase",
            Kind::ColdStart => {
                "the first unit of each round is much slower than the rest (a cold cache or \
                 first touch of memory), and rounds are too short to cut it as warm-up"
            }
            Kind::ProcessModes => {
                "some processes ran at another speed for their whole life (where code and data \
                 landed, or a neighbour): left out of the estimate, or spanned by its interval \
                 where the run cannot tell which speed is the code's"
            }
        }
    }

    /// Whether the remedy depends on where the bench runs, so that [`crate::checks::advise`]
    /// appends it to the message; the other kinds' messages carry their own.
    pub(crate) fn remedy_fits_the_context(self) -> bool {
        matches!(
            self,
            Kind::BusyMachine
                | Kind::CpuSteal
                | Kind::Throttled
                | Kind::FewCores
                | Kind::VirtualMachine
                | Kind::Outliers
                | Kind::MachineDrift
        )
    }

    /// What to do about it, fitted to `ctx`; `None` when nothing the user can do would help.
    pub(crate) fn advice(self, ctx: &Context) -> Option<String> {
        let interleave = interleave(ctx);
        let s = |t: &str| Some(t.to_string());
        match self {
            Kind::BusyMachine | Kind::CpuSteal | Kind::MachineDrift => {
                let quiet = if ctx.ci {
                    None
                } else {
                    Some("stop the other work for absolute times")
                };
                join([quiet, interleave])
            }
            Kind::Throttled => {
                if ctx.threads > 1 {
                    s("raise the container's CPU limit, or give the bench fewer threads")
                } else {
                    s("raise the container's CPU limit")
                }
            }
            Kind::SaturatedDevice => s(
                "stop the other I/O, or declare the device the bench measures \
                 (`bottleneck = \"disk\"` or `\"network\"`)",
            ),
            Kind::FrequencyScaling => {
                s("`sudo cpupower frequency-set --governor performance` for steadier numbers")
            }
            Kind::Turbo => s("turn turbo off for steadier numbers \
                 (`echo 1 | sudo tee /sys/devices/system/cpu/intel_pstate/no_turbo`)"),
            Kind::DebugBuild => s("run `cargo bench` (the `bench` profile), not a debug build"),
            Kind::FewCores => {
                let fewer = (ctx.threads > 1).then_some("give the benches fewer threads");
                let quiet = (!ctx.ci).then_some("stop the other work");
                join([quiet, fewer, interleave])
            }
            Kind::VirtualMachine => {
                if ctx.against {
                    // The run already compares two builds in one job.
                    None
                } else {
                    s(
                        "compare two builds in one job (`cargo pilot bench --against REV`), not \
                       with results from another day",
                    )
                }
            }
            Kind::ClockOverhead | Kind::InstrumentationOverhead => s(
                "time more work per unit, or use the micro form (`b.iter`), which batches \
                 iterations",
            ),
            Kind::Outliers => join([(!ctx.ci).then_some("stop the other work"), interleave]),
            Kind::Slowdown | Kind::Leak => s(
                "free or reset what each call keeps, or give each round fresh state (`iter_batched`)",
            ),
            Kind::Speedup => s("raise --min-time so the warm-up ends inside it"),
            Kind::NoSteadyState => s("raise --max-time, or give each call the same work"),
            Kind::ColdStart => s(
                "give a unit more work (rounds then hold enough units to cut the first), or \
                 prepare state outside the timed part (`iter_batched`)",
            ),
            Kind::ProcessModes => None,
        }
    }
}

/// The advice to interleave what is compared, unless the bench already is: a group for a bench
/// alone, `--against` for a run on CI.
fn interleave(ctx: &Context) -> Option<&'static str> {
    match (ctx.grouped, ctx.against, ctx.ci) {
        (true, _, _) | (_, true, _) => None,
        (false, false, true) => {
            Some("compare builds interleaved in one job (`cargo pilot bench --against REV`)")
        }
        (false, false, false) => Some("compare alternatives in a group (interleaved)"),
    }
}

/// The remedies given, joined with `, or `; `None` when there are none.
fn join<const N: usize>(parts: [Option<&str>; N]) -> Option<String> {
    let parts: Vec<&str> = parts.into_iter().flatten().collect();
    (!parts.is_empty()).then(|| parts.join(", or "))
}

#[cfg(test)]
mod tests {
    use super::*;

    const GROUPED: Context = Context {
        grouped: true,
        threads: 1,
        against: false,
        ci: false,
    };
    const ALONE: Context = Context {
        grouped: false,
        threads: 1,
        against: false,
        ci: false,
    };

    fn every_advice(ctx: &Context) -> String {
        Kind::ALL
            .iter()
            .filter_map(|k| k.advice(ctx))
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn a_group_member_is_not_told_to_compare_alternatives_in_a_group() {
        assert!(!every_advice(&GROUPED).contains("group"));
        assert!(
            Kind::BusyMachine
                .advice(&ALONE)
                .unwrap()
                .contains("compare alternatives in a group")
        );
    }

    #[test]
    fn a_bench_on_one_thread_is_not_told_to_use_fewer_threads() {
        assert!(!every_advice(&ALONE).contains("fewer threads"));
        let threaded = Context {
            threads: 4,
            ..ALONE
        };
        assert!(
            Kind::FewCores
                .advice(&threaded)
                .unwrap()
                .contains("fewer threads")
        );
        assert!(
            Kind::Throttled
                .advice(&threaded)
                .unwrap()
                .contains("fewer threads")
        );
    }

    #[test]
    fn a_run_under_against_is_not_told_to_use_against() {
        let against = Context {
            against: true,
            ci: true,
            ..ALONE
        };
        assert!(!every_advice(&against).contains("--against"));
        assert!(
            Kind::VirtualMachine
                .advice(&ALONE)
                .unwrap()
                .contains("--against")
        );
    }

    #[test]
    fn ci_is_told_to_interleave_builds_not_to_stop_the_other_work() {
        let ci = Context { ci: true, ..ALONE };
        let busy = Kind::BusyMachine.advice(&ci).unwrap();
        assert!(
            busy.contains("--against") && !busy.contains("stop the other work"),
            "{busy}"
        );
        assert!(!every_advice(&ci).contains("stop the other work"));
    }

    #[test]
    fn the_common_context_is_grouped_only_when_every_bench_is() {
        let c = Context::common([GROUPED, ALONE]);
        assert!(!c.grouped);
        assert!(Context::common([GROUPED, GROUPED]).grouped);
        let c = Context::common([
            ALONE,
            Context {
                threads: 4,
                ..ALONE
            },
        ]);
        assert_eq!(c.threads, 4);
        assert_eq!(Context::common([]), Context::default());
    }

    #[test]
    fn every_kind_has_its_own_marker_and_parses_back() {
        let mut markers: Vec<&str> = Kind::ALL.iter().map(|k| k.marker()).collect();
        markers.sort_unstable();
        markers.dedup();
        assert_eq!(markers.len(), Kind::ALL.len());
        for k in Kind::ALL {
            assert_eq!(Kind::parse(k.as_str()), Some(k));
            assert!(!k.meaning().is_empty() && !k.label().is_empty());
        }
        assert_eq!(Kind::parse("nonsense"), None);
    }
}
