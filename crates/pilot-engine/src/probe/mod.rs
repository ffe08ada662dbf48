//! What pilot knows about the machine a result was measured on (a result's `machine`): enough
//! to tell later whether two results are comparable; the workloads that measure its speed
//! ([`speed`], inside a run) and its variation as any program sees it ([`plain`], in the
//! processes of `cargo pilot noise`); and what it learns of the machine over runs: the speed
//! probe's history, and where the next run's estimate of a bench lands ([`reproducibility`]).

use pilot_format::MachineDoc;

pub(crate) mod history;
pub mod plain;
mod reproducibility;
pub(crate) mod speed;
mod variation;

pub(crate) use reproducibility::shared_variation;
pub use reproducibility::{Band, Evidence, Reproducibility, RunEstimate, reproducibility};
pub(crate) use variation::{MachineVariation, Source};

/// The commit and whether the tree is dirty, from `git status --porcelain=v2 --branch`'s output:
/// its `# branch.oid` header (`(initial)` before the first commit: no commit, nothing to be
/// dirty against) and any entry line after the headers.
fn git_state(out: &str) -> (Option<String>, Option<bool>) {
    let commit = out
        .lines()
        .find_map(|l| l.strip_prefix("# branch.oid "))
        .map(str::trim)
        .filter(|oid| !oid.is_empty() && *oid != "(initial)")
        .map(str::to_string);
    let dirty = commit.as_ref().map(|_| {
        out.lines()
            .any(|l| !l.starts_with('#') && !l.trim().is_empty())
    });
    (commit, dirty)
}

/// The machine record of a result: CPU, cores, memory, frequency governor, OS and kernel,
/// the compiler, pilot's version, the git commit of the working directory and whether the tree
/// was dirty, the load when the run started, and the hypervisor, container or CI service the
/// run was seen in. Fields that cannot be read are `null`.
/// Reads a few small files under /proc and /sys and runs `git` once: call it once per run,
/// never on the timing path.
pub fn machine() -> MachineDoc {
    let cpu = read("/proc/cpuinfo").and_then(|info| {
        info.lines()
            .find(|l| l.starts_with("model name"))
            .and_then(|l| l.split_once(':'))
            .map(|(_, v)| v.trim().to_string())
    });
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .args(args)
            .stderr(std::process::Stdio::null())
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    // One call for both the commit and whether the tree is dirty: a bench binary run once per
    // bench (as divan's and nextest's users run them) pays for it each time. Untracked files
    // are left out: build outputs and notes would make every tree dirty.
    let (commit, dirty) = git(&[
        "status",
        "--porcelain=v2",
        "--branch",
        "--untracked-files=no",
    ])
    .map_or((None, None), |out| git_state(&out));
    let rustc = env!("PILOT_RUSTC_VERSION");
    MachineDoc {
        cpu,
        cores: std::thread::available_parallelism().map(|n| n.get()).ok(),
        governor: read("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"),
        os: std::env::consts::OS.to_string(),
        arch: std::env::consts::ARCH.to_string(),
        kernel: read("/proc/sys/kernel/osrelease"),
        pilot: env!("CARGO_PKG_VERSION").to_string(),
        git_commit: commit,
        git_dirty: dirty,
        memory_bytes: read("/proc/meminfo").and_then(|m| meminfo_total(&m)),
        rustc: (!rustc.is_empty()).then(|| rustc.to_string()),
        os_release: read("/etc/os-release").and_then(|r| os_release_name(&r)),
        load: read("/proc/loadavg").and_then(|l| l.split_whitespace().next()?.parse().ok()),
        virtualization: virtualization(),
        ci: ci_service(&|k| std::env::var_os(k).is_some()),
        speed: None,
    }
}

/// A small text file's trimmed contents, `None` when it cannot be read.
pub(crate) fn read(path: &str) -> Option<String> {
    std::fs::read_to_string(path)
        .ok()
        .map(|s| s.trim().to_string())
}

