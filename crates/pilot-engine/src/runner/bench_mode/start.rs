//! The start of a benchmark run: the baseline read, the clock and the machine's speed
//! measured, the run's header and the checks of its set-up.

use std::process::ExitCode;
use std::time::Duration;

use super::{LineStyle, NAME_WIDTH, Run, load_baseline};
use crate::cli::Args;
use crate::record::ClockInfo;
use crate::runner::config::measure_clock_of;
use crate::runner::counting::Valgrind;
use crate::runner::interrupt;
use crate::runner::machine_speed::MachineSpeed;
use crate::runner::processes::inherit;
use crate::runner::registry::Bench;
use crate::runner::resume::RunLog;
use crate::runner::{group, now};
use crate::store;
use pilot_format::{CheckDoc, MachineDoc};

/// What the start of a run says of it and checks.
pub(in crate::runner) struct Announce {
    /// The benches selected and filtered out, when known before the run (not for benches
    /// announced as they run).
    pub(crate) count: Option<(usize, usize)>,
    /// The most threads a bench runs on.
    pub(crate) threads: usize,
    /// Whether the bench target was built without optimisations.
    pub(crate) debug_build: bool,
}

/// The run's header under `--verbose`: how many benches, the clock, the machine's variation.
fn print_header(announce: &Announce, clock: ClockInfo, speed: &MachineSpeed) {
    let count = match announce.count {
        Some((n, out)) => format!(
            "{} ({out} filtered out)",
            crate::fmt::counted(n, "bench", "benches")
        ),
        None => "benches as they are announced".to_string(),
    };
    crate::outln!(
        "\nrunning {count}; {}\n{}",
        clock_line(clock),
        speed.describe()
    );
    if let Some(cost) = crate::allocations::counting_cost() {
        crate::outln!(
            "allocations: counted by pilot::CountingAlloc on each unit's thread, {cost:.2} ns \
             per allocation"
        );
    }
}

/// The clock's line in the run's header: what times units, what a read costs, its resolution.
pub(crate) fn clock_line(clock: ClockInfo) -> String {
    match clock.timer {
        crate::record::Timer::Instant => format!(
            "clock: {:.1} ns per read, resolution {} ns",
            clock.overhead_ns, clock.resolution_ns
        ),
        crate::record::Timer::Tsc(tsc) => format!(
            "clock: TSC at {:.3} GHz (calibrated against Instant), {:.1} ns per read, \
             resolution {:.2} ns",
            tsc.ghz(),
            clock.overhead_ns,
            clock.resolution_ns
        ),
    }
}

/// The checks of the run's set-up (the build, the machine as it starts), with the advice that
/// fits a run of benches on up to `announce.threads` threads.
fn start_checks(
    machine: &MachineDoc,
    announce: &Announce,
    look: Option<crate::checks::system::BusyLook>,
) -> Vec<CheckDoc> {
    let setup = crate::checks::system::Setup {
        debug_build: announce.debug_build,
        threads: announce.threads,
        others_busy: look.and_then(|l| l.end(Duration::from_millis(50))),
        read: &crate::probe::read,
    };
    let mut checks = crate::checks::system::start_checks(machine, &setup);
    let context = crate::checks::advice::Context {
        grouped: false,
        threads: announce.threads,
        against: false,
        ci: machine.ci.is_some(),
    };
    crate::checks::advise(&mut checks, &context);
    checks
}

impl LineStyle {
    /// The style of a run of `selected` as `args` ask: names padded to the longest (benches
    /// announced as they run, for pilot-criterion, are not known yet: half the most).
    fn of_run(args: &Args, selected: &[&Bench]) -> LineStyle {
        LineStyle {
            width: selected
                .iter()
                .map(|b| b.name.chars().count())
                .max()
                .unwrap_or(NAME_WIDTH / 2)
                .min(NAME_WIDTH),
            paint: args.color.for_stdout(),
            verbose: args.verbose,
        }
    }
}

