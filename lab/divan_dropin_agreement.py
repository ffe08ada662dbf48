#!/usr/bin/env python3
"""The half of lab/divan-dropin-agreement.sh that Python does better than bash (stdlib only).

  divan_dropin_agreement.py prepare SRC DST (divan|pilot) PILOT_DIVAN_DIR
      Makes DST a copy of the package SRC (its target/ kept, files rewritten only where they
      differ, so a second run reuses the build), with its own [workspace]; the divan dependency
      is pinned to =0.1.21 (divan) or replaced by `package = "pilot-divan"` and a path (pilot),
      with pilot-divan's `control` feature (control: its plain `Instant` loop, neither harness;
      PILOT_DIVAN_DIR is then lab/divan-control/prepare.sh's copy, where the feature exists).
      divan's examples name `divan` and `libc` from divan's workspace: they get divan 0.1.21's
      (libc 0.2.148) instead.
  divan_dropin_agreement.py run OUT FILTER MAX_TIME SOURCE ...
      Lists, runs interleaved, reads both tools' figures and prints the tables (see the .sh).
  divan_dropin_agreement.py selftest
      Checks the reader of divan's output and the agreement rule on hand-made text.
"""

import json
import os
import re
import subprocess
import sys
import time
import tomllib
from pathlib import Path

DIVAN = "0.1.21"


def patched(text, kind, pilot_divan):
    """The Cargo.toml TEXT as the copy KIND has it."""
    features = ', features = ["control"]' if kind == "control" else ""
    if kind == "divan":
        dep = f'divan = "={DIVAN}"'
    else:
        dep = f'divan = {{ package = "pilot-divan", path = {json.dumps(str(pilot_divan))}{features} }}'
    # divan's examples: dependencies from divan's own workspace.
    text, n_ws = re.subn(r'^divan = \{ workspace = true \}$', dep, text, flags=re.M)
    text = re.sub(r'^libc = \{ workspace = true \}$', 'libc = "0.2.148"', text, flags=re.M)
    if n_ws == 0:
        lines, out, inside, done = text.split("\n"), [], False, 0
        for line in lines:
            if line.startswith("["):
                inside = line.strip() == "[dev-dependencies.divan]"
            if inside and re.match(r'^version\s*=', line):
                if kind == "divan":
                    out.append(f'version = "={DIVAN}"')
                else:
                    out.append('package = "pilot-divan"')
                    out.append(f"path = {json.dumps(str(pilot_divan))}")
                    if kind == "control":
                        out.append('features = ["control"]')
                done += 1
                continue
            out.append(line)
        if done != 1:
            sys.exit("no `version = ...` line in the [dev-dependencies.divan] table")
        text = "\n".join(out)
    if re.search(r"^\[workspace\]", text, re.M):
        sys.exit("already has a [workspace] table")
    text += "\n[workspace]\n"
    doc = tomllib.loads(text)
    deps = doc.get("dev-dependencies", {}) | doc.get("dependencies", {})
    got = deps["divan"]
    if kind != "divan":
        assert isinstance(got, dict) and got.get("package") == "pilot-divan", got
    return text


def prepare(src, dst, kind, pilot_divan):
    src, dst = Path(src), Path(dst)
    want = {}
    for f in src.rglob("*"):
        if f.is_file() and "target" not in f.relative_to(src).parts:
            want[f.relative_to(src)] = f.read_bytes()
    want[Path("Cargo.toml")] = patched((src / "Cargo.toml").read_text(), kind, pilot_divan).encode()
    want.pop(Path("Cargo.lock"), None)
    dst.mkdir(parents=True, exist_ok=True)
    for f in sorted(dst.rglob("*"), reverse=True):
        rel = f.relative_to(dst)
        if rel.parts[0] == "target" or rel == Path("Cargo.lock"):
            continue
        if f.is_file() and rel not in want:
            f.unlink()
        elif f.is_dir() and not any(f.iterdir()):
            f.rmdir()
    for rel, data in want.items():
        f = dst / rel
        if not f.is_file() or f.read_bytes() != data:
            f.parent.mkdir(parents=True, exist_ok=True)
            f.write_bytes(data)


def executables(build_json):
    """{target name: executable} of the bench targets a `--message-format=json` build made."""
    exes = {}
    for line in Path(build_json).read_text().splitlines():
        try:
            m = json.loads(line)
        except json.JSONDecodeError:
            continue
        if m.get("reason") == "compiler-artifact" and "bench" in m["target"]["kind"]:
            if m.get("executable"):
                exes[m["target"]["name"]] = m["executable"]
    return exes


