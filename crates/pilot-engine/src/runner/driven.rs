//! Benches announced at run time, one at a time, by the code that defines them: the engine of
//! `pilot-criterion`, whose `bench_function` calls [`bench()`] with a closure that borrows the
//! caller's data, where `#[pilot::bench]` registers a function before `main` runs.
//!
//! The first call reads the command line; each bench then runs at once, in the mode the command
//! line asks for (list, test, benchmark, or a child process of `--processes`), under the same
//! sessions, checks, result files and baselines as registered benches; [`finish`] prints the
//! table, compares with the baseline and gives the exit code. A bench announced while another
//! runs (from inside its closure) is refused: it would be timed inside the first.
//!
//! With `--compare-across PATTERN` in benchmark mode, the benches the pattern pairs
//! ([`Pairing`]) are not measured as they come: their partners may come later, in another
//! group. At [`finish`], each comparison's members run interleaved by processes and are
//! ranked, in the order of their first member.

use std::collections::HashSet;
use std::ffi::OsString;
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::across::Pairing;
use super::bench_mode::{Announce, Run};
use super::panics::{NEVER_ITERATED, catch};
use super::registry::Bench;
use super::selection::Selection;
use crate::cli::{self, Args, FilterSyntax, Mode};
use crate::entry::{BenchBody, BenchDef, BenchOptions};
use crate::record::{Bencher, BencherMode};
use crate::store::{self, SavedResult, result::Rate};

mod together;

/// A bench as its defining code announces it.
#[derive(Debug, Clone, Default)]
pub struct Announced<'a> {
    /// The bench's full name, e.g. `group/function/parameter`.
    pub name: &'a str,
    /// The session's time cap, when the defining code sets one (a flag wins over it).
    pub max_time: Option<Duration>,
    /// The confidence level, when the defining code sets one (a flag wins over it).
    pub confidence: Option<f64>,
    /// What one iteration processes: a unit (`B`, `elem`, `bit`) and how many of it.
    pub throughput: Option<(&'static str, u64)>,
    /// The input the bench runs on, when its group varies one (`BenchmarkId`'s parameter):
    /// under `--compare-groups`, a group's benches are ranked among those with the same.
    pub parameter: Option<&'a str>,
}

/// The run of this process, made by the first announcement.
static STATE: Mutex<Option<State>> = Mutex::new(None);

