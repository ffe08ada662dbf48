#!/usr/bin/env python3
"""The half of lab/criterion-dropin-agreement.sh that Python does better than bash (stdlib only).

  criterion_dropin_agreement.py prepare SRC DST (criterion|pilot) PILOT_CRITERION_DIR
      Makes DST a copy of the package SRC (its target/ kept, files rewritten only where they
      differ, so a second run reuses the build), with its own [workspace]; with `pilot`, the
      criterion dev-dependency's `version` is replaced by `package = "pilot-criterion"` and a
      path (features and the rest kept).
  criterion_dropin_agreement.py run OUT FILTER NAME=VERSION=TARGET ...
      Lists, runs interleaved, reads both tools' estimates and prints the tables (see the .sh).
  criterion_dropin_agreement.py filters OUT NAME=VERSION=TARGET ...
      Lists each crate's ids with criterion's own filter strings (FILTER_CASES) under criterion
      and under pilot-criterion (`--bench --list ARGS`) and diffs them; exit 1 on a difference.
  criterion_dropin_agreement.py errors BUILD_JSON
      Prints the compiler's errors of a failed `cargo bench --no-run --message-format=json`.
  criterion_dropin_agreement.py selftest
      Checks the regex escaping, the criterion/pilot readers and the agreement rule on
      hand-made documents.
"""

import json
import os
import re
import subprocess
import sys
import time
import tomllib
from pathlib import Path

# The criterion dev-dependency table of a published (normalised) Cargo.toml, also under a
# `[target."cfg(...)".dev-dependencies.criterion]` header.
CRITERION_TABLE = re.compile(r'^\[(target\.[^\n]*\.)?dev-dependencies\.criterion\]\s*$')


def criterion_dep(doc):
    """The criterion dev-dependency tables of a parsed Cargo.toml."""
    found = []
    if "criterion" in doc.get("dev-dependencies", {}):
        found.append(doc["dev-dependencies"]["criterion"])
    for t in doc.get("target", {}).values():
        if "criterion" in t.get("dev-dependencies", {}):
            found.append(t["dev-dependencies"]["criterion"])
    return found


def patched(path, kind, pilot_criterion):
    """The text of the Cargo.toml at PATH as the copy KIND has it."""
    text = path.read_text()
    before = criterion_dep(tomllib.loads(text))
    if len(before) != 1 or not isinstance(before[0], dict):
        sys.exit(f"{path}: expected one [dev-dependencies.criterion] table, found {before}")
    if kind == "pilot":
        lines, out, inside, done = text.split("\n"), [], False, 0
        for line in lines:
            if line.startswith("["):
                inside = bool(CRITERION_TABLE.match(line))
            if inside and re.match(r'^version\s*=', line):
                out.append('package = "pilot-criterion"')
                out.append(f'path = {json.dumps(str(pilot_criterion))}')
                done += 1
                continue
            out.append(line)
        if done != 1:
            sys.exit(f"{path}: no `version = ...` line in the criterion dev-dependency table")
        text = "\n".join(out)
    if re.search(r'^\[workspace\]', text, re.M):
        sys.exit(f"{path}: already has a [workspace] table")
    text += "\n[workspace]\n"
    after = criterion_dep(tomllib.loads(text))[0]
    if kind == "pilot":
        assert after.get("package") == "pilot-criterion" and "version" not in after, after
        assert after.get("features", []) == before[0].get("features", []), (before, after)
    return text


def prepare(src, dst, kind, pilot_criterion):
    src, dst = Path(src), Path(dst)
    want = {}
    for f in src.rglob("*"):
        if f.is_file():
            want[f.relative_to(src)] = f.read_bytes()
    want[Path("Cargo.toml")] = patched(src / "Cargo.toml", kind, pilot_criterion).encode()
    dst.mkdir(parents=True, exist_ok=True)
    for f in sorted(dst.rglob("*"), reverse=True):
        rel = f.relative_to(dst)
        if rel.parts[0] == "target":
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


def regex_escape(s):
    """`regex::escape` of Rust's regex crate: criterion's filter is one of its regexes."""
    return "".join("\\" + c if c in "\\.+*?()|[]{}^$#&-~" else c for c in s)


