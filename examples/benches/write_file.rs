//! Full form with a throughput unit: writing to a file 1 MiB at a time.
//!
//! The workload times each work unit itself with `rec.unit`; opening the file and preparing the
//! buffer are setup and are not timed. `unit = "MiB"` makes pilot report MiB/s next to the time
//! per unit. The file is rewound every 64 MiB so a long session does not fill the disk.
//! `bottleneck = "disk"` says the disk is meant to be busy: pilot's machine-state sampling does
//! not report it as a saturated device.

use std::io::{Seek, SeekFrom, Write};

#[pilot::bench(unit = "MiB", work = 1..=4096, bottleneck = "disk")]
fn write_1mib(work: u64, rec: &mut pilot::Recorder) {
    // An unnamed temporary file: the system removes it however the process ends.
    let mut file = tempfile::tempfile().expect("create a temporary file");
    let buf = vec![0x5A_u8; 1 << 20];
    for i in 0..work {
        if i % 64 == 0 {
            file.seek(SeekFrom::Start(0)).expect("rewind");
        }
        rec.unit(|| file.write_all(&buf).expect("write 1 MiB"));
    }
}

pilot::main!();
