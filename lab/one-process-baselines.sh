#!/usr/bin/env bash
# Comparisons across runs of benches measured in one process each (a group's members): how
# often unchanged code would be flagged by the test over one process's samples alone, and how
# often the verdict `cargo pilot compare` gives is regressed or improved. Each run is a fresh
# process of lab/group-verdicts/bench.rs (groups `identical` and `sorts`: five members, none
# changed between runs); consecutive runs are compared, run 1 with 2, 2 with 3, and so on.
# Runs here are seconds apart, so no member learns its run-to-run variation: this measures the
# comparisons a user gets before it is learnt. Not run by CI.
# Usage: bash lab/one-process-baselines.sh CARGO_PILOT [RUNS] [LOOPS]
#        (RUNS defaults to 21, LOOPS busy loops beside the runs, default 0)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
pilot=$1
runs=${2:-21}
loops=${3:-0}
exe=$(bash "$here/group-verdicts/build.sh")
out=$(mktemp -d)
pids=()
for _ in $(seq 1 "$loops"); do
  sh -c 'while :; do :; done' &
  pids+=($!)
done
trap '[ ${#pids[@]} -eq 0 ] || kill "${pids[@]}" 2>/dev/null' EXIT
echo "bench binary: $exe; $runs runs beside $loops busy loops; documents in $out"
for i in $(seq 1 "$runs"); do
  for group in identical sorts; do
    mkdir -p "$out/$i"
    (cd "$out" && "$exe" --bench --json "$out/$i/$group.json" "$group::" >/dev/null 2>&1) || true
  done
done
for i in $(seq 2 "$runs"); do
  for group in identical sorts; do
    "$pilot" pilot compare "$out/$((i - 1))/$group.json" "$out/$i/$group.json" --format json \
      >"$out/compare-$i-$group.json" 2>/dev/null || true
  done
done
python3 - "$out" <<'PY'
import glob, json, sys
flagged_by_test = verdicts = tested = suites = suites_by_test = suites_by_verdict = 0
for f in sorted(glob.glob(f"{sys.argv[1]}/compare-*.json")):
    try:
        doc = json.load(open(f))
    except ValueError:
        continue
    alpha, noise = doc["alpha"], doc["noise"]
    suites += 1
    before = (flagged_by_test, verdicts)
    for b in doc["benches"]:
        if b.get("p_adjusted") is None or b.get("change") is None:
            continue
        tested += 1
        if b["p_adjusted"] < alpha and abs(b["change"]) > noise:
            flagged_by_test += 1
        if b["verdict"] in ("regressed", "improved"):
            verdicts += 1
    suites_by_test += flagged_by_test > before[0]
    suites_by_verdict += verdicts > before[1]
print(f"comparisons of unchanged members: {tested}, in {suites} comparisons of a group's run")
print(f"groups' comparisons with a member flagged by the test alone: {suites_by_test}; by the verdict: {suites_by_verdict}")
print(f"flagged by the within-process test alone (p adj < alpha, |change| > noise): {flagged_by_test}")
print(f"verdict regressed or improved: {verdicts}")
PY
