#!/usr/bin/env bash
# Issue 32, why pilot-divan reads divan's example `search::ordsearch::512` (and `::16384`) slower
# than divan: each iteration searches its own collection, made before the unit, so the number of
# inputs a unit holds sets how much memory the unit's searches read. This times the same routine
# on the same inputs (bench.rs, made as divan's examples/benches/search.rs makes them) with
# pilot's own `iter_batched_ref_with` at fixed inputs per unit (`BatchSize::NumIterations(n)`)
# and at pilot-divan's default (`SmallInput`), in a crate outside the workspace. Not run by CI;
# run it on a quiet machine. Prints each bench's estimate per run, then min/median/max over runs.
# Usage: bash lab/divan-inputs-per-unit/run.sh [RUNS]   (default 3)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=$root/target/divan-inputs-per-unit
crate=$out/crate
mkdir -p "$crate/benches" "$crate/src"
cat > "$crate/Cargo.toml" <<TOML
[package]
name = "divan-inputs-per-unit"
version = "0.0.0"
edition = "2024"
publish = false

[dev-dependencies]
pilot = { package = "pilot-bench", path = "$root/crates/pilot" }
fastrand = "2"
ordsearch = "0.2.5"

[[bench]]
name = "unitsize"
harness = false

[workspace]
TOML
: > "$crate/src/lib.rs"
cp "$here/bench.rs" "$crate/benches/unitsize.rs"
export CARGO_TARGET_DIR=$out/target
(cd "$crate" && cargo bench -q --no-run 2>&1 | tail -3)
echo "load at start: $(cut -d' ' -f1-3 /proc/loadavg)"
runs=${1:-3}
for r in $(seq "$runs"); do
  (cd "$crate" && cargo bench -q --bench unitsize -- --max-time 1 --json "$out/run$r.json" >/dev/null 2>&1)
done
python3 - "$out" "$runs" <<'PY'
import json, statistics, sys
out, runs = sys.argv[1], int(sys.argv[2])
got = {}
for r in range(1, runs + 1):
    for res in json.load(open(f"{out}/run{r}.json"))["results"]:
        got.setdefault(res["name"], []).append(res["pis"][0]["mean"])
for name, xs in got.items():
    xs.sort()
    print(f"{name}\tns a search min/median/max {xs[0]:.4g}/{statistics.median(xs):.4g}/{xs[-1]:.4g}")
PY
echo "load at end: $(cut -d' ' -f1-3 /proc/loadavg)"
