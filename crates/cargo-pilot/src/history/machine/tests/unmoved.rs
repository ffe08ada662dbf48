//! Benches the machine's changes leave where they were ([`super::super::unmoved`]): a host
//! whose states swing the memory-bound half of a suite while a loop in registers does not
//! move. Where such a state changes at the commit that changed the loop's code (a new build
//! moves its neighbours too), the loop's change is its own and is named; the swinging
//! benches, whose code never changed, are not.

use super::same_code::{BUILDS, QUIET, built};
use super::*;

/// Benches 3 to 5 are 15% slower while the host is in its slow state: at commits 1 to 7, 14
/// to 16, 20 to 22 and 26 to 27 (it changes at bench 0's changes, and at four commits that
/// build nothing new). Benches 0 to 2 do not feel it.
fn host(all: &mut [Series]) {
    let slow = |n: usize| matches!(n, 1..=7 | 14..=16 | 20..=22 | 26..=27);
    for s in all.iter_mut().skip(3) {
        for p in &mut s.points {
            if slow(p.position.unwrap() as usize) {
                for x in [&mut p.estimate, &mut p.low, &mut p.high] {
                    *x = x.map(|v| v * 1.15);
                }
            }
        }
    }
}

#[test]
fn a_change_at_a_machine_change_is_named_where_the_machine_leaves_its_bench_alone() {
    let options = ChangeOptions::default();
    let (mut missed, mut wrong, mut missed_unknown) = (0, 0, 0);
    for seed in 0..20 {
        let mut all = QUIET.series(0x57A7_0000 + seed, three_changes);
        host(&mut all);
        let (m, _) = judge(&named(&analyse(&all, &options), &all), &THREE_CHANGES);
        missed_unknown += usize::from(m);
        built(&mut all, &BUILDS);
        let a = analyse(&all, &options);
        let found = named(&a, &all);
        let (m, w) = judge(&found, &THREE_CHANGES);
        if m || w {
            eprintln!("seed {seed}: named {found:?}");
        }
        missed += usize::from(m);
        wrong += usize::from(w);
        // The host's changes are still the machine's, with the swinging benches' moves.
        assert!(
            a.machine
                .iter()
                .any(|c| c.seen_by == "benches" && c.explains.iter().any(|(s, _)| *s >= 3)),
            "seed {seed}: {:?}",
            a.machine
        );
    }
    eprintln!(
        "bench 0's three changes at the host's changes, 20 histories: a change missed in \
         {missed} with the executables known ({missed_unknown} without: every machine change \
         taken to move every bench), a commit named where no code changed in {wrong}"
    );
    assert!(
        missed_unknown >= 15,
        "without the executables the host hides them"
    );
    assert!(missed <= 1, "{missed}");
    assert!(wrong <= 1, "{wrong}");
}
