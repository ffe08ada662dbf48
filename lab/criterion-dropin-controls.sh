#!/usr/bin/env bash
# Controls for the disagreements lab/criterion-dropin-agreement.sh finds (issue 16), outside CI. Where
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
# Issue 32's three disagreements, on tinyvec 1.13.3's benches (criterion 0.8), and the
# agreement of both tools on hex's and bytecount's:
#
# 6. SmallVec_u8_32/SmallVec<[u8; 32]>::push (criterion 421.5 µs, pilot-criterion 639.7 µs in
#    the issue), SmallVec_u8_32/…::clone (153.5 µs against 210.4 µs) and
#    TinyVec_u64_8/TinyVec<[u64; 8]>::remove (159.6 µs against 118.7 µs), with
#    TinyVec_u8_32/…::push, the other side of the one ranking that flipped. The control is a
#    plain program (target/criterion-bars/controls/tinyref) with the bench's routines copied
#    from benches/smallvec.rs, on the same tinyvec and smallvec, timed with `Instant` over 2000
#    calls, five times, in two forms: the routine inlined into the timing loop (as both
#    harnesses' `b.iter` loops inline it) and the routine called as a function of its own
#    (`#[inline(never)]`). Criterion, pilot-criterion and the control run in turn, three
#    rounds, each tool first in turn. If the two forms of the control differ as the harnesses
#    do, the routine's speed depends on how it is compiled into the loop that calls it, not on
#    the harness's statistics. The called form also runs from 16 stack depths, 16 bytes apart
#    (the same code, the routine's vectors 16 bytes lower each time): if its time moves with
#    the depth as far as the harnesses disagree, where the data lands is the cause (each
#    harness calls the routine from its own depth).
# 7. hex 0.4.3's 9 ids (criterion 0.3) and bytecount 0.6.9's ids at 100, 1000 and 10000 bytes
#    (criterion 0.4): each id twice under each tool, interleaved; how often criterion agrees
#    with itself, pilot-criterion with itself, and the two with each other, by the bars' rule.
#
# Sections 1-5 need lab/criterion-dropin-agreement.sh run once (its copies of base64 and itertools under
# target/criterion-bars/); 6 and 7 build the copies they need (lab/criterion-dropin-agreement.sh
# --build-only; the network the first time). Sections 1-5 take about 15 minutes, 6 about 10,
# 7 about 20. Prints each tool's figure and the control's, and the load average.
# Usage: bash lab/criterion-dropin-controls.sh [SECTION ...]   (default: 1 2 3 4 5 6 7)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bars=$root/target/criterion-bars
work=$bars/controls
mkdir -p "$work"
# The newest build of bench target $2 in crate copy $1 (an older build's executable stays beside it).
exe() { ls -t "$1"/target/release/deps/"$2"-* | grep -v '\.d$' | head -1; }
# Sections to run: the arguments (e.g. `5`, or `4 5`), else all.
sections=" ${*:-1 2 3 4 5 6 7} "
want() { [[ $sections == *" $1 "* ]]; }
echo "load at start: $(cut -d' ' -f1-3 /proc/loadavg)"
if want 1 || want 2 || want 3 || want 4 || want 5; then
  for d in base64-criterion base64-pilot itertools-criterion itertools-pilot; do
    [ -d "$bars/$d/target/release" ] || { echo "run lab/criterion-dropin-agreement.sh first ($d missing)"; exit 1; }
  done
fi

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
python3 - "$root/lab" "$(exe "$bars/base64-criterion" benchmarks)" "$work/self" <<'PY'
import subprocess, sys
from pathlib import Path
sys.path.insert(0, sys.argv[1])
import criterion_dropin_agreement as cb
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
python3 - "$root/lab" "$(exe "$bars/base64-pilot" benchmarks)" "$bars/base64-pilot" "$work/pilot-self" <<'PY'
import os, subprocess, sys
from pathlib import Path
sys.path.insert(0, sys.argv[1])
import criterion_dropin_agreement as cb
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
python3 - "$root/lab" "$(exe "$bars/base64-pilot" benchmarks)" "$bars/base64-pilot" "$work/large" "$bars/base64.tsv" <<'PY'
import csv, json, os, statistics, subprocess, sys
from pathlib import Path
sys.path.insert(0, sys.argv[1])
import criterion_dropin_agreement as cb
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