def listed(exe, cwd, env, args=()):
    """The bench ids `exe --bench --list ARGS` prints, in order: `ID: benchmark` lines
    (criterion 0.5 on, pilot), `ID: bench` (criterion 0.3 and 0.4, which list only with
    `--bench`)."""
    ids, code, err = listing(exe, cwd, env, args)
    if code != 0:
        raise RuntimeError(f"{exe} --list failed ({code}): {err.strip()[-2000:]}")
    return ids


def listing(exe, cwd, env, args=()):
    """(ids, exit code, standard error) of `exe --bench --list ARGS`."""
    p = subprocess.run([exe, "--bench", "--list", *args], cwd=cwd, env=env, capture_output=True,
                       text=True)
    ids = []
    for line in p.stdout.splitlines():
        for suffix in (": benchmark", ": bench"):
            if line.endswith(suffix):
                ids.append(line[: -len(suffix)])
                break
    return ids, p.returncode, p.stderr


def criterion_estimates(target_dir):
    """criterion's estimate of each bench id under TARGET/criterion: {full id: (point, low, high,
    "slope"|"mean")}, found through each `new/benchmark.json` (which names the full id)."""
    found = {}
    for bj in Path(target_dir, "criterion").glob("**/new/benchmark.json"):
        meta = json.loads(bj.read_text())
        est = json.loads((bj.parent / "estimates.json").read_text())
        which = "slope" if est.get("slope") else "mean"
        e = est[which]
        ci = e["confidence_interval"]
        found[meta["full_id"]] = (e["point_estimate"], ci["lower_bound"], ci["upper_bound"], which)
    return found


def pilot_estimate(run_doc, bench_id):
    """pilot's time PI of BENCH_ID in a run document (pilot.run/1): (mean, low, high) in ns."""
    doc = json.loads(Path(run_doc).read_text())
    if doc.get("schema") != "pilot.run/1":
        raise ValueError(f"{run_doc}: schema {doc.get('schema')!r}, not pilot.run/1")
    for r in doc["results"]:
        if r["name"] == bench_id:
            for pi in r["pis"]:
                if pi["name"] == "time":
                    if pi["unit"] != "ns" or pi["mean"] is None or pi["ci"]["low"] is None:
                        raise ValueError(f"{run_doc}: {bench_id}: no time interval in ns: {pi}")
                    return (pi["mean"], pi["ci"]["low"], pi["ci"]["high"], r["status"])
    raise ValueError(f"{run_doc}: no result named {bench_id!r}")


def agrees(c, p):
    """The issue's rule: |pilot − criterion| ≤ pilot's half-width + criterion's half-width."""
    return abs(p[0] - c[0]) <= (p[2] - p[1]) / 2 + (c[2] - c[1]) / 2


def fmt_ns(x):
    for unit, f in (("s", 1e9), ("ms", 1e6), ("µs", 1e3)):
        if abs(x) >= f:
            return f"{x / f:.4g} {unit}"
    return f"{x:.4g} ns"


def fmt_est(e):
    return f"{fmt_ns(e[0])} [{fmt_ns(e[1])}, {fmt_ns(e[2])}]"


def executables(build_json):
    """{bench target: executable} from `cargo bench --no-run --message-format=json`."""
    exes = {}
    for line in Path(build_json).read_text().splitlines():
        if not line.startswith("{"):
            continue
        m = json.loads(line)
        if m.get("reason") == "compiler-artifact" and "bench" in m["target"]["kind"]:
            if m.get("executable"):
                exes[m["target"]["name"]] = m["executable"]
    return exes


def errors(build_json):
    """The compiler's errors in `cargo --message-format=json` output, as it renders them."""
    for line in Path(build_json).read_text().splitlines():
        if line.startswith("{"):
            m = json.loads(line)
            if m.get("reason") == "compiler-message" and m["message"]["level"] == "error":
                print(f"in {m['target']['name']}: {m['message']['rendered']}")


