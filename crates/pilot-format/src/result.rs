//! A bench's result document (`pilot.result/1`) and its parts: the performance indices and
//! their intervals, the rounds, the processes, the checks that fired, the clock.

use serde::{Deserialize, Serialize};

use crate::MachineDoc;

mod pi;
mod profile;

pub use pi::{
    BandDoc, CiDoc, LearningDoc, MEAN_TIME_PI, MachinePartDoc, PiDoc, ReproducibilityDoc,
};
pub use profile::{AllocationSiteDoc, FunctionDoc, ProfileDoc, StackDoc};

/// Schema name of a bench's result document.
pub const RESULT_SCHEMA: &str = "pilot.result/1";

/// The target under which command-line programs' results are kept (`cargo pilot run`, and
/// hyperfine's imported runs): each of their readings is a process of its own, so their spread
/// holds what differs between processes, as a bench's between-process spread does. No bench
/// target can have this name (a crate's name holds no `.`), so a user's bench target named
/// `run` keeps results of its own. pilot 0.1 kept programs' results under `run`.
pub const PROGRAM_TARGET: &str = "run.programs";

/// The statuses a result may have, as written.
pub const STATUSES: [&str; 9] = [
    "ok",
    "time cap",
    "out of reach",
    "settled",
    "no steady state",
    "below clock resolution",
    "below shell resolution",
    "unresolved",
    "failed",
];

/// One bench's result (`pilot.result/1`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ResultDoc {
    /// Always [`RESULT_SCHEMA`].
    pub schema: String,
    /// The bench's name, e.g. `sort/1000` or `parse::json`.
    pub name: String,
    /// The bench target (binary); empty in a child process's document.
    #[serde(default)]
    pub target: String,
    /// How its units were timed; `full` when a document leaves it out.
    #[serde(default)]
    pub form: crate::Form,
    /// How the session ended: one of [`STATUSES`].
    pub status: String,
    /// Why the bench failed, when it did; below a resolution, which one (the clock's smallest
    /// step, or the uncertainty of a program's subtracted shell start-up); for a program
    /// (`cargo pilot run`) whose session was cut at its time cap, the command that was
    /// killed.
    #[serde(default)]
    pub status_detail: Option<String>,
    /// The performance indices: `time` first, `throughput` when the bench names a unit.
    /// Without an estimate of the time (a `status` other than `ok`), no `time`: empty, or only
    /// the counts (`instructions`, `estimated_cycles`) when they were counted. Read the time
    /// with [`ResultDoc::time`].
    pub pis: Vec<PiDoc>,
    /// The estimate's independent samples, for later comparisons (Pilot §III-F); `null`
    /// without an estimate.
    #[serde(default)]
    pub subsession: Option<SubsessionDoc>,
    /// The settings the session ran with.
    #[serde(default)]
    pub config: ConfigDoc,
    /// Every round, in order.
    #[serde(default)]
    pub rounds: Vec<RoundDoc>,
    /// The process executions the estimate came from.
    #[serde(default)]
    pub processes: ProcessesDoc,
    /// Unit readings removed as warm-up or cool-down.
    #[serde(default)]
    pub removed_readings: u64,
    /// Unit readings seen in analysed rounds.
    #[serde(default)]
    pub readings: u64,
    /// Iterations per timed unit in the micro form; `null` otherwise.
    #[serde(default)]
    pub iterations_per_unit: Option<u64>,
    /// What reading the clock costs.
    #[serde(default)]
    pub clock: ClockDoc,
    /// What the session warned about.
    #[serde(default)]
    pub warnings: Vec<String>,
    /// The machine it ran on; `null` in a child process's document.
    #[serde(default)]
    pub machine: Option<MachineDoc>,
    /// When the session started (RFC 3339, UTC).
    #[serde(default)]
    pub started: String,
    /// When it finished (RFC 3339, UTC).
    #[serde(default)]
    pub finished: String,
    /// Its wall time in seconds.
    #[serde(default)]
    pub elapsed_s: f64,
    /// Throughput per thread and on all threads, for a bench run on several threads.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub threads: Option<ThreadsDoc>,
    /// The accuracy checks that fired, each a named `kind` with its figures; their messages
    /// are among `warnings` too.
    #[serde(default)]
    pub checks: Vec<CheckDoc>,
    /// How the readings behaved over the session (Barrett et al.'s classes): `flat`,
    /// `warm-up`, `slowdown` or `no steady state`; `null` without readings to judge.
    #[serde(default)]
    pub warm_up: Option<String>,
    /// The outliers counted among the stable readings (never dropped); `null` in
    /// readings-only mode.
    #[serde(default)]
    pub outliers: Option<OutliersDoc>,
    /// What recording each unit costs (full form), when it was measured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub overhead: Option<OverheadDoc>,
    /// Whether the machine's state was sampled between rounds: `sampled`, `not sampled` (the
    /// system has no /proc to read), or `off` (`--no-sampling`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub machine_state: Option<String>,
    /// How the `allocations` and `allocated_bytes` PIs were counted, when a `CountingAlloc`
    /// counted them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allocations: Option<AllocationsDoc>,
    /// The work the workload did before its steady state, when it warmed up (`warm_up` is
    /// `warm-up`): in several processes, every process after the one that showed it runs this
    /// much unmeasured before its session.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub warm_up_work: Option<WarmUpWorkDoc>,
    /// The work a process ran unmeasured before its session: the warm-up its bench's earlier
    /// processes showed. Written by the child processes of pilot 0.1.0 for their parent (later
    /// ones report in a message of their own); absent from saved results.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub warm_up_skipped: Option<WarmUpWorkDoc>,
    /// How the `instructions` PI (and `estimated_cycles`) were counted (`--instructions`);
    /// absent when they were not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counts: Option<CountsDoc>,
}

