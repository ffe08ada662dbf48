//! What pilot's own recording costs, measured with pilot.
//!
//! `recorder_unit` is one `Recorder::unit` around an empty closure: two clock reads and a store
//! into the round's buffer. `instant_pair` is the floor it is held to: two bare
//! `Instant::now()` calls. pilot's bar: `recorder_unit` costs at most 1.2× `instant_pair`.
//!
//! `cargo bench -p pilot --bench overhead`

use std::time::Instant;

const CAPACITY: usize = 1 << 16;

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

pilot::main!();