def run_crate(out, name, version, target, keep, summary):
    dirs = {k: out / f"{name}-{k}" for k in ("criterion", "pilot")}
    raw = out / "raw" / name
    raw.mkdir(parents=True, exist_ok=True)
    for f in raw.iterdir():
        f.unlink()
    envs, exes, lists = {}, {}, {}
    for k, d in dirs.items():
        envs[k] = dict(os.environ, CARGO_TARGET_DIR=str(d / "target"))
        built = executables(out / f"{name}-{k}.build.json")
        if target not in built:
            raise RuntimeError(f"{name} ({k}): no bench target {target} among {sorted(built)}")
        exes[k] = built[target]
        lists[k] = listed(exes[k], d, envs[k])
        (raw / f"list-{k}.txt").write_text("".join(i + "\n" for i in lists[k]))
    same = lists["criterion"] == lists["pilot"]
    line = (f"{name} {version} ({target}): --list gives {len(lists['criterion'])} ids under "
            f"criterion, {len(lists['pilot'])} under pilot-criterion: "
            + ("the same ids, in the same order" if same else "DIFFERENT"))
    print(line)
    summary.append(line)
    if not same:
        only_c = [i for i in lists["criterion"] if i not in lists["pilot"]]
        only_p = [i for i in lists["pilot"] if i not in lists["criterion"]]
        for label, ids in (("only criterion", only_c), ("only pilot-criterion", only_p)):
            if ids:
                summary.append(f"  {label}: {ids}")
                print(summary[-1])
    ids = [i for i in lists["criterion"] if i in lists["pilot"] and keep(i)]
    # Stale estimates must not stand in for this run's.
    subprocess.run(["rm", "-rf", str(dirs["criterion"] / "target" / "criterion"),
                    str(dirs["pilot"] / "target" / "pilot" / "results")], check=True)
    wall = {"criterion": 0.0, "pilot": 0.0}
    failed = {}
    times = open(raw / "times.tsv", "w")
    times.write("index\tid\ttool\tseconds\texit\n")
    for n, bid in enumerate(ids):
        order = ("criterion", "pilot") if n % 2 == 0 else ("pilot", "criterion")
        for k in order:
            if k == "criterion":
                cmd = [exes[k], "--bench", f"^{regex_escape(bid)}$"]
            else:
                cmd = [exes[k], "--bench", "--exact", bid, "--json", str(raw / f"pilot-{n}.json")]
            with open(raw / f"{k}.log", "a") as log:
                log.write(f"\n### {n} {bid}: {' '.join(cmd)}\n")
                log.flush()
                t0 = time.monotonic()
                try:
                    rc = subprocess.run(cmd, cwd=dirs[k], env=envs[k], stdout=log,
                                        stderr=subprocess.STDOUT, timeout=900).returncode
                except subprocess.TimeoutExpired:
                    rc = "timeout"
                dt = time.monotonic() - t0
            wall[k] += dt
            times.write(f"{n}\t{bid}\t{k}\t{dt:.3f}\t{rc}\n")
            times.flush()
            if rc != 0:
                failed.setdefault(bid, []).append(f"{k} exit {rc}")
        print(f"  [{n + 1}/{len(ids)}] {bid}", flush=True)
    times.close()

    crit = criterion_estimates(dirs["criterion"] / "target")
    rows, agree, both = [], 0, 0
    tsv = ["id\tcriterion\tc_low\tc_high\tc_kind\tpilot\tp_low\tp_high\tp_status\tratio\tagree"]
    for n, bid in enumerate(ids):
        c = crit.get(bid)
        try:
            p = pilot_estimate(raw / f"pilot-{n}.json", bid)
        except (OSError, ValueError, KeyError) as e:
            p = None
            failed.setdefault(bid, []).append(f"pilot: {e}")
        if c is None:
            failed.setdefault(bid, []).append("criterion: no estimates.json")
        if c and p:
            both += 1
            ok = agrees(c, p)
            agree += ok
            rows.append((bid, fmt_est(c) + (" slope" if c[3] == "slope" else " mean"),
                         fmt_est(p), f"{p[0] / c[0]:.3f}", "yes" if ok else "NO"))
            tsv.append("\t".join(map(str, (bid, *c, *p, p[0] / c[0], ok))))
        else:
            rows.append((bid, fmt_est(c) if c else "-", fmt_est(p) if p else "-", "-", "-"))
    (out / f"{name}.tsv").write_text("\n".join(tsv) + "\n")
    heads = ("id", "criterion [95% interval]", "pilot-criterion [interval]", "ratio", "agree")
    widths = [max(len(r[i]) for r in rows + [heads]) for i in range(5)]
    table = ["  ".join(h.ljust(w) for h, w in zip(heads, widths))]
    table += ["  ".join(c.ljust(w) for c, w in zip(r, widths)) for r in rows]
    pct = 100 * agree / both if both else 0.0
    totals = [
        f"{name} {version} ({target}): ids run {len(ids)}, with both estimates {both}, "
        f"agreeing {agree} ({pct:.0f}%; bar ≥ 80%)",
        f"{name}: wall time criterion {wall['criterion']:.1f} s, pilot-criterion "
        f"{wall['pilot']:.1f} s (ratio {wall['pilot'] / max(wall['criterion'], 1e-9):.2f}; "
        f"bar: below criterion's)",
    ]
    for bid, why in failed.items():
        totals.append(f"  {bid}: {'; '.join(why)}")
    print("\n".join(table + totals), flush=True)
    summary.extend(table + totals + [""])
    return len(ids), both, agree, wall, len(failed)


