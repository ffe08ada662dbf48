#!/usr/bin/env bash
# Controls for the disagreements tests/criterion_bars.sh finds (issue 16), outside CI. Where
# pilot-criterion and criterion disagree on the same unchanged bench, which is right? Two
# families of ids disagree one-sidedly (pilot-criterion faster); each gets a reference that
# neither harness produces:
#
# 1. base64's large inputs, e.g. decode_large_input/decode_slice/31457280. The bench function
#    allocates its output buffer with `vec![0; size]` (zero pages the kernel maps on first
#    touch) before `b.iter`. criterion runs this long bench with a few iterations per sample and
#    calls the function anew for each sample, so every sample's first iteration pays the first
#    touch of 30 MiB; pilot runs many units per call, and its interval is over all of them. The
#    control is criterion on a copy whose buffer is touched before `b.iter` (one line added): if
#    the first touch is the difference, criterion's figure falls to pilot-criterion's.
# 2. itertools' zip loops, e.g. `zip default zip`. The control is the same loop, the same data,
#    timed by a plain program with `Instant` over 200 000 iterations, five times: no harness.
#
# Then three checks of the harnesses themselves, on base64 0.22.1's ids:
#
# 3. criterion against itself: the same binary runs each small-input id twice, interleaved;
#    how often do its two figures agree by the bars' rule?
# 4. pilot-criterion against itself, the same way.
# 5. The large-input ids under pilot-criterion, each read round by round: how much slower is a
#    round's first unit than the rest (the setup's buffer mapped on first touch), how often did
#    change-point detection cut it, did the cold_start check fire, and does the id agree with
#    criterion's figure in target/criterion-bars/base64.tsv (the bars' last base64 run)?
#
# Needs tests/criterion_bars.sh run once (its copies of the crates under target/criterion-bars/).
# Takes about 15 minutes. Prints each tool's figure and the control's.
# Usage: bash tests/criterion_bars_controls.sh [SECTION ...]   (default: 1 2 3 4 5)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bars=$root/target/criterion-bars
work=$bars/controls
mkdir -p "$work"
# The newest build of bench target $2 in crate copy $1 (an older build's executable stays beside it).
exe() { ls -t "$1"/target/release/deps/"$2"-* | grep -v '\.d$' | head -1; }
# Sections to run: the arguments (e.g. `5`, or `4 5`), else all.
sections=" ${*:-1 2 3 4 5} "
want() { [[ $sections == *" $1 "* ]]; }
for d in base64-criterion base64-pilot itertools-criterion itertools-pilot; do
  [ -d "$bars/$d/target/release" ] || { echo "run tests/criterion_bars.sh first ($d missing)"; exit 1; }
done

if want 1; then
echo "== 1. base64 decode_large_input/decode_slice/31457280"
id='decode_large_input/decode_slice/31457280'
rm -rf "$work/base64-touched" && cp -r "$bars/base64-criterion" "$work/base64-touched"
rm -rf "$work/base64-touched/target"
python3 - "$work/base64-touched/benches/benchmarks.rs" <<'PY'
import sys
p = sys.argv[1]
s = open(p).read()
old = """    let mut buf = vec![0; size];
    b.iter(|| {
        STANDARD.decode_slice(&encoded, &mut buf).unwrap();"""
assert s.count(old) == 1, "the decode_slice bench is not as base64 0.22.1 has it"
s = s.replace(old, """    let mut buf = vec![0; size];
    buf.iter_mut().for_each(|x| *x = std::hint::black_box(1));
    b.iter(|| {
        STANDARD.decode_slice(&encoded, &mut buf).unwrap();""")
open(p, "w").write(s)
PY
(cd "$work/base64-touched" && cargo bench -q --no-run --bench benchmarks 2>/dev/null)
cd "$work"
echo "criterion, unchanged:"
"$(exe "$bars/base64-criterion" benchmarks)" --bench "^${id}\$" 2>&1 | grep 'time:'
echo "criterion, buffer touched before b.iter:"
"$(exe "$work/base64-touched" benchmarks)" --bench "^${id}\$" 2>&1 | grep 'time:'
echo "pilot-criterion, unchanged:"
"$(exe "$bars/base64-pilot" benchmarks)" --bench --exact "$id" --no-sampling 2>&1 | grep "^$id:"

