//! Benches whose instruction counts are known by construction, for `--instructions`'s
//! end-to-end tests (`crates/cargo-pilot/tests/instructions.rs`): each unit or iteration executes a
//! block of `nop`s of a known length, written with the assembler's `.rept`, so that two benches
//! differing only in the block's length differ by exactly that many instructions.

use pilot::{Bencher, Recorder};

/// `N` `nop` instructions, nothing else.
macro_rules! nops {
    ($n:literal) => {
        // SAFETY: `nop` touches no register, flag or memory.
        unsafe {
            std::arch::asm!(
                concat!(".rept ", stringify!($n), "\nnop\n.endr"),
                options(nomem, nostack, preserves_flags)
            )
        }
    };
}

/// Full form: each unit is 1 000 `nop`s and nothing else: 1 000 instructions a unit, once the
/// switches around a unit are taken off.
#[pilot::bench]
fn unit_1000(work: u64, rec: &mut Recorder) {
    for _ in 0..work {
        rec.unit(|| nops!(1000));
    }
}

/// Micro form, 100 and 300 `nop`s an iteration: the counts differ by 200 exactly.
#[pilot::bench]
fn iter_100(b: &mut Bencher) {
    b.iter(|| nops!(100));
}

#[pilot::bench]
fn iter_300(b: &mut Bencher) {
    b.iter(|| nops!(300));
}

/// Readings-only, 50 and 150 `nop`s a work unit: the counts differ by 100 exactly.
#[pilot::bench(work = 1..=1_000_000)]
fn whole_50(work: u64) {
    for _ in 0..work {
        nops!(50);
    }
}

#[pilot::bench(work = 1..=1_000_000)]
fn whole_150(work: u64) {
    for _ in 0..work {
        nops!(150);
    }
}

/// A `HashMap` filled with 1 000 keys: its hasher's keys are drawn at random in each process,
/// so its count varies a little between processes.
#[pilot::bench]
fn hash_1000(b: &mut Bencher) {
    b.iter(|| {
        let mut m = std::collections::HashMap::new();
        for i in 0..1000u64 {
            m.insert(i, i);
        }
        m
    });
}

pilot::main!();
