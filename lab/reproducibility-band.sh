#!/usr/bin/env bash
# Whether the "run to run" band holds the next run (issue 41's reproducibility bar): four quick
# example benches (sort, hash, fill_vec, one_add) run LEARN + CHECK + 1 times, GAP seconds
# apart, in a target directory of their own whose machine history starts empty. From run LEARN
# on, each bench-run's band (`pis[0].reproducibility`, a prediction for the next run) is
# checked against the bench's estimate in the run after it. Beside it, `cargo pilot noise`
# measures a plain program's run-to-run band in the same phase (before and after), and the
# bench's median band is given as a multiple of it.
#
#   bash lab/reproducibility-band.sh [LEARN] [CHECK] [GAP] [LOOPS]
#   defaults 5, 10, 65 s, 0; LOOPS busy loops `sh -c 'while :; do :; done'` run throughout
#   (0: the quiet phase). Takes about (LEARN + CHECK + 1) · GAP seconds.
#
# Prints per run the estimates and bands, then: bench-runs whose band held the next run's
# estimate, the median band half-width, the plain program's, and their ratio.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
learn=${1:-5}
check=${2:-10}
gap=${3:-65}
loops=${4:-0}
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$root/target/reproducibility-lab}
cd "$root"
cargo bench -q -p pilot-examples --no-run 2>/dev/null
cargo build -q --release -p cargo-pilot 2>/dev/null
rm -rf "$CARGO_TARGET_DIR/pilot"
tmp=$(mktemp -d)
busy=()
cleanup() { for p in "${busy[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$tmp"; }
trap cleanup EXIT
for _ in $(seq 1 "$loops"); do sh -c 'while :; do :; done' & busy+=($!); done
benches=(sort hash fill_vec one_add)
bin_of() { ls -t "$CARGO_TARGET_DIR"/release/deps/"$1"-* | grep -E "/$1-[0-9a-f]{16}\$" | head -1; }
noise() { "$CARGO_TARGET_DIR/release/cargo-pilot" pilot noise --format json >"$tmp/noise-$1.json" 2>/dev/null || true; }
noise before
total=$((learn + check + 1))
start=$(date +%s)
for r in $(seq 1 "$total"); do
  # Runs start GAP seconds apart (a run counts towards the history only 60 s after the last).
  next=$((start + (r - 1) * gap))
  now=$(date +%s); [ "$now" -lt "$next" ] && sleep $((next - now))
  t0=$(date +%s.%N)
  for b in "${benches[@]}"; do
    "$(bin_of "$b")" --bench --json "$tmp/$r-$b.json" >/dev/null 2>&1 || true
  done
  t1=$(date +%s.%N)
  wall=$(python3 -c "print(f'{$t1 - $t0:.1f}')")
  echo "$wall" >>"$tmp/walls"
  echo "run $r of $total done at $(date +%T): the four benches took $wall s"
done
noise after
python3 - "$tmp" "$learn" "$check" "${benches[@]}" <<'PY'
import json, sys, statistics as st, math
tmp, learn, check = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
benches = sys.argv[4:]
held = tried = 0
halves = []
for b in benches:
    rows = []
    for r in range(1, learn + check + 2):
        try:
            d = json.load(open(f"{tmp}/{r}-{b}.json"))["results"][0]
        except Exception:
            rows.append(None); continue
        pi = d["pis"][0]
        rows.append((pi["mean"], pi.get("reproducibility") or {}))
    for k in range(learn, learn + check):
        band, nxt = rows[k - 1], rows[k]
        if band is None or nxt is None:
            continue
        rep = band[1]
        if rep.get("state") != "learnt":
            print(f"{b} run {k}: band not learnt ({rep})")
            continue
        tried += 1
        ok = rep["low"] <= nxt[0] <= rep["high"]
        held += ok
        halves.append(rep["half_width"])
        print(f"{b} run {k}: {band[0]:.4g} ns, run to run ±{100*rep['half_width']:.2f}% "
              f"[{rep['low']:.4g}, {rep['high']:.4g}] from {rep['learnt_from']} ({rep['runs']} runs); "
              f"next run {nxt[0]:.4g}: {'held' if ok else 'MISSED'}")
print(f"band held the next run's estimate: {held} of {tried} bench-runs")
walls = sorted(float(x) for x in open(f"{tmp}/walls"))
print(f"the four benches' wall time per run, min / median / max: {walls[0]:.1f} / {st.median(walls):.1f} / {walls[-1]:.1f} s")
hws = []
for b in benches:
    for r in range(1, learn + check + 2):
        try:
            pi = json.load(open(f"{tmp}/{r}-{b}.json"))["results"][0]["pis"][0]
            hws.append((pi["ci"]["high"] - pi["ci"]["low"]) / 2 / pi["mean"])
        except Exception:
            pass
print(f"this run's interval, median half-width over all bench-runs: ±{100*st.median(hws):.2f}% (max ±{100*max(hws):.2f}%)")
if halves:
    print(f"median band half-width ±{100*st.median(halves):.2f}% (min ±{100*min(halves):.2f}%, max ±{100*max(halves):.2f}%)")
plain = []
for which in ("before", "after"):
    try:
        n = json.load(open(f"{tmp}/noise-{which}.json"))
    except Exception as e:
        print(f"noise {which}: unreadable ({e})"); continue
    for w in n.get("workloads", []):
        hw = w.get("next_run")
        print(f"noise {which}: {w.get('name')}: next-run band ±{100*hw:.2f}%" if hw is not None else f"noise {which}: {w}")
        if hw is not None:
            plain.append(hw)
if halves and plain:
    p = st.median(plain)
    print(f"plain program's band (median of noise's workloads, before and after) ±{100*p:.2f}%; "
          f"bench band / plain band = {st.median(halves)/p:.2f}")
PY