def listed(exe, env):
    """The ids `exe --list --format terse` prints (`ID: benchmark` lines)."""
    p = subprocess.run([exe, "--list", "--format", "terse"], env=env, capture_output=True,
                       text=True)
    if p.returncode != 0:
        raise RuntimeError(f"{exe} --list failed ({p.returncode}): {p.stderr.strip()[-2000:]}")
    return [l[: -len(": benchmark")] for l in p.stdout.splitlines() if l.endswith(": benchmark")]


THREADS = re.compile(r"::t=(\d+)$")


def fold(pilot_ids):
    """pilot-divan's ids with their `::t=N` suffix taken off, once each, in order."""
    out = []
    for i in pilot_ids:
        base = THREADS.sub("", i)
        if base not in out:
            out.append(base)
    return out


UNITS = {"ps": 1e-3, "ns": 1.0, "µs": 1e3, "us": 1e3, "ms": 1e6, "s": 1e9}
TIME = re.compile(r"^(-?[0-9.]+)\s*(ps|ns|µs|us|ms|s)$")


def divan_medians(text):
    """{row name: median ns} of divan's table: the rows whose cells hold times (a leaf, or a
    `t=N` row under it); the name is the row's last path component."""
    rows = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.split("│")]
        if len(cells) < 6:
            continue
        first = cells[0]
        m = re.match(r"^[\s│├╰─]*(.+?)\s{2,}(-?[0-9.]+\s*(?:ps|ns|µs|us|ms|s))$", first)
        if not m:
            continue
        median = TIME.match(cells[2])
        if not median:
            continue
        rows[m.group(1).strip()] = float(median.group(1)) * UNITS[median.group(2)]
    return rows


def control_figures(text):
    """{name: ([ns, ...], at_once)} of the control's output: `NAME<TAB>ns ns ns ns ns` lines, and
    on several threads `NAME<TAB>ns ...<TAB>at once X` (how many threads were timing at once, on
    average over its blocks; None for one thread). Other lines (`panicked`, a reason) are left
    out."""
    found = {}
    for line in text.splitlines():
        name, _, rest = line.partition("\t")
        medians, _, extra = rest.partition("\t")
        try:
            ns = [float(x) for x in medians.split()]
            at_once = float(extra.removeprefix("at once ")) if extra else None
        except ValueError:
            continue
        if ns:
            found[name] = (ns, at_once)
    return found


def closer(p, d, c):
    """Which of pilot's estimate P and divan's figure D is nearer the control's C (as ratios)."""
    import math
    dp, dd = abs(math.log(p / c)), abs(math.log(d / c))
    return "pilot" if dp < dd else "divan" if dd < dp else "tie"


def ran_together(at_once, threads, cores=None):
    """"together" when the control's threads were timing at once for at least 90% of what the
    machine allows (min(threads, cores)), else "apart": apart, a contended routine was timed
    without its contention."""
    cores = cores or os.cpu_count() or 1
    return "together" if at_once >= 0.9 * min(threads, cores) else "apart"


def agrees(p, d):
    """p = (estimate, low, high), d = (figure, low, high): |p − d| ≤ both half-widths."""
    return abs(p[0] - d[0]) <= (p[2] - p[1]) / 2 + (d[2] - d[1]) / 2


def pilot_estimates(doc_path):
    """{name: (estimate, low, high)} of the time PI in a pilot run document."""
    found = {}
    for r in json.loads(Path(doc_path).read_text())["results"]:
        for p in r["pis"]:
            if p["name"] == "time" and p.get("mean") is not None and p.get("ci"):
                found[r["name"]] = (p["mean"], p["ci"]["low"], p["ci"]["high"])
    return found


