//! `Divan`, the runner divan's `main` builds: its configuration, and the run, handed to
//! pilot's runner as a list of benches ([`pilot_engine::runner::listed`]).

use std::ffi::OsString;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::OnceLock;
use std::time::Duration;

use pilot_engine::cli::{Args, Mode as RunMode};
use pilot_engine::entry::{BenchBody, BenchDef};
use pilot_engine::runner::listed::{self, Listed, Table};
use pilot_engine::store::result::Rate;

use crate::bencher::{Context, Mode};
use crate::counter::{BytesCount, BytesFormat, CharsCount, CyclesCount, IntoCounter, ItemsCount};
use crate::filter::{Filters, Pattern};
use crate::list;
use crate::options::BenchOptions;
use crate::tree::{self, Bench};
use crate::{Bencher, cli};

/// What a run does, when the program says rather than its command line.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Action {
    Bench,
    Test,
    List,
}

/// The benchmark runner: `divan::main()` is `Divan::from_args().main()`.
///
/// Its settings hold for every bench, over the attributes' (as divan's do); the command line's
/// flags and `PILOT_*` variables hold over them (pilot's order: flags, variables, attributes).
#[derive(Default)]
pub struct Divan {
    /// Whether the command line is read (`from_args`, `config_with_args`).
    read_args: bool,
    action: Option<Action>,
    options: BenchOptions,
    skips: Vec<Pattern>,
    /// `--ignored` (`Some(true)`) or `--include-ignored` (`Some(false)`).
    ignored: Option<bool>,
}

impl std::fmt::Debug for Divan {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Divan").finish_non_exhaustive()
    }
}

/// The benches of this run, for the body every bench registers with pilot's runner.
static BENCHES: OnceLock<Vec<Bench>> = OnceLock::new();

/// The body of every bench: the bench at `index`, called with a `Bencher` on pilot's.
fn body(index: usize, b: &mut pilot::Bencher) {
    let bench = &BENCHES.get().expect("benches listed before they run")[index];
    let mut context = Context {
        mode: Mode::Run(b),
        threads: bench.threads,
        counters: Default::default(),
    };
    bench.call.call(Bencher::new(&mut context));
}

/// The selection and the throughputs of a run's benches.
struct Run {
    benches: &'static [Bench],
    filters: Filters,
}

impl Table for Run {
    fn selects(&self, _: &Args, index: usize) -> bool {
        let b = &self.benches[index];
        self.filters
            .selects(&b.id, &b.name, b.options.ignore.unwrap_or(false))
    }

    /// The bench's counters: those its options set, then those its `Bencher` sets in a call
    /// of its function that runs the setup and not the routine.
    fn throughput(&self, index: usize) -> Result<Option<Rate>, String> {
        let b = &self.benches[index];
        let mut context = Context {
            mode: Mode::Probe,
            threads: b.threads,
            counters: b.options.counters.clone(),
        };
        let hook = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        let called = catch_unwind(AssertUnwindSafe(|| b.call.call(Bencher::new(&mut context))));
        std::panic::set_hook(hook);
        called.map_err(|payload| {
            payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "the bench panicked".to_string())
        })?;
        Ok(context.counters.shown().map(|(unit, per_unit)| Rate {
            unit: unit.to_string(),
            per_unit,
        }))
    }
}

impl Divan {
    /// Runs the registered benches as the command line says (when read: see
    /// [`from_args`](Divan::from_args)), else measures them. Exits the process with pilot's
    /// exit code when it is not 0 (1 a bench failed, 2 a usage error, 3 a regression against a
    /// baseline, 130 interrupted).
    pub fn main(&self) {
        let code = self.run(self.action);
        if code != std::process::ExitCode::SUCCESS {
            std::process::exit(pilot_engine::runner::driven::exit_status(code));
        }
    }

    /// Measures the registered benches, whatever the command line says of the mode.
    pub fn run_benches(&self) {
        Divan {
            action: Some(Action::Bench),
            ..self.clone_settings()
        }
        .main();
    }

    /// Runs each registered bench once, as a test.
    pub fn test_benches(&self) {
        Divan {
            action: Some(Action::Test),
            ..self.clone_settings()
        }
        .main();
    }

    /// Lists the registered benches.
    pub fn list_benches(&self) {
        Divan {
            action: Some(Action::List),
            ..self.clone_settings()
        }
        .main();
    }

