#!/usr/bin/env bash
# Measures `cargo pilot bench --against` on two builds of the fixture bench `spin` (issue 12's
# bars), side by side with the saved-baseline method on the same two builds. Not run by CI: it
# takes about 20 minutes and wants a machine doing nothing else.
#
#   [CASES="unchanged slower-3"] [LOADED=1] bash lab/against-vs-baseline.sh [RUNS]
#
# The fixture is copied into a git repository of its own (under target/against-bars) whose
# commit `base` has SOURCE_COST 1.0. For each case the working tree is edited (a comment; or
# SOURCE_COST 1.10, 1.03, 1.015), then RUNS times (default 20): `cargo pilot bench --against
# base spin --exact` at default settings, followed by the saved-baseline method (the base
# build's binary with --save-baseline, the working tree's with --baseline). Last, a long
# interleaved run (40 pairs) measures the true change. Prints per case: verdicts of each method,
# how often each interval held the true change, pairs taken and wall time per verdict
# (min/median/max, builds excluded).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
fixture=$root/tests/fixture-bench
runs=${1:-20}
work=$root/target/against-bars
repo=$work/repo
out=$work/out
cargo build --release -q --manifest-path "$root/Cargo.toml" -p cargo-pilot
cp_bin=$work/cargo-pilot
rm -rf "$work" && mkdir -p "$repo/benches" "$out"
cp "$root/target/release/cargo-pilot" "$cp_bin"
cp "$fixture/Cargo.toml" "$fixture/Cargo.lock" "$repo/"
cp "$fixture"/benches/*.rs "$repo/benches/"
# pilot and pilot-criterion (../../crates/pilot-criterion) both live under ../../crates.
sed -i "s#path = \"../../crates#path = \"$root/crates#" "$repo/Cargo.toml"
printf 'target\n' >"$repo/.gitignore"
cd "$repo"
git init -q && git add -A && git -c user.name=bars -c user.email=bars@example.com commit -qm base
git tag base

case_() { # NAME COST
  local name=$1 cost=$2 head base
  git checkout -q -- benches/cost.rs
  if [ "$name" = unchanged ]; then
    sed -i 's#^/// `steps` rounds#/// `steps` (a comment edited) rounds#' benches/cost.rs
  else
    sed -i "s/const SOURCE_COST: f64 = 1.0;/const SOURCE_COST: f64 = $cost;/" benches/cost.rs
  fi
  # Both builds, once, outside the timing.
  "$cp_bin" pilot bench --against base spin --exact --max-time 0.5 --processes 2 >/dev/null 2>&1
  head=$(ls -t target/release/deps/cost-* | grep -E '/cost-[0-9a-f]{16}$' | head -1)
  base=$(ls -t target/pilot/against/target/release/deps/cost-* | grep -E '/cost-[0-9a-f]{16}$' | head -1)
  for i in $(seq 1 "$runs"); do
    local t0 t1 t2
    t0=$(date +%s.%N)
    "$cp_bin" pilot bench --against base spin --exact --format json \
      >"$out/$name-against-$i.json" 2>/dev/null
    t1=$(date +%s.%N)
    CARGO_TARGET_DIR=$repo/target "$base" --bench spin --exact --save-baseline "bars-$name-$i" \
      >/dev/null 2>&1
    CARGO_TARGET_DIR=$repo/target "$head" --bench spin --exact --baseline "bars-$name-$i" \
      --json "$out/$name-baseline-$i.json" >/dev/null 2>&1
    t2=$(date +%s.%N)
    echo "$name $i $(echo "$t1 - $t0" | bc) $(echo "$t2 - $t1" | bc)" >>"$out/times.txt"
  done
  "$cp_bin" pilot bench --against base spin --exact --processes 40 --max-time 60 \
    --noise 0.00001 --format json >"$out/$name-truth.json" 2>/dev/null
}
# CASES="unchanged slower-3" runs those cases only; LOADED=1 keeps one busy loop running for
# the whole measurement (the loaded phase).
cases=${CASES:-unchanged slower-10 slower-3 slower-1.5}
busy=""
if [ "${LOADED:-0}" = 1 ]; then
  sh -c 'while :; do :; done' & busy=$!
  trap 'kill "$busy" 2>/dev/null' EXIT
fi
for c in $cases; do
  case $c in
    unchanged) case_ unchanged 1.0 ;;
    slower-10) case_ slower-10 1.1 ;;
    slower-3) case_ slower-3 1.03 ;;
    slower-1.5) case_ slower-1.5 1.015 ;;
  esac
done
[ -n "$busy" ] && kill "$busy" 2>/dev/null
git checkout -q -- benches/cost.rs

python3 - "$out" "$runs" "$cases" <<'PY'
import json, statistics as st, sys
out, runs, cases = sys.argv[1], int(sys.argv[2]), sys.argv[3].split()
times = {}
for line in open(f"{out}/times.txt"):
    name, i, a, b = line.split()
    times[(name, int(i))] = (float(a), float(b))
def mmm(xs):
    return f"{min(xs):.1f}/{st.median(xs):.1f}/{max(xs):.1f}"
for name in cases:
    truth = json.load(open(f"{out}/{name}-truth.json"))["benches"][0]["change"]
    a, b, a_in, b_in, pairs = {}, {}, 0, 0, []
    for i in range(1, runs + 1):
        x = json.load(open(f"{out}/{name}-against-{i}.json"))["benches"][0]
        a[x["verdict"]] = a.get(x["verdict"], 0) + 1
        pairs.append(x["pairs"])
        a_in += x["change_ci"]["low"] <= truth <= x["change_ci"]["high"]
        try:
            y = json.load(open(f"{out}/{name}-baseline-{i}.json"))["comparison"]["benches"][0]
            b[y["verdict"]] = b.get(y["verdict"], 0) + 1
            if y["change_ci"]:
                b_in += y["change_ci"]["low"] <= truth <= y["change_ci"]["high"]
        except (OSError, KeyError, IndexError, TypeError):
            b["no result"] = b.get("no result", 0) + 1
    ta = [times[(name, i)][0] for i in range(1, runs + 1)]
    tb = [times[(name, i)][1] for i in range(1, runs + 1)]
    print(f"{name}: true change {100 * truth:+.2f}% (40 pairs)")
    print(f"  --against     : {a}; interval held the truth {a_in}/{runs}; pairs {mmm(pairs)}; "
          f"s per verdict {mmm(ta)}")
    print(f"  saved baseline: {b}; interval held the truth {b_in}/{runs}; s per verdict {mmm(tb)}")
PY
