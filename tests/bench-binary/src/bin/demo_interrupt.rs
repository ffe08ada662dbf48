//! A pilot bench binary for the end-to-end test of Ctrl-C (`tests/bench-binary/tests/bench_binary.rs`): each
//! round writes a scratch file under `PILOT_DEMO_DIR` and removes it when the round ends, as a
//! workload with its own cleanup does, and records how many threads its process has while it
//! is measured (`threads` in that folder; Linux only).

use std::io::Write;
use std::path::PathBuf;

use pilot::Recorder;

/// Removes the round's scratch file when the round ends, however it ends.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// Threads of this process, from `/proc/self/status`.
fn threads() -> Option<String> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("Threads:"))?;
    Some(line["Threads:".len()..].trim().to_string())
}

#[pilot::bench]
fn scratch_file(work: u64, rec: &mut Recorder) {
    let dir = PathBuf::from(std::env::var_os("PILOT_DEMO_DIR").expect("PILOT_DEMO_DIR"));
    let scratch = Scratch(dir.join(format!("round-{}", std::process::id())));
    let mut file = std::fs::File::create(&scratch.0).expect("scratch file");
    if let Some(n) = threads() {
        let _ = std::fs::write(dir.join("threads"), n);
    }
    for _ in 0..work {
        rec.unit(|| pilot::black_box(file.write_all(b"x").is_ok()));
    }
    // Slow rounds, so a signal lands while one runs.
    std::thread::sleep(std::time::Duration::from_millis(20));
}

pilot::main!();