    fn clone_settings(&self) -> Divan {
        Divan {
            read_args: self.read_args,
            action: self.action,
            options: self.options.clone(),
            skips: self.skips.clone(),
            ignored: self.ignored,
        }
    }

    /// The run: pilot's arguments, the benches, pilot's runner.
    fn run(&self, action: Option<Action>) -> std::process::ExitCode {
        let env = |k: &str| std::env::var(k).ok();
        // A process pilot starts to measure one bench always reads its command line.
        let read = self.read_args || std::env::var_os("PILOT_CHILD").is_some();
        let given: Vec<OsString> = if read {
            std::env::args_os().skip(1).collect()
        } else {
            Vec::new()
        };
        let (mut argv, flags) = match cli::translate(given, env) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("error: {}", pilot_engine::fmt::terminal_lines(&e));
                return std::process::ExitCode::from(2);
            }
        };
        let action = action.or((!read).then_some(Action::Bench));
        argv.retain(|a| match action {
            Some(_) => a != "--bench" && a != "--test" && a != "--list",
            None => true,
        });
        match action {
            Some(Action::Bench) => argv.insert(0, "--bench".into()),
            Some(Action::Test) => argv.insert(0, "--test".into()),
            Some(Action::List) => argv.insert(0, "--list".into()),
            None => {}
        }
        match self.ignored {
            Some(true) => argv.push("--ignored".into()),
            Some(false) => argv.push("--include-ignored".into()),
            None => {}
        }
        // The filters are divan's (regular expressions): read here, where a bad one is a
        // usage error before anything runs; pilot's runner reads the rest.
        let parsed = pilot_engine::cli::parse(argv.clone(), env);
        let filters = match &parsed {
            Ok(args) => match Filters::of(args, &self.skips) {
                Ok(f) => f,
                Err(e) => {
                    eprintln!("error: {}", pilot_engine::fmt::terminal_lines(&e));
                    return std::process::ExitCode::from(2);
                }
            },
            // pilot's runner says what is wrong.
            Err(_) => Filters::default(),
        };
        let overrides = BenchOptions {
            threads: flags
                .threads
                .clone()
                .or_else(|| self.options.threads.clone()),
            counters: flags.counters.over(&self.options.counters),
            ..self.options.clone()
        };
        let benches: &'static [Bench] = BENCHES.get_or_init(|| tree::benches(&overrides));
        // `--list` as divan prints it: its tree, or its terse lines for cargo-nextest; pilot's
        // own names (a bench per thread count) when `cargo pilot` asks, or for pilot's probe.
        let own_list = std::env::var_os("PILOT_PROBE").is_none()
            && std::env::var_os(listed::LIST_NAMES).is_none();
        if let (Ok(args), true) = (&parsed, own_list) {
            let text = match args.mode {
                RunMode::ListTerse => Some(list::terse(benches, &filters)),
                RunMode::List => Some(list::painted(benches, &filters, flags.sort.0, flags.sort.1)),
                _ => None,
            };
            if let Some(text) = text {
                pilot_engine::out!("{text}");
                return std::process::ExitCode::SUCCESS;
            }
        }
        let listed: Vec<Listed> = benches
            .iter()
            .enumerate()
            .map(|(i, b)| Listed {
                name: b.name.clone(),
                def: definition(b),
                arg: i,
            })
            .collect();
        listed::main(
            cfg!(debug_assertions),
            Ok(argv),
            listed,
            &Run { benches, filters },
        )
    }
}

/// The registration pilot's runner reads for `b`: its name, place and session options, with
/// the body that calls it. Leaked: one small record per bench, for the process's life.
fn definition(b: &Bench) -> &'static BenchDef {
    let secs = |d: Option<Duration>| d.map(|d| d.as_secs_f64());
    let max_time = secs(b.options.max_time);
    // divan's `max_time` wins over a larger `min_time`; pilot refuses the pair.
    let min_time = match (secs(b.options.min_time), max_time) {
        (Some(min), Some(max)) if min > max => Some(max),
        (min, _) => min,
    };
    Box::leak(Box::new(BenchDef {
        name: Box::leak(b.name.clone().into_boxed_str()),
        module_path: "",
        file: b.file,
        line: b.line,
        body: BenchBody::Micro(body),
        options: pilot_engine::entry::BenchOptions {
            max_time,
            min_time,
            ignore: b.options.ignore.unwrap_or(false),
            ..pilot_engine::entry::BenchOptions::DEFAULT
        },
        args: None,
    }))
}