impl ResultDoc {
    /// The `time` PI (`pis[0]`): the time per unit, in ns; `None` without an estimate.
    pub fn time(&self) -> Option<&PiDoc> {
        self.pis.first().filter(|p| p.name == "time")
    }

    /// The `time` PI, to change it.
    pub fn time_mut(&mut self) -> Option<&mut PiDoc> {
        self.pis.first_mut().filter(|p| p.name == "time")
    }
}

/// The name of the PI of instructions per unit (per iteration in the micro form), counted
/// under callgrind (`--instructions`).
pub const INSTRUCTIONS_PI: &str = "instructions";

/// The name of the PI of cycles per unit estimated from callgrind's cache simulation
/// (`--instructions --cache-sim`).
pub const CYCLES_PI: &str = "estimated_cycles";

/// How a result's counts were taken: in processes of their own under Valgrind's callgrind,
/// collection on only around the units.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CountsDoc {
    /// What counted: `callgrind`, with Valgrind's version (`callgrind (valgrind-3.19.0)`).
    pub tool: String,
    /// Each counting process's instructions per unit (the mean of its rounds' samples).
    pub process_means: Vec<f64>,
    /// Each process's estimated cycles per unit, with a cache simulation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cycles_process_means: Option<Vec<f64>>,
    /// Counted rounds in each process (after an uncounted warm-up round).
    pub rounds: usize,
    /// Work units in each round (1 for a readings-only round, counted whole).
    pub units_per_round: u64,
    /// Iterations in each unit of the first round (the micro form's odd rounds; even rounds
    /// have twice as many), or a readings-only round's work amount.
    pub iterations_per_unit: u64,
    /// Instructions an empty unit counted: what switching collection on and off around a unit
    /// costs, taken off each unit.
    pub empty_unit: f64,
    /// Seconds the counting took, every process included.
    pub elapsed_s: f64,
    /// Where the instructions go, by function and by call stack; absent from documents
    /// written before pilot read callgrind's output by function.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub profile: Option<ProfileDoc>,
}

/// The work a warm-up took.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct WarmUpWorkDoc {
    /// Iterations of the routine (units in the full form) before the steady state.
    pub iterations: u64,
    /// Their wall time in seconds.
    pub seconds: f64,
}