def run(out, flt, specs):
    out = Path(out)
    keep = (lambda i: re.search(flt, i) is not None) if flt else (lambda i: True)
    summary = [f"criterion_bars {time.strftime('%Y-%m-%d %H:%M:%S')}"
               + (f", filter {flt!r}" if flt else "")]
    grand = [0, 0, 0, {"criterion": 0.0, "pilot": 0.0}, 0]
    for spec in specs:
        name, version, target = spec.split("=")
        r = run_crate(out, name, version, target, keep, summary)
        for i in range(3):
            grand[i] += r[i]
        grand[4] += r[4]
        for k in r[3]:
            grand[3][k] += r[3][k]
    ids, both, agree, wall, failed = grand
    summary.append(
        f"all: ids run {ids}, both estimates {both}, agreeing {agree} "
        f"({100 * agree / max(both, 1):.0f}%), ids with a failure {failed}; wall time criterion "
        f"{wall['criterion']:.1f} s, pilot-criterion {wall['pilot']:.1f} s")
    print(summary[-1])
    (out / "summary.txt").write_text("\n".join(summary) + "\n")


# criterion's own filter strings, as a criterion user's scripts pass them (`cargo bench --
# ARGS`): regular expressions, anchored and not, alternations, classes, counted repeats,
# escaped metacharacters, `--exact` ids (criterion 0.5 on: tinyvec's 0.8; 0.3 and 0.4 refuse
# the flag), filters that match nothing, and invalid expressions, which both refuse (criterion
# panics, pilot-criterion exits 2; `\d` is one: neither builds `regex` with Unicode's Perl
# classes).
FILTER_CASES = {
    "hex": [
        ["hex_encode|hex_decode"], ["^hex_"], ["^faster_hex_(en|de)code$"], ["fallback$"],
        ["decode"], ["hex_.*code_"], ["^(hex|rustc_hex)_decode$"],
        ["nomatch"], ["hex_("],
    ],
    "bytecount": [
        ["counts/"], ["^counts/naive/"], ["/hyper/(10|100|1000)$"],
        ["^num_chars/naive/[0-9]{4}$"], ["naive_32|num_chars/hyper/1000000"],
        ["naive_32/1000$"], [r"/\d+$"], ["[0-9]{7}"], ["^num_chars$"],
        ["counts/[a-"],
    ],
    "tinyvec": [
        ["TinyVec_u8_8/"], ["^SmallVec_u64_"], ["::(push|clone|remove)$"],
        [r"<\[u8; 32\]>"], ["(TinyVec|SmallVec)_u8_32/.*::push"], ["::push"],
        ["--exact", "SmallVec_u8_32/SmallVec<[u8; 32]>::push"], ["u8_8/.*(?i)DEFAULT"],
        ["TinyVec<[u8; 8]>"], ["::extend$"], ["--exact", "TinyVec_u8_8"],
    ],
    "base64": [
        ["decode"], ["^encode_"], ["_small_input/"], ["/(3|50|100)$"], ["slice"],
        ["^(en|de)code_large_input/(en|de)code(_slice)?/[0-9]+$"], ["stream/3$"],
        ["/encode/"], ["nomatch"], ["*"],
    ],
}


