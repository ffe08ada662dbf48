#!/usr/bin/env bash
# Controls for the disagreements lab/divan-dropin-agreement.sh finds (issue 32), outside CI. Where
# pilot-divan's estimate and divan's median differ by more than both intervals (pilot's 95%
# interval; divan's range over three runs, as divan reports none), which is right? The control
# is neither harness: the same routine on the same data, timed by a plain program with
# `Instant` in blocks of about 20 µs, the median of 2000 blocks, five times (three such runs),
# interleaved with fresh divan runs and a fresh pilot-divan run of the same id. The routine's
# output is dropped inside the plain loop's timing (both harnesses drop it outside).
#
# Controls exist for the two crates' ids (the routines are a few lines each, copied below from
# the benches they stand for): nonempty-collections 1.4.0's benches/vec.rs (16 ids) and
# bytesize 2.7.0's benches/display.rs (5 ids). An id of divan's examples that disagrees is
# listed as lacking a control.
#
# Needs lab/divan-dropin-agreement.sh run once for the sources (its builds under target/divan-bars/).
# Usage: bash lab/divan-dropin-controls.sh [--all] [--max-time S]
#   --all: every id of the two crates, not only the disagreeing ones
#   --max-time S: pilot's cap per bench (default: pilot's own)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bars=$root/target/divan-bars
work=$bars/controls
mkdir -p "$work/plain/src"
all=0
max_time=
while [ $# -gt 0 ]; do
  case $1 in
    --all) all=1; shift ;;
    --max-time) max_time=$2; shift 2 ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
done
for d in nonempty-collections-divan nonempty-collections-pilot bytesize-divan bytesize-pilot; do
  [ -d "$bars/$d/target/release" ] || { echo "run lab/divan-dropin-agreement.sh first ($d missing)"; exit 1; }
done

cat > "$work/plain/Cargo.toml" <<'TOML'
[package]
name = "divan-controls"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
nonempty-collections = "=1.4.0"
bytesize = "=2.7.0"

[profile.release]
debug = false

[workspace]
TOML
cat > "$work/plain/src/main.rs" <<'RS'
//! The routines and data of nonempty-collections 1.4.0's benches/vec.rs and bytesize 2.7.0's
//! benches/display.rs, timed without a harness: `ID` as an argument, five lines of ns per
//! iteration out.
use std::fmt;
use std::hint::black_box;
use std::time::Instant;

use nonempty_collections::{IntoIteratorExt, NEVec, NonEmptyIterator};

struct ByteSizeAlwaysPad(bytesize::ByteSize);

impl fmt::Display for ByteSizeAlwaysPad {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(&self.0.display().to_string())
    }
}

/// Five timings of `routine`, in ns per iteration: each the median of 2000 blocks of
/// iterations about 20 µs long. Short blocks, as on a loaded machine a long one holds the time
/// slices other processes took (each harness reads short units too); the median leaves out the
/// blocks an interruption landed in.
fn time<O>(mut routine: impl FnMut() -> O) {
    let mut iters = 1u64;
    loop {
        let start = Instant::now();
        for _ in 0..iters {
            black_box(routine());
        }
        let ns = start.elapsed().as_nanos() as f64;
        if ns > 2e5 {
            iters = (iters as f64 * 2e4 / ns) as u64 + 1;
            break;
        }
        iters *= 2;
    }
    for _ in 0..5 {
        let mut blocks: Vec<f64> = (0..2000)
            .map(|_| {
                let start = Instant::now();
                for _ in 0..iters {
                    black_box(routine());
                }
                start.elapsed().as_nanos() as f64 / iters as f64
            })
            .collect();
        blocks.sort_by(f64::total_cmp);
        println!("{:.4}", blocks[blocks.len() / 2]);
    }
}

