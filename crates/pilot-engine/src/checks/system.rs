//! The checks made once at the start of a run, before any bench: how the machine and the build
//! are set up. Each is a named check with a plain remedy, printed once per run and written into
//! every result of the run.

use super::sampler::cpu_counters;
use super::{Kind, check, figure};
use pilot_format::{CheckDoc, MachineDoc};

/// What the start-of-run checks look at besides the machine record.
pub(crate) struct Setup<'a> {
    /// Whether the bench target was compiled with debug assertions (`cfg!(debug_assertions)`
    /// in the user's crate, passed by `pilot::main!()`).
    pub(crate) debug_build: bool,
    /// Most threads one of the run's benches uses.
    pub(crate) threads: usize,
    /// Cores the other processes kept busy while pilot looked ([`BusyLook`]); `None`
    /// when it cannot be read.
    pub(crate) others_busy: Option<f64>,
    /// Reads a small file (a seam for tests).
    pub(crate) read: &'a dyn Fn(&str) -> Option<String>,
}

/// The checks of a run's set-up: frequency scaling, turbo, a debug build, fewer free cores than
/// a bench's threads, a virtual machine, container or CI runner. Reads two sysfs files.
pub(crate) fn start_checks(machine: &MachineDoc, setup: &Setup<'_>) -> Vec<CheckDoc> {
    [
        frequency_scaling(machine),
        turbo(setup),
        debug_build(setup),
        few_cores(machine, setup),
        virtual_machine(machine),
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// A frequency governor other than `performance`.
fn frequency_scaling(machine: &MachineDoc) -> Option<CheckDoc> {
    let g = machine
        .governor
        .as_deref()
        .filter(|g| *g != "performance")?;
    Some(check(
        Kind::FrequencyScaling,
        format!(
            "the CPU frequency governor is `{g}`: the clock speed follows the load, so speed \
             changes within and between runs; for steadier numbers set it to `performance` \
             (`sudo cpupower frequency-set --governor performance`)"
        ),
        serde_json::json!({ "governor": g }),
    ))
}

/// Turbo boost on, by Intel's `no_turbo` or cpufreq's `boost`.
fn turbo(setup: &Setup<'_>) -> Option<CheckDoc> {
    let intel = (setup.read)("/sys/devices/system/cpu/intel_pstate/no_turbo");
    let boost = (setup.read)("/sys/devices/system/cpu/cpufreq/boost");
    let (turbo_on, remedy) = match (intel.as_deref(), boost.as_deref()) {
        (Some("0"), _) => (
            true,
            "echo 1 | sudo tee /sys/devices/system/cpu/intel_pstate/no_turbo",
        ),
        (_, Some("1")) => (
            true,
            "echo 0 | sudo tee /sys/devices/system/cpu/cpufreq/boost",
        ),
        _ => (false, ""),
    };
    turbo_on.then(|| {
        check(
            Kind::Turbo,
            format!(
                "turbo boost is on: the clock speed depends on temperature and on how many cores \
                 are busy, so it drifts during a run; for steadier numbers turn it off (`{remedy}`)"
            ),
            serde_json::json!({ "turbo": true }),
        )
    })
}

/// A bench target built without optimisations.
fn debug_build(setup: &Setup<'_>) -> Option<CheckDoc> {
    setup.debug_build.then(|| {
        check(
            Kind::DebugBuild,
            "the bench was built without optimisations (debug assertions are on): its times say \
             little about the optimised code; run it with `cargo bench` or `cargo pilot bench`, \
             which build the `bench` profile"
                .into(),
            serde_json::json!({ "debug_assertions": true }),
        )
    })
}

/// Fewer cores free when the run started than a bench has threads.
fn few_cores(machine: &MachineDoc, setup: &Setup<'_>) -> Option<CheckDoc> {
    let (cores, busy) = (machine.cores?, setup.others_busy?);
    let free = (cores as f64 - busy).max(0.0);
    (setup.threads as f64 > free + 0.25).then(|| {
        check(
            Kind::FewCores,
            format!(
                "a bench uses {} but only {free:.1} of {cores} cores were free when the run \
                 started (other processes kept {busy:.1} busy): {}",
                if setup.threads == 1 {
                    "1 thread".to_string()
                } else {
                    format!("{} threads", setup.threads)
                },
                if setup.threads == 1 {
                    "it shares its core with them"
                } else {
                    "its threads wait for each other's cores"
                }
            ),
            serde_json::json!({
                "threads": setup.threads,
                "cores": cores,
                "free_cores": figure(free),
            }),
        )
    })
}

/// A virtual machine, container or CI runner.
fn virtual_machine(machine: &MachineDoc) -> Option<CheckDoc> {
    let place = match (&machine.virtualization, &machine.ci) {
        (Some(v), Some(ci)) => Some(format!("{v} on {ci}")),
        (Some(v), None) => Some(v.clone()),
        (None, Some(ci)) => Some(format!("a {ci} runner")),
        (None, None) => None,
    }?;
    Some(check(
        Kind::VirtualMachine,
        format!(
            "running in {place}: neighbours share the host's cores and caches, so the \
             speed changes between runs by more than one run's interval shows"
        ),
        serde_json::json!({
            "virtualization": machine.virtualization,
            "ci": machine.ci,
        }),
    ))
}

/// A look at how busy other processes keep the machine, begun: /proc/stat's counters and the
/// CPU time this process (and the children it waited for) had used, at one moment. The run's
/// own start-up (the machine's record, the speed probe) goes on while it looks; what it used is
/// taken off, so the look costs no waiting of its own beyond what the start-up leaves.
pub(crate) struct BusyLook {
    stat: [u64; 8],
    own: std::time::Duration,
    at: std::time::Instant,
}

impl BusyLook {
    /// Begins the look; `None` where /proc/stat cannot be read.
    pub(crate) fn begin() -> Option<BusyLook> {
        Some(BusyLook {
            stat: cpu_counters(&crate::probe::read("/proc/stat")?)?,
            own: own_cpu(),
            at: std::time::Instant::now(),
        })
    }

    /// Ends the look at least `least` after it began (sleeping the rest): the cores other
    /// processes kept busy, `(1 − idle share) · cores` less this process's own use, at least 0.
    pub(crate) fn end(self, least: std::time::Duration) -> Option<f64> {
        if let Some(rest) = least.checked_sub(self.at.elapsed()) {
            std::thread::sleep(rest);
        }
        let after = cpu_counters(&crate::probe::read("/proc/stat")?)?;
        let own =
            own_cpu().saturating_sub(self.own).as_secs_f64() / self.at.elapsed().as_secs_f64();
        let cores = std::thread::available_parallelism().ok()?.get() as f64;
        others_busy(self.stat, after, cores, own)
    }
}

/// The cores other processes kept busy between /proc/stat's counters `before` and `after` on
/// `cores` cores, while this process used `own` cores on average: `(1 − idle share) · cores −
/// own`, at least 0 (idle and iowait are the cores nobody used). `None` when no time passed
/// in the counters. Time: O(1).
fn others_busy(before: [u64; 8], after: [u64; 8], cores: f64, own: f64) -> Option<f64> {
    let sum = |v: [u64; 8]| v.iter().sum::<u64>();
    let total = sum(after).checked_sub(sum(before))? as f64;
    let idle = (after[3] + after[4]).checked_sub(before[3] + before[4])? as f64;
    (total > 0.0).then(|| (cores * (1.0 - idle / total) - own).max(0.0))
}

/// The CPU time this process and the children it waited for have used (user and system).
#[cfg(unix)]
fn own_cpu() -> std::time::Duration {
    let used = |who| {
        // SAFETY: getrusage writes one whole `rusage` into the zeroed value it is given.
        let mut u: libc::rusage = unsafe { std::mem::zeroed() };
        if unsafe { libc::getrusage(who, &mut u) } != 0 {
            return std::time::Duration::ZERO;
        }
        let t = |v: libc::timeval| {
            std::time::Duration::new(v.tv_sec.max(0) as u64, (v.tv_usec.max(0) as u32) * 1000)
        };
        t(u.ru_utime) + t(u.ru_stime)
    };
    used(libc::RUSAGE_SELF) + used(libc::RUSAGE_CHILDREN)
}

#[cfg(not(unix))]
fn own_cpu() -> std::time::Duration {
    std::time::Duration::ZERO
}

/// The start-of-run checks as lines for the terminal (one `check: …` line each).
pub(crate) fn describe(checks: &[CheckDoc]) -> String {
    checks
        .iter()
        .map(|c| format!("check ({}): {}\n", c.kind, c.message))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_others_busy_cores_leave_out_this_process_own_use() {
        // /proc/stat's counters: user, nice, system, idle, iowait, irq, softirq, steal. Over
        // the look: 120 ticks used (100 user, 20 system), 60 idle, 20 iowait, on 2 cores:
        // 2 · (1 − 80/200) = 1.2 cores busy, of which this process used 0.5.
        let before = [1000, 0, 500, 4000, 100, 0, 0, 0];
        let after = [1100, 0, 520, 4060, 120, 0, 0, 0];
        let got = others_busy(before, after, 2.0, 0.5).unwrap();
        assert!((got - 0.7).abs() < 1e-12, "{got}");
        // Its own use above what the counters saw (ticks are coarse): nobody else, not less.
        assert_eq!(others_busy(before, after, 2.0, 1.5), Some(0.0));
        // No tick passed: no reading.
        assert_eq!(others_busy(before, before, 2.0, 0.0), None);
    }

    fn files(list: &'static [(&'static str, &'static str)]) -> impl Fn(&str) -> Option<String> {
        move |p| {
            list.iter()
                .find(|(k, _)| *k == p)
                .map(|(_, v)| v.to_string())
        }
    }

    #[test]
    fn a_tuned_machine_passes_and_each_setting_is_named() {
        let mut m = MachineDoc {
            governor: Some("performance".into()),
            cores: Some(4),
            ..MachineDoc::default()
        };
        let quiet = files(&[("/sys/devices/system/cpu/intel_pstate/no_turbo", "1")]);
        let setup = Setup {
            debug_build: false,
            threads: 2,
            others_busy: Some(0.1),
            read: &quiet,
        };
        assert!(start_checks(&m, &setup).is_empty());

        m.governor = Some("powersave".into());
        m.virtualization = Some("docker".into());
        let turbo = files(&[("/sys/devices/system/cpu/cpufreq/boost", "1")]);
        let setup = Setup {
            debug_build: true,
            threads: 4,
            others_busy: Some(1.0),
            read: &turbo,
        };
        let kinds: Vec<String> = start_checks(&m, &setup)
            .into_iter()
            .map(|c| c.kind)
            .collect();
        assert_eq!(
            kinds,
            [
                "frequency_scaling",
                "turbo",
                "debug_build",
                "few_cores",
                "virtual_machine"
            ]
        );
    }
}