struct State {
    args: &'static Args,
    /// The benches the command line selects.
    selection: Selection,
    /// `--compare-across`'s comparisons.
    across: Option<Pairing>,
    /// Indices into `benches` of the benches `across` paired, measured at the end (their
    /// [`Bench::group`] is their comparison).
    deferred: Vec<usize>,
    /// Names announced so far, selected or not (two benches may not share one).
    names: HashSet<String>,
    /// The selected benches announced so far, in order.
    benches: Vec<Bench>,
    filtered_out: usize,
    /// Benchmark mode's run, started by its first selected bench.
    run: Option<(Run<'static>, Option<Vec<SavedResult>>)>,
    /// Test mode's tally.
    passed: usize,
    failures: Vec<(String, String)>,
    started: Instant,
    /// A child process's exit code, once its bench ran.
    child: Option<ExitCode>,
    /// `--fail-fast` after a failure: later benches are not run.
    stopped: bool,
    /// The group open under `--compare-groups`, and its members announced so far.
    group: Option<(String, Vec<Bench>)>,
    debug_build: bool,
}

/// Reads the command line, unless done already: answers `cargo pilot`'s probe and `--help`, and
/// exits on a usage error, before any bench's setup runs. The defining code calls it as its
/// configuration is read (`debug_build` is `cfg!(debug_assertions)` in the bench's build).
/// Filters are libtest's substrings.
pub(crate) fn start(debug_build: bool) {
    start_with(debug_build, FilterSyntax::Substring, || {
        Ok(std::env::args_os().skip(1).collect())
    });
}

/// [`start`] with the filters read in `syntax` (pilot-criterion passes
/// [`FilterSyntax::Regex`], as criterion reads them) and the arguments `args` gives (the
/// program's own, translated by the defining crate; an error is a usage error).
pub fn start_with(
    debug_build: bool,
    syntax: FilterSyntax,
    args: impl FnOnce() -> Result<Vec<OsString>, String>,
) {
    let mut guard = lock();
    if guard.is_none() {
        *guard = Some(State::new(debug_build, syntax, args));
    }
}

/// The process exit status of `code`, one of the runner's: 0, 1, 2, 3 or 130.
pub fn exit_status(code: ExitCode) -> i32 {
    [0u8, 1, 2, 3, pilot_format::Exit::Interrupted.code()]
        .into_iter()
        .find(|&n| ExitCode::from(n) == code)
        .map_or(1, i32::from)
}

/// Runs the bench `bench` announces, whose body is `body`: a micro-form bench, called once per
/// round with a [`Bencher`] on which it calls one `iter` method. In list mode it is listed, in
/// test mode run once; a bench the filters leave out is only counted.
pub fn bench(bench: Announced<'_>, body: &mut dyn FnMut(&mut Bencher)) {
    start(cfg!(debug_assertions));
    let mut guard = STATE.try_lock().unwrap_or_else(|_| {
        panic!(
            "bench `{}` was announced while another bench ran (from inside its closure): \
             benches cannot be nested",
            bench.name
        )
    });
    let state = guard.as_mut().expect("started");
    state.bench(&bench, body);
}

/// Opens group `name` (`Some`), or closes the group open (`None`); either way the benches of
/// a group open until then are measured now. With `--compare-groups` in benchmark mode, the
/// benches announced while a group is open are not measured as they come but together when it
/// closes, interleaved by processes (each process announces its bench again), and ranked as
/// one of pilot's groups. Without the flag, or in another mode, a group changes nothing.
pub fn group(name: Option<&str>) {
    start(cfg!(debug_assertions));
    let mut guard = lock();
    let state = guard.as_mut().expect("started");
    state.flush_group();
    if let Some(name) = name
        && state.args.compare_groups
        && state.args.mode == Mode::Bench
    {
        state.group = Some((name.to_string(), Vec::new()));
    }
}

/// Ends the run: the table, the comparison with a baseline and the run document in benchmark
/// mode, libtest's summary in test mode, the count in list mode. Returns the exit code (0 ok,
/// 1 a bench failed, 3 a regression against the baseline).
pub fn finish() -> ExitCode {
    start(cfg!(debug_assertions));
    let state = lock().take().expect("started");
    state.finish()
}

fn lock() -> std::sync::MutexGuard<'static, Option<State>> {
    // A bench's panic is caught inside its session: the lock is never held by a panic, but a
    // poisoned one still holds a good state.
    STATE.lock().unwrap_or_else(|e| e.into_inner())
}

/// The body of an announced bench's registration: never called, as the closure stands in for
/// it (see [`super::workload::Closure`]).
fn announced_body(_: usize, _: &mut Bencher) {
    unreachable!("an announced bench runs its closure")
}

impl State {
    fn new(
        debug_build: bool,
        syntax: FilterSyntax,
        args: impl FnOnce() -> Result<Vec<OsString>, String>,
    ) -> State {
        if std::env::var_os("PILOT_PROBE").is_some() {
            // `cargo pilot` asks whether this is a pilot binary; announced benches are in no
            // pilot group, so `PILOT_PROBE=groups` lists none.
            crate::outln!("pilot-harness {}", env!("CARGO_PKG_VERSION"));
            std::process::exit(0);
        }
        let args = match args()
            .and_then(|a| cli::parse(a, |k| std::env::var(k).ok()).map_err(|e| e.to_string()))
        {
            Ok(a) => a,
            Err(e) => {
                eprintln!("error: {}", crate::fmt::terminal_lines(&e));
                std::process::exit(2);
            }
        };
        if args.mode == Mode::Help {
            crate::out!("{}", cli::help(pilot_settings::SETTINGS, syntax));
            std::process::exit(0);
        }
        let usage = |e: crate::settings::UsageError| -> ! {
            eprintln!("error: {}", crate::fmt::terminal_lines(&e.to_string()));
            std::process::exit(2);
        };
        let selection = Selection::new(&args, syntax).unwrap_or_else(|e| usage(e));
        let across = args
            .compare_across
            .as_deref()
            .map(|p| Pairing::new(p).unwrap_or_else(|e| usage(e)));
        if args.mode == Mode::Test {
            crate::outln!("\nrunning benches as they are announced");
        }
        State {
            args: Box::leak(Box::new(args)),
            selection,
            across,
            deferred: Vec::new(),
            names: HashSet::new(),
            benches: Vec::new(),
            filtered_out: 0,
            run: None,
            passed: 0,
            failures: Vec::new(),
            started: Instant::now(),
            child: None,
            stopped: false,
            group: None,
            debug_build,
        }
    }

