#!/usr/bin/env bash
# The bars of `cargo pilot run`, side by side with hyperfine (installed here when missing, with
# apt-get; CI does not run this script). Prints each bar's count and figures; about 10 minutes
# on 2 cores. Usage: bash lab/run-against-hyperfine.sh [RUNS]   (RUNS: repetitions of each bar, default 5)
#
# 1. `sleep 0.02`, `sh -c 'seq 1 200000 > /dev/null'`, gzip of a 4 MiB file: each pilot run's
#    interval holds hyperfine's mean (the hyperfine run right after it) and the median of the
#    pilot runs' means; wall time to a result, pilot's against hyperfine's default.
# 2. Three commands of clearly different cost given in the wrong order: ranked right; two
#    identical commands: never `faster`.
# 3. `head -c {work} /dev/zero | gzip -1` over --work 1000000..64000000: the fitted speed
#    against the speed of long direct runs (pilot at 64 MB and 256 MB, interleaved, start-up
#    cancelled by the difference, the two intervals carried into the reference's), and the
#    start-up α with its interval.
# 4. Peak memory of `python3 -c "bytearray(50_000_000)"` measured after a bigger command,
#    against `/usr/bin/time -v`'s maximum resident size.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
runs=${1:-5}
out=$root/target/run-bars
# Results and the machine's history ($out/res) are kept from one invocation to the next, as a
# user's repeated runs keep them: pilot learns the machine's run-to-run variation, and each
# program's own, from five runs. The first invocation's intervals say they lack it.
mkdir -p "$out" && find "$out" -maxdepth 1 -type f -delete
if ! command -v hyperfine >/dev/null || [ ! -x /usr/bin/time ]; then
  apt-get install -y -q hyperfine time >/dev/null || { echo "cannot install hyperfine"; exit 1; }
fi
(cd "$root" && cargo build -q --release -p cargo-pilot) || exit 1
pilot=$root/target/release/cargo-pilot
now() { date +%s.%N; }
echo "load at start: $(cut -d' ' -f1-3 /proc/loadavg); $(hyperfine --version)"

head -c 4194304 /dev/urandom > "$out/4mib"
names=(sleep seq gzip)
cmds=("sleep 0.02" "sh -c 'seq 1 200000 > /dev/null'" "gzip -c $out/4mib > /dev/null")
for k in 0 1 2; do
  for i in $(seq "$runs"); do
    t0=$(now)
    "$pilot" pilot run --out "$out/res" "${cmds[$k]}" --export-json "$out/p-${names[$k]}-$i.json" >/dev/null 2>&1
    t1=$(now)
    hyperfine --style none "${cmds[$k]}" --export-json "$out/h-${names[$k]}-$i.json" >/dev/null 2>&1
    t2=$(now)
    echo "$t0 $t1 $t2" > "$out/t-${names[$k]}-$i"
  done
done
python3 - "$out" "$runs" <<'PY'
import json, sys, statistics as st
out, runs = sys.argv[1], int(sys.argv[2])
print("\n1. mean against hyperfine, and the median of the pilot runs")
for name in ["sleep", "seq", "gzip"]:
    p = [json.load(open(f"{out}/p-{name}-{i}.json"))["results"][0] for i in range(1, runs + 1)]
    h = [json.load(open(f"{out}/h-{name}-{i}.json"))["results"][0] for i in range(1, runs + 1)]
    t = [list(map(float, open(f"{out}/t-{name}-{i}").read().split())) for i in range(1, runs + 1)]
    med = st.median(r["mean"] for r in p)
    holds_h = sum(r["ci_low"] <= hr["mean"] <= r["ci_high"] for r, hr in zip(p, h))
    holds_m = sum(r["ci_low"] <= med <= r["ci_high"] for r in p)
    hw = sorted(100 * (r["ci_high"] - r["ci_low"]) / 2 / r["mean"] for r in p)
    ratio = sorted(r["mean"] / hr["mean"] for r, hr in zip(p, h))
    tp = sorted(b - a for a, b, c in t)
    th = sorted(c - b for a, b, c in t)
    print(f"  {name}: interval holds hyperfine's mean {holds_h}/{runs}, the pilot median "
          f"{holds_m}/{runs}; pilot/hyperfine mean ratio min {ratio[0]:.4f} median "
          f"{st.median(ratio):.4f} max {ratio[-1]:.4f}; pilot ±{hw[0]:.2f}..{hw[-1]:.2f}%; "
          f"wall pilot {tp[0]:.1f}/{st.median(tp):.1f}/{tp[-1]:.1f} s, hyperfine "
          f"{th[0]:.1f}/{st.median(th):.1f}/{th[-1]:.1f} s (min/median/max)")
