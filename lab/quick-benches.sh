#!/usr/bin/env bash
# What four quick example benches cost and how precise they are: `cargo bench -p pilot-examples`
# of the targets sort, hash, fill_vec and one_add, RUNS times, each run timed whole (the four
# one after another), beside a plain control program (a fixed compute loop in C, no harness)
# timed just before each run, so that a slow host shows in the control too.
#
#   bash lab/quick-benches.sh [RUNS] [LOOPS]
#   RUNS: runs of the four (default 5); LOOPS: busy loops `sh -c 'while :; do :; done'` kept
#   running for the whole measurement (default 0: the quiet phase).
#
# Prints per run: the control's wall time, the four benches' wall time, and each bench's
# relative half-width (this run's interval) and process count; then min / median / max of the
# wall time and the median half-width per bench over all runs.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
runs=${1:-5}
loops=${2:-0}
cd "$root"
cargo bench -q -p pilot-examples --no-run 2>/dev/null
tmp=$(mktemp -d)
busy=()
cleanup() { for p in "${busy[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$tmp"; }
trap cleanup EXIT
cat >"$tmp/control.c" <<'C'
#include <stdint.h>
#include <stdio.h>
int main(void) {
  volatile uint64_t x = 0x9e3779b97f4a7c15ull;
  for (uint64_t i = 0; i < 300000000ull; i++) { x = (x ^ i) * 0xbf58476d1ce4e5b9ull; x ^= x >> 31; }
  printf("%llu\n", (unsigned long long)x);
  return 0;
}
C
gcc -O2 -o "$tmp/control" "$tmp/control.c"
for _ in $(seq 1 "$loops"); do sh -c 'while :; do :; done' & busy+=($!); done
benches=(sort hash fill_vec one_add)
for r in $(seq 1 "$runs"); do
  c0=$(date +%s.%N); "$tmp/control" >/dev/null; c1=$(date +%s.%N)
  t0=$(date +%s.%N)
  for b in "${benches[@]}"; do
    cargo bench -q -p pilot-examples --bench "$b" >"$tmp/$b-$r.out" 2>&1
  done
  t1=$(date +%s.%N)
  python3 - "${CARGO_TARGET_DIR:-$root/target}" "$r" "$c0" "$c1" "$t0" "$t1" "$tmp/rows" "${benches[@]}" <<'PY'
import json, sys, glob
target, r, c0, c1, t0, t1, rows = sys.argv[1:8]
benches = sys.argv[8:]
parts = []
with open(rows, "a") as out:
    for b in benches:
        for f in sorted(glob.glob(f"{target}/pilot/results/{b}/*.json")):
            d = json.load(open(f))
            pi = d["pis"][0]
            hw = (pi["ci"]["high"] - pi["ci"]["low"]) / 2 / pi["mean"]
            n = d.get("processes", {}).get("count", 1)
            parts.append(f"{d['name']} ±{100*hw:.2f}% ({n} processes)")
            out.write(f"{r}\t{d['name']}\t{hw}\t{n}\t{float(t1)-float(t0)}\t{float(c1)-float(c0)}\n")
print(f"run {r}: control {float(c1)-float(c0):.2f} s, four benches {float(t1)-float(t0):.1f} s: " + ", ".join(parts))
PY
done
python3 - "$tmp/rows" <<'PY'
import sys, statistics as st
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])]
walls = {}
controls = {}
hws = {}
for r, name, hw, n, wall, control in rows:
    walls[r] = float(wall); controls[r] = float(control)
    hws.setdefault(name, []).append(float(hw))
w = sorted(walls.values()); c = sorted(controls.values())
print(f"four benches, wall time min / median / max: {w[0]:.1f} / {st.median(w):.1f} / {w[-1]:.1f} s")
print(f"control, wall time min / median / max: {c[0]:.2f} / {st.median(c):.2f} / {c[-1]:.2f} s")
for name, v in hws.items():
    print(f"{name}: median half-width ±{100*st.median(v):.2f}% (max ±{100*max(v):.2f}%)")
allhw = [x for v in hws.values() for x in v]
print(f"all bench-runs: median half-width ±{100*st.median(allhw):.2f}%")
PY
