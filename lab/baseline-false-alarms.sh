#!/usr/bin/env bash
# Measures how baseline comparisons behave on unchanged and on slower code (issue 4's bar), with
# the fixture bench `spin` whose cost is set by PILOT_FIXTURE_COST. Not run by CI: it takes
# about ten minutes and wants a machine doing nothing else.
#
#   [SCENARIOS="aa ab10"] [LOADED=1] [LEARN=N [GAP=S]] bash lab/baseline-false-alarms.sh [PAIRS] [FLAGS...]
#
# For each scenario, PAIRS (default 20) pairs of fresh runs: the first run of a pair is saved as
# a baseline, the second (with the scenario's cost) is compared with it, exactly as
# `cargo bench -- --save-baseline B` then `cargo bench -- --baseline B` would do.
# Prints per scenario: pairs flagged regressed / improved, pairs whose change CI contains the
# true change, and the mean wall time of one run. With CRITERION=1, also times criterion's
# default run of the same workload (lab/criterion-same-workloads, bench `fixture_spin`).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
pairs=${1:-20}
shift || true
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$here/../target/fixture-bench}
cargo bench -q --manifest-path "$here/../tests/fixture-bench/Cargo.toml" --bench cost --no-run 2>/dev/null
bin=$(ls -t "$CARGO_TARGET_DIR"/release/deps/cost-* | grep -E '/cost-[0-9a-f]{16}$' | head -1)
out=$(mktemp -d)
trap_files=()
trap 'rm -rf "$out" "${trap_files[@]}"' EXIT

scenario() { # NAME COST TRUE_CHANGE
  local name=$1 cost=$2 truth=$3 newbin=$bin
  # Changed code is a different build, with a history of its own: the second run of a pair runs
  # a copy of the executable under another cargo hash (same target name, so the baseline is
  # found), as a rebuild would, so runs at the old cost never enter the new build's history.
  if [ "$cost" != 1.0 ]; then
    newbin="$(dirname "$bin")/cost-$(printf '%016x' "$(cksum <<<"$name" | cut -d' ' -f1)")"
    cp "$bin" "$newbin"
    trap_files+=("$newbin")
  fi
  shift 3
  for i in $(seq 1 "$pairs"); do
    PILOT_FIXTURE_COST=1.0 "$bin" --bench spin --exact --save-baseline "fa-$name-$i" "$@" \
      --json "$out/$name-$i-base.json" >/dev/null 2>&1
    set +e
    PILOT_FIXTURE_COST=$cost "$newbin" --bench spin --exact --baseline "fa-$name-$i" "$@" \
      --json "$out/$name-$i-new.json" >/dev/null 2>&1
    echo $? >"$out/$name-$i.rc"
    set -e
  done
  python3 - "$out" "$name" "$pairs" "$truth" <<'PY'
import json, sys
out, name, pairs, truth = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
reg = imp = inside = exit3 = 0
walls, changes = [], []
for i in range(1, pairs + 1):
    new = json.load(open(f"{out}/{name}-{i}-new.json"))
    base = json.load(open(f"{out}/{name}-{i}-base.json"))
    c = new["comparison"]["benches"][0]
    walls += [base["results"][0]["elapsed_s"], new["results"][0]["elapsed_s"]]
    reg += c["verdict"] == "regressed"
    imp += c["verdict"] == "improved"
    ci = c["change_ci"]
    inside += ci is not None and ci["low"] <= truth <= ci["high"]
    exit3 += open(f"{out}/{name}-{i}.rc").read().strip() == "3"
    changes.append(c["change"])
print(f"{name:>6}: true change {truth:+.0%}: regressed {reg}/{pairs}, improved {imp}/{pairs}, "
      f"exit code 3 in {exit3}/{pairs}; change CI contains the truth {inside}/{pairs}; "
      f"changes {min(changes):+.2%} .. {max(changes):+.2%}; wall {sum(walls)/len(walls):.1f} s per run")
print("        method:", c["method"])
PY
}

# SCENARIOS="aa ab10" runs those only (aa, ab10, ab5, ab3); LOADED=1 keeps one busy loop running for the whole
# measurement (the loaded phase).
busy=""
if [ "${LOADED:-0}" = 1 ]; then
  sh -c 'while :; do :; done' & busy=$!
  trap 'kill "$busy" 2>/dev/null; rm -rf "$out" "${trap_files[@]}"' EXIT
fi
# LEARN=N: start from an empty machine history and run the bench N times, GAP (default 65) s
# apart, before the pairs, so that its run-to-run band is learnt as it is for a developer who
# has run it before (otherwise every pair compares within-run intervals only).
if [ "${LEARN:-0}" -gt 0 ]; then
  rm -f "$CARGO_TARGET_DIR/pilot/machine.json"
  for i in $(seq 1 "$LEARN"); do
    start=$(date +%s)
    PILOT_FIXTURE_COST=1.0 "$bin" --bench spin --exact "$@" >/dev/null 2>&1 || true
    [ "$i" -lt "$LEARN" ] && sleep $(( ${GAP:-65} - ($(date +%s) - start) ))
  done
fi
for s in ${SCENARIOS:-aa ab10 ab3}; do
  case $s in
    aa) scenario aa 1.0 0.0 "$@" ;;
    ab10) scenario ab10 1.10 0.10 "$@" ;;
    ab5) scenario ab5 1.05 0.05 "$@" ;;
    ab3) scenario ab3 1.03 0.03 "$@" ;;
  esac
done
[ -n "$busy" ] && kill "$busy" 2>/dev/null
rm -rf "$CARGO_TARGET_DIR/pilot/baselines"/fa-*

if [ "${CRITERION:-0}" = 1 ]; then
  cd "$here/criterion-same-workloads"
  cargo bench -q --bench compare --no-run 2>/dev/null
  start=$(date +%s.%N)
  cargo bench -q --bench compare -- --exact fixture_spin >/dev/null 2>&1
  end=$(date +%s.%N)
  python3 -c "print(f'criterion, default settings, same workload: {$end - $start:.1f} s per run')"
fi
