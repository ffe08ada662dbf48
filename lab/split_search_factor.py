"""How much the search over splits inflates a change's t-test p: for normal values with no change,
the chance that the best of a segment's splits (at least 3 values each side) has a two-sample
|t| at least the one whose single-split two-sided p is P, over P. Printed beside the number of
splits, which is the factor `pilot_stats::searched_p` multiplies by (Bonferroni's bound): the
exact factor is below it, and close to it for the short stretches of a history.

Nothing is timed; the figures depend only on the seed and the number of simulated series.
Run: python3 lab/split_search_factor.py (about a minute; needs numpy and scipy).
"""

import numpy as np
import scipy.stats as st

MIN_SEGMENT = 3


def largest_t(x):
    """The largest pooled two-sample |t| over the splits of each row of x."""
    n = x.shape[1]
    cs, css = np.cumsum(x, axis=1), np.cumsum(x * x, axis=1)
    total, total_sq = cs[:, -1:], css[:, -1:]
    best = np.zeros(x.shape[0])
    for k in range(MIN_SEGMENT, n - MIN_SEGMENT + 1):
        s1, ss1 = cs[:, k - 1 : k], css[:, k - 1 : k]
        m1, m2 = s1 / k, (total - s1) / (n - k)
        within = (ss1 - k * m1**2) + ((total_sq - ss1) - (n - k) * m2**2)
        t = np.abs(m2 - m1) / np.sqrt(within / (n - 2) * (1 / k + 1 / (n - k)))
        best = np.maximum(best, t[:, 0])
    return best


def main():
    rng = np.random.default_rng(1)
    print("values  single-split p  exact factor  splits (the bound's factor)")
    for n, p in [(10, 1.5e-5), (17, 7.7e-6), (17, 1e-3), (30, 1e-5), (40, 1e-4), (60, 1e-4)]:
        t = st.t.isf(p / 2, n - 2)
        total = 4_000_000 if p < 1e-4 else 1_000_000
        hits = sum(
            int((largest_t(rng.standard_normal((500_000, n))) >= t).sum())
            for _ in range(total // 500_000)
        )
        splits = n - 2 * MIN_SEGMENT + 1
        print(f"{n:6}  {p:14.1e}  {hits / total / p:12.1f}  {splits:6}  ({hits} hits)")


if __name__ == "__main__":
    main()
