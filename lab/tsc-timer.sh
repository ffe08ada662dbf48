#!/usr/bin/env bash
# Issue 31's TSC bars, measured by pilot's own benches:
#  1. one TSC read costs at most half of `Instant::now()` on this machine
#     (`cargo bench -p pilot --bench overhead`: instant_read, tsc_read, and the pairs and
#     recorders of both), three runs: each figure's min/median/max and the ratio's;
#  2. on the example benches, the TSC and `Instant` estimates agree within their intervals:
#     every example bench binary run with --timer instant, then with --timer tsc, capped at
#     --max-time 3 (default settings otherwise), each bench's two estimates and whether their
#     intervals overlap. Readings-only benches time whole rounds with the session's clock
#     (`Instant`) whatever the timer, and `iter_custom` benches time themselves: they are
#     listed, marked, and not counted.
# Not run by CI (about 10 minutes).
# Usage: bash lab/tsc-timer.sh [quiet|loaded]   (default: quiet)
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
out=$root/target/tsc-timer
rm -rf "$out" && mkdir -p "$out"
phase=${1:-quiet}
cd "$root"
cargo bench -q -p pilot --bench overhead --no-run 2>&1 | tail -3
exes=$(cargo bench -q -p pilot-examples --no-run --message-format=json 2>/dev/null | python3 -c '
import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and "bench" in m["target"]["kind"]:
        print(m["executable"])')
busy=""
[ "$phase" = loaded ] && { sh -c 'while :; do :; done' & busy=$!; }
echo "== phase $phase; load: $(uptime | sed 's/.*load average: //')"
for i in 1 2 3; do
  cargo bench -q -p pilot --bench overhead -- --json "$out/overhead-$i.json" >/dev/null 2>&1
done
for exe in $exes; do
  for timer in instant tsc; do
    # Each run's results in a target directory of its own (the bench binary writes under
    # CARGO_TARGET_DIR).
    CARGO_TARGET_DIR=$out/$timer "$exe" --bench --max-time 3 --timer "$timer" >/dev/null 2>&1
  done
done
[ -n "$busy" ] && kill "$busy"
echo "   load after: $(uptime | sed 's/.*load average: //')"
python3 - "$out" <<'PY'
import json, sys, glob, os, statistics as st
out = sys.argv[1]
def mean(r): return r["pis"][0]["mean"]
def row(values, unit=" ns"):
    s = sorted(values)
    return f"min {s[0]:.2f}, median {st.median(s):.2f}, max {s[-1]:.2f}{unit}"
runs = [{r["name"]: r for r in json.load(open(f"{out}/overhead-{i}.json"))["results"]} for i in (1, 2, 3)]
for name in ["instant_read", "tsc_read", "instant_pair", "tsc_pair", "recorder_unit", "recorder_unit_tsc"]:
    print(f"{name:18} {row([mean(r[name]) for r in runs])}")
ratios = [mean(r["tsc_read"]) / mean(r["instant_read"]) for r in runs]
print(f"tsc_read / instant_read: {row(ratios, '')}; bar (at most 0.5) met in "
      f"{sum(x <= 0.5 for x in ratios)} of 3")
def results(timer):
    found = {}
    for path in glob.glob(f"{out}/{timer}/pilot/results/**/*.json", recursive=True):
        r = json.load(open(path))
        found[(r["target"], r["name"])] = r
    return found
a, b = results("instant"), results("tsc")
agree = counted = 0
print(f"\n{'bench':45} {'Instant':>24} {'TSC':>24}  agree")
for key in sorted(set(a) & set(b)):
    ra, rb = a[key], b[key]
    if not ra["pis"] or not rb["pis"]:
        print(f"{'/'.join(key):45} no estimate ({ra['status']} / {rb['status']})")
        continue
    pa, pb = ra["pis"][0], rb["pis"][0]
    overlap = pa["ci"]["low"] <= pb["ci"]["high"] and pb["ci"]["low"] <= pa["ci"]["high"]
    own = ra["form"] == "readings-only" or "custom" in key[1]
    mark = "n/a (not timed by the timer)" if own else ("yes" if overlap else "NO")
    if not own:
        counted += 1
        agree += overlap
    cell = lambda p: f"{p['mean']:.4g} [{p['ci']['low']:.4g}, {p['ci']['high']:.4g}]"
    print(f"{'/'.join(key):45} {cell(pa):>24} {cell(pb):>24}  {mark}")
print(f"\nintervals overlap for {agree} of {counted} benches timed by the timer")
PY
