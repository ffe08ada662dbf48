#!/usr/bin/env bash
# Measures issue 5's bars for groups (not run by CI: it takes several minutes and wants a quiet
# machine). Each run is a fresh process of lab/group-verdicts/bench.rs. Prints:
#   1. sorts of 1k, 4k and 16k elements in one group: runs ranked correctly, wall times (< 3 s);
#   2. two identical functions: runs "equivalent"/"undecided" (>= 19 of 20), never "faster";
#   3. two functions 5% apart: runs "faster" the right way (>= 18 of 20), never the wrong way;
#   4. time to settle: each group interleaved against its members run one after another to the
#      same CI target (--sequential, compared afterwards by the same rule).
# Usage: bash lab/group-verdicts/run.sh [RUNS]     (RUNS defaults to 20; extra pilot flags can be
#        given in PILOT_* variables, e.g. PILOT_MAX_TIME=5)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
runs=${1:-20}
exe=$(bash "$here/build.sh")
out=$(mktemp -d)
echo "bench binary: $exe; $runs fresh runs per group; results in $out"

run_group() { # group-filter mode(interleaved|sequential) index
  local flags=(--bench --json "$out/$1-$2-$3.json" "$1::")
  [ "$2" = sequential ] && flags+=(--sequential)
  local start end
  start=$(date +%s.%N)
  "$exe" "${flags[@]}" >/dev/null 2>&1 || true
  end=$(date +%s.%N)
  python3 -c "print(f'{$end - $start:.3f}')" >"$out/$1-$2-$3.wall"
}

for group in sorts identical five_percent; do
  for mode in interleaved sequential; do
    for i in $(seq 1 "$runs"); do run_group "$group" "$mode" "$i"; done
  done
done

python3 - "$out" "$runs" <<'PY'
import json, sys, statistics
out, runs = sys.argv[1], int(sys.argv[2])

def load(group, mode):
    rows = []
    for i in range(1, runs + 1):
        try:
            doc = json.load(open(f"{out}/{group}-{mode}-{i}.json"))
        except (OSError, ValueError):
            rows.append(None)
            continue
        wall = float(open(f"{out}/{group}-{mode}-{i}.wall").read())
        rows.append((doc["groups"][0], wall))
    return rows

def times(rows):
    g = [r[0]["elapsed_s"] for r in rows if r]
    w = [r[1] for r in rows if r]
    if not g:
        return "no run finished"
    return (f"group time median {statistics.median(g):.2f} s, max {max(g):.2f} s; "
            f"process wall median {statistics.median(w):.2f} s, max {max(w):.2f} s")

for mode in ("interleaved", "sequential"):
    print(f"== {mode}")
    rows = load("sorts", mode)
    want = ["sorts::sort_1k", "sorts::sort_4k", "sorts::sort_16k"]
    ok = sum(1 for r in rows if r and r[0]["ranking"] == want)
    settled = sum(1 for r in rows if r and all(p["verdict"] == "faster" for p in r[0]["pairs"]))
    under3 = sum(1 for r in rows if r and r[0]["elapsed_s"] < 3.0)
    ranked_at = [r[0].get("ranking_settled_s") for r in rows if r]
    ranked_at = [t for t in ranked_at if t is not None]
    ranked = (f"; ranking settled at median {statistics.median(ranked_at):.2f} s, max "
              f"{max(ranked_at):.2f} s" if ranked_at else "")
    print(f"  1. sorts: ranked correctly {ok}/{runs}, all pairs faster {settled}/{runs}, "
          f"group under 3 s {under3}/{runs}; {times(rows)}{ranked}")

    rows = load("identical", mode)
    verdicts = [r[0]["pairs"][0]["verdict"] if r and r[0]["pairs"] else "missing" for r in rows]
    fine = sum(v in ("equivalent", "undecided") for v in verdicts)
    print(f"  2. identical: equivalent or undecided {fine}/{runs} (need >= 19), faster "
          f"{verdicts.count('faster')} (need 0): {' '.join(verdicts)}; {times(rows)}")

    rows = load("five_percent", mode)
    right = wrong = 0
    for r in rows:
        if not r or not r[0]["pairs"]:
            continue
        p = r[0]["pairs"][0]
        if p["verdict"] == "faster":
            if p["a"] == "five_percent::fast":
                right += 1
            else:
                wrong += 1
    ratios = [f'{r[0]["pairs"][0]["ratio"]:.3f}' for r in rows if r and r[0]["pairs"]]
    print(f"  3. five percent: faster the right way {right}/{runs} (need >= 18), the wrong way "
          f"{wrong} (need 0); ratios {' '.join(ratios)}; {times(rows)}")
PY
echo "== 4. time to settle: compare the interleaved and sequential group times above"
