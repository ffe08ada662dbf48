//! Many tests at once: p-values adjusted for the number of tests made, so that a decision over
//! the whole family (a suite of benches) keeps the error rate one test would.

/// Holm's step-down adjusted p-values (Holm 1979, "A simple sequentially rejective multiple
/// test procedure"): with the `m` p-values sorted, `p₍₁₎ ≤ … ≤ p₍ₘ₎`, the `i`-th's is
/// `max over j ≤ i of min(1, (m − j + 1)·p₍ⱼ₎)`, returned in the input's order. Rejecting
/// every hypothesis whose adjusted p is below `α` keeps the **family-wise error rate** (the
/// chance of one or more false rejections) at most `α`, whatever the dependence between the
/// tests; it is uniformly more powerful than Bonferroni's `m·p`. The values of statsmodels'
/// `multipletests(ps, method="holm")` and R's `p.adjust(ps, "holm")`.
///
/// Assumes each p-value is valid (`P(p ≤ u) ≤ u` under its null). A NaN stays NaN and is left
/// out of `m`. Time: O(m log m).
pub fn holm(ps: &[f64]) -> Vec<f64> {
    let (order, m) = sorted_order(ps);
    let mut out = vec![f64::NAN; ps.len()];
    let mut running: f64 = 0.0;
    for (rank, &i) in order.iter().enumerate() {
        let scaled = ((m - rank) as f64 * ps[i]).min(1.0);
        running = running.max(scaled);
        out[i] = running;
    }
    out
}

/// Benjamini–Hochberg's step-up adjusted p-values (Benjamini & Hochberg 1995, "Controlling
/// the false discovery rate"): with the `m` p-values sorted, the `i`-th's is `min over j ≥ i
/// of min(1, m·p₍ⱼ₎ / j)`, returned in the input's order. Rejecting every hypothesis whose
/// adjusted p is below `α` keeps the **false-discovery rate** (the expected share of false
/// ones among the rejections) at most `α·m₀/m` for independent or positively dependent tests
/// (Benjamini & Yekutieli 2001). It rejects at least what [`holm`] rejects, more when many
/// hypotheses are false; with every null true, its family-wise rate is `α` too. The values of
/// scipy's `false_discovery_control(ps, method="bh")`.
///
/// Assumes valid p-values, independent or positively dependent. A NaN stays NaN and is left
/// out of `m`. Time: O(m log m).
pub fn benjamini_hochberg(ps: &[f64]) -> Vec<f64> {
    let (order, m) = sorted_order(ps);
    let mut out = vec![f64::NAN; ps.len()];
    let mut running: f64 = 1.0;
    for (rank, &i) in order.iter().enumerate().rev() {
        let scaled = (m as f64 * ps[i] / (rank + 1) as f64).min(1.0);
        running = running.min(scaled);
        out[i] = running;
    }
    out
}

/// The indices of the p-values that are numbers, smallest p first (ties in input order), and
/// how many there are.
fn sorted_order(ps: &[f64]) -> (Vec<usize>, usize) {
    let mut order: Vec<usize> = (0..ps.len()).filter(|&i| !ps[i].is_nan()).collect();
    order.sort_by(|&a, &b| ps[a].total_cmp(&ps[b]).then(a.cmp(&b)));
    let m = order.len();
    (order, m)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: &[f64], b: &[f64]) -> bool {
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-12)
    }

    #[test]
    fn holm_by_hand() {
        // m = 4, sorted 0.01 0.02 0.03 0.5: 4·0.01 = 0.04, 3·0.02 = 0.06, 2·0.03 = 0.06,
        // 1·0.5 = 0.5; running maximum 0.04 0.06 0.06 0.5, in the input's order.
        let got = holm(&[0.03, 0.5, 0.01, 0.02]);
        assert!(close(&got, &[0.06, 0.5, 0.04, 0.06]), "{got:?}");
        // Capped at 1, and a single test is its own p.
        assert!(close(&holm(&[0.4, 0.9]), &[0.8, 0.9]));
        assert!(close(&holm(&[0.3]), &[0.3]));
        assert!(holm(&[]).is_empty());
    }

    #[test]
    fn bh_by_hand() {
        // m = 4, sorted 0.01 0.02 0.03 0.5: 4·0.01/1 = 0.04, 4·0.02/2 = 0.04, 4·0.03/3 = 0.04,
        // 4·0.5/4 = 0.5; running minimum from the top 0.04 0.04 0.04 0.5.
        let got = benjamini_hochberg(&[0.03, 0.5, 0.01, 0.02]);
        assert!(close(&got, &[0.04, 0.5, 0.04, 0.04]), "{got:?}");
        // A large p early is pulled down by a smaller adjusted one above it.
        let got = benjamini_hochberg(&[0.04, 0.041]);
        assert!(close(&got, &[0.041, 0.041]), "{got:?}");
    }

    #[test]
    fn nans_are_left_out_of_the_count() {
        let got = holm(&[0.01, f64::NAN, 0.02]);
        assert!((got[0] - 0.02).abs() < 1e-15 && got[1].is_nan() && (got[2] - 0.02).abs() < 1e-15);
        let got = benjamini_hochberg(&[f64::NAN, 0.01]);
        assert!(got[0].is_nan() && (got[1] - 0.01).abs() < 1e-15);
    }

    #[test]
    fn adjusted_never_below_raw_and_bh_never_above_holm() {
        let ps = [0.001, 0.2, 0.04, 0.04, 0.7, 0.0099, 1.0, 0.0];
        let (h, b) = (holm(&ps), benjamini_hochberg(&ps));
        for i in 0..ps.len() {
            assert!(
                h[i] >= ps[i] && b[i] >= ps[i] && b[i] <= h[i] + 1e-15,
                "{i}"
            );
            assert!(h[i] <= 1.0 && b[i] <= 1.0);
        }
    }
}