/// Configuration, as divan's `Divan` has it.
impl Divan {
    /// A runner that reads the command line (divan's flags and pilot's) when it runs.
    pub fn from_args() -> Self {
        Divan::default().config_with_args()
    }

    /// Reads the command line when the runner runs: its flags hold over this runner's
    /// settings.
    #[must_use]
    pub fn config_with_args(mut self) -> Self {
        self.read_args = true;
        self
    }

    /// Accepted, with no effect: pilot colours by `--color` and `NO_COLOR`.
    #[must_use]
    pub fn color(self, _yes: impl Into<Option<bool>>) -> Self {
        self
    }

    /// Runs ignored benches too (`--include-ignored`).
    #[must_use]
    pub fn run_ignored(mut self) -> Self {
        self.ignored = Some(false);
        self
    }

    /// Runs only ignored benches (`--ignored`).
    #[must_use]
    pub fn run_only_ignored(mut self) -> Self {
        self.ignored = Some(true);
        self
    }

    /// Leaves out the benches whose ids `filter`, a regular expression, matches.
    ///
    /// # Panics
    ///
    /// When `filter` is not a regular expression.
    #[must_use]
    #[track_caller]
    pub fn skip_regex(mut self, filter: impl IntoRegex) -> Self {
        self.skips.push(Pattern::Regex(filter.into_regex()));
        self
    }

    /// Leaves out the bench whose id is `filter`.
    #[must_use]
    pub fn skip_exact(mut self, filter: impl Into<String>) -> Self {
        self.skips.push(Pattern::Exact(filter.into()));
        self
    }

    /// Accepted, with no effect: pilot decides its rounds.
    pub fn sample_count(self, _count: u32) -> Self {
        self
    }

    /// Accepted, with no effect: pilot sizes its units.
    pub fn sample_size(self, _count: u32) -> Self {
        self
    }

    /// Every bench's thread counts (0 is the available parallelism).
    pub fn threads<T: IntoIterator<Item = usize>>(mut self, threads: T) -> Self {
        let mut counts: Vec<usize> = threads.into_iter().collect();
        counts.sort_unstable();
        counts.dedup();
        self.options.threads = Some(counts);
        self
    }

    /// Every bench's least session time (pilot's `min_time`).
    pub fn min_time(mut self, time: Duration) -> Self {
        self.options.min_time = Some(time);
        self
    }

    /// Every bench's time cap (pilot's `max_time`).
    pub fn max_time(mut self, time: Duration) -> Self {
        self.options.max_time = Some(time);
        self
    }

    /// Accepted, with no effect.
    pub fn skip_ext_time(self, _skip: bool) -> Self {
        self
    }

    /// What every bench's iterations process.
    pub fn counter<C: IntoCounter>(mut self, counter: C) -> Self {
        self.options.counters.insert(counter);
        self
    }

    /// Items every bench's iterations process.
    pub fn items_count<C: Into<ItemsCount>>(self, count: C) -> Self {
        self.counter(count.into())
    }

    /// Bytes every bench's iterations process.
    pub fn bytes_count<C: Into<BytesCount>>(self, count: C) -> Self {
        self.counter(count.into())
    }

    /// `char`s every bench's iterations process.
    pub fn chars_count<C: Into<CharsCount>>(self, count: C) -> Self {
        self.counter(count.into())
    }

    /// Cycles every bench's iterations process.
    pub fn cycles_count<C: Into<CyclesCount>>(self, count: C) -> Self {
        self.counter(count.into())
    }

    /// Accepted, with no effect: pilot shows bytes with binary prefixes.
    pub fn bytes_format(self, _format: BytesFormat) -> Self {
        self
    }
}

/// A regular expression for [`Divan::skip_regex`]: a string, or a built `regex::Regex`.
pub trait IntoRegex {
    /// The expression.
    ///
    /// # Panics
    ///
    /// When a string is not a regular expression.
    fn into_regex(self) -> regex::Regex;
}

impl IntoRegex for regex::Regex {
    fn into_regex(self) -> regex::Regex {
        self
    }
}

impl IntoRegex for &str {
    #[track_caller]
    fn into_regex(self) -> regex::Regex {
        regex::Regex::new(self).unwrap_or_else(|e| panic!("{e}"))
    }
}

impl IntoRegex for String {
    #[track_caller]
    fn into_regex(self) -> regex::Regex {
        self.as_str().into_regex()
    }
}

impl IntoRegex for &String {
    #[track_caller]
    fn into_regex(self) -> regex::Regex {
        self.as_str().into_regex()
    }
}
