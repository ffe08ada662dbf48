#!/usr/bin/env bash
# Measures issue 44's bar for a whole suite: `cargo pilot bench --against HEAD` over the
# examples' benches (`-p pilot-examples`), RUNS times, beside LOOPS busy loops: in how many
# suite runs an unchanged tree is flagged (exit 3, or any bench `regressed`/`improved`), and,
# with one bench made slower in its own build (`sort_10k` sorting 10 500 values instead of
# 10 000: about 5.6% more work), in how many runs that bench is flagged and how often each
# other bench is. Not run by CI; it wants the machine to itself apart from its own loops.
#
#   [CASES="unchanged slower"] [LOOPS=1] [FLAGS="--correction holm"] bash lab/suite-false-alarms.sh [RUNS]
#
# The repository is cloned (its HEAD) into target/suite-bars/repo; both builds are made once
# before the timed runs. Prints per case: suites flagged, the slower bench's verdicts, the
# benches flagged in more than one run, and the wall time per suite run (min/median/max,
# builds excluded). Every run's `pilot.compare/1` document is kept in target/suite-bars/out.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
runs=${1:-20}
loops=${LOOPS:-1}
flags=${FLAGS:-}
work=$root/target/suite-bars
repo=$work/repo
out=$work/out
cargo build --release -q --manifest-path "$root/Cargo.toml" -p cargo-pilot || exit 1
rm -rf "$work" && mkdir -p "$out"
cp "$root/target/release/cargo-pilot" "$work/cargo-pilot"
git clone -q "$root" "$repo" || exit 1
cd "$repo" || exit 1

busy=()
for _ in $(seq 1 "$loops"); do
  sh -c 'while :; do :; done' &
  busy+=($!)
done
stop_loops() { for p in "${busy[@]}"; do kill "$p" 2>/dev/null; done; }
trap stop_loops EXIT

case_() { # NAME
  local name=$1
  git checkout -q -- examples/benches/sort.rs
  if [ "$name" = slower ]; then
    sed -i 's/sort_input(10_000)/sort_input(10_500)/' examples/benches/sort.rs
  fi
  # Both builds, once, outside the timing.
  "$work/cargo-pilot" pilot bench --against HEAD -p pilot-examples --max-time 0.2 >/dev/null 2>&1
  for i in $(seq 1 "$runs"); do
    local t0 t1 code
    t0=$(date +%s.%N)
    # shellcheck disable=SC2086 # FLAGS is a list of flags
    "$work/cargo-pilot" pilot bench --against HEAD -p pilot-examples --format json $flags \
      >"$out/$name-$i.json" 2>"$out/$name-$i.err"
    code=$?
    t1=$(date +%s.%N)
    echo "$name $i $code $(echo "$t1 - $t0" | bc)" >>"$out/runs.txt"
  done
}

for c in ${CASES:-unchanged slower}; do
  case_ "$c"
done

python3 - "$out" <<'EOF'
import collections, json, os, statistics, sys
out = sys.argv[1]
runs = [line.split() for line in open(os.path.join(out, "runs.txt"))]
for case in sorted({r[0] for r in runs}):
    mine = [r for r in runs if r[0] == case]
    flagged_runs, slow_found, per_bench, times = 0, 0, collections.Counter(), []
    for _, i, code, secs in mine:
        times.append(float(secs))
        try:
            doc = json.load(open(os.path.join(out, f"{case}-{i}.json")))
        except (OSError, ValueError):
            print(f"{case} run {i}: no document (exit {code})")
            continue
        flagged = [b["name"] for b in doc["benches"] if b["verdict"] in ("regressed", "improved")]
        flagged_runs += bool(flagged) or code == "3"
        for name in flagged:
            per_bench[name] += 1
        slow_found += "sort_10k" in flagged
    n = len(mine)
    print(f"{case}: {n} suite runs, {flagged_runs} flagged (exit 3 or a bench flagged)")
    if case == "slower":
        print(f"  sort_10k flagged in {slow_found} of {n}")
    others = {k: v for k, v in per_bench.items() if not (case == "slower" and k == "sort_10k")}
    print(f"  other benches flagged in more than 1 run: {[(k, v) for k, v in others.items() if v > 1]}")
    print(f"  wall time per suite run: {min(times):.0f} / {statistics.median(times):.0f} / {max(times):.0f} s")
EOF