if want 6; then
echo "== 6. tinyvec's three disagreements, against a plain Instant loop over the same routines"
bash "$root/lab/criterion-dropin-agreement.sh" --build-only tinyvec >/dev/null
mkdir -p "$work/tinyref/src"
cat > "$work/tinyref/Cargo.toml" <<TOML
[package]
name = "tinyref"
version = "0.0.0"
edition = "2021"
[dependencies]
tinyvec = { path = "$bars/src/tinyvec-1.13.3", features = ["alloc"] }
smallvec = "=1.15.1"
# As tinyvec's own bench profile: release, with debug info.
[profile.release]
debug = 2
[workspace]
TOML
cat > "$work/tinyref/src/main.rs" <<'RS'
//! tinyvec 1.13.3 benches/smallvec.rs's routines (the closures its `b.iter` calls), verbatim
//! but for the macro's `$type` and `$len`, timed without a harness: 2000 calls per reading, five
//! readings, each routine inlined into the timing loop and called as a function of its own.
#![allow(dead_code)]
use smallvec::SmallVec;
use std::hint::black_box;
use std::iter::FromIterator;
use std::time::Instant;
use tinyvec::TinyVec;

const ITERS: usize = 10_000;

macro_rules! routines {
  ($name:ident, $vec:ident, $type:ty, $len:expr) => {
    mod $name {
      use super::*;
      #[inline(always)]
      pub fn push() {
        let mut v: $vec<[$type; $len]> = $vec::default();
        for _ in 0..ITERS {
          v.clear();
          black_box(&v);
          for i in black_box(0..=($len as usize - 1) as _) {
            v.push(i);
          }
          black_box(&v);
        }
      }
      #[inline(always)]
      pub fn clone() {
        let outer: $vec<[$type; $len]> =
          black_box($vec::from_iter(0..=($len as usize - 1) as _));
        for _ in 0..ITERS {
          let v = outer.clone();
          black_box(&v);
        }
      }
      #[inline(always)]
      pub fn remove() {
        let outer: $vec<[$type; $len]> =
          black_box($vec::from_iter(0..=($len as usize - 1) as _));
        for _ in 0..ITERS {
          let mut v = outer.clone();
          for i in black_box((0..=($len as usize - 1) as _).rev()) {
            v.remove(i);
          }
          black_box(&v);
        }
      }
    }
  };
}

routines!(small_u8_32, SmallVec, u8, 32);
routines!(tiny_u8_32, TinyVec, u8, 32);
routines!(tiny_u64_8, TinyVec, u64, 8);

/// Nanoseconds per call of `f`, over `n` calls, the routine inlined into this loop.
#[inline(always)]
fn inlined(f: impl Fn(), n: u32) -> f64 {
  let start = Instant::now();
  for _ in 0..n {
    black_box(f());
  }
  start.elapsed().as_nanos() as f64 / n as f64
}

/// The same, the routine called through a function of its own.
#[inline(never)]
fn called(f: fn(), n: u32) -> f64 {
  let f = black_box(f);
  let start = Instant::now();
  for _ in 0..n {
    black_box(f());
  }
  start.elapsed().as_nanos() as f64 / n as f64
}

/// [`called`] from a stack frame `N` bytes deeper: the routine's locals (the vectors) land
/// `N` bytes lower on the stack, the code is the same.
#[inline(never)]
fn deeper<const N: usize>(f: fn(), n: u32) -> f64 {
  let pad = [0u8; N];
  black_box(&pad);
  called(f, n)
}

/// The called form at 16 stack depths, 16 bytes apart (`deeper::<0>` … `deeper::<240>`).
fn depths(f: fn(), n: u32) -> Vec<f64> {
  macro_rules! at {
    ($($n:literal)*) => { vec![$(deeper::<$n>(f, n)),*] };
  }
  at!(0 16 32 48 64 80 96 112 128 144 160 176 192 208 224 240)
}