def filters(out, specs):
    """Lists each crate's ids with FILTER_CASES under criterion and pilot-criterion, diffs them;
    returns the number of cases that differ."""
    out = Path(out)
    differ = 0
    for spec in specs:
        name, version, target = spec.split("=")
        exes, envs, dirs = {}, {}, {}
        for k in ("criterion", "pilot"):
            dirs[k] = out / f"{name}-{k}"
            envs[k] = dict(os.environ, CARGO_TARGET_DIR=str(dirs[k] / "target"))
            built = executables(out / f"{name}-{k}.build.json")
            exes[k] = built[target]
        every = listed(exes["criterion"], dirs["criterion"], envs["criterion"])
        print(f"{name} {version} ({target}): {len(every)} ids")
        for case in FILTER_CASES[name]:
            got = {k: listing(exes[k], dirs[k], envs[k], case) for k in exes}
            (c_ids, c_code, c_err), (p_ids, p_code, p_err) = got["criterion"], got["pilot"]
            shown = " ".join(repr(a) if any(ch in a for ch in " |$^*()[]<>;") else a
                             for a in case)
            if c_code != 0 or p_code != 0:
                # A filter criterion refuses (it panics) must be refused here too, with exit 2.
                ok = c_code != 0 and p_code == 2
                why = p_err.strip().splitlines()[-1] if p_err.strip() else "-"
                line = (f"  {shown}: criterion exit {c_code}, pilot-criterion exit {p_code}: "
                        + ("both refuse" if ok else "DIFFERENT") + f" ({why})")
            else:
                ok = c_ids == p_ids
                note = ""
                if not p_ids:
                    said = [l for l in p_err.splitlines() if "no bench matches" in l]
                    note = f"; pilot-criterion says: {said[0]}" if said else ""
                line = (f"  {shown}: {len(c_ids)} ids under criterion, {len(p_ids)} under "
                        f"pilot-criterion: " + ("the same" if ok else "DIFFERENT") + note)
            print(line, flush=True)
            if not ok:
                differ += 1
                for label, a, b in (("only criterion", c_ids, p_ids),
                                    ("only pilot-criterion", p_ids, c_ids)):
                    extra = [i for i in a if i not in b]
                    if extra:
                        print(f"    {label}: {extra[:10]}{' …' if len(extra) > 10 else ''}")
                if c_ids != p_ids and sorted(c_ids) == sorted(p_ids):
                    print("    (the same ids in another order)")
    print(f"filter cases that differ: {differ}")
    return differ


def selftest():
    # Rust's regex::escape, by its definition: meta characters only, spaces left alone.
    assert regex_escape("a b/c-1.5 (x)") == r"a b/c\-1\.5 \(x\)"
    # Half-widths 1 and 2: a distance of 3 agrees, 3.5 does not.
    assert agrees((100.0, 99.0, 101.0), (103.0, 101.0, 105.0))
    assert not agrees((100.0, 99.0, 101.0), (103.5, 101.5, 105.5))
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        new = Path(d, "criterion", "g", "f", "1", "new")
        new.mkdir(parents=True)
        (new / "benchmark.json").write_text(json.dumps({"full_id": "g/f/1"}))
        ci = {"confidence_level": 0.95, "lower_bound": 9.0, "upper_bound": 11.0}
        mean = {"point_estimate": 10.0, "confidence_interval": ci, "standard_error": 0.5}
        (new / "estimates.json").write_text(json.dumps({"mean": mean, "slope": None}))
        assert criterion_estimates(d) == {"g/f/1": (10.0, 9.0, 11.0, "mean")}
        run_doc = Path(d, "run.json")
        pi = {"name": "time", "unit": "ns", "mean": 5.0, "ci": {"low": 4.0, "high": 6.5}}
        run_doc.write_text(json.dumps({"schema": "pilot.run/1", "results": [
            {"name": "other", "status": "ok", "pis": []},
            {"name": "g/f/1", "status": "ok", "pis": [pi]}]}))
        assert pilot_estimate(run_doc, "g/f/1") == (5.0, 4.0, 6.5, "ok")
    print("criterion_dropin_agreement.py selftest: ok")


if __name__ == "__main__":
    cmd = sys.argv[1] if len(sys.argv) > 1 else ""
    if cmd == "prepare" and len(sys.argv) == 6:
        prepare(*sys.argv[2:6])
    elif cmd == "run" and len(sys.argv) >= 4:
        run(sys.argv[2], sys.argv[3], sys.argv[4:])
    elif cmd == "filters" and len(sys.argv) >= 4:
        sys.exit(1 if filters(sys.argv[2], sys.argv[3:]) else 0)
    elif cmd == "errors" and len(sys.argv) == 3:
        errors(sys.argv[2])
    elif cmd == "selftest":
        selftest()
    else:
        sys.exit(__doc__)
