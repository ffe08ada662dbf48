//! A workload with a warm-up phase: its first 2 000 calls are about 10× slower than the rest.
//! pilot's change-point detection cuts the slow calls off, so the result is the steady state,
//! not a blend of the two. `cargo run --release -p pilot-examples --bin steady_state` measures
//! the same function's steady state with a plain loop, to check pilot against.

use pilot_examples::warm_up::step;

#[pilot::bench]
fn warm_up(b: &mut pilot::Bencher) {
    b.iter(|| step(pilot::black_box(7)));
}

pilot::main!();