/// `MemTotal` of /proc/meminfo, in bytes.
fn meminfo_total(meminfo: &str) -> Option<u64> {
    let line = meminfo.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// `PRETTY_NAME` of an os-release file, unquoted.
fn os_release_name(text: &str) -> Option<String> {
    let value = text.lines().find_map(|l| l.strip_prefix("PRETTY_NAME="))?;
    Some(value.trim_matches('"').to_string())
}

/// The container or hypervisor this process runs in, as far as Linux shows it: a container
/// by its marker files or its cgroup, a virtual machine by the CPU's `hypervisor` flag (named
/// by DMI's vendor or product where readable).
fn virtualization() -> Option<String> {
    if std::path::Path::new("/.dockerenv").exists() {
        return Some("docker".into());
    }
    if std::path::Path::new("/run/.containerenv").exists() {
        return Some("podman".into());
    }
    let cgroup = read("/proc/1/cgroup").unwrap_or_default();
    for (marker, name) in [
        ("kubepods", "kubernetes"),
        ("docker", "docker"),
        ("lxc", "lxc"),
    ] {
        if cgroup.contains(marker) {
            return Some(name.into());
        }
    }
    let flags = read("/proc/cpuinfo")?;
    let flagged = flags
        .lines()
        .find(|l| l.starts_with("flags"))
        .is_some_and(|l| l.split_whitespace().any(|f| f == "hypervisor"));
    if !flagged {
        return None;
    }
    let vendor = read("/sys/class/dmi/id/sys_vendor")
        .or_else(|| read("/sys/class/dmi/id/product_name"))
        .or_else(|| read("/sys/hypervisor/type"));
    Some(match vendor {
        Some(v) if !v.is_empty() => format!("virtual machine ({v})"),
        _ => "virtual machine".into(),
    })
}

/// The CI service named by the environment (`has` tells whether a variable is set).
pub(crate) fn ci_service(has: &dyn Fn(&str) -> bool) -> Option<String> {
    const SERVICES: [(&str, &str); 8] = [
        ("GITHUB_ACTIONS", "github-actions"),
        ("GITLAB_CI", "gitlab"),
        ("CIRCLECI", "circleci"),
        ("BUILDKITE", "buildkite"),
        ("TF_BUILD", "azure-pipelines"),
        ("JENKINS_URL", "jenkins"),
        ("TRAVIS", "travis"),
        ("CI", "ci"),
    ];
    SERVICES
        .iter()
        .find(|(var, _)| has(var))
        .map(|(_, name)| name.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_commit_and_a_dirty_tree_come_from_one_git_status() {
        let clean = "# branch.oid 0123abcd\n# branch.head main\n";
        assert_eq!(git_state(clean), (Some("0123abcd".into()), Some(false)));
        let dirty = "# branch.oid 0123abcd\n# branch.head main\n\
                     1 .M N... 100644 100644 100644 aa bb src/lib.rs\n";
        assert_eq!(git_state(dirty), (Some("0123abcd".into()), Some(true)));
        // Before the first commit: nothing to name, nothing to be dirty against.
        let initial =
            "# branch.oid (initial)\n# branch.head main\n1 A. N... 0 100644 100644 0 aa x\n";
        assert_eq!(git_state(initial), (None, None));
        // A detached head still has its commit.
        let detached = "# branch.oid 0123abcd\n# branch.head (detached)\n";
        assert_eq!(git_state(detached), (Some("0123abcd".into()), Some(false)));
    }

    #[test]
    fn proc_files_are_parsed() {
        let meminfo = "MemTotal:        8039380 kB\nMemFree:          212340 kB\n";
        assert_eq!(meminfo_total(meminfo), Some(8_039_380 * 1024));
        assert_eq!(meminfo_total("MemFree: 1 kB"), None);
        let release = "NAME=\"Debian GNU/Linux\"\nPRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\n";
        assert_eq!(
            os_release_name(release).as_deref(),
            Some("Debian GNU/Linux 12 (bookworm)")
        );
    }

    #[test]
    fn ci_is_named_by_its_variable() {
        let github = |k: &str| k == "GITHUB_ACTIONS" || k == "CI";
        assert_eq!(ci_service(&github).as_deref(), Some("github-actions"));
        assert_eq!(ci_service(&|k| k == "CI").as_deref(), Some("ci"));
        assert_eq!(ci_service(&|_| false), None);
    }
}
