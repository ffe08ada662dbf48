#!/usr/bin/env bash
# Measures the harness's bars on this machine (not run by CI: it takes a few minutes and wants a
# quiet machine). Prints:
#   1. the six quick example benches under default settings: total wall time, each status;
#   2. five fresh runs of each quick micro bench: how many runs' 95% CI contain the median of
#      the five estimates;
#   3. the warm-up example against its steady state measured by a plain loop;
#   4. Recorder::unit against a bare pair of Instant::now() calls.
# Usage: bash lab/example-benches.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cargo bench -q -p pilot-examples --no-run >/dev/null 2>&1
cargo build -q --release -p pilot-examples --bin steady_state
out=$(mktemp -d)
bin() { ls -t target/release/deps | grep -E "^$1-[0-9a-f]{16}$" | head -1 | sed 's|^|target/release/deps/|'; }

echo "== 1. six quick examples, default settings"
start=$(date +%s.%N)
for b in sort hash fill_vec one_add warm_up readings_only; do
  "$(bin $b)" --bench --json "$out/$b.json" >/dev/null 2>&1
done
end=$(date +%s.%N)
python3 - "$out" <<'PY'
import json, sys, glob
for f in sorted(glob.glob(sys.argv[1] + "/*.json")):
    r = json.load(open(f))["results"][0]; p = r["pis"][0]
    hw = (p["ci"]["high"] - p["ci"]["low"]) / 2 / p["mean"] * 100
    print(f'  {r["name"]:12} {p["mean"]:.4g} ns ± {hw:.2f}%  {r["status"]:9} {r["elapsed_s"]:.1f} s')
PY
echo "  total: $(python3 -c "print(f'{$end - $start:.1f}')") s"

echo "== 2. five fresh runs per bench: runs whose CI contains the median of the five estimates"
for b in sort hash fill_vec one_add warm_up; do
  for i in 1 2 3 4 5; do "$(bin $b)" --bench --json "$out/$b-$i.json" >/dev/null 2>&1; done
  python3 - "$out" "$b" <<'PY'
import json, sys, statistics
runs = [json.load(open(f"{sys.argv[1]}/{sys.argv[2]}-{i}.json"))["results"][0]["pis"][0] for i in range(1, 6)]
med = statistics.median(r["mean"] for r in runs)
hits = sum(r["ci"]["low"] <= med <= r["ci"]["high"] for r in runs)
spread = (max(r["mean"] for r in runs) / min(r["mean"] for r in runs) - 1) * 100
print(f"  {sys.argv[2]:9} {hits}/5   (estimates spread {spread:.1f}%)")
PY
done

echo "== 3. warm-up example vs its steady state (plain loop, same function)"
"$(bin warm_up)" --bench --json "$out/w.json" >/dev/null 2>&1
python3 -c "import json; p=json.load(open('$out/w.json'))['results'][0]['pis'][0]; print(f\"  pilot: {p['mean']:.4f} ns\")"
echo "  plain loop: $(target/release/steady_state)"

echo "== 4. recording overhead"
cargo bench -q -p pilot --bench overhead 2>&1 | grep -E "^(instant_pair|recorder_unit): " | sed 's/^/  /'
rm -rf "$out"