    fn bench(&mut self, announced: &Announced<'_>, body: &mut dyn FnMut(&mut Bencher)) {
        let name = announced.name;
        if !self.names.insert(name.to_string()) {
            eprintln!(
                "error: two benches are named `{}`; give one another name",
                crate::fmt::terminal(name)
            );
            std::process::exit(2);
        }
        if let Err(e) = store::check_names([name]) {
            eprintln!("error: {}", crate::fmt::terminal_lines(&e.to_string()));
            std::process::exit(2);
        }
        if !self.selection.selects(name, false) {
            self.filtered_out += 1;
            return;
        }
        let b = registration(announced);
        if let Err(e) = super::config::check_session_config(self.args, b.def) {
            eprintln!(
                "error: bench `{}`: {}",
                crate::fmt::terminal(name),
                crate::fmt::terminal_lines(&e.to_string())
            );
            std::process::exit(2);
        }
        if self.stopped {
            return;
        }
        let mut b = b;
        if self.args.mode == Mode::Bench
            && let Some(key) = self.across.as_ref().and_then(|p| p.key(name))
        {
            b.group = Some(key);
            self.deferred.push(self.benches.len());
            self.benches.push(b);
            return;
        }
        if let Some((group, members)) = &mut self.group {
            // Compared alternatives are the benches of a group on the same input.
            b.group = Some(match announced.parameter {
                Some(p) => format!("{group}/{p}"),
                None => group.clone(),
            });
            members.push(b);
            return;
        }
        match self.args.mode {
            Mode::List | Mode::ListTerse => {
                crate::outln!("{}: benchmark", crate::fmt::terminal(name))
            }
            Mode::Test => self.test(&b, body),
            Mode::Child => {
                if self.child.is_some() {
                    eprintln!(
                        "error: a pilot child process needs one bench (--exact NAME) and \
                         --json FILE"
                    );
                    std::process::exit(2);
                }
                self.child = Some(super::processes::child_session(self.args, &b, Some(body)));
            }
            Mode::Bench => self.measure(&b, body),
            Mode::Help => unreachable!("help exits at the start"),
        }
        self.benches.push(b);
    }

    /// Test mode: one call with a single iteration, reported as libtest reports a test.
    fn test(&mut self, b: &Bench, body: &mut dyn FnMut(&mut Bencher)) {
        let mut bencher = Bencher::new(BencherMode::Test);
        let outcome = catch(|| body(&mut bencher)).and_then(|()| {
            if bencher.was_called() {
                Ok(())
            } else {
                Err(NEVER_ITERATED.to_string())
            }
        });
        match outcome {
            Ok(()) => {
                self.passed += 1;
                crate::outln!("test {} ... ok", crate::fmt::terminal(&b.name));
            }
            Err(msg) => {
                crate::outln!("test {} ... FAILED", crate::fmt::terminal(&b.name));
                self.failures.push((b.name.clone(), msg));
                self.stopped = self.args.fail_fast;
            }
        }
    }

