#!/usr/bin/env bash
# Measures the accuracy checks against issue 13's bars. Not run by CI: it takes about 12
# minutes and wants a machine doing nothing else (it starts its own CPU hogs when it needs them).
#
#   bash lab/accuracy-checks-firing.sh [RUNS]
#
# RUNS (default 10 for the busy-machine bars, half that for the others):
# - busy_machine: the fixture's `no_leak` bench (2 s cap) with two CPU-hog processes running,
#   and at a quiet moment;
# - leak: `leak` (64 KiB kept per round) and `no_leak`; slowdown: `slowdown` (20% slower over
#   a 10 s session, the default cap);
# - warm-up class: the examples' `warm_up` and `one_add` (default cap);
# - the recording overhead of `unit_50ns` (about 50 ns a unit) against the same work timed as
#   whole rounds with and without two clock reads per unit (the `whole` group, interleaved):
#   they agree when they differ by less than their two intervals' combined half-widths;
# - the sampler's cost: `no_leak` with and without --no-sampling, alternating, as the ratio
#   of the two means.
# Prints a count per bar, and the cost's min/median/max with the geometric mean's interval.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
fixture=$root/tests/fixture-bench
runs=${1:-10}
half=$(( (runs + 1) / 2 ))
out=$root/target/checks-bars
rm -rf "$out" && mkdir -p "$out"
(cd "$fixture" && cargo bench -q --features checks --bench checks --no-run) || exit 1
(cd "$root" && cargo bench -q -p pilot-examples --bench warm_up --bench one_add --no-run) || exit 1
newest() { ls -t "$1"/$2-* | grep -v '\.d$' | head -1; }
checks=$(newest "$fixture/target/release/deps" checks)
warm=$(newest "$root/target/release/deps" warm_up)
one=$(newest "$root/target/release/deps" one_add)

# kinds FILE: the check kinds of the run document's one result, and its warm-up class.
kinds() {
  python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
print(" ".join(c["kind"] for c in r["checks"]), "class=" + str(r.get("warm_up")))' "$1"
}
count() { # LABEL PATTERN FILES...
  local label=$1 pattern=$2 n=0 total=0; shift 2
  for f in "$@"; do total=$((total + 1)); kinds "$f" | grep -qw -- "$pattern" && n=$((n + 1)); done
  echo "$label: $n of $total"
}
mean() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["results"][0]["pis"][0]["mean"])' "$1"; }

echo "load at start: $(cut -d' ' -f1-3 /proc/loadavg)"
for i in $(seq "$runs"); do
  "$checks" --bench no_leak --exact --max-time 2 --json "$out/quiet-$i.json" >/dev/null 2>&1
  hogs=()
  for _ in 1 2; do sh -c 'while :; do :; done' & hogs+=($!); done
  sleep 0.3
  "$checks" --bench no_leak --exact --max-time 2 --json "$out/busy-$i.json" >/dev/null 2>&1
  kill "${hogs[@]}" 2>/dev/null; wait "${hogs[@]}" 2>/dev/null
done
count "busy_machine with two CPU hogs" busy_machine "$out"/busy-*.json
count "busy_machine at a quiet moment" busy_machine "$out"/quiet-*.json
python3 - "$out" <<'PY'
import glob, json, sys
shares = []
for f in sorted(glob.glob(sys.argv[1] + "/busy-*.json")):
    for c in json.load(open(f))["results"][0]["checks"]:
        if c["kind"] == "busy_machine":
            shares.append(c["mean"])
if shares:
    shares.sort()
    print(f"  others' cores with the hogs: min {shares[0]}, median {shares[len(shares)//2]}, max {shares[-1]}")
PY

for i in $(seq "$half"); do
  for b in leak no_leak; do
    "$checks" --bench "$b" --exact --max-time 2 --json "$out/$b-$i.json" >/dev/null 2>&1
  done
  PILOT_FIXTURE_SLOWDOWN_S=10 "$checks" --bench slowdown --exact --min-time 10 --max-time 10 \
    --json "$out/slowdown-$i.json" >/dev/null 2>&1
  "$warm" --bench --json "$out/warm-$i.json" >/dev/null 2>&1
  "$one" --bench --json "$out/one-$i.json" >/dev/null 2>&1
done
count "leak on the leaking bench" leak "$out"/leak-*.json
count "leak on the same work without the leak" leak "$out"/no_leak-*.json
count "slowdown on the bench 20% slower over its session" slowdown "$out"/slowdown-*.json
count "warm_up classed warm-up" class=warm-up "$out"/warm-*.json
count "one_add classed flat" class=flat "$out"/one-*.json

for i in $(seq "$runs"); do
  "$checks" --bench unit_50ns --exact --json "$out/unit-$i.json" >/dev/null 2>&1
  "$checks" --bench whole --json "$out/whole-$i.json" >/dev/null 2>&1
done
python3 - "$out" "$runs" <<'PY'
import json, math, sys
out, runs = sys.argv[1], int(sys.argv[2])
agree, rows = 0, []
for i in range(1, runs + 1):
    unit = json.load(open(f"{out}/unit-{i}.json"))["results"][0]
    o = unit.get("overhead")
    whole = {r["name"]: r["pis"][0] for r in json.load(open(f"{out}/whole-{i}.json"))["results"]}
    if not o or "whole_plain" not in whole or "whole_clocked" not in whole:
        rows.append(f"  run {i}: no figure"); continue
    half = lambda pi: (pi["ci"]["high"] - pi["ci"]["low"]) / 2
    indep = whole["whole_clocked"]["mean"] - whole["whole_plain"]["mean"]
    indep_half = math.hypot(half(whole["whole_clocked"]), half(whole["whole_plain"]))
    mine_half = (o["ci"]["high"] - o["ci"]["low"]) / 2
    ok = abs(o["per_unit_ns"] - indep) <= math.hypot(mine_half, indep_half)
    agree += ok
    rows.append(f"  run {i}: pilot {o['per_unit_ns']:.1f} ± {mine_half:.1f} ns ({o['pairs']} pairs), "
                f"whole rounds {indep:.1f} ± {indep_half:.1f} ns: {'agree' if ok else 'DISAGREE'}")
print(f"recording overhead agrees with whole rounds on/off: {agree} of {runs}")
print("\n".join(rows))
PY

ratios=()
for i in $(seq "$runs"); do
  for mode in on off; do
    flag=(); [ $mode = off ] && flag=(--no-sampling)
    "$checks" --bench no_leak --exact --max-time 2 --no-overhead-check "${flag[@]}" \
      --json "$out/$mode-$i.json" >/dev/null 2>&1
  done
  ratios+=("$(python3 -c "print($(mean "$out/on-$i.json") / $(mean "$out/off-$i.json"))")")
done
python3 - "${ratios[@]}" <<'PY'
import math, statistics, sys
r = sorted(float(x) for x in sys.argv[1:])
logs = [math.log(x) for x in r]
m, s = statistics.mean(logs), statistics.stdev(logs)
half = 2.09 * s / math.sqrt(len(logs)) if len(logs) == 20 else 2.262 * s / math.sqrt(len(logs))
print(f"sampler on / off, time per unit: min {r[0]:.4f}, median {r[len(r)//2]:.4f}, max {r[-1]:.4f}; "
      f"geometric mean {math.exp(m):.4f} [{math.exp(m - half):.4f}, {math.exp(m + half):.4f}] ({len(r)} pairs, alternating)")
PY
echo "load at end: $(cut -d' ' -f1-3 /proc/loadavg)"
