"""How often a bench's "run to run" band would hold its next run's estimate, replayed on the
documents lab/executable-copies-coverage.sh leaves (target/executable-copies/out, or the folder
given): for each bench and build of that script, its runs in order, each a new build (its
executable a new file), the band pilot now gives a build's first run from the bench's runs
across builds (the median successive difference of the log estimates over Φ⁻¹(0.75)·√2, Student's
t over 0.37·(runs − 1) degrees of freedom, centred on the run, times √2), beside the band each run
recorded when it ran (the speed probe's, before pilot learnt across builds). Nothing is timed;
run it after the coverage script, in any phase.

    python3 lab/reproducibility_band_replay.py [OUT]   # numpy, scipy
"""

import glob
import json
import math
import re
import statistics
import sys

from scipy.stats import norm
from scipy.stats import t as student_t

RUNS_NEEDED = 5


def series(out, build, bench):
    runs = []
    for path in glob.glob(f"{out}/{build}-{bench}-*.json"):
        epoch = int(re.search(r"-(\d+)\.json$", path).group(1))
        pi = json.load(open(path))["results"][0]["pis"][0]
        runs.append((epoch, pi["mean"], pi.get("reproducibility")))
    return sorted(runs)


def across_builds_half_width(logs):
    steps = [abs(b - a) for a, b in zip(logs, logs[1:])]
    sd = statistics.median(steps) / (norm.ppf(0.75) * math.sqrt(2))
    dof = max(1.0, 0.37 * (len(logs) - 1))
    return student_t.ppf(0.975, dof) * sd * math.sqrt(2)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "target/executable-copies/out"
    names = {re.sub(r"-\d+\.json$", "", p.split("/")[-1]) for p in glob.glob(f"{out}/*.json")}
    print(f"{'build':7} {'bench':22} {'across builds':>14} {'half-width':>11} {'recorded':>9}")
    for name in sorted(names):
        build, bench = name.split("-", 1)
        runs = series(out, build, bench)
        logs = [math.log(m) for _, m, _ in runs]
        held = tried = rec_held = rec_tried = 0
        widths = []
        for i in range(RUNS_NEEDED - 1, len(runs) - 1):
            half = across_builds_half_width(logs[: i + 1])
            widths.append(half)
            tried += 1
            held += abs(logs[i + 1] - logs[i]) <= half
        for i in range(len(runs) - 1):
            band = runs[i][2]
            if band and band.get("state") == "learnt":
                rec_tried += 1
                rec_held += band["low"] <= runs[i + 1][1] <= band["high"]
        width = f"±{100 * statistics.median(widths):.1f}%" if widths else "-"
        print(f"{build:7} {bench:22} {held:>6}/{tried:<7} {width:>11} {rec_held:>4}/{rec_tried}")


if __name__ == "__main__":
    main()
