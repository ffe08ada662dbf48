//! What pilot knows about the machine a result was measured on (DESIGN §5): enough to tell
//! later whether two results are comparable.

use crate::store::schema::MachineDoc;

pub(crate) mod history;
pub(crate) mod speed;

/// The machine record of a result: CPU, cores, frequency governor, OS, kernel, pilot's version
/// and the git commit of the working directory. Fields that cannot be read are `null`.
/// Reads a few small files under /proc and /sys and runs `git rev-parse` once: call it once per
/// run, never on the timing path.
pub fn machine() -> MachineDoc {
    let read = |p: &str| {
        std::fs::read_to_string(p)
            .ok()
            .map(|s| s.trim().to_string())
    };
    let cpu = read("/proc/cpuinfo").and_then(|info| {
        info.lines()
            .find(|l| l.starts_with("model name"))
            .and_then(|l| l.split_once(':'))
            .map(|(_, v)| v.trim().to_string())
    });
    let commit = std::process::Command::new("git")
        .args(["rev-parse", "HEAD"])
        .stderr(std::process::Stdio::null())
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string());
    MachineDoc {
        cpu,
        cores: std::thread::available_parallelism().map(|n| n.get()).ok(),
        governor: read("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"),
        os: std::env::consts::OS.to_string(),
        arch: std::env::consts::ARCH.to_string(),
        kernel: read("/proc/sys/kernel/osrelease"),
        pilot: env!("CARGO_PKG_VERSION").to_string(),
        git_commit: commit,
        speed: None,
    }
}
