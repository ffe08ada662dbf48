//! The suite's false-alarm rate, by Monte Carlo: synthetic histories of one machine whose
//! benches' code never changed (independent normal noise on the logarithms of the times), read
//! by [`analyse`] as `cargo pilot changes` reads them. A false alarm is a suite in which a
//! commit is named where no change was put; `--max-p` is the rate it promises. With a few true
//! changes put in, they are still found (the rule's power).

use super::*;

/// Suites per setting: the rate's standard error at 5% is about 1.1% with 400.
const REPLICATES: u64 = 400;

/// A bench's change put in: (bench, first commit at the new level, relative change).
type Put = (usize, usize, f64);

/// Replicate `r`'s suite: 10 to 50 benches of 20 to 60 commits (both from the replicate's
/// number), each with run-to-run noise `sd` on its log time, and the changes `put`.
fn suite(r: u64, sd: f64, put: &[Put]) -> Vec<Series> {
    let benches = 10 + (r % 5) as usize * 10;
    let commits = 20 + (r / 5 % 5) as usize * 10;
    let scenario = Scenario {
        benches,
        commits,
        busier: usize::MAX,
        slower: 0.0,
        quiet: sd,
        loud: sd,
        probe: false,
    };
    scenario.series(0x5EED_0000 + r, |b, n| {
        put.iter()
            .filter(|p| p.0 == b && n >= p.1.min(commits / 2))
            .map(|p| 1.0 + p.2)
            .product()
    })
}

/// What [`REPLICATES`] suites at `max_p` named, as shares: suites in which a commit was named
/// in a bench where no change was put (the false alarms `--max-p` bounds); suites in which a
/// bench with a change put in was named at another commit too (more than a commit from it,
/// or the wrong way: where the search placed a true change is not a test of it); and the put
/// changes named within a commit.
struct Rates {
    false_alarms: f64,
    misplaced: f64,
    found: f64,
}

fn rates(max_p: f64, sd: f64, put: &[Put]) -> Rates {
    let options = ChangeOptions {
        max_p,
        ..ChangeOptions::default()
    };
    let (mut false_alarms, mut misplaced, mut found) = (0, 0, 0);
    for r in 0..REPLICATES {
        let all = suite(r, sd, put);
        let commits = all[0].points.len();
        let named = named(&analyse(&all, &options), &all);
        // Each change is put at its commit, or half-way for a history too short for it.
        let at = |p: &Put| p.1.min(commits / 2);
        let is_put = |f: &(usize, usize, f64)| {
            put.iter()
                .any(|p| p.0 == f.0 && at(p).abs_diff(f.1) <= 1 && (f.2 > 0.0) == (p.2 > 0.0))
        };
        let changed = |f: &(usize, usize, f64)| put.iter().any(|p| p.0 == f.0);
        false_alarms += usize::from(named.iter().any(|f| !changed(f)));
        misplaced += usize::from(named.iter().any(|f| changed(f) && !is_put(f)));
        found += put
            .iter()
            .filter(|p| named.iter().any(|f| is_put(f) && f.0 == p.0))
            .count();
    }
    let n = REPLICATES as f64;
    Rates {
        false_alarms: false_alarms as f64 / n,
        misplaced: misplaced as f64 / n,
        found: found as f64 / (n * put.len().max(1) as f64),
    }
}

/// The most false alarms in [`REPLICATES`] suites that a rate of `max_p` makes likely: its
/// mean and 3 binomial standard errors (about 1 in 700 of passing suites fail it).
fn most_false(max_p: f64) -> f64 {
    max_p + 3.0 * (max_p * (1.0 - max_p) / REPLICATES as f64).sqrt()
}

#[test]
fn an_unchanged_suite_is_named_at_most_at_the_rate_max_p_states() {
    // 2% noise: a spurious split of 20 to 60 commits is then larger than the 1% `--noise`
    // asks, so `--max-p` alone decides.
    let mut over = Vec::new();
    for max_p in [0.001, 0.01, 0.05] {
        let rate = rates(max_p, 0.02, &[]).false_alarms;
        eprintln!(
            "unchanged suites, --max-p {max_p}: a commit named in {:.2}% of {REPLICATES}",
            100.0 * rate
        );
        if rate > most_false(max_p) {
            over.push((max_p, rate));
        }
    }
    assert!(over.is_empty(), "(--max-p, rate) over: {over:?}");
}

#[test]
fn a_suite_with_a_few_true_changes_names_them_and_no_unchanged_bench() {
    // Three benches change (+5%, −5% and +8%, at commits 15, 12 and 18 or half-way in a
    // shorter history) in 1.5% noise.
    let put = [(0, 15, 0.05), (1, 12, -0.05), (2, 18, 0.08)];
    let mut failed = Vec::new();
    for max_p in [0.001, 0.01, 0.05] {
        let r = rates(max_p, 0.015, &put);
        eprintln!(
            "suites with 3 changes, --max-p {max_p}: an unchanged bench named in {:.2}%, a \
             changed one at another commit in {:.2}%, the changes named in {:.1}%",
            100.0 * r.false_alarms,
            100.0 * r.misplaced,
            100.0 * r.found
        );
        if r.false_alarms > most_false(max_p) || r.found < 0.9 {
            failed.push((max_p, r.false_alarms, r.found));
        }
    }
    assert!(
        failed.is_empty(),
        "(--max-p, false alarms, found): {failed:?}"
    );
}
