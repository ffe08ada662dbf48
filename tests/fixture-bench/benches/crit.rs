//! The fixture's work written for criterion's API, run through pilot-criterion: `spin`'s mixing
//! loop, its cost set by `PILOT_FIXTURE_COST` as in `cost.rs`, in a group with a throughput
//! beside a quarter of its work, and a bench that panics when `PILOT_FIXTURE_PANIC` is set (and
//! that calls `b.iter` twice when `PILOT_FIXTURE_TWICE` is). With `PILOT_FIXTURE_LIBS` set, two
//! more groups as tinyvec's benches have them, one per library with the operations as
//! functions (`LibA_2000/LibA::mix`, `LibB_2000/LibB::mix`, …): LibB does twice LibA's work,
//! and `LibA::only` has no counterpart in LibB.

use criterion::{BenchmarkId, Criterion, Throughput, black_box, criterion_group, criterion_main};

/// The cost factor `PILOT_FIXTURE_COST` (default 1).
fn cost() -> f64 {
    std::env::var("PILOT_FIXTURE_COST").map_or(1.0, |v| v.parse().unwrap())
}

/// `steps` rounds of xorshift-multiply mixing.
fn mix(steps: u64) -> u64 {
    let mut x = 0x9e37_79b9_7f4a_7c15_u64;
    for i in 0..steps {
        x = (x ^ i).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        x ^= x >> 31;
    }
    x
}

fn mixing(c: &mut Criterion) {
    let mut group = c.benchmark_group("mix");
    for steps in [2_000u64] {
        group.throughput(Throughput::Elements(steps));
        group.bench_with_input(BenchmarkId::new("spin", steps), &steps, |b, &steps| {
            let steps = (steps as f64 * cost()).round() as u64;
            b.iter(|| mix(black_box(steps)))
        });
        // A quarter of the work: the faster alternative when the group is compared.
        group.bench_with_input(BenchmarkId::new("quarter", steps), &steps, |b, &steps| {
            let steps = (steps as f64 * cost() / 4.0).round() as u64;
            b.iter(|| mix(black_box(steps)))
        });
    }
    group.finish();
    c.bench_function("may_panic", |b| {
        if std::env::var_os("PILOT_FIXTURE_PANIC").is_some() {
            panic!("the fixture was asked to fail");
        }
        if std::env::var_os("PILOT_FIXTURE_TWICE").is_some() {
            // A first routine of a hundred times the work, which criterion's last-call rule
            // leaves unmeasured.
            b.iter(|| mix(black_box(20_000)));
        }
        b.iter(|| mix(black_box(200)))
    });
}

/// One library's group, as tinyvec names them: `{lib}_2000/{lib}::mix`, `{lib}::half`, with
/// `factor` times the work.
fn library(c: &mut Criterion, lib: &str, factor: u64) {
    let mut group = c.benchmark_group(format!("{lib}_2000"));
    group.bench_function(format!("{lib}::mix"), |b| {
        b.iter(|| mix(black_box(2_000 * factor)))
    });
    group.bench_function(format!("{lib}::half"), |b| {
        b.iter(|| mix(black_box(1_000 * factor)))
    });
    if lib == "LibA" {
        group.bench_function(format!("{lib}::only"), |b| b.iter(|| mix(black_box(100))));
    }
    group.finish();
}

fn libraries(c: &mut Criterion) {
    if std::env::var_os("PILOT_FIXTURE_LIBS").is_some() {
        library(c, "LibA", 1);
        library(c, "LibB", 2);
    }
}

criterion_group!(benches, mixing, libraries);
criterion_main!(benches);