    /// Benchmark mode's run, started at its first bench.
    fn run(&mut self) -> &mut Run<'static> {
        if self.run.is_none() {
            let announce = Announce {
                count: None,
                threads: 1,
                debug_build: self.debug_build,
            };
            match Run::start(self.args, &[], announce) {
                Ok(run) => self.run = Some(run),
                // The error was printed; the defining code's remaining benches cannot be
                // unwound to.
                Err(_) => std::process::exit(1),
            }
        }
        &mut self.run.as_mut().expect("started").0
    }

    /// Benchmark mode: the bench's session, its result saved and shown.
    fn measure(&mut self, b: &Bench, body: &mut dyn FnMut(&mut Bencher)) {
        let run = self.run();
        if run.bench(b, Some(body)).is_break() {
            run.interrupted();
            std::process::exit(i32::from(pilot_format::Exit::Interrupted.code()));
        }
        self.stopped = run.failed > 0 && self.args.fail_fast;
    }

    fn finish(mut self) -> ExitCode {
        self.flush_group();
        let paired = !self.deferred.is_empty();
        self.measure_deferred();
        if let (Mode::Bench, Some(pattern), false) = (
            self.args.mode,
            self.args.compare_across.as_deref(),
            paired || self.benches.is_empty(),
        ) {
            // Exit code 0 all the same, as for a filter: cargo gives every bench target the
            // same flags, and one target whose ids the pattern does not name is no mistake.
            // What was asked for did not happen, though, and is said.
            eprintln!(
                "pilot: --compare-across `{}` matched no bench (of {} measured): nothing was \
                 compared across groups",
                crate::fmt::terminal(pattern),
                self.benches.len()
            );
        }
        if self.benches.is_empty() && self.selection.by_name() && self.args.mode != Mode::Child {
            // Exit code 0 all the same: cargo gives every bench target the same filters, and
            // one target without a match is no mistake (`cargo pilot bench`, which sees them
            // all, makes a filter that matches in none a usage error).
            eprintln!("pilot: {}", self.selection.no_match());
        }
        let selected: Vec<&Bench> = self.benches.iter().collect();
        match self.args.mode {
            Mode::List | Mode::ListTerse => {
                if self.args.mode == Mode::List {
                    crate::outln!(
                        "\n{}",
                        crate::fmt::counted(selected.len(), "benchmark", "benchmarks")
                    );
                }
                ExitCode::SUCCESS
            }
            Mode::Test => {
                if !self.failures.is_empty() {
                    crate::outln!("\nfailures:");
                    for (name, msg) in &self.failures {
                        crate::outln!(
                            "    {}: {}",
                            crate::fmt::terminal(name),
                            crate::fmt::terminal_lines(msg)
                        );
                    }
                }
                crate::outln!(
                    "\ntest result: {}. {} passed; {} failed; 0 ignored; 0 measured; {} \
                     filtered out; finished in {:.2}s\n",
                    if self.failures.is_empty() {
                        "ok"
                    } else {
                        "FAILED"
                    },
                    self.passed,
                    self.failures.len(),
                    self.filtered_out,
                    self.started.elapsed().as_secs_f64()
                );
                if self.failures.is_empty() {
                    ExitCode::SUCCESS
                } else {
                    ExitCode::FAILURE
                }
            }
            Mode::Child => self.child.unwrap_or_else(|| {
                eprintln!(
                    "error: a pilot child process needs one bench (--exact NAME) and --json FILE"
                );
                ExitCode::from(2)
            }),
            Mode::Bench => match self.run {
                Some((run, base)) => run.finish(&selected, base.as_deref()),
                None => ExitCode::SUCCESS,
            },
            Mode::Help => ExitCode::SUCCESS,
        }
    }
}

/// The registration an announced bench runs under: its settings as a `#[pilot::bench]`
/// attribute's, its body the closure. Leaked: one small record per bench, for the process's
/// life, as a registration's is.
fn registration(announced: &Announced<'_>) -> Bench {
    let name: &'static str = Box::leak(announced.name.to_string().into_boxed_str());
    let def: &'static BenchDef = Box::leak(Box::new(BenchDef {
        name,
        module_path: "",
        file: "",
        line: 0,
        body: BenchBody::Micro(announced_body),
        options: BenchOptions {
            max_time: announced.max_time.map(|t| t.as_secs_f64()),
            confidence: announced.confidence,
            ..BenchOptions::DEFAULT
        },
        args: None,
    }));
    Bench {
        name: name.to_string(),
        def,
        arg: 0,
        threads: 1,
        group: None,
        broken: None,
        rate: announced.throughput.map(|(unit, per)| Rate {
            unit: unit.to_string(),
            per_unit: per as f64,
        }),
    }
}