/// The performance indices a `CountingAlloc`'s counts become, per unit (per iteration in the
/// micro form): `allocations` (unit `allocs`: `alloc`, `alloc_zeroed` and `realloc` calls) and
/// `allocated_bytes` (unit `B`: the sizes they asked for).
pub const ALLOCATION_PIS: [&str; 2] = ["allocations", "allocated_bytes"];

/// How a result's allocation PIs were counted, and what counting cost.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct AllocationsDoc {
    /// Reallocations per unit (counted among `allocations` too), mean.
    pub reallocations: f64,
    /// Deallocations per unit, mean.
    pub deallocations: f64,
    /// Nanoseconds counting adds to one allocation (and its free), measured at the start of the
    /// run; `null` when unknown.
    pub cost_ns: Option<f64>,
    /// `cost_ns` times the allocations per unit, over the time per unit: the share of the
    /// `time` PI that counting is; `null` without a time.
    pub share_of_unit: Option<f64>,
}

/// The full form's instrumentation overhead: blocks of rounds with unit recording on and off.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OverheadDoc {
    /// Extra time per unit with recording on, ns: the 20%-trimmed mean of the blocks'
    /// differences.
    pub per_unit_ns: f64,
    /// Its interval over the blocks.
    pub ci: CiDoc,
    /// `per_unit_ns` over the time per unit; `null` without an estimate.
    pub share_of_unit: Option<f64>,
    /// Blocks of four rounds it came from (`pairs` of two rounds in older documents).
    #[serde(alias = "pairs")]
    pub blocks: usize,
    /// The half-width the measurement aimed at, ns: 2% of a unit or two clock reads,
    /// whichever is larger; `null` in older documents.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target_ns: Option<f64>,
    /// Whether the interval got as narrow as `target_ns` (`false`: the session was too short
    /// for it); `null` in older documents.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reached: Option<bool>,
    /// Seconds the blocks took (in all of the bench's processes), at most a sixth of the
    /// sessions'; `null` in older documents.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_s: Option<f64>,
    /// Each sample's difference per unit (two consecutive blocks'), ns: written by the child
    /// processes of pilot 0.1.0 for their parent, which pools them (later ones report in a
    /// message of their own); absent from saved results.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub samples_ns: Vec<f64>,
}

/// The warm-up classes a result may have, as written.
pub const WARM_UP_CLASSES: [&str; 4] = ["flat", "warm-up", "slowdown", "no steady state"];

/// An accuracy check that fired: `{"kind", "message", ...figures}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CheckDoc {
    /// What was checked: `busy_machine`, `cpu_steal`, `throttled`, `saturated_device`,
    /// `frequency_scaling`, `turbo`, `debug_build`, `few_cores`, `virtual_machine`,
    /// `instrumentation_overhead`, `clock_overhead`, `outliers`, `slowdown`, `speedup`, `leak`,
    /// `machine_drift`, `no_steady_state`, `cold_start` (the book's "Accuracy checks").
    pub kind: String,
    /// The plain-language warning, with its remedy.
    pub message: String,
    /// The figures behind it, named by the check (e.g. `others_cores`, `p`, `bytes_per_round`).
    #[serde(flatten)]
    pub figures: serde_json::Map<String, serde_json::Value>,
}

/// Outliers among a result's stable readings, by two rules.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct OutliersDoc {
    /// Readings beyond 3 standard deviations of their round's mean.
    pub z: usize,
    /// Readings beyond 3.5 robust scales (`MAD / 0.6745`) of their round's median.
    pub mad: usize,
    /// Stable readings looked at.
    pub readings: usize,
    /// How much the z-score outliers move the mean: `mean(all) / mean(without them) − 1`.
    #[serde(default)]
    pub effect_on_mean: f64,
}

/// Count, mean and variance of the estimate's independent samples: the subsession means of
/// the unit readings; the processes' estimates; or a readings-only fit's points, with the
/// variance stated so that `variance / count` is the slope's squared standard error.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SubsessionDoc {
    /// Number of samples.
    pub count: usize,
    /// Their mean.
    pub mean: f64,
    /// Their sample variance (n − 1 denominator), before inflation.
    pub variance: f64,
    /// Factor for the correlation left between the samples.
    pub variance_inflation: f64,
    /// The samples themselves, when there are at most 10 000 (else `null`).
    #[serde(default)]
    pub means: Option<Vec<f64>>,
}

