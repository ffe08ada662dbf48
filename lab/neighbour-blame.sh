#!/usr/bin/env bash
# How often a real neighbour that stops halfway through a bench is blamed on the machine
# (`machine_drift`) rather than on the workload (`slowdown`, `speedup`): cargo-pilot's ignored
# end-to-end test `neighbour`, run RUNS times (default 5), each a 7 s session on the fixture
# with four spinning threads for its first half.
#
#   bash lab/neighbour-blame.sh [RUNS]
#
# Wants a machine doing nothing else: on a busy one the neighbour changes little of the load,
# and the test's verdict says more about the machine than about the blame. The blame's rule
# itself is tested on injected samples by `cargo test` (pilot-engine's
# `session::tests::checks`).
set -uo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
cargo test -q -p cargo-pilot --test neighbour --no-run || exit 1
echo "load at start: $(cut -d' ' -f1-3 /proc/loadavg)"
passed=0
for i in $(seq "$runs"); do
  if cargo test -q -p cargo-pilot --test neighbour -- --ignored --nocapture >"target/neighbour-$i.log" 2>&1; then
    passed=$((passed + 1))
    echo "run $i: blamed on the machine ($(grep -c 'no drift to blame' "target/neighbour-$i.log") without a drift)"
  else
    echo "run $i: not blamed on the machine (target/neighbour-$i.log)"
  fi
done
echo "blamed on the machine: $passed of $runs (load at the end: $(cut -d' ' -f1-3 /proc/loadavg))"
