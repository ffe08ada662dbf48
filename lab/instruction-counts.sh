#!/usr/bin/env bash
# Measures issue 31's bars of `--instructions` on the fixture bench. Not run by CI (about 15
# minutes, builds included); needs valgrind.
#
#   [LOADED=0] [RUNS_SAME=5] bash lab/instruction-counts.sh [RUNS]
#
# 1. The same bench binaries (targets `counts` and `cost`) run RUNS_SAME times with
#    --instructions, each run counting every bench in 3 processes: per bench the instructions
#    per unit of every run (min/median/max) and their spread, (max − min) / median, against
#    the bar of 0.01%. Instruction counts do not depend on load, so by default a busy loop
#    (`sh -c 'while :; do :; done'`) runs through this part (the loaded phase); LOADED=0 leaves
#    it out.
# 2. Time per bench under callgrind: each bench's counting time (its 3 processes, from the
#    result's `counts.elapsed_s`), min/median/max over the runs, and the sum over the micro
#    benches of one run.
# 3. `cargo pilot bench --against base spin --exact --instructions` in a git repository of the
#    fixture: RUNS times (default 20) with `spin` doing 0.5% more work (SOURCE_COST 1.005),
#    RUNS times with only a comment edited: the instructions' verdicts of each.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
fixture=$root/tests/fixture-bench
runs=${1:-20}
same=${RUNS_SAME:-5}
work=$root/target/instructions-bars
repo=$work/repo
out=$work/out
command -v valgrind >/dev/null || { echo "needs valgrind (apt-get install valgrind)" >&2; exit 1; }
cargo build --release -q --manifest-path "$root/Cargo.toml" -p cargo-pilot || exit 1
rm -rf "$work" && mkdir -p "$repo/benches" "$out"
cp_bin=$work/cargo-pilot
cp "$root/target/release/cargo-pilot" "$cp_bin"
cp "$fixture/Cargo.toml" "$fixture/Cargo.lock" "$repo/"
cp "$fixture"/benches/*.rs "$repo/benches/"
sed -i "s#path = \"../../crates#path = \"$root/crates#" "$repo/Cargo.toml"
printf 'target\n' >"$repo/.gitignore"
cd "$repo"
git init -q && git add -A && git -c user.name=bars -c user.email=bars@example.com commit -qm base
git tag base
echo "load before: $(uptime)"

# 1 and 2: the same binaries, RUNS_SAME runs.
cargo bench -q --features counts --bench counts --bench cost --no-run 2>/dev/null || exit 1
exes=$(ls -t target/release/deps/counts-* target/release/deps/cost-* |
  grep -E '/(counts|cost)-[0-9a-f]{16}$')
busy=""
if [ "${LOADED:-1}" = 1 ]; then
  sh -c 'while :; do :; done' & busy=$!
  trap 'kill "$busy" 2>/dev/null' EXIT
fi
phase=$([ -n "$busy" ] && echo "loaded (one busy loop)" || echo "as the machine was")
t0=$(date +%s.%N)
for i in $(seq 1 "$same"); do
  for exe in $exes; do
    CARGO_TARGET_DIR=$repo/target "$exe" --bench --instructions --max-time 0.3 --processes 1 \
      --json "$out/same-$(basename "$exe")-$i.json" >/dev/null 2>&1 || echo "run $i of $exe failed"
  done
done
t1=$(date +%s.%N)
echo "part 1 (${phase}): $same runs in $(echo "$t1 - $t0" | bc) s; load during it: $(uptime)"
if [ -n "$busy" ]; then kill "$busy" 2>/dev/null; busy=""; fi

# 3: --against, RUNS times each way.
case_() { # NAME COST
  local name=$1 cost=$2 i
  git checkout -q -- benches/cost.rs
  if [ "$name" = unchanged ]; then
    sed -i 's#^/// `steps` rounds#/// `steps` (a comment edited) rounds#' benches/cost.rs
  else
    sed -i "s/const SOURCE_COST: f64 = 1.0;/const SOURCE_COST: f64 = $cost;/" benches/cost.rs
  fi
  for i in $(seq 1 "$runs"); do
    local a b
    a=$(date +%s.%N)
    "$cp_bin" pilot bench --against base spin --exact --instructions --max-time 0.5 \
      --format json >"$out/against-$name-$i.json" 2>"$out/against-$name-$i.err"
    b=$(date +%s.%N)
    echo "$name $i $(echo "$b - $a" | bc)" >>"$out/against-times.txt"
  done
}
# Both builds once, outside the timing.
"$cp_bin" pilot bench --against base spin --exact --max-time 0.2 >/dev/null 2>&1
case_ more-0.5 1.005
case_ unchanged 1.0
git checkout -q -- benches/cost.rs
echo "load after: $(uptime)"

python3 - "$out" "$same" "$runs" <<'PY'
import glob, json, statistics as st, sys
out, same, runs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
def mmm(xs, f="{:.6g}"):
    return "/".join(f.format(x) for x in (min(xs), st.median(xs), max(xs)))
per_bench, elapsed, forms = {}, {}, {}
for path in sorted(glob.glob(f"{out}/same-*.json")):
    for d in json.load(open(path))["results"]:
        pi = next((p for p in d["pis"] if p["name"] == "instructions"), None)
        if pi is None:
            continue
        per_bench.setdefault(d["name"], []).append(pi["mean"])
        elapsed.setdefault(d["name"], []).append(d["counts"]["elapsed_s"])
        forms[d["name"]] = d["form"]
print(f"1. instructions per unit over {same} runs of the same binaries (3 processes a run):")
worst = 0.0
for name, xs in per_bench.items():
    spread = (max(xs) - min(xs)) / st.median(xs)
    worst = max(worst, spread) if name != "hash_1000" else worst
    bar = "within 0.01%" if spread <= 1e-4 else "OUTSIDE 0.01%"
    print(f"   {name:10} {mmm(xs)}  spread {100 * spread:.4f}%  {bar}")
print(f"   largest spread but hash_1000 (random hash seeds): {100 * worst:.4f}%")
print("2. seconds counting a bench under callgrind (3 processes), min/median/max over runs:")
for name, xs in elapsed.items():
    print(f"   {name:10} ({forms[name]:13}) {mmm(xs, '{:.2f}')}")
micro = [st.median(xs) for n, xs in elapsed.items() if forms[n] == "micro"]
if micro:
    print(f"   micro benches: {len(micro)}, median {st.median(micro):.2f} s each: "
          f"a suite of 10 such in about {10 * st.median(micro):.0f} s")
print(f"3. --against base spin --instructions, {runs} runs each:")
times = {}
for line in open(f"{out}/against-times.txt"):
    name, i, s = line.split()
    times.setdefault(name, []).append(float(s))
for name in ["more-0.5", "unchanged"]:
    verdicts, changes, changed = {}, [], {}
    for i in range(1, runs + 1):
        try:
            b = json.load(open(f"{out}/against-{name}-{i}.json"))["benches"][0]
            v = b["instructions"]["verdict"]
            changes.append(100 * b["instructions"]["change"])
            changed[b.get("changed")] = changed.get(b.get("changed"), 0) + 1
        except (OSError, ValueError, KeyError, IndexError, TypeError):
            v = "no result"
        verdicts[v] = verdicts.get(v, 0) + 1
    flagged = verdicts.get("regressed", 0) + verdicts.get("improved", 0)
    print(f"   {name:9}: flagged {flagged}/{runs}; verdicts {verdicts}; "
          f"instruction change % {mmm(changes) if changes else '-'}; what changed {changed}; "
          f"s per run {mmm(times.get(name, [0]), '{:.1f}')}")
PY