/// The settings a session ran with.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct ConfigDoc {
    /// Target half-width relative to the mean.
    pub ci: f64,
    /// Confidence level.
    pub confidence: f64,
    /// Time cap, seconds.
    pub max_time: f64,
    /// Least session time, seconds.
    pub min_time: f64,
}

/// One round.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RoundDoc {
    /// Work amount.
    pub work: u64,
    /// Wall time, setup included.
    pub duration_ns: u64,
    /// Unit readings (0 in readings-only mode).
    pub units: usize,
    /// The stable phase `[start, end)` of its readings, when it was analysed and had one.
    pub stable: Option<[usize; 2]>,
    /// Whether it went into the analysis.
    pub analysed: bool,
    /// The process's resident memory after the round, in bytes, where it can be read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rss_bytes: Option<u64>,
    /// The checks of the machine's state that touched this round (e.g. `busy_machine`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub marks: Vec<String>,
    /// The machine's state during the round, when it was sampled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub machine: Option<RoundMachineDoc>,
    /// The round's unit readings (ns, per iteration in the micro form) summarised in bins of
    /// consecutive readings, each with its least, mean and greatest value, for plots: at most
    /// 64 bins a round and about [`MAX_READING_BINS`] in the whole document (one a round at
    /// least). Absent in readings-only
    /// mode and in documents of older writers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub readings: Option<crate::ReadingBins>,
}

/// Most reading bins a result document holds over all its rounds, so that a session of 10⁶
/// readings stays a document of a few hundred kB.
pub const MAX_READING_BINS: usize = 4096;

/// The machine's state during one round (the sample intervals it overlapped, weighed by the
/// overlap).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct RoundMachineDoc {
    /// Cores other processes kept busy.
    pub others_cores: f64,
    /// Cores this process kept busy.
    pub own_cores: f64,
    /// Share of the CPU time stolen by the hypervisor.
    pub steal: f64,
    /// Share of the CPU time spent waiting for I/O.
    pub iowait: f64,
    /// Share of the time the process's cgroup was throttled.
    pub throttled: f64,
    /// Share of the time some task waited for a CPU (`/proc/pressure/cpu`), where the kernel
    /// has it.
    #[serde(default)]
    pub cpu_pressure: Option<f64>,
}

/// The process executions an estimate came from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProcessesDoc {
    /// How many (1 for a session in the bench's own process).
    pub count: usize,
    /// Each one's estimate, when there were several (else empty).
    pub means: Vec<f64>,
}

impl Default for ProcessesDoc {
    fn default() -> Self {
        ProcessesDoc {
            count: 1,
            means: Vec::new(),
        }
    }
}

/// What timed the units, and what reading it costs.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct ClockDoc {
    /// Nanoseconds per read.
    pub overhead_ns: f64,
    /// Smallest step seen, nanoseconds.
    pub resolution_ns: f64,
    /// Two reads' share of one timed unit; `null` without an estimate.
    pub share_of_unit: Option<f64>,
    /// `tsc` when the time-stamp counter timed the units (`--timer tsc`); absent for
    /// `std::time::Instant`, the default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timer: Option<String>,
    /// The time-stamp counter's rate found against `Instant`, in GHz (with `timer: "tsc"`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tsc_ghz: Option<f64>,
}

/// Throughput of a bench run on several threads, units per second.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ThreadsDoc {
    /// Threads that ran the workload at once.
    pub count: usize,
    /// One thread's throughput.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub per_thread: Option<RateDoc>,
    /// All threads' throughput.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub aggregate: Option<RateDoc>,
}

/// A rate with its interval; `high` is `null` when unbounded.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct RateDoc {
    /// Mean.
    pub mean: f64,
    /// Lower bound.
    pub low: f64,
    /// Upper bound.
    pub high: Option<f64>,
}
