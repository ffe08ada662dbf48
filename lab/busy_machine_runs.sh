#!/usr/bin/env bash
# Counts in how many runs of `cargo pilot bench` of one example bench the `busy_machine` check
# fires: RUNS runs on the machine as it is, then RUNS beside one busy loop
# (`sh -c 'while :; do :; done'`, killed by its pid after each run). Before each run it prints
# the load average and the busiest processes, since other work on the machine is what the
# check is about; after each, the check's figures. Nothing is asserted.
#
#   bash lab/busy_machine_runs.sh CARGO_PILOT [RUNS] [BENCH]
#
# CARGO_PILOT is the cargo-pilot binary to run (build the version to measure first); RUNS
# defaults to 5, BENCH (a bench target of pilot-examples) to one_add. The benches are built
# with the dev profile (pilot-examples is optimised in it), to reuse the workspace's build.
# Run documents go to $OUT (default target/busy-machine-runs).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
pilot=${1:?usage: busy_machine_runs.sh CARGO_PILOT [RUNS] [BENCH]}
runs=${2:-5}
bench=${3:-one_add}
out=${OUT:-$root/target/busy-machine-runs}
mkdir -p "$out"
cd "$root" || exit 1
cargo bench -q -p pilot-examples --bench "$bench" --profile dev --no-run || exit 1

# figures FILE: the busy_machine check of the run document's one result, or "none".
figures() {
  python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
c = [c for c in r["checks"] if c["kind"] == "busy_machine"]
print(json.dumps({k: v for k, v in c[0].items() if k not in ("kind", "message")}) if c else "none")' "$1"
}

run() { # LABEL I
  echo "== $1 $2: load $(cut -d' ' -f1-3 /proc/loadavg)"
  top -bn1 -o %CPU | sed -n '8,11p'
  "$pilot" pilot bench -p pilot-examples --bench "$bench" --profile dev \
    --json "$out/$1-$2.json" >/dev/null 2>&1
  echo "   busy_machine: $(figures "$out/$1-$2.json")"
}

for i in $(seq "$runs"); do run quiet "$i"; done
for i in $(seq "$runs"); do
  sh -c 'while :; do :; done' &
  hog=$!
  sleep 0.3
  run busy "$i"
  kill "$hog"
  wait "$hog" 2>/dev/null
done
for label in quiet busy; do
  n=0
  for f in "$out/$label"-*.json; do [ "$(figures "$f")" != none ] && n=$((n + 1)); done
  echo "$label: busy_machine in $n of $runs runs"
done
