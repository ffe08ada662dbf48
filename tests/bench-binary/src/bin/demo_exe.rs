//! A pilot bench binary for the end-to-end test of where a bench's processes run from
//! (`tests/bench-binary/tests/bench_binary.rs`): its bench writes the path of the executable it
//! runs in to the file `DEMO_EXE_LOG` names, a line each time pilot calls it.

use std::io::Write;

use pilot::Bencher;

/// Notes its executable's path (outside the timing), then adds.
#[pilot::bench]
fn where_it_runs(b: &mut Bencher) {
    if let Some(log) = std::env::var_os("DEMO_EXE_LOG") {
        let exe = std::env::current_exe().expect("the executable's path");
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(log)
            .expect("the log opens");
        writeln!(f, "{}", exe.display()).expect("the log is written");
    }
    b.iter(|| pilot::black_box(2_u64) + 3);
}

pilot::main!();