PY

echo
echo "2. ranking and identical commands"
right=0; never=0
for i in $(seq $((2 * runs))); do
  "$pilot" pilot run --out "$out/res" -n slow "sleep 0.03" -n fast "sleep 0.01" -n middle "sleep 0.02" \
    --json "$out/rank-$i.json" >/dev/null 2>&1
  "$pilot" pilot run --out "$out/res" -n a "sleep 0.01" -n b "sleep 0.01" --max-time 5 \
    --json "$out/same-$i.json" >/dev/null 2>&1
done
python3 - "$out" $((2 * runs)) <<'PY'
import json, sys
out, n = sys.argv[1], int(sys.argv[2])
right = sum(json.load(open(f"{out}/rank-{i}.json"))["groups"][0]["ranking"] == ["fast", "middle", "slow"]
            for i in range(1, n + 1))
verdicts = [json.load(open(f"{out}/same-{i}.json"))["groups"][0]["pairs"][0]["verdict"]
            for i in range(1, n + 1)]
print(f"  three commands in the wrong order ranked right: {right}/{n}")
print(f"  two identical commands called faster: {verdicts.count('faster')}/{n} "
      f"(verdicts: {', '.join(verdicts)})")
PY

echo
echo "3. work amounts: the fitted speed against long direct runs"
for i in $(seq 3); do
  "$pilot" pilot run --out "$out/res" -n gzip --work 1000000..64000000 \
    'head -c {work} /dev/zero | gzip -1 > /dev/null' --json "$out/wps-$i.json" >/dev/null 2>&1
  "$pilot" pilot run --out "$out/res" -n d64 'head -c 64000000 /dev/zero | gzip -1 > /dev/null' \
    -n d256 'head -c 256000000 /dev/zero | gzip -1 > /dev/null' --max-time 20 \
    --export-json "$out/direct-$i.json" >/dev/null 2>&1
done
python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
for i in range(1, 4):
    r = json.load(open(f"{out}/wps-{i}.json"))["results"][0]
    pis = {p["name"]: p for p in r["pis"]}
    v, a = pis["throughput"], pis["startup"]
    d = json.load(open(f"{out}/direct-{i}.json"))["results"]
    small, big = sorted(d, key=lambda r: r["command"] == "d256")
    dt = big["mean"] - small["mean"]
    # Half-widths of the two means' intervals, combined as independent errors.
    h = (((big["ci_high"] - big["ci_low"]) / 2) ** 2 + ((small["ci_high"] - small["ci_low"]) / 2) ** 2) ** 0.5
    direct, lo, hi = 192e6 / dt, 192e6 / (dt + h), 192e6 / (dt - h)
    inside = v["ci"]["low"] <= direct <= v["ci"]["high"]
    overlap = v["ci"]["low"] <= hi and lo <= v["ci"]["high"]
    print(f"  run {i}: fitted v {v['mean']/1e6:.1f} MB/s [{v['ci']['low']/1e6:.1f}, "
          f"{v['ci']['high']/1e6:.1f}], direct {direct/1e6:.1f} MB/s [{lo/1e6:.1f}, {hi/1e6:.1f}]: "
          f"{'inside' if inside else 'overlapping' if overlap else 'APART'}; alpha "
          f"{a['mean']/1e6:.2f} ms [{a['ci']['low']/1e6:.2f}, {a['ci']['high']/1e6:.2f}]")
PY

echo
echo "4. peak memory after a bigger command"
for i in $(seq "$runs"); do
  "$pilot" pilot run --out "$out/res" --sequential --max-time 3 -n big "python3 -c 'bytearray(200_000_000)'" \
    -n small "python3 -c 'bytearray(50_000_000)'" --json "$out/mem-$i.json" >/dev/null 2>&1
  /usr/bin/time -v python3 -c 'bytearray(50_000_000)' 2>&1 | awk -F: '/Maximum resident/ {print $2}' > "$out/time-$i"
done
python3 - "$out" "$runs" <<'PY'
import json, sys
out, n = sys.argv[1], int(sys.argv[2])
within = 0
for i in range(1, n + 1):
    d = json.load(open(f"{out}/mem-{i}.json"))
    small = next(r for r in d["results"] if r["name"] == "small")
    peak = next(p for p in small["pis"] if p["name"] == "peak_memory")["mean"]
    ref = int(open(f"{out}/time-{i}").read()) * 1024
    within += abs(peak / ref - 1) <= 0.05
    print(f"  run {i}: pilot {peak/1e6:.2f} MB, /usr/bin/time -v {ref/1e6:.2f} MB ({100*(peak/ref-1):+.2f}%)")
print(f"  within 5%: {within}/{n}")
PY