def run(out, flt, max_time, sources):
    out = Path(out)
    rx = re.compile(flt) if flt else None
    summary = []
    env = dict(os.environ)
    env.pop("NEXTEST", None)
    for name in sources:
        raw = out / "raw" / name
        raw.mkdir(parents=True, exist_ok=True)
        dexe = executables(out / f"{name}-divan.build.json")
        pexe = executables(out / f"{name}-pilot.build.json")
        cjson = out / f"{name}-control.build.json"
        cexe = executables(cjson) if cjson.exists() else {}
        closer_count = {"pilot": 0, "divan": 0, "tie": 0}
        # Threaded disagreements: {"together" | "apart": {harness: count}}.
        threaded = {"together": {"pilot": 0, "divan": 0, "tie": 0},
                    "apart": {"pilot": 0, "divan": 0, "tie": 0}}
        rows, ran, agreed, walls = [], 0, 0, {"divan": 0.0, "pilot": 0.0}
        same_ids = True
        for target in sorted(dexe):
            d_ids = listed(dexe[target], {**env, "NEXTEST": "1"})
            # pilot's names, a bench per thread count (its terse list is divan's ids).
            p_all = listed(pexe[target], {**env, "PILOT_LIST_NAMES": "1"})
            p_ids = fold(p_all)
            if sorted(d_ids) != sorted(p_ids):
                same_ids = False
                print(f"{name}/{target}: ids differ: only divan {sorted(set(d_ids) - set(p_ids))[:5]}, "
                      f"only pilot {sorted(set(p_ids) - set(d_ids))[:5]}")
            else:
                print(f"{name}/{target}: the same {len(d_ids)} ids under both "
                      f"({len(p_all)} pilot benches with thread counts)")
            for k, bid in enumerate(d_ids):
                if rx and not rx.search(bid):
                    continue
                safe = re.sub(r"[^A-Za-z0-9_.-]", "_", f"{target}--{bid}")[:150]
                doc = raw / f"{safe}.json"
                medians = []

                def divan_once(i):
                    t = time.time()
                    p = subprocess.run([dexe[target], "--bench", "--exact", bid, "--color", "never"],
                                       env=env, capture_output=True, text=True, cwd=out)
                    walls["divan"] += time.time() - t
                    (raw / f"{safe}.divan{i}.txt").write_text(p.stdout + p.stderr)
                    medians.append(divan_medians(p.stdout))

                def pilot_once():
                    args = [pexe[target], "--bench", "--exact", bid, "--json", str(doc)]
                    if max_time:
                        args += ["--max-time", max_time]
                    t = time.time()
                    p = subprocess.run(args, env=env, capture_output=True, text=True, cwd=out)
                    walls["pilot"] += time.time() - t
                    (raw / f"{safe}.pilot.txt").write_text(p.stdout + p.stderr)

                controls = {}
                def control_once():
                    if target not in cexe:
                        return
                    t = time.time()
                    p = subprocess.run([cexe[target], "--bench", "--exact", bid], env=env,
                                       capture_output=True, text=True, cwd=out)
                    walls["control"] = walls.get("control", 0.0) + time.time() - t
                    (raw / f"{safe}.control.txt").write_text(p.stdout + p.stderr)
                    controls.update(control_figures(p.stdout))
                order = ["d", "p", "c", "d", "d"] if k % 2 == 0 else ["p", "d", "c", "d", "d"]
                i = 0
                for step in order:
                    if step == "d":
                        divan_once(i)
                        i += 1
                    elif step == "c":
                        control_once()
                    else:
                        pilot_once()
                try:
                    est = pilot_estimates(doc)
                except (OSError, KeyError, json.JSONDecodeError):
                    est = {}
                leaf = bid.split("::")[-1]
                pnames = [n for n in p_all if n == bid or THREADS.sub("", n) == bid]
                for pn in pnames:
                    m = THREADS.search(pn)
                    row = f"t={m.group(1)}" if m else leaf
                    ds = [md[row] for md in medians if row in md]
                    ran += 1
                    cs, at_once = controls.get(pn, ([], None))
                    cs = sorted(cs)
                    c = (cs[len(cs) // 2], cs[0], cs[-1]) if cs else None
                    if len(ds) < 3 or pn not in est:
                        rows.append((f"{target}/{pn}", None, None, est.get(pn), False, c, "", at_once))
                        continue
                    ds.sort()
                    d = (ds[1], ds[0], ds[2])
                    ok = agrees(est[pn], d)
                    agreed += ok
                    near = ""
                    if not ok and c:
                        near = closer(est[pn][0], d[0], c[0])
                        closer_count[near] += 1
                        if at_once is not None:
                            threaded[ran_together(at_once, int(m.group(1)))][near] += 1
                    rows.append((f"{target}/{pn}", d, est[pn][0] / d[0], est[pn], ok, c, near, at_once))
        lines = ["id\tdivan median ns\tdivan low\tdivan high\tpilot ns\tpilot low\tpilot high"
                 "\tpilot/divan\tagree\tcontrol ns\tcontrol low\tcontrol high\tcloser to control"
                 "\tcontrol threads at once"]
        for rid, d, ratio, p, ok, c, near, at_once in rows:
            dcols = "\t".join(f"{x:.4g}" for x in d) if d else "-\t-\t-"
            pcols = "\t".join(f"{x:.4g}" for x in p) if p else "-\t-\t-"
            ccols = "\t".join(f"{x:.4g}" for x in c) if c else "-\t-\t-"
            once = f"{at_once:.2f}" if at_once is not None else "-"
            lines.append(f"{rid}\t{dcols}\t{pcols}\t{ratio:.3f}\t{'yes' if ok else 'NO'}\t{ccols}\t{near}\t{once}"
                         if ratio else f"{rid}\t{dcols}\t{pcols}\t-\tNO\t{ccols}\t\t{once}")
        (out / f"{name}.tsv").write_text("\n".join(lines) + "\n")
        print("\n".join(lines))
        s = (f"{name}: ids the same: {'yes' if same_ids else 'NO'}; {ran} benches run, "
             f"{agreed} agree ({100 * agreed / max(ran, 1):.0f}%); wall time divan "
             f"{walls['divan']:.0f} s (3 runs an id), pilot-divan {walls['pilot']:.0f} s")
        if cexe:
            s += (f"; of the {ran - agreed} that disagree, the control (a plain Instant loop, "
                  f"{walls.get('control', 0):.0f} s) is closer to pilot-divan for "
                  f"{closer_count['pilot']}, to divan for {closer_count['divan']}"
                  f"{', a tie for ' + str(closer_count['tie']) if closer_count['tie'] else ''}")
            for how, said in (("together", "ran together"), ("apart", "did not run together")):
                n = sum(threaded[how].values())
                if n:
                    s += (f"; of the {n} on several threads whose control's threads {said}, "
                          f"closer to pilot-divan {threaded[how]['pilot']}, to divan "
                          f"{threaded[how]['divan']}")
        print(s)
        summary.append(s)
    (out / "summary.txt").write_text("\n".join(summary) + "\n")


def selftest():
    text = """\
math            fastest       │ slowest       │ median        │ mean          │ samples │ iters
├─ add          0.628 ns      │ 1.735 ns      │ 0.657 ns      │ 0.672 ns      │ 100     │ 819200
╰─ fibonacci                  │               │               │               │         │
   ├─ 5         12.1 µs       │ 20 µs         │ 13.5 µs       │ 14 µs         │ 100     │ 100
   ╰─ t=4       1.5 ms        │ 2 ms          │ 1.75 ms       │ 1.8 ms        │ 100     │ 100
                2.5 GB/s      │ 1 GB/s        │ 2 GB/s        │ 2 GB/s        │         │
"""
    rows = divan_medians(text)
    assert rows == {"add": 0.657, "5": 13500.0, "t=4": 1750000.0}, rows
    assert agrees((10.0, 9.0, 11.0), (11.5, 11.0, 12.0))
    assert not agrees((10.0, 9.5, 10.5), (12.0, 11.5, 12.5))
    assert fold(["a::t=1", "a::t=4", "b"]) == ["a", "b"]
    assert control_figures("m::a\t1.5 2 2.5\nm::b::t=4\t3 4 5\tat once 1.96\nm::c\tpanicked\n") == {
        "m::a": ([1.5, 2.0, 2.5], None), "m::b::t=4": ([3.0, 4.0, 5.0], 1.96)}
    assert ran_together(1.95, 2, 2) == "together" and ran_together(1.2, 2, 2) == "apart"
    assert ran_together(1.85, 16, 2) == "together" and ran_together(3.7, 4, 8) == "together"
    assert closer(2.0, 0.8, 1.0) == "divan" and closer(1.1, 0.8, 1.0) == "pilot"
    assert 'features = ["control"]' in patched('[dev-dependencies.divan]\nversion = "0.1"\n', "control", "/p")
    assert patched('[dev-dependencies.divan]\nversion = "0.1"\n', "pilot", "/p").count("pilot-divan") == 1
    print("selftest ok")


if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "prepare":
        prepare(*sys.argv[2:6])
    elif cmd == "run":
        run(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:])
    elif cmd == "selftest":
        selftest()
    else:
        sys.exit(__doc__)
