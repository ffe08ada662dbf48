#!/usr/bin/env bash
# Two builds of one pilot bench binary (say, before and after a change to the machine
# sampler), run in turn in bench mode, as `cargo pilot bench` runs them: RUNS pairs when the
# machine is quiet, RUNS pairs beside one busy loop (`sh -c 'while :; do :; done'`, killed by
# its pid after each pair). Before each quiet pair it waits (up to WAIT seconds, default 600)
# until the machine's busy cores over 2 s are under 0.2, and prints what it measured, the load
# average and the busiest processes. Counts in how many runs of each build `busy_machine`
# fired, with its figures. Nothing is asserted.
#
#   bash lab/busy_machine_ab.sh BINARY_A BINARY_B [RUNS]
#
# Run documents go to $OUT (default target/busy-machine-ab), results under $OUT/target.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
a=${1:?usage: busy_machine_ab.sh BINARY_A BINARY_B [RUNS]}
b=${2:?usage: busy_machine_ab.sh BINARY_A BINARY_B [RUNS]}
runs=${3:-5}
wait_s=${WAIT:-600}
out=${OUT:-$root/target/busy-machine-ab}
mkdir -p "$out"

busy_cores() { # the machine's busy cores over 2 s, from /proc/stat
  python3 -c '
import os, time
def read():
    v = [int(x) for x in open("/proc/stat").readline().split()[1:9]]
    return sum(v), v[3] + v[4] + v[7]
t0, i0 = read(); time.sleep(2); t1, i1 = read()
print(f"{(1 - (i1 - i0) / max(t1 - t0, 1)) * os.cpu_count():.2f}")'
}

figures() { # FILE: the busy_machine check of the run document's one result, or "none"
  python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
c = [c for c in r["checks"] if c["kind"] == "busy_machine"]
print(json.dumps({k: v for k, v in c[0].items() if k not in ("kind", "message")}) if c else "none")' "$1"
}

run() { # BINARY LABEL
  CARGO_TARGET_DIR=$out/target PILOT_NO_TABLE=1 "$1" --bench --json "$out/$2.json" >/dev/null 2>&1
  echo "   $2: busy_machine $(figures "$out/$2.json")"
}

for mode in quiet busy; do
  for i in $(seq "$runs"); do
    if [ "$mode" = quiet ]; then
      waited=0
      while :; do
        cores=$(busy_cores)
        awk -v c="$cores" 'BEGIN { exit !(c < 0.2) }' && break
        [ "$waited" -ge "$wait_s" ] && break
        waited=$((waited + 2))
      done
      echo "== quiet $i: busy cores before $cores (waited ${waited} s), load $(cut -d' ' -f1-3 /proc/loadavg)"
    else
      sh -c 'while :; do :; done' &
      hog=$!
      sleep 0.3
      echo "== busy $i: load $(cut -d' ' -f1-3 /proc/loadavg)"
    fi
    top -bn1 -o %CPU | sed -n '8,10p'
    run "$a" "$mode-$i-a"
    run "$b" "$mode-$i-b"
    [ "$mode" = busy ] && { kill "$hog"; wait "$hog" 2>/dev/null; }
  done
done
for mode in quiet busy; do
  for side in a b; do
    n=0
    for f in "$out/$mode"-*-"$side".json; do [ "$(figures "$f")" != none ] && n=$((n + 1)); done
    echo "$mode, binary $side: busy_machine in $n of $runs runs"
  done
done