fi

if want 2; then
echo "== 2. itertools 'zip default zip'"
mkdir -p "$work/zipref/src"
cat > "$work/zipref/Cargo.toml" <<'TOML'
[package]
name = "zipref"
version = "0.0.0"
edition = "2021"
[workspace]
TOML
cat > "$work/zipref/src/main.rs" <<'RS'
//! itertools 0.14.0 bench1's `zip default zip` loop and data, timed without a harness.
use std::hint::black_box;
use std::time::Instant;

#[inline(never)]
fn per_iteration_ns(xs: &[i32], ys: &[i32], iters: u64) -> f64 {
    let start = Instant::now();
    for _ in 0..iters {
        for (&x, &y) in xs.iter().zip(ys) {
            black_box(x);
            black_box(y);
        }
    }
    start.elapsed().as_nanos() as f64 / iters as f64
}

fn main() {
    let xs = black_box(vec![0; 1024]);
    let ys = black_box(vec![0; 768]);
    for _ in 0..5 {
        println!("plain loop: {:.1} ns", per_iteration_ns(&xs, &ys, 200_000));
    }
}
RS
(cd "$work/zipref" && cargo build -q --release)
echo "criterion, unchanged:"
"$(exe "$bars/itertools-criterion" bench1)" --bench '^zip default zip$' 2>&1 | grep 'time:'
echo "pilot-criterion, unchanged:"
"$(exe "$bars/itertools-pilot" bench1)" --bench --exact 'zip default zip' --no-sampling 2>&1 \
  | grep '^zip default zip:'
"$work/zipref/target/release/zipref"

fi

if want 3; then
echo "== 3. criterion against itself: base64's small-input ids, the same binary run twice, interleaved"
# How often do two runs of criterion itself agree by the bars' rule (|a − b| ≤ the two
# half-widths)? Each id runs twice in a row, in target dirs of their own, alternating which goes
# first; criterion's estimates are read as the bars script reads them.
python3 - "$root/tests" "$(exe "$bars/base64-criterion" benchmarks)" "$work/self" <<'PY'
import subprocess, sys
from pathlib import Path
sys.path.insert(0, sys.argv[1])
import criterion_bars as cb
exe, work = sys.argv[2], Path(sys.argv[3])
subprocess.run(["rm", "-rf", str(work)], check=True)
runs = {"a": work / "a", "b": work / "b"}
for d in runs.values():
    d.mkdir(parents=True)
