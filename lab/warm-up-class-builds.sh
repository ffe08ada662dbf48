#!/usr/bin/env bash
# How often a bench that warms up in every process is classed `warm-up`, for two builds of the
# bench-binary fixture `demo_warm_up` (its first 2 000 calls in each process ten times slower)
# run in turn, with LOOPS busy loops running the whole time (0: quiet). What a change to how a
# bench's processes vote on its warm-up class costs or buys.
#
#   cargo build -p bench-binary --bin demo_warm_up   # once per build; copy target/debug/demo_warm_up
#   bash lab/warm-up-class-builds.sh OLD_BINARY NEW_BINARY [RUNS] [LOOPS]
#
# Prints each build's count of runs classed warm-up, and the other classes it gave.
set -uo pipefail
old=${1:?the first build}
new=${2:?the second build}
runs=${3:-20}
loops=${4:-0}
out=$(mktemp -d)
pids=()
for _ in $(seq "$loops"); do
  sh -c 'while :; do :; done' &
  pids+=($!)
done
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done; rm -rf "$out"' EXIT
for i in $(seq "$runs"); do
  for side in old new; do
    exe=$old; [ "$side" = new ] && exe=$new
    dir=$out/$side-$i
    mkdir -p "$dir"
    (cd "$dir" && CARGO_TARGET_DIR=$dir "$exe" --bench --max-time 2 >/dev/null 2>&1)
    python3 -c 'import json,sys; print(json.load(open(sys.argv[1])).get("warm_up"))' \
      "$dir"/pilot/results/*/slow_first_calls.json >>"$out/$side.txt" 2>/dev/null \
      || echo "no result" >>"$out/$side.txt"
  done
done
echo "$loops busy loops, $runs runs each, in turn; load at end: $(cut -d' ' -f1-3 /proc/loadavg)"
for side in old new; do
  echo "$side: $(grep -c '^warm-up$' "$out/$side.txt")/$runs warm-up; others: $(grep -v '^warm-up$' "$out/$side.txt" | sort | uniq -c | tr '\n' ' ')"
done
