"""Prints the reference values that pilot's noise statistics are tested against
(`pilot-engine/src/stats/prediction.rs` and `detectable.rs`, used by `cargo pilot noise`),
computed with scipy, never with pilot.

- the prediction band of one more value: t.ppf((1 + c)/2, n - 1) * sd * sqrt(1 + 1/n);
- the smallest change two runs' comparison detects: (t.ppf(1 - a/2, nu) + t.ppf(power, nu))
  * sqrt(2) * sd, and at power 1/2 (just significant);
- the large-sample variance of a trimmed mean of normal values relative to the mean's,
  from the winsorized variance in closed form, and checked against a simulation;
- the smallest change interleaved pairs detect with a 20%-trimmed mean (Yuen), and untrimmed.

Run: `python3 lab/noise_reference.py` (numpy and scipy; any recent version).
"""

import math

import numpy as np
from scipy import stats as st


def trimmed_factor(g):
    c = st.norm.ppf(1 - g)
    w = (1 - 2 * g) - 2 * c * st.norm.pdf(c) + 2 * g * c * c
    return w / (1 - 2 * g) ** 2


print("prediction sd 0.01 n 30 c 0.95:", st.t.ppf(0.975, 29) * 0.01 * math.sqrt(1 + 1 / 30))
print("prediction sd 0.02 n 5 c 0.95:", st.t.ppf(0.975, 4) * 0.02 * math.sqrt(1 + 1 / 5))
for a, power in [(0.01, 0.8), (0.05, 0.8), (0.01, 0.5)]:
    d = (st.t.ppf(1 - a / 2, 29) + st.t.ppf(power, 29)) * math.sqrt(2) * 0.01
    print(f"between runs sd 0.01 dof 29 alpha {a} power {power}:", d)
for g in [0.1, 0.2]:
    print(f"trimmed-mean variance factor {g}:", trimmed_factor(g))
x = np.random.default_rng(1).standard_normal((200_000, 50))
print("simulated, 50 values, 20%:", st.trim_mean(x, 0.2, axis=1).var() * 50)
m = 40
kept = m - 2 * math.floor(0.2 * m)
d = (st.t.ppf(0.995, kept - 1) + st.t.ppf(0.8, kept - 1)) * 0.01 * math.sqrt(trimmed_factor(0.2) / m)
print("pairs sd 0.01 m 40 trim 0.2 alpha 0.01 power 0.8:", d)
d = (st.t.ppf(0.995, m - 1) + st.t.ppf(0.8, m - 1)) * 0.01 / math.sqrt(m)
print("pairs sd 0.01 m 40 untrimmed alpha 0.01 power 0.8:", d)
