#!/usr/bin/env bash
# Issue 27's first bar: four quick benches in a crate outside the workspace, default settings,
# release build. For each phase: three learning runs, then five fresh runs; each run's interval
# should hold the five runs' median, with the median half-width and the wall time of a run
# printed. Phases: quiet (nothing else), loaded (one busy loop the whole time), intermittent (a
# busy loop 2 s of every 5 s). Not run by CI (about 6 minutes a phase).
# Usage: bash lab/interval-coverage/run.sh [PHASE...]   (default: quiet loaded intermittent)
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=$root/target/interval-coverage
crate=$out/crate
mkdir -p "$crate/benches"
cat > "$crate/Cargo.toml" <<TOML
[package]
name = "interval-coverage"
version = "0.0.0"
edition = "2024"
publish = false

[dev-dependencies]
pilot = { package = "pilot-bench", path = "$root/crates/pilot" }

[[bench]]
name = "quick"
harness = false

[workspace]
TOML
mkdir -p "$crate/src" && : > "$crate/src/lib.rs"
cp "$here/bench.rs" "$crate/benches/quick.rs"
(cd "$crate" && cargo bench -q --no-run 2>&1 | tail -3) || exit 1
phases=("$@"); [ ${#phases[@]} -eq 0 ] && phases=(quiet loaded intermittent)
for phase in "${phases[@]}"; do
  export CARGO_TARGET_DIR=$out/target-$phase
  rm -rf "$CARGO_TARGET_DIR/pilot"
  (cd "$crate" && cargo bench -q --no-run 2>/dev/null)
  busy=""
  case $phase in
    loaded) sh -c 'while :; do :; done' & busy=$! ;;
    intermittent) sh -c 'while :; do timeout 2 sh -c "while :; do :; done"; sleep 3; done' & busy=$! ;;
  esac
  for i in 1 2 3 4 5 6 7 8; do
    # Runs half a minute apart: the machine's state moves between them (the probe's history
    # counts runs a minute apart only; a bench's own history counts every run of its build).
    [ "$i" -gt 1 ] && sleep 30
    t0=$(date +%s.%N)
    (cd "$crate" && cargo bench -q --bench quick -- --json "$out/$phase-$i.json" >/dev/null 2>&1)
    t1=$(date +%s.%N)
    echo "$t0 $t1" > "$out/$phase-$i.t"
  done
  [ -n "$busy" ] && { pkill -P "$busy" 2>/dev/null; kill "$busy" 2>/dev/null; }
  python3 - "$out" "$phase" <<'PY'
import json, sys, statistics as st
out, phase = sys.argv[1], sys.argv[2]
runs = [json.load(open(f"{out}/{phase}-{i}.json")) for i in range(4, 9)]
walls = sorted(float(b) - float(a) for a, b in (open(f"{out}/{phase}-{i}.t").read().split() for i in range(4, 9)))
holds, widths, rows = 0, [], []
names = [r["name"] for r in runs[0]["results"]]
for name in names:
    rs = [next(r for r in run["results"] if r["name"] == name) for run in runs]
    t = [r["pis"][0] for r in rs]
    med = st.median(p["mean"] for p in t)
    h = sum(p["ci"]["low"] <= med <= p["ci"]["high"] for p in t)
    hw = [100 * (p["ci"]["high"] - p["ci"]["low"]) / 2 / p["mean"] for p in t]
    holds += h
    widths += hw
    procs = [r["processes"]["count"] for r in rs]
    rows.append(f"  {name}: holds {h}/5, ±{min(hw):.2f}/{st.median(hw):.2f}/{max(hw):.2f}% "
                f"(min/median/max), estimates {min(p['mean'] for p in t):.4g}..{max(p['mean'] for p in t):.4g} ns, "
                f"processes {procs}, statuses {[r['status'] for r in rs]}")
print(f"{phase}: intervals hold the median {holds}/{5 * len(names)}; median half-width "
      f"±{st.median(widths):.2f}%, widest ±{max(widths):.2f}%; wall per run "
      f"{walls[0]:.1f}/{st.median(walls):.1f}/{walls[-1]:.1f} s (min/median/max)")
print("\n".join(rows))
PY
done