impl<'a> Run<'a> {
    /// Starts a run of `selected` (for benches announced as they run, of none yet): reads the
    /// baseline asked for, measures the clock and the machine's speed, prints the run's
    /// header and checks. An error has been printed when it returns the exit code.
    pub(in crate::runner) fn start(
        args: &'a Args,
        selected: &[&'a Bench],
        announce: Announce,
    ) -> Result<(Self, Option<Vec<store::SavedResult>>), ExitCode> {
        let root = store::target_dir();
        let target = store::bench_target_name();
        interrupt::install();
        inherit(args);
        // Before anything is measured: a run asked to count cannot without Valgrind.
        let valgrind = match args.instructions.then(Valgrind::find).transpose() {
            Ok(v) => v,
            Err(e) => {
                eprintln!("error: {}", crate::fmt::terminal_lines(&e.to_string()));
                return Err(ExitCode::FAILURE);
            }
        };
        let base = load_baseline(&root, args.baseline.as_deref(), &target).map_err(|e| {
            eprintln!("error: {}", crate::fmt::terminal_lines(&e.to_string()));
            ExitCode::FAILURE
        })?;
        let clock = measure_clock_of(args).map_err(|e| {
            eprintln!("error: {}", crate::fmt::terminal_lines(&e));
            ExitCode::FAILURE
        })?;
        // What counting an allocation costs is measured now, at the start, outside any unit.
        let _ = crate::allocations::counting_cost();
        let started = now();
        // How busy the others keep the machine is looked at while the run's record is made
        // and the speed probe runs (what those use is taken off).
        let look = crate::checks::system::BusyLook::begin();
        let mut machine = crate::probe::machine();
        let (speed, speed_warnings) = MachineSpeed::start(&root, &machine, &started);
        machine.speed = Some(speed.doc());
        let verbose = args.verbose;
        if verbose {
            print_header(&announce, clock, &speed);
        }
        for w in speed_warnings {
            crate::outln!("warning: {}", crate::fmt::terminal(&w));
        }
        let start_checks = start_checks(&machine, &announce, look);
        if verbose {
            crate::out!("{}", crate::checks::system::describe(&start_checks));
        }
        if !args.no_sampling && crate::checks::sampler::Sampler::start().is_none() {
            crate::outln!(
                "machine state: not sampled (this system has no /proc/stat to read); \
                 busy-machine, steal, throttling and saturated-device checks are off"
            );
        }
        // Benches known before the run (registered or listed) follow each other with nothing
        // but the runner between them: each one's progress can wait for the next.
        let deferred = announce.count.is_some();
        let log = RunLog::start(args, (&root, &target), &started, deferred).map_err(|e| {
            eprintln!("error: {}", crate::fmt::terminal_lines(&e.to_string()));
            ExitCode::FAILURE
        })?;
        let baseline_flag = args.baseline.is_some() || args.save_baseline.is_some();
        let run = Run {
            args,
            started,
            clock,
            machine,
            speed,
            log,
            groups: group::Groups::new(args, selected),
            processes: args
                .processes
                .or(baseline_flag.then_some(crate::compare::BASELINE_PROCESSES)),
            rows: Vec::new(),
            documents: Vec::new(),
            confidence: 0.95,
            failed: 0,
            root,
            target,
            start_checks,
            style: LineStyle::of_run(args, selected),
            contexts: std::collections::HashMap::new(),
            valgrind,
        };
        if let Some(name) = &args.save_baseline
            && announce.count.is_none_or(|(n, _)| n > 0)
            && store::baselines_dir(&run.root).join(name).is_dir()
        {
            crate::outln!(
                "baseline `{}` exists: the results of these benches replace its own",
                crate::fmt::terminal(name)
            );
        }
        Ok((run, base))
    }

    /// Says where the interrupted run's results are; the exit code of an interrupted run.
    pub(in crate::runner) fn interrupted(&mut self) -> ExitCode {
        self.log.flush();
        interrupt::report(&store::results_dir(&self.root).join(&self.target));
        ExitCode::from(pilot_format::Exit::Interrupted)
    }
}
