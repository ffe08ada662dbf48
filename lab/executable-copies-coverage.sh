#!/usr/bin/env bash
# Measures whether a bench's interval holds where the same build lands when it runs from
# another file of the same bytes (as after a rebuild of unchanged code, or once the kernel has
# dropped the file's pages): the kernel keeps a file's code in the pages it first read it
# into, and where those lie moves some benches by a few percent for every process run from
# that file. Two builds of the examples are compared: BASE's, whose processes all run the bench
# executable itself, and HEAD's, whose processes each run a fresh copy of it
# (`pilot_engine::runner::fresh_copy`). Not run by CI; it wants the machine to itself apart
# from its own loops.
#
#   [BASE=rev] [EPOCHS=10] [CAP=5] [LOOPS=0] bash lab/executable-copies-coverage.sh [TARGET:BENCH ...]
#
# Each epoch copies each build's bench executable to a new file and runs every BENCH from it
# (`--bench --exact BENCH --max-time CAP`), the two builds in turn (which goes first
# alternates). Prints per bench and build: the estimates' spread across epochs, the median
# half-width of the intervals, how often a run's interval holds the median of all the build's
# runs (a proxy for the level over placements: a sound interval holds it about 95% of the time
# or more) and how often it holds another run's estimate (lower for any interval: a prediction
# needs about √2 the width), and the wall time per run. The documents are kept in
# target/executable-copies/out.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
base=${BASE:-2c4cf93}
epochs=${EPOCHS:-10}
cap=${CAP:-5}
loops=${LOOPS:-0}
benches=("$@")
if [ ${#benches[@]} -eq 0 ]; then
  benches=(bencher_forms:tokio_spawn sort:sort_10k hash:siphash_4k bencher_forms:channel_round_trip)
fi
work=$root/target/executable-copies
out=$work/out
rm -rf "$out" && mkdir -p "$out"

build() { # NAME REV: clones REV into $work/NAME, builds the examples' benches, prints nothing
  local name=$1 rev=$2 dir=$work/$1
  if [ ! -d "$dir/.git" ]; then git clone -q "$root" "$dir" || exit 1; fi
  git -C "$dir" fetch -q "$root" "$(git -C "$root" rev-parse "$rev^{commit}")" &&
    git -C "$dir" checkout -q --detach FETCH_HEAD || exit 1
  (cd "$dir" && cargo bench -q -p pilot-examples --no-run --message-format json 2>/dev/null) |
    python3 -c '
import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and "bench" in m["target"]["kind"]:
        print(m["target"]["name"], m["executable"])
' >"$work/$name.exes" || exit 1
}
build same "$base"
build copies "$(git -C "$root" rev-parse HEAD)"

busy=()
trap 'for p in "${busy[@]}"; do kill "$p" 2>/dev/null; done' EXIT
for _ in $(seq 1 "$loops"); do sh -c 'while :; do :; done' & busy+=($!); done

for e in $(seq 1 "$epochs"); do
  order=(same copies)
  if [ $((e % 2)) -eq 0 ]; then order=(copies same); fi
  for mode in "${order[@]}"; do
    for tb in "${benches[@]}"; do
      target=${tb%%:*} bench=${tb#*:}
      exe=$(awk -v t="$target" '$1 == t {print $2}' "$work/$mode.exes")
      [ -n "$exe" ] || { echo "no bench target $target in the $mode build" >&2; exit 1; }
      # A new file of the same bytes beside the original (so the target folder is found from it).
      file=$exe.epoch$e
      cp "$exe" "$file"
      t0=$(date +%s.%N)
      (cd "$work/$mode/examples" && "$file" --bench --exact "$bench" --max-time "$cap" \
        --json "$out/$mode-$bench-$e.json" >/dev/null 2>"$out/$mode-$bench-$e.err")
      t1=$(date +%s.%N)
      rm -f "$file"
      echo "$mode $bench $e $(echo "$t1 - $t0" | bc)" >>"$out/runs.txt"
    done
  done
done

python3 - "$out" <<'EOF'
import json, os, statistics, sys
out = sys.argv[1]
runs = {}
for line in open(os.path.join(out, "runs.txt")):
    mode, bench, e, secs = line.split()
    try:
        doc = json.load(open(os.path.join(out, f"{mode}-{bench}-{e}.json")))
        pi = doc["results"][0]["pis"][0]
        est = (pi["mean"], pi["ci"]["low"], pi["ci"]["high"], float(secs))
    except (OSError, KeyError, IndexError, ValueError, TypeError):
        continue
    runs.setdefault((bench, mode), []).append(est)
print(f"{'bench':<22} {'build':<7} {'runs':>4} {'spread':>8} {'half-w':>7} {'holds level':>11} {'holds other':>11} {'s/run':>6}")
for (bench, mode), rs in sorted(runs.items()):
    means = [r[0] for r in rs]
    level = statistics.median(means)
    spread = (max(means) - min(means)) / level * 100
    half = statistics.median((r[2] - r[1]) / 2 / r[0] * 100 for r in rs)
    holds_level = sum(r[1] <= level <= r[2] for r in rs)
    pairs = [(i, j) for i in range(len(rs)) for j in range(len(rs)) if i != j]
    holds_other = sum(rs[i][1] <= rs[j][0] <= rs[i][2] for i, j in pairs)
    secs = statistics.median(r[3] for r in rs)
    print(f"{bench:<22} {mode:<7} {len(rs):>4} {spread:>7.2f}% {half:>6.2f}% "
          f"{holds_level:>5}/{len(rs):<5} {holds_other / max(len(pairs), 1) * 100:>10.0f}% {secs:>6.1f}")
EOF
