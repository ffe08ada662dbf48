//! A pilot bench binary for the end-to-end test that names reach the terminal as text
//! (`tests/bench-binary/tests/bench_binary.rs`): its benches and their group are named with terminal
//! control sequences, ESC, BEL, a CSI that would colour the text and an OSC that would set the
//! window's title.

use pilot::Bencher;

/// An OSC that sets the window title, a CSI that colours, and the C1 forms of both.
#[pilot::bench(
    name = "\u{1b}]0;title\u{7}\u{1b}[31mred\u{9b}2J\u{9d}x",
    group = "\u{1b}[2Jgroup"
)]
fn coloured(b: &mut Bencher) {
    b.iter(|| pilot::black_box(1_u64) + 1);
}

/// A bell, in the same group.
#[pilot::bench(name = "bell\u{7}", group = "\u{1b}[2Jgroup")]
fn bell(b: &mut Bencher) {
    b.iter(|| pilot::black_box(2_u64) * 3);
}

pilot::main!();
