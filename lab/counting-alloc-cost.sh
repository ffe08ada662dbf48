#!/usr/bin/env bash
# Issue 31's allocation-cost bar: what `pilot::CountingAlloc` adds to one allocation and its
# free, measured by pilot's own bench (`cargo bench -p pilot --bench alloc`: a 24-byte box
# through the counting allocator, against the same block from the system's allocator
# directly), three runs: the difference's min/median/max, and the cost pilot measured at the
# start of each run (`allocations.cost_ns` in the result). divan quotes 1-2 ns for its
# AllocProfiler. Not run by CI (about a minute).
# Usage: bash lab/counting-alloc-cost.sh [quiet|loaded]   (default: quiet)
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
out=$root/target/counting-alloc-cost
mkdir -p "$out"
phase=${1:-quiet}
cd "$root"
cargo bench -q -p pilot --bench alloc --no-run 2>&1 | tail -3
busy=""
[ "$phase" = loaded ] && { sh -c 'while :; do :; done' & busy=$!; }
echo "== phase $phase; load: $(uptime | sed 's/.*load average: //')"
for i in 1 2 3; do
  cargo bench -q -p pilot --bench alloc -- --json "$out/alloc-$i.json" >/dev/null 2>&1
done
[ -n "$busy" ] && kill "$busy"
echo "   load after: $(uptime | sed 's/.*load average: //')"
python3 - "$out" <<'PY'
import json, sys, statistics as st
out = sys.argv[1]
def row(values):
    s = sorted(values)
    return f"min {s[0]:.2f}, median {st.median(s):.2f}, max {s[-1]:.2f} ns"
runs = [{r["name"]: r for r in json.load(open(f"{out}/alloc-{i}.json"))["results"]} for i in (1, 2, 3)]
mean = lambda r: r["pis"][0]["mean"]
pi = lambda r, n: next(p["mean"] for p in r["pis"] if p["name"] == n)
for name in ["counted_box", "system_box"]:
    print(f"{name:12} {row([mean(r[name]) for r in runs])}; allocations per iteration "
          f"{[pi(r[name], 'allocations') for r in runs]}")
print(f"counting's cost per allocation (counted - system): "
      f"{row([mean(r['counted_box']) - mean(r['system_box']) for r in runs])}")
print(f"cost measured at the start of the run: "
      f"{row([r['counted_box']['allocations']['cost_ns'] for r in runs])}")
PY
