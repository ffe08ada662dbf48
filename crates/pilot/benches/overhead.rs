//! What pilot's own recording costs, measured with pilot.
//!
//! `recorder_unit` is one `Recorder::unit` around an empty closure: two clock reads and a store
//! into the round's buffer. `instant_pair` is the floor it is held to: two bare
//! `Instant::now()` calls. pilot's bar: `recorder_unit` costs at most 1.2× `instant_pair`.
//!
//! `instant_read` and `tsc_read` are one read of each timer (`--timer tsc` reads the
//! time-stamp counter), `tsc_pair` and `recorder_unit_tsc` the TSC's pair and recorder: the
//! evidence for which timer suits this machine (issue 31's bar: a TSC read costs at most half
//! an `Instant::now()`). The TSC benches exist on x86-64 only, and fail, saying why, where its
//! TSC cannot be used.
//!
//! `cargo bench -p pilot --bench overhead`

use std::time::Instant;

#[cfg(target_arch = "x86_64")]
use pilot::__private::{Timer, Tsc};

const CAPACITY: usize = 1 << 16;

/// The TSC, calibrated; a bench that needs it fails where it cannot be used.
#[cfg(target_arch = "x86_64")]
fn tsc() -> Tsc {
    Tsc::calibrate().unwrap_or_else(|why| panic!("the TSC cannot be used here: {why}"))
}

#[pilot::bench]
fn recorder_unit(b: &mut pilot::Bencher) {
    let mut rec = pilot::__private::recorder(CAPACITY as u64);
    b.iter(|| {
        // Reuse the buffer rather than grow it: a session reserves a round's worth up front.
        if rec.units() == CAPACITY {
            pilot::__private::clear_recorder(&mut rec);
        }
        rec.unit(|| ());
    });
}

#[pilot::bench]
fn instant_pair(b: &mut pilot::Bencher) {
    b.iter(|| {
        let start = Instant::now();
        let end = Instant::now();
        (start, end)
    });
}

#[pilot::bench]
fn instant_read(b: &mut pilot::Bencher) {
    b.iter(Instant::now);
}

#[cfg(target_arch = "x86_64")]
#[pilot::bench]
fn tsc_read(b: &mut pilot::Bencher) {
    let tsc = tsc();
    b.iter(|| tsc.read());
}

#[cfg(target_arch = "x86_64")]
#[pilot::bench]
fn tsc_pair(b: &mut pilot::Bencher) {
    let tsc = tsc();
    b.iter(|| {
        let start = tsc.read();
        let end = tsc.read();
        (start, end)
    });
}

#[cfg(target_arch = "x86_64")]
#[pilot::bench]
fn recorder_unit_tsc(b: &mut pilot::Bencher) {
    let mut rec = pilot::__private::recorder_timed_by(CAPACITY as u64, Timer::Tsc(tsc()));
    b.iter(|| {
        if rec.units() == CAPACITY {
            pilot::__private::clear_recorder(&mut rec);
        }
        rec.unit(|| ());
    });
}

pilot::main!();