/// Five readings of each form of one routine, alternating; prints their min, median and max,
/// then the called form's median at each of 16 stack depths (three readings each).
fn report(id: &str, inline: impl Fn() -> f64, call: impl Fn() -> f64, f: fn()) {
  let (mut a, mut b) = (Vec::new(), Vec::new());
  for _ in 0..5 {
    a.push(inline());
    b.push(call());
  }
  for (form, mut xs) in [("inlined", a), ("called", b)] {
    xs.sort_by(f64::total_cmp);
    println!("{id}\t{form}\t{}\t{}\t{}", xs[0], xs[2], xs[4]);
  }
  let runs: Vec<Vec<f64>> = (0..3).map(|_| depths(f, 500)).collect();
  let mut medians: Vec<f64> = (0..16)
    .map(|d| {
      let mut xs: Vec<f64> = runs.iter().map(|r| r[d]).collect();
      xs.sort_by(f64::total_cmp);
      xs[1]
    })
    .collect();
  let shown: Vec<String> = medians.iter().map(|x| format!("{:.0}", x / 1000.0)).collect();
  medians.sort_by(f64::total_cmp);
  println!("{id}\tdepths\t{}\t{}\t{}\t{}", medians[0], medians[8], medians[15], shown.join(" "));
}

fn main() {
  report(
    "SmallVec_u8_32/SmallVec<[u8; 32]>::push",
    || inlined(small_u8_32::push, 2000),
    || called(small_u8_32::push, 2000),
    small_u8_32::push,
  );
  report(
    "TinyVec_u8_32/TinyVec<[u8; 32]>::push",
    || inlined(tiny_u8_32::push, 2000),
    || called(tiny_u8_32::push, 2000),
    tiny_u8_32::push,
  );
  report(
    "SmallVec_u8_32/SmallVec<[u8; 32]>::clone",
    || inlined(small_u8_32::clone, 2000),
    || called(small_u8_32::clone, 2000),
    small_u8_32::clone,
  );
  report(
    "TinyVec_u64_8/TinyVec<[u64; 8]>::remove",
    || inlined(tiny_u64_8::remove, 2000),
    || called(tiny_u64_8::remove, 2000),
    tiny_u64_8::remove,
  );
}
RS
(cd "$work/tinyref" && cargo build -q --release 2>build.log) || { cat "$work/tinyref/build.log"; exit 1; }
python3 - "$root/lab" "$bars" "$work" <<'PY'
import json, os, subprocess, sys
from pathlib import Path
sys.path.insert(0, sys.argv[1])
import criterion_dropin_agreement as cb
bars, work = Path(sys.argv[2]), Path(sys.argv[3])
ids = ["SmallVec_u8_32/SmallVec<[u8; 32]>::push", "TinyVec_u8_32/TinyVec<[u8; 32]>::push",
       "SmallVec_u8_32/SmallVec<[u8; 32]>::clone", "TinyVec_u64_8/TinyVec<[u64; 8]>::remove"]
dirs = {k: bars / f"tinyvec-{k}" for k in ("criterion", "pilot")}
exes = {k: cb.executables(bars / f"tinyvec-{k}.build.json")["smallvec"] for k in dirs}
envs = {k: dict(os.environ, CARGO_TARGET_DIR=str(d / "target")) for k, d in dirs.items()}
figures = {}  # (tool, id) -> [ns, ...]
def run(tool, rnd):
    if tool == "control":
        out = subprocess.run([str(work / "tinyref/target/release/tinyref")], check=True,
                             capture_output=True, text=True).stdout
        for line in out.splitlines():
            bid, form, lo, med, hi, *each = line.split("\t")
            figures.setdefault((f"control, {form}", bid), []).append(float(med))
            print(f"  round {rnd + 1} control {form:7s} {bid}: min {cb.fmt_ns(float(lo))}, "
                  f"median {cb.fmt_ns(float(med))}, max {cb.fmt_ns(float(hi))}"
                  + (f" (µs at depths 0, 16, … 240 bytes: {each[0]})" if each else ""),
                  flush=True)
        return
    for bid in ids:
        if tool == "criterion":
            subprocess.run([exes[tool], "--bench", f"^{cb.regex_escape(bid)}$"], cwd=dirs[tool],
                           env=envs[tool], check=True, capture_output=True)
            e = cb.criterion_estimates(dirs[tool] / "target")[bid]
        else:
            doc = work / f"tiny-{rnd}.json"
            subprocess.run([exes[tool], "--bench", "--exact", bid, "--json", str(doc)],
                           cwd=dirs[tool], env=envs[tool], check=True, capture_output=True)
            e = cb.pilot_estimate(doc, bid)
        figures.setdefault((tool, bid), []).append(e[0])
        print(f"  round {rnd + 1} {tool:9s} {bid}: {cb.fmt_est(e)}", flush=True)
