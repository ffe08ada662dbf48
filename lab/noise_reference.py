"""Prints the reference values that pilot's noise statistics are tested against
(`crates/pilot-stats/src/prediction.rs` and `detectable.rs`, used by `cargo pilot noise`),
computed with scipy, never with pilot.

- the prediction band of one more value: t.ppf((1 + c)/2, n - 1) * sd * sqrt(1 + 1/n);
- the smallest change two runs' comparison detects: (t.ppf(1 - a/2, nu) + t.ppf(power, nu))
  * sqrt(2) * sd, and at power 1/2 (just significant);
- the winsorized variance of the standard normal at 20% (what the A/A pairs' winsorized sd
  is at normal data), in closed form, and the trimmed mean's variance relative to the
  mean's that it makes, checked against a simulation;
- the smallest change interleaved pairs detect with a 20%-trimmed mean (Yuen's standard
  error s_w * sqrt((m - 1) / (h (h - 1))) from the winsorized sd s_w), and untrimmed.

Run: `python3 lab/noise_reference.py` (numpy and scipy; any recent version).
"""

import math

import numpy as np
from scipy import stats as st


def winsorized_variance(g):
    """The winsorized variance of the standard normal at trim g."""
    c = st.norm.ppf(1 - g)
    return (1 - 2 * g) - 2 * c * st.norm.pdf(c) + 2 * g * c * c


print("prediction sd 0.01 n 30 c 0.95:", st.t.ppf(0.975, 29) * 0.01 * math.sqrt(1 + 1 / 30))
print("prediction sd 0.02 n 5 c 0.95:", st.t.ppf(0.975, 4) * 0.02 * math.sqrt(1 + 1 / 5))
for a, power in [(0.01, 0.8), (0.05, 0.8), (0.01, 0.5)]:
    d = (st.t.ppf(1 - a / 2, 29) + st.t.ppf(power, 29)) * math.sqrt(2) * 0.01
    print(f"between runs sd 0.01 dof 29 alpha {a} power {power}:", d)
print("winsorized variance 0.2:", winsorized_variance(0.2))
print("trimmed-mean variance / mean's, 0.2:", winsorized_variance(0.2) / 0.6**2)
x = np.random.default_rng(1).standard_normal((200_000, 50))
print("simulated, 50 values, 20%:", st.trim_mean(x, 0.2, axis=1).var() * 50)
m = 40
h = m - 2 * math.floor(0.2 * m)
se = 0.01 * math.sqrt((m - 1) / (h * (h - 1)))
d = (st.t.ppf(0.995, h - 1) + st.t.ppf(0.8, h - 1)) * se
print("pairs s_w 0.01 m 40 trim 0.2 alpha 0.01 power 0.8:", d)
d = (st.t.ppf(0.995, m - 1) + st.t.ppf(0.8, m - 1)) * 0.01 / math.sqrt(m)
print("pairs sd 0.01 m 40 untrimmed alpha 0.01 power 0.8:", d)
