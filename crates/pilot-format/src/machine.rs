//! The machine documents: the machine a result was measured on, its speed during a run, and
//! the speed probe's history over runs (`target/pilot/machine.json`).

use serde::{Deserialize, Serialize};

/// The machine a result was measured on (fields that could not be read are `null`).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct MachineDoc {
    /// CPU model.
    #[serde(default)]
    pub cpu: Option<String>,
    /// Logical cores available to the process.
    #[serde(default)]
    pub cores: Option<usize>,
    /// cpufreq governor of CPU 0.
    #[serde(default)]
    pub governor: Option<String>,
    /// Operating system (`linux`, `macos`, …).
    #[serde(default)]
    pub os: String,
    /// CPU architecture.
    #[serde(default)]
    pub arch: String,
    /// Kernel release.
    #[serde(default)]
    pub kernel: Option<String>,
    /// pilot's version.
    #[serde(default)]
    pub pilot: String,
    /// The git commit of the working directory.
    #[serde(default)]
    pub git_commit: Option<String>,
    /// Whether the working tree had uncommitted changes to tracked files.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub git_dirty: Option<bool>,
    /// Physical memory, bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory_bytes: Option<u64>,
    /// The compiler that built the bench (`rustc -V`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rustc: Option<String>,
    /// Operating system name and version (`PRETTY_NAME` of /etc/os-release).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub os_release: Option<String>,
    /// The 1-minute load average when the run started.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub load: Option<f64>,
    /// The hypervisor or container the run was seen inside (`kvm`, `docker`, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub virtualization: Option<String>,
    /// The CI service the run was seen on (`github-actions`, `gitlab`, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ci: Option<String>,
    /// The machine's speed as the probe saw it during this run, and its run-to-run variation
    /// as learnt from earlier runs; absent when the run did not probe (a child process, a
    /// document older than the probe).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub speed: Option<SpeedDoc>,
}

/// The machine's speed during a run and its variation from run to run (see
/// `target/pilot/machine.json`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SpeedDoc {
    /// The speed probe's time at the start of the run, in nanoseconds.
    pub probe_ns: f64,
    /// Standard deviation of the logarithm of the probe's time from run to run (about the
    /// relative standard deviation of the machine's speed); `null` while fewer than
    /// `runs_needed` runs are known.
    pub run_to_run: Option<f64>,
    /// Runs it was learnt from (this one included).
    pub runs: usize,
}

/// Schema name of the machine's probe history (`target/pilot/machine.json`).
pub const MACHINE_HISTORY_SCHEMA: &str = "pilot.machine-history/1";

/// The speed probe's time on each earlier run of pilot on this machine
/// (`target/pilot/machine.json`), newest last.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MachineHistoryDoc {
    /// Always [`MACHINE_HISTORY_SCHEMA`].
    pub schema: String,
    /// The CPU model the runs were on: a history from another CPU is not this machine's.
    pub cpu: Option<String>,
    /// Logical cores available.
    pub cores: Option<usize>,
    /// Which probe kernel timed the runs: times of another kernel are not comparable.
    #[serde(default)]
    pub probe: String,
    /// The runs, oldest first.
    pub runs: Vec<ProbeRunDoc>,
}

/// One run's probe, and the means its benches measured.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProbeRunDoc {
    /// When the run started (RFC 3339).
    pub at: String,
    /// The probe's time, in nanoseconds: the mean of its start and end probes once the run
    /// finished, the start probe before.
    pub probe_ns: f64,
    /// The bench executable (target name, size and modification time): runs of one build
    /// measured the same code.
    #[serde(default)]
    pub build: String,
    /// Each bench's mean time per unit (ns) in this run.
    #[serde(default)]
    pub benches: std::collections::BTreeMap<String, f64>,
}