tools = ["criterion", "pilot", "control"]
for rnd in range(3):
    for tool in tools[rnd:] + tools[:rnd]:
        run(tool, rnd)
print("median of the rounds (control: median of its five readings, then of the rounds):")
for bid in ids:
    row = {t: sorted(figures[(t, bid)])[len(figures[(t, bid)]) // 2]
           for t in ("criterion", "pilot", "control, inlined", "control, called")}
    lows = sorted(figures[("control, depths", bid)])
    ref = row["control, called"]
    print(f"  {bid}: " + ", ".join(f"{t} {cb.fmt_ns(v)} ({v / ref:.2f}x called)"
                                  for t, v in row.items()))
    print(f"    control called from 16 stack depths: see the rounds above; the median depth's "
          f"median over the rounds {cb.fmt_ns(lows[len(lows) // 2])}")
PY
fi

if want 7; then
echo "== 7. hex and bytecount: each tool against itself and against the other"
bash "$root/lab/criterion-dropin-agreement.sh" --build-only hex bytecount >/dev/null
python3 - "$root/lab" "$bars" "$work/agree" <<'PY'
import os, re, subprocess, sys
from pathlib import Path
sys.path.insert(0, sys.argv[1])
import criterion_dropin_agreement as cb
bars, work = Path(sys.argv[2]), Path(sys.argv[3])
subprocess.run(["rm", "-rf", str(work)], check=True)
work.mkdir(parents=True)
for name, target, keep in (("hex", "hex", ".*"), ("bytecount", "bench", r"/(100|1000|10000)$")):
    dirs = {k: bars / f"{name}-{k}" for k in ("criterion", "pilot")}
    exes = {k: cb.executables(bars / f"{name}-{k}.build.json")[target] for k in dirs}
    ids = [i for i in cb.listed(exes["criterion"], dirs["criterion"], None) if re.search(keep, i)]
    est = {}
    for n, bid in enumerate(ids):
        for rep in ("a", "b"):
            for k in (("criterion", "pilot") if n % 2 == 0 else ("pilot", "criterion")):
                tdir = work / f"{name}-{k}-{rep}"
                env = dict(os.environ, CARGO_TARGET_DIR=str(tdir))
                if k == "criterion":
                    subprocess.run([exes[k], "--bench", f"^{cb.regex_escape(bid)}$"],
                                   cwd=dirs[k], env=env, check=True, capture_output=True)
                    est[k, rep, bid] = cb.criterion_estimates(tdir)[bid]
                else:
                    doc = work / f"{name}-{n}-{rep}.json"
                    subprocess.run([exes[k], "--bench", "--exact", bid, "--json", str(doc)],
                                   cwd=dirs[k], env=env, check=True, capture_output=True)
                    est[k, rep, bid] = cb.pilot_estimate(doc, bid)
    def rate(x, y):
        agree = sum(cb.agrees(est[x + (i,)], est[y + (i,)]) for i in ids)
        return f"{agree} of {len(ids)}"
    ratios = sorted(est["pilot", "a", i][0] / est["criterion", "a", i][0] for i in ids)
    print(f"{name} ({len(ids)} ids): criterion against itself {rate(('criterion', 'a'), ('criterion', 'b'))}, "
          f"pilot-criterion against itself {rate(('pilot', 'a'), ('pilot', 'b'))}, "
          f"pilot-criterion against criterion {rate(('criterion', 'a'), ('pilot', 'a'))} and "
          f"{rate(('criterion', 'b'), ('pilot', 'b'))}; pilot/criterion ratio min "
          f"{ratios[0]:.3f}, median {ratios[len(ratios) // 2]:.3f}, max {ratios[-1]:.3f}", flush=True)
PY
fi
echo "load at end: $(cut -d' ' -f1-3 /proc/loadavg)"
