//! What a machine's suite names: Holm's step-down over its series. A commit named where no code
//! changed is a false alarm of the suite, not of one series, so `--max-p` is the family-wise
//! rate over the machine's series: the chance that any of them names a commit where its code
//! did not change.

/// How one series of the suite is read, after Holm's step-down over the machine's series.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Level {
    /// The p a change of its series needs: `--max-p` over Holm's factor at the step that
    /// rejected the series, or over the number of series when none did (its changes then only
    /// tell the machine's shared ones).
    pub(super) max_p: f64,
    /// Whether the series' changes are named: a step rejected it.
    pub(super) named: bool,
    /// Holm's factor at its rank (`m − rank + 1`), and its adjusted p.
    factor: f64,
    adjusted: f64,
}

impl Level {
    /// A change's adjusted p: its own p times its series' factor, at least its series'
    /// adjusted p (the step-down's running maximum).
    pub(super) fn adjust(&self, p: f64) -> f64 {
        (self.factor * p).min(1.0).max(self.adjusted)
    }
}

/// Holm's step-down over `m` series at `max_p`, each series read at its step's level:
/// `smallest_p(series, level)` is the least p of the changes of its code found at `level`
/// (`None` for none). The first step reads every series at `max_p / m`; each step after it
/// reads the series not yet rejected at `max_p / (m − r)`, with `r` series rejected so far,
/// until a step rejects none.
///
/// This is Holm's procedure ("A simple sequentially rejective multiple test procedure", 1979)
/// with each series' test made at the level it is compared with, since a change's p depends on
/// the level the series is read at (the changes around it that are kept). It keeps the chance
/// of naming a commit in any series whose code did not change at most `max_p` whatever the
/// dependence between the series (the benches of one run share its machine), and names all
/// that Bonferroni's `max_p / m` names, and more. The false-discovery rate (Benjamini–Hochberg)
/// would name more where many benches changed, but a CI that fails on one commit named wrongly
/// needs the family-wise rate.
///
/// Time: at most `m + 1` steps, each reading the series not yet rejected; usually two.
pub(super) fn holm_levels(
    m: usize,
    max_p: f64,
    mut smallest_p: impl FnMut(usize, f64) -> Option<f64>,
) -> Vec<Level> {
    let mut ps = vec![1.0; m];
    let mut step_of: Vec<Option<usize>> = vec![None; m];
    let mut rejected = 0;
    loop {
        let divisor = m - rejected;
        let mut found = Vec::new();
        for s in (0..m).filter(|&s| step_of[s].is_none()) {
            if let Some(p) = smallest_p(s, max_p / divisor as f64) {
                found.push((s, p));
            }
        }
        if found.is_empty() || divisor == 0 {
            break;
        }
        for (s, p) in found {
            ps[s] = p;
            step_of[s] = Some(divisor);
            rejected += 1;
        }
        if rejected == m {
            break;
        }
    }
    let adjusted = pilot_stats::holm(&ps);
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&a, &b| ps[a].total_cmp(&ps[b]).then(a.cmp(&b)));
    let mut out = vec![
        Level {
            max_p: max_p / m.max(1) as f64,
            named: false,
            factor: 1.0,
            adjusted: 1.0,
        };
        m
    ];
    for (rank, &s) in order.iter().enumerate() {
        let level = Level {
            factor: (m - rank) as f64,
            adjusted: adjusted[s],
            ..out[s]
        };
        out[s] = match step_of[s] {
            // A series rejected at a step whose p, ranked among the others', is not below
            // `max_p` once adjusted (a reading at another level kept other changes) stays
            // unnamed: what is printed is what decided.
            Some(divisor) if adjusted[s] < max_p => Level {
                max_p: max_p / divisor as f64,
                named: true,
                ..level
            },
            _ => level,
        };
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Series read as if their changes' p did not depend on the level: `ps[s]` when below it.
    fn fixed(ps: &[f64], max_p: f64) -> Vec<Level> {
        holm_levels(ps.len(), max_p, |s, level| (ps[s] < level).then_some(ps[s]))
    }

    #[test]
    fn holm_steps_down_and_stops_at_the_first_series_it_keeps() {
        // m = 4 at 0.05: 0.01 and 0.012 < 0.05/4 rejected at the first step, 0.03 ≥ 0.05/2
        // kept at the second, and so is 1.
        let levels = fixed(&[0.03, 0.01, 1.0, 0.012], 0.05);
        let named: Vec<bool> = levels.iter().map(|l| l.named).collect();
        assert_eq!(named, [false, true, false, true]);
        assert!((levels[1].max_p - 0.05 / 4.0).abs() < 1e-15);
        assert!((levels[3].max_p - 0.05 / 4.0).abs() < 1e-15);
        assert!((levels[0].max_p - 0.05 / 4.0).abs() < 1e-15);
        // 0.013 ≥ 0.05/4 waits for the second step: 0.013 < 0.05/3.
        let levels = fixed(&[0.01, 0.013, 1.0, 1.0], 0.05);
        assert!((levels[1].max_p - 0.05 / 3.0).abs() < 1e-15);
        // Holm rejects the second series where Bonferroni would not (0.013 ≥ 0.05/4).
        assert!(levels[1].named && 0.013 * 4.0 > 0.05);
        // A change's adjusted p is its own times the factor, never below its series'
        // (0.013·3 = 0.039 < 0.01·4).
        assert!((levels[1].adjust(0.3) - 0.9).abs() < 1e-12);
        assert!((levels[1].adjust(0.013) - 0.04).abs() < 1e-12);
        assert_eq!(levels[2].adjust(0.5), 1.0);
    }

    #[test]
    fn each_series_is_read_at_its_steps_level() {
        // A series whose change shows only when read at 0.05/4 (a reading at a looser level
        // keeps other changes that hide it) is rejected at the first step.
        let mut asked = Vec::new();
        let levels = holm_levels(4, 0.05, |s, level| {
            asked.push((s, level));
            (s == 2 && level < 0.02).then_some(0.001)
        });
        assert!(levels[2].named && !levels[0].named);
        // The second step reads the three others at 0.05/3, and rejects none.
        assert_eq!(asked.len(), 4 + 3);
        assert!(
            asked[4..]
                .iter()
                .all(|a| a.0 != 2 && (a.1 - 0.05 / 3.0).abs() < 1e-15)
        );
    }

    #[test]
    fn no_series_is_no_level() {
        assert!(holm_levels(0, 0.05, |_, _| Some(0.0)).is_empty());
    }
}
