"""Not a measurement: the reference values the `changes` note on a level the newest commits
left again (`receded` in crates/cargo-pilot/src/history/changes.rs) is tested against.

Student's two-sample t-test of the newest commits against the rest of the changed level, its
spread never below the two levels' pooled spread, degrees of freedom the two sides'. Prints
the p-value and the relative change for each case the unit tests quote.

    python3 lab/receded_reference.py    (numpy, scipy)
"""
import numpy as np
from scipy import stats


def ss(a):
    return float(((a - a.mean()) ** 2).sum())


def receded(prior, rest, newest):
    prior, rest, newest = map(np.array, (prior, rest, newest))
    pooled = np.sqrt((ss(prior) + ss(rest)) / (len(prior) + len(rest) - 2))
    own = np.sqrt((ss(rest) + ss(newest)) / (len(rest) + len(newest) - 2))
    sd = max(pooled, own)
    t = (newest.mean() - rest.mean()) / (sd * np.sqrt(1 / len(rest) + 1 / len(newest)))
    dof = len(rest) + len(newest) - 2
    return t, dof, 2 * stats.t.sf(abs(t), dof), np.expm1(newest.mean() - rest.mean())


cases = {
    "the newest two back (four commits a level)": (
        [0.00, 0.02, 0.00, 0.02], [0.10, 0.12, 0.10, 0.12], [0.01, 0.01]),
    "a far run left out of the level before (index 3, 0.60)": (
        [0.00, 0.02, 0.00, 0.02, 0.00, 0.02, 0.00], [0.10, 0.12, 0.10, 0.12, 0.10], [0.01, 0.01]),
}
for name, (prior, rest, newest) in cases.items():
    t, dof, p, change = receded(prior, rest, newest)
    print(f"{name}: t = {t!r}, dof = {dof}, p = {p!r}, change = {change!r}")