fn main() {
    let id = std::env::args().nth(1).expect("an id");
    let parts: Vec<&str> = id.split("::").collect();
    let len = || parts[2].parse::<usize>().unwrap();
    match (parts[0], parts[1]) {
        ("vec", "contains_vec") => {
            let vec = (0..len()).collect::<Vec<_>>();
            time(|| black_box(vec.contains(&32)))
        }
        ("vec", "contains_nevec") => {
            let vec = (0..len()).try_into_nonempty_iter().unwrap().collect::<NEVec<_>>();
            time(|| black_box(vec.contains(&32)))
        }
        ("vec", "map_vec") => {
            let vec = (0..len()).collect::<Vec<_>>();
            time(|| black_box(vec.iter().map(|i| i + 7).collect::<Vec<_>>()))
        }
        ("vec", "map_nevec") => {
            let vec = (0..len()).try_into_nonempty_iter().unwrap().collect::<NEVec<_>>();
            time(|| black_box(vec.nonempty_iter().map(|i| i + 7).collect::<NEVec<_>>()))
        }
        ("display", "display_inner_display" | "display_bytesize_standard") => time(|| {
            black_box(format!("{}", black_box(bytesize::ByteSize::kib(42).display())));
        }),
        ("display", "display_bytesize_custom") => time(|| {
            black_box(format!("|{:-^10}|", black_box(bytesize::ByteSize::kib(42))));
        }),
        ("display", "display_always_pad_standard") => time(|| {
            black_box(format!("{}", black_box(ByteSizeAlwaysPad(bytesize::ByteSize::kib(42)))));
        }),
        ("display", "display_always_pad_custom") => time(|| {
            black_box(format!("|{:-^10}|", black_box(ByteSizeAlwaysPad(bytesize::ByteSize::kib(42)))));
        }),
        _ => panic!("no control for `{id}`"),
    }
}
RS
(cd "$work/plain" && cargo build -q --release)
echo "load at start: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$root/lab" "$bars" "$work/plain/target/release/divan-controls" "$all" "$max_time" <<'PY'
import json, statistics, subprocess, sys
from pathlib import Path
sys.path.insert(0, sys.argv[1])
import divan_dropin_agreement as db
bars, plain, everything, max_time = Path(sys.argv[2]), sys.argv[3], sys.argv[4] == "1", sys.argv[5]
for name in ("nonempty-collections", "bytesize"):
    tsv = bars / f"{name}.tsv"
    if not tsv.exists():
        print(f"{name}: no {tsv.name}: run lab/divan-dropin-agreement.sh {name} first")
        continue
    rows = [l.split("\t") for l in tsv.read_text().splitlines()[1:]]
    wanted = [r[0] for r in rows if everything or r[-1] != "yes"]
    print(f"== {name}: {len(wanted)} of {len(rows)} ids " + ("(all)" if everything else "disagreeing"))
    dexe = db.executables(bars / f"{name}-divan.build.json")
    pexe = db.executables(bars / f"{name}-pilot.build.json")
    for k, rid in enumerate(wanted):
        target, bid = rid.split("/", 1)
        runs = {"plain": [], "divan": [], "pilot": None}
        def run_plain():
            out = subprocess.run([plain, bid], capture_output=True, text=True, check=True).stdout
            runs["plain"] += [float(x) for x in out.split()]
        def run_divan():
            out = subprocess.run([dexe[target], "--bench", "--exact", bid, "--color", "never"],
                                 capture_output=True, text=True, check=True).stdout
            runs["divan"] += list(db.divan_medians(out).values())
        def run_pilot():
            doc = bars / "controls" / "pilot.json"
            args = [pexe[target], "--bench", "--exact", bid, "--json", str(doc)]
            if max_time:
                args += ["--max-time", max_time]
            subprocess.run(args, capture_output=True, text=True, check=True)
            runs["pilot"] = db.pilot_estimates(doc).get(bid)
        steps = [run_plain, run_divan, run_pilot, run_divan, run_plain, run_divan, run_plain]
        if k % 2:
            steps = steps[::-1]
        for s in steps:
            s()
        p, d, c = runs["pilot"], sorted(runs["divan"]), sorted(runs["plain"])
        cmed = statistics.median(c)
        closer = "pilot-divan" if abs(p[0] - cmed) < abs(d[len(d) // 2] - cmed) else "divan"
        print(f"{bid}: plain Instant loop min {c[0]:.4g} median {cmed:.4g} max {c[-1]:.4g} ns "
              f"({len(c)} timings); divan medians {', '.join(f'{x:.4g}' for x in d)} ns; "
              f"pilot-divan {p[0]:.4g} ns [{p[1]:.4g}, {p[2]:.4g}]; closer to the control: {closer}")
examples = bars / "examples.tsv"
if examples.exists():
    header, *lines = examples.read_text().splitlines()
    agree = header.split("\t").index("agree")
    rows = [l.split("\t") for l in lines]
    bad = [r[0] for r in rows if r[agree] != "yes"]
    print(f"== divan's examples: {len(bad)} of {len(rows)} benches disagree; no control here for: "
          + (", ".join(bad[:40]) + (" …" if len(bad) > 40 else "") if bad else "none"))
PY
echo "load at end: $(cut -d' ' -f1-3 /proc/loadavg)"
