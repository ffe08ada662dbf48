"""Not a measurement: the reference values the suite-level verdict's tests quote, computed with
numpy and scipy, never with pilot.

1. Holm's and Benjamini-Hochberg's adjusted p-values of a fixed list of p-values (ties, a 0
   and a 1 among them): Benjamini-Hochberg is scipy's `false_discovery_control(ps,
   method="bh")`; scipy has no Holm, so it is computed here from its definition (Holm 1979:
   the i-th smallest p times m - i + 1, a running maximum, capped at 1), which is what
   statsmodels' `multipletests(method="holm")` and R's `p.adjust(method="holm")` return.
   Quoted by `pilot_engine::compare::suite`'s and `pilot_stats::multiple`'s tests.

2. With `--sequential`: how often `cargo pilot bench --against`'s pair loop called an
   unchanged bench regressed or improved before it looked only at pre-set points, on
   simulated pairs (log ratios ~ N(0, sd), nothing timed): from 6 pairs on it tested after
   every pair at p < 0.01 (the one-sample test of the 20%-trimmed mean with Yuen's standard
   error, Student's t on h - 1 degrees of freedom, built from scipy's `trimboth` and
   `mstats.winsorize`) and stopped at the first verdict, or at the interval inside +-1%. The
   rate it prints for sd 2% and 60 pairs at most is the figure the fix's test
   (`crates/pilot-engine/src/compare/paired.rs`) reproduces with pilot's own code.

3. With `--calibration`: how often the paired test alone (the same one-sample trimmed-mean
   test, vectorised over 10^6 simulated benches of n normal log ratios, nothing timed) gives
   p below 0.01, 0.001 and 0.0001 when nothing changed: its tails against their nominal
   rates, at the small p a suite's rule needs.

Run: `python3 lab/multiple_comparisons_reference.py [--sequential] [--calibration]` (a minute).
"""

import math
import sys

import numpy as np
import scipy.stats as st
from scipy.stats import mstats

PS = [0.01, 0.04, 0.03, 0.005, 0.5, 0.04, 0.2, 0.0, 1.0, 0.0101, 0.00045, 0.06]


def holm(ps):
    m = len(ps)
    order = sorted(range(m), key=lambda i: (ps[i], i))
    out = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * ps[i]))
        out[i] = running
    return out


def yuen_one_sample(d, conf=0.95, trim=0.2):
    """(trimmed mean, its interval half-width, two-sided p) of d = 0."""
    n = len(d)
    g = int(math.floor(trim * n))
    h = n - 2 * g
    tm = np.mean(st.trimboth(np.sort(d), g / n)) if g > 0 else float(np.mean(d))
    w = np.asarray(mstats.winsorize(np.asarray(d), limits=(g / n, g / n)))
    sw2 = np.var(w, ddof=1)
    se = math.sqrt((n - 1) * sw2 / (h * (h - 1)))
    dof = h - 1
    if se == 0:
        return tm, 0.0, 1.0 if tm == 0 else 0.0
    p = 2 * st.t.sf(abs(tm) / se, dof)
    half = st.t.ppf(0.5 + conf / 2, dof) * se
    return tm, half, p


def old_pair_loop(rng, sd, most, alpha=0.01, noise=0.01, least=6):
    """The verdict the old loop settled on: 1 for regressed/improved, 0 otherwise."""
    d = rng.normal(0.0, sd, most)
    for n in range(least, most + 1):
        tm, half, p = yuen_one_sample(d[:n])
        change = math.exp(tm) - 1
        lo, hi = math.exp(tm - half) - 1, math.exp(tm + half) - 1
        if p < alpha and abs(change) > noise:
            return 1
        if (lo >= -noise and hi <= noise) or p < alpha:
            return 0
    return 0


def calibration(n, trials=1_000_000, trim=0.2, seed=4444):
    """Rates of p < 0.01, 0.001, 0.0001 for n normal values and the test above."""
    rng = np.random.default_rng(seed)
    g = int(math.floor(trim * n))
    h = n - 2 * g
    x = np.sort(rng.normal(size=(trials, n)), axis=1)
    tm = x[:, g:n - g].mean(axis=1)
    w = np.clip(x, x[:, [g]], x[:, [n - g - 1]])
    sw2 = w.var(axis=1, ddof=1)
    se = np.sqrt((n - 1) * sw2 / (h * (h - 1)))
    p = 2 * st.t.sf(np.abs(tm) / se, h - 1)
    return [float((p < a).mean()) for a in (0.01, 0.001, 0.0001)]


def main():
    print("ps =", PS)
    print("holm =", [float(x) for x in holm(PS)])
    print("bh   =", [float(x) for x in st.false_discovery_control(PS, method="bh")])
    if "--sequential" in sys.argv:
        rng = np.random.default_rng(44)
        for sd, most in [(0.02, 60), (0.01, 60), (0.005, 60)]:
            runs = 4000
            flagged = sum(old_pair_loop(rng, sd, most) for _ in range(runs))
            rate = flagged / runs
            se = math.sqrt(rate * (1 - rate) / runs)
            print(
                f"old pair loop, log-ratio sd {sd:.3f}, at most {most} pairs: "
                f"{flagged}/{runs} flagged = {rate:.4f} +- {se:.4f} (nominal 0.01)"
            )

    if "--failed-process" in sys.argv:
        # A pair with a failed process (a mean that is no positive time) stands beyond every
        # other log ratio on its side: here -1e3 (new failed) and +1e3 (base failed), which
        # the 20% trimming cuts. The paired tests' `a_failed_process_is_a_pair_far_out`.
        d = np.array([0.010, -0.004, 0.021, -1e3, 0.003, -0.012, 0.008, 1e3, 0.015, -0.002])
        tm, half, p = yuen_one_sample(d)
        print(f"failed process: trimmed mean {tm!r}, half-width {half!r}, p {p!r}")

    if "--calibration" in sys.argv:
        for n in (6, 8, 12, 20, 40, 80):
            r = calibration(n)
            print(
                f"paired test alone, n = {n} normal log ratios: P(p < 0.01) = {r[0]:.5f}, "
                f"P(p < 0.001) = {r[1]:.6f}, P(p < 0.0001) = {r[2]:.7f} (10^6 benches)"
            )


if __name__ == "__main__":
    main()
