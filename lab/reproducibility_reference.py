"""Reference values for pilot's reproducibility band (crates/pilot-engine/src/probe/reproducibility
and stats/prediction.rs), computed independently with numpy and scipy, and the Monte Carlo
coverage its tests assert, for the sources compared there.

Quiet or busy machine alike: nothing here is timed. Prints the values the tests quote.

    python3 lab/reproducibility_reference.py            # the hand examples
    python3 lab/reproducibility_reference.py --coverage # and the coverage of each source
    python3 lab/reproducibility_reference.py --successive # and the runs-across-builds band's
"""

import math
import sys

import numpy as np
from scipy.stats import norm
from scipy.stats import t as student_t

HALF_LIFE = 5.0


def spread(y):
    """Recency-weighted level, sd (reliability weights), Kish n_eff and dof = n_eff - 1."""
    y = np.asarray(y, dtype=float)
    n = len(y)
    w = 0.5 ** ((n - 1 - np.arange(n)) / HALF_LIFE)
    level = np.average(y, weights=w)
    sd = math.sqrt(np.cov(y, aweights=w))
    n_eff = w.sum() ** 2 / (w * w).sum()
    return level, sd, max(n_eff - 1, 1), n_eff


def satterthwaite(parts):
    s = sum(v for v, _ in parts)
    return s * s / sum(v * v / d for v, d in parts if v > 0)


def hand_examples():
    # A bench's own runs: 100, 102, 98, 101 ns earlier, 99 ns in this run.
    logs = np.log([100.0, 102.0, 98.0, 101.0, 99.0])
    level, sd, dof, n_eff = spread(logs)
    half = student_t.ppf(0.975, dof) * sd * math.sqrt(1 + 1 / n_eff)
    print("own: center", repr(math.exp(level)), "sd", repr(sd), "dof", repr(dof),
          "n_eff", repr(n_eff), "half_width", repr(half))

    # The probe's variation (robust sd 2% over 5 runs: 0.37 * 4 = 1.48 dof) and this run's
    # estimate 100 +- 1 (95%) over 9 dof, no earlier run of the bench: centre 100, N = 1.
    se = 0.01 / student_t.ppf(0.975, 9)
    dof = satterthwaite([(0.02 ** 2, 1.48), (se * se, 9)])
    half = student_t.ppf(0.975, dof) * math.sqrt(0.02 ** 2 + se * se) * math.sqrt(2)
    print("probe: se", repr(se), "dof", repr(dof), "half_width", repr(half))


def successive(logs):
    """A bench's spread over runs of its builds: median |successive difference| / (z75 * sqrt 2),
    with the MAD's 0.37 * (runs - 1) degrees of freedom."""
    steps = np.abs(np.diff(np.asarray(logs, dtype=float)))
    return np.median(steps) / (norm.ppf(0.75) * math.sqrt(2)), max(0.37 * (len(logs) - 1), 1.0)


def successive_examples():
    # Runs of a bench over its builds: 100, 104, 99, 103 ns earlier, 101 ns in this run, which
    # is its build's first (the band is centred on it, one run in its level).
    sd, dof = successive(np.log([100.0, 104.0, 99.0, 103.0, 101.0]))
    half = student_t.ppf(0.975, dof) * sd * math.sqrt(2)
    print("builds: sd", repr(sd), "dof", repr(dof), "half_width", repr(half))


def successive_coverage(runs, reps=200000, shift_every=0, seed=3):
    """How often the band of a new build's first run holds that build's next run: `runs`
    earlier runs of other builds and this one, independent normal runs (sd 1), and with
    `shift_every` > 0 a level moved by 5 sd at every such rebuild."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((reps, runs + 1))
    if shift_every:
        x[:, : runs - 1] += 5.0 * (np.arange(runs - 1) // shift_every)[None, :]
        x[:, runs - 1 :] += 5.0 * ((runs - 2) // shift_every + 1)
    steps = np.abs(np.diff(x[:, :runs], axis=1))
    sd = np.median(steps, axis=1) / (norm.ppf(0.75) * math.sqrt(2))
    half = student_t.ppf(0.975, max(0.37 * (runs - 1), 1.0)) * sd * math.sqrt(2)
    return np.mean(np.abs(x[:, runs] - x[:, runs - 1]) <= half)


def coverage(reps=4000, benches=8, runs=6, machine_sd=0.02, se=(0.001, 0.005), seed=1):
    """Runs 1..runs-1 teach the band, `runs` is this run, the next is checked."""
    rng = np.random.default_rng(seed)
    ses = np.linspace(se[0], se[1], benches)
    hit = {"bench": 0, "benches": 0, "widest": 0, "pooled_sum_dof": 0}
    total = 0
    for _ in range(reps):
        m = rng.normal(0, machine_sd, runs + 1)
        y = rng.normal(0, 1, benches)[:, None] + m[None, :] + \
            rng.normal(0, 1, (benches, runs + 1)) * ses[:, None]
        earlier = y[:, : runs - 1]
        shifts = (earlier - earlier.mean(axis=1, keepdims=True)).mean(axis=0)
        _, msd, mdof, _ = spread(shifts)
        seen = y[:, :runs]
        pooled = math.sqrt(((seen - seen.mean(axis=1, keepdims=True)) ** 2).sum()
                           / (benches * (runs - 1)))
        for b in range(benches):
            level, sd, dof, n_eff = spread(seen[b])
            k = math.sqrt(1 + 1 / n_eff)
            h_own = student_t.ppf(0.975, dof) * sd * k
            d = satterthwaite([(msd ** 2, mdof), (ses[b] ** 2, 30)])
            h_shared = student_t.ppf(0.975, d) * math.hypot(msd, ses[b]) * k
            h_pooled = student_t.ppf(0.975, benches * (runs - 1)) * pooled * k
            off = abs(y[b, runs] - level)
            hit["bench"] += off <= h_own
            hit["benches"] += off <= h_shared
            hit["widest"] += off <= max(h_own, h_shared)
            hit["pooled_sum_dof"] += off <= h_pooled
            total += 1
    return {k: v / total for k, v in hit.items()}


if __name__ == "__main__":
    hand_examples()
    successive_examples()
    if "--successive" in sys.argv:
        for runs in (5, 6, 8, 10, 15, 20, 30):
            print("builds: runs", runs, "coverage", successive_coverage(runs),
                  "with a level shift every 4th rebuild", successive_coverage(runs, shift_every=4))
    if "--coverage" in sys.argv:
        for runs in (4, 6, 8):
            print("runs", runs, coverage(runs=runs))
