#!/usr/bin/env bash
# The cross-group bar of issue 32, outside CI: tinyvec 1.13.3's own criterion benches
# (benches/smallvec.rs, criterion 0.8, unchanged) put each library in its own group
# (`TinyVec_u8_32`, `SmallVec_u8_32`) with the operations as functions. The question is TinyVec
# against SmallVec, per operation. Measured here on the issue's 66 ids (the push, clone and
# remove of every array type, criterion's filter `::(push|clone|remove)$`):
#
# - criterion, as a user runs it: `smallvec --bench '::(push|clone|remove)$'`, one process,
#   each id's estimate from target/criterion;
# - pilot-criterion, one command: the same binary with the one-line switch, run as `cargo bench
#   -- --compare-across 'TinyVec|SmallVec' '::(push|clone|remove)$'` runs it: each operation's
#   two ids interleaved by processes and ranked with a verdict; then `cargo pilot report` on
#   its results, which must show the 33 rankings.
#
# Printed: both wall times and their ratio (bar: pilot-criterion under a third of criterion's),
# the verdicts, the faster library per operation under each tool and where they disagree, and
# the load average at the start and the end (the bar is judged quiet and under load; say which
# phase in PHASE, e.g. PHASE=quiet). Needs the network the first time (crates.io); takes about
# 15 minutes on 2 cores. Results: target/criterion-bars/across/.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
bars=$root/target/criterion-bars
out=$bars/across
bash "$here/criterion-dropin-agreement.sh" --build-only tinyvec >/dev/null
(cd "$root" && cargo build -q --release -p cargo-pilot)
rm -rf "$out" && mkdir -p "$out"
echo "phase: ${PHASE:-unstated}; load at start: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$here" "$bars" "$out" "$root/target/release/cargo-pilot" <<'PY'
import json, os, re, subprocess, sys, time
from pathlib import Path
sys.path.insert(0, sys.argv[1])
import criterion_dropin_agreement as cb
bars, out, cargo_pilot = Path(sys.argv[2]), Path(sys.argv[3]), sys.argv[4]
FILTER, PATTERN = "::(push|clone|remove)$", "TinyVec|SmallVec"
dirs = {k: bars / f"tinyvec-{k}" for k in ("criterion", "pilot")}
exes = {k: cb.executables(bars / f"tinyvec-{k}.build.json")["smallvec"] for k in dirs}
tdirs = {k: out / f"target-{k}" for k in dirs}
ids = cb.listed(exes["criterion"], dirs["criterion"], None, [FILTER])
assert ids == cb.listed(exes["pilot"], dirs["pilot"], None, [FILTER]), "the ids differ"
wall = {}
for k in ("criterion", "pilot"):
    env = dict(os.environ, CARGO_TARGET_DIR=str(tdirs[k]))
    args = [exes[k], "--bench", FILTER]
    if k == "pilot":
        args += ["--compare-across", PATTERN, "--json", str(out / "run.json")]
    t0 = time.monotonic()
    with open(out / f"{k}.log", "w") as log:
        rc = subprocess.run(args, cwd=dirs[k], env=env, stdout=log, stderr=subprocess.STDOUT).returncode
    wall[k] = time.monotonic() - t0
    print(f"{k}: {len(ids)} ids in {wall[k]:.1f} s (exit {rc}; log {out / (k + '.log')})", flush=True)
print(f"wall time pilot-criterion / criterion: {wall['pilot'] / wall['criterion']:.3f} "
      f"(bar: below 0.333)")

crit = cb.criterion_estimates(tdirs["criterion"])
run = json.loads((out / "run.json").read_text())
groups = run["groups"] or []
verdicts = {}
for g in groups:
    for p in g["pairs"]:
        verdicts[p["verdict"]] = verdicts.get(p["verdict"], 0) + 1
print(f"rankings: {len(groups)} (expected {len(ids) // 2}); verdicts: {verdicts}")
disagree = []
for g in groups:
    if len(g["ranking"]) != 2:
        print(f"  {g['name']}: ranked {g['ranking']}")
        continue
    fast, slow = g["ranking"]
    lib = lambda i: i.split("_", 1)[0]
    c = {i: crit[i][0] for i in g["ranking"] if i in crit}
    c_fast = min(c, key=c.get) if len(c) == 2 else None
    p = g["pairs"][0]
    line = (f"  {g['name']}: pilot {lib(fast)} faster by {p['ratio']:.3f}x "
            f"[{p['ratio_ci']['low']:.3f}, {p['ratio_ci']['high']:.3f}] {p['verdict']}; "
            f"criterion {lib(c_fast) if c_fast else '-'}"
            + (f" by {max(c.values()) / min(c.values()):.3f}x" if c_fast else ""))
    print(line)
    if c_fast and lib(c_fast) != lib(fast):
        disagree.append(g["name"])
print(f"operations where the tools name another faster library: {len(disagree)} {disagree}")

report = subprocess.run([cargo_pilot, "pilot", "report", "--results", str(tdirs["pilot"])],
                        capture_output=True, text=True)
html = (tdirs["pilot"] / "pilot/report/index.html").read_text() if report.returncode == 0 else ""
shown = sum(f"group {cb_escape}</h3>" in html for cb_escape in
            (g["name"].replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
             for g in groups))
print(f"cargo pilot report: exit {report.returncode}; rankings on the page: {shown} of "
      f"{len(groups)} ({tdirs['pilot'] / 'pilot/report/index.html'})")
PY
echo "load at end: $(cut -d' ' -f1-3 /proc/loadavg)"
