#!/usr/bin/env bash
# Single-process against multi-process measurement, alternating runs so both see the same
# machine phases: for warm_up, hash and fill_vec, five cycles of (one run with the default
# single in-process session, one run with --processes 3). Prints, per design, how many runs'
# 95% CI contain the median of that design's five estimates (and of all ten), the mean
# relative half-width, the spread of the estimates, and the time per run.
# Usage: bash lab/processes-single-vs-multi.sh   (a few minutes; wants a machine left alone)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo bench -q -p pilot-examples --no-run >/dev/null 2>&1
out=$(mktemp -d)
bin() { ls -t target/release/deps | grep -E "^$1-[0-9a-f]{16}$" | head -1 | sed 's|^|target/release/deps/|'; }
for b in warm_up hash fill_vec; do
  for i in 1 2 3 4 5; do
    "$(bin $b)" --bench --json "$out/$b-single-$i.json" >/dev/null 2>&1
    "$(bin $b)" --bench --processes 3 --json "$out/$b-multi-$i.json" >/dev/null 2>&1
  done
  python3 - "$out" "$b" <<'PY'
import json, sys, statistics
out, b = sys.argv[1], sys.argv[2]
load = lambda d: [json.load(open(f"{out}/{b}-{d}-{i}.json"))["results"][0] for i in range(1, 6)]
pooled = statistics.median(r["pis"][0]["mean"] for d in ("single", "multi") for r in load(d))
for design in ("single", "multi"):
    runs = load(design)
    pis = [r["pis"][0] for r in runs]
    med = statistics.median(p["mean"] for p in pis)
    own = sum(p["ci"]["low"] <= med <= p["ci"]["high"] for p in pis)
    both = sum(p["ci"]["low"] <= pooled <= p["ci"]["high"] for p in pis)
    hw = statistics.mean((p["ci"]["high"] - p["ci"]["low"]) / 2 / p["mean"] * 100 for p in pis)
    spread = (max(p["mean"] for p in pis) / min(p["mean"] for p in pis) - 1) * 100
    secs = statistics.mean(r["elapsed_s"] for r in runs)
    print(f"{b:9} {design:6} own median {own}/5, pooled median {both}/5, "
          f"mean ±{hw:.2f}%, spread {spread:.1f}%, {secs:.1f} s per run")
PY
done
rm -rf "$out"
