#!/usr/bin/env bash
# The README's test command on a fresh clone, with LOOPS busy loops (`sh -c 'while :; do :;
# done'`) running the whole time (0: quiet), RUNS times: whether each run passed, its wall time,
# and where the time went (the ten slowest test binaries, from cargo's own "finished in").
#
#   bash lab/test-suite-under-load.sh LOOPS [RUNS] [COMMIT]
#
# Each run clones COMMIT (default HEAD) of this repository into a new folder under
# target/suite-under-load/ and builds from nothing there (crates already downloaded are
# reused). Wants a machine doing nothing else apart from the loops it starts: the quiet phase
# is only quiet if nothing else runs. The README's test command must pass on a busy machine
# (its tests assert what a run always does); this is how that is checked.
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
loops=${1:?how many busy loops (0 for a quiet run)}
runs=${2:-3}
commit=$(git -C "$here" rev-parse "${3:-HEAD}")
out=$here/target/suite-under-load
mkdir -p "$out"
echo "commit $commit, $loops busy loops, $runs runs; load at start: $(cut -d' ' -f1-3 /proc/loadavg)"
passed=0
for i in $(seq "$runs"); do
  clone=$out/clone-$loops-$i
  rm -rf "$clone"
  git clone -q "$here" "$clone" && git -C "$clone" checkout -q "$commit" || exit 1
  pids=()
  for _ in $(seq "$loops"); do
    sh -c 'while :; do :; done' &
    pids+=($!)
  done
  log=$out/run-$loops-$i.log
  start=$(date +%s)
  (cd "$clone" && cargo test --workspace --all-targets && cargo test --workspace --doc) >"$log" 2>&1
  status=$?
  took=$(($(date +%s) - start))
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
  wait 2>/dev/null
  if [ "$status" -eq 0 ]; then passed=$((passed + 1)); verdict=passed; else verdict="FAILED (exit $status)"; fi
  echo "run $i: $verdict in ${took} s (log: $log)"
  grep -E "^test .* FAILED$|panicked at" "$log" | head -5
  # The slowest test binaries: cargo prints "Running NAME" before each and "finished in Xs"
  # at its end.
  awk '/^ *(Running|Doc-tests)/{name=$2} /^test result/{match($0,/finished in [0-9.]+s/); printf "%8.1f s  %s\n", substr($0,RSTART+12,RLENGTH-13), name}' "$log" |
    sort -rn | head -10
  rm -rf "$clone"
done
echo "passed: $passed of $runs (load at the end: $(cut -d' ' -f1-3 /proc/loadavg))"