ids = [i for i in cb.listed(exe, work / "a", None) if "_small_input/" in i]
for n, bid in enumerate(ids):
    for k in (("a", "b") if n % 2 == 0 else ("b", "a")):
        subprocess.run([exe, "--bench", f"^{cb.regex_escape(bid)}$"], cwd=runs[k],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
a = cb.criterion_estimates(runs["a"] / "target")
b = cb.criterion_estimates(runs["b"] / "target")
agree = sum(cb.agrees(a[i], b[i]) for i in ids)
ratios = sorted(b[i][0] / a[i][0] for i in ids)
print(f"criterion against itself: {agree} of {len(ids)} small-input ids agree "
      f"({100 * agree / len(ids):.0f}%); second/first ratio min {ratios[0]:.3f}, "
      f"median {ratios[len(ratios) // 2]:.3f}, max {ratios[-1]:.3f}")
PY

fi

if want 4; then
echo "== 4. pilot-criterion against itself: base64's small-input ids, the same binary run twice"
# As section 3, with pilot-criterion's run documents (--json) in place of criterion's folders.
# Both runs share the build's target/pilot (its machine history), as a user's reruns do.
python3 - "$root/tests" "$(exe "$bars/base64-pilot" benchmarks)" "$bars/base64-pilot" "$work/pilot-self" <<'PY'
import os, subprocess, sys
from pathlib import Path
sys.path.insert(0, sys.argv[1])
import criterion_bars as cb
exe, crate, work = sys.argv[2], Path(sys.argv[3]), Path(sys.argv[4])
subprocess.run(["rm", "-rf", str(work)], check=True)
work.mkdir(parents=True)
env = dict(os.environ, CARGO_TARGET_DIR=str(crate / "target"))
ids = [i for i in cb.listed(exe, crate, env) if "_small_input/" in i]
est = {}
for n, bid in enumerate(ids):
    for k in ("a", "b"):
        doc = work / f"{k}-{n}.json"
        subprocess.run([exe, "--bench", "--exact", bid, "--json", str(doc)], cwd=crate, env=env,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        est[k, bid] = cb.pilot_estimate(doc, bid)
agree = sum(cb.agrees(est["a", i], est["b", i]) for i in ids)
ratios = sorted(est["b", i][0] / est["a", i][0] for i in ids)
widths = sorted((e[2] - e[1]) / 2 / e[0] for e in est.values())
print(f"pilot-criterion against itself: {agree} of {len(ids)} small-input ids agree "
      f"({100 * agree / len(ids):.0f}%); second/first ratio min {ratios[0]:.3f}, "
      f"median {ratios[len(ratios) // 2]:.3f}, max {ratios[-1]:.3f}; half-widths median "
      f"±{100 * widths[len(widths) // 2]:.2f}%")
PY

fi

if want 5; then
echo "== 5. base64's large-input ids under pilot-criterion, round by round"
python3 - "$root/tests" "$(exe "$bars/base64-pilot" benchmarks)" "$bars/base64-pilot" "$work/large" "$bars/base64.tsv" <<'PY'
import csv, json, os, statistics, subprocess, sys
from pathlib import Path
sys.path.insert(0, sys.argv[1])
import criterion_bars as cb
exe, crate, work, table = sys.argv[2], Path(sys.argv[3]), Path(sys.argv[4]), sys.argv[5]
subprocess.run(["rm", "-rf", str(work)], check=True)
work.mkdir(parents=True)
env = dict(os.environ, CARGO_TARGET_DIR=str(crate / "target"))
crit = {r["id"]: (float(r["criterion"]), float(r["c_low"]), float(r["c_high"]))
        for r in csv.DictReader(open(table), delimiter="\t")}
ids = [i for i in crit if "_large_input/" in i]
cold = {True: [0, 0], False: [0, 0]}  # slow first unit? -> [ids, agreeing with criterion]
for n, bid in enumerate(ids):
    path = work / f"{n}.json"
    subprocess.run([exe, "--bench", "--exact", bid, "--json", str(path)], cwd=crate, env=env,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    p = cb.pilot_estimate(path, bid)
    result = json.loads(path.read_text())["results"][0]
    # The first unit against the median of the rest, in analysed rounds of 5 units or more (a
    # round's readings are kept in bins: the first bin's max is at least its first unit).
    firsts, cut, rounds = [], 0, 0
    for r in result["rounds"]:
        if not r["analysed"] or r["units"] < 5 or r["stable"] is None:
            continue
        rounds += 1
        cut += r["stable"][0] >= 1
        firsts.append(r["readings"]["max"][0] / statistics.median(r["readings"]["mean"][1:]))
    first = statistics.median(firsts)
    fired = any(c["kind"] == "cold_start" for c in result["checks"])
    agree = cb.agrees(crit[bid], p)
    slow = first > 1.5
    cold[slow][0] += 1
    cold[slow][1] += agree
    print(f"{bid:58s} pilot/criterion {p[0] / crit[bid][0]:.3f} {'agree' if agree else 'NO   '} "
          f"first unit {first:.2f}x the rest, cut in {cut}/{rounds} rounds, "
          f"cold_start {'fired' if fired else 'no'}")
for slow, (n, a) in cold.items():
    print(f"{'a slow' if slow else 'no slow'} first unit (> 1.5x): {n} ids, {a} agree with criterion")
PY
fi
