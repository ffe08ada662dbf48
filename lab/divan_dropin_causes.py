#!/usr/bin/env python3
"""The causes of pilot-divan's disagreements with divan (issue 32), outside CI: the ids of divan's
examples where the control once sided with divan, each run under divan, pilot-divan and the
control, interleaved (the order reversed every other repetition), with glibc's malloc as it is
and with its per-thread cache made large enough to hold every freed chunk
(GLIBC_TUNABLES=glibc.malloc.tcache_count=65535: no chunk reaches the fastbins, so a large
allocation's `malloc_consolidate` has nothing to merge). Where a figure moves with the tunable
and the three then agree, the difference was malloc's state, which the harness's own allocations
between blocks set (lab/divan-dropin.md, "Where the control sided with divan").

  DIVAN_REPO=… bash lab/divan-dropin-agreement.sh examples -- '^$'   # builds the three, runs nothing
  python3 lab/divan_dropin_causes.py [--reps N] [--no-tunable] [REGEX]

Uses the builds in target/divan-bars/ (examples-{divan,pilot,control}). Prints, per id and
malloc setting, each tool's min/median/max in ns over N runs (default 3): divan's median of its
samples, pilot-divan's estimate (--max-time 1), the control's median of its five medians. Says
the load average at the start and the end: run it on a quiet machine (nothing else running).
"""

import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from divan_dropin_agreement import control_figures, divan_medians, executables  # noqa: E402

# The 32 ids where the control of the run of 27 November 2026 (examples, quiet, --max-time 2)
# sat closer to divan than to pilot-divan: TARGET/ID as divan_dropin_agreement.py's table names them.
IDS = """
collections/collections::with_capacity::BinaryHeap<i32>::8
collections/collections::from_iter::Vec<i32>::8
collections/collections::from_iter::VecDeque<i32>::8
collections/collections::from_iter::LinkedList<i32>::0
collections/collections::from_iter::LinkedList<i32>::8
collections/collections::from_iter::BinaryHeap<i32>::0
collections/collections::from_iter::BinaryHeap<i32>::8
collections/collections::from_iter::HashSet<i32>::64
collections/collections::from_iter::BTreeSet<i32>::0
collections/collections::from_iter::BTreeSet<i32>::8
collections/collections::default::HashSet<i32>
collections/collections::drop::Vec<i32>::8
collections/collections::drop::BTreeSet<i32>::0
math/math::fibonacci::iterative::20
math/math::fibonacci::recursive_memoized::HashMap<u64, u64>::10
memcpy/memcpy::memcpy::1
memcpy/memcpy::memcpy::16
memcpy/memcpy::movsb::16
memcpy/memcpy::movsb::4194304
search/search::ordsearch::2
search/search::ordsearch::512
search/search::ordsearch::16384
search/search::linear::1
search/search::hash_set::WyHash::1
sort/sort::sorted::par_sort_unstable
sort/sort::random::sort
string/string::make_ascii_uppercase::Ascii::0
string/string::make_ascii_uppercase::Unicode::1024
string/string::to_ascii_uppercase::Ascii::64
string/string::to_ascii_uppercase::Unicode::8
string/string::to_lowercase::Ascii::64
threads/threads::thread_id::std::thread_local::count::t=1
""".split("\n")

THREADS = re.compile(r"::t=(\d+)$")
TUNABLE = {"GLIBC_TUNABLES": "glibc.malloc.tcache_count=65535"}


def once(kind, exe, pn, env, doc):
    """One run of `pn` under `kind`: its figure in ns, or None."""
    bid = THREADS.sub("", pn)
    m = THREADS.search(pn)
    if kind == "divan":
        row = f"t={m.group(1)}" if m else bid.split("::")[-1]
        p = subprocess.run([exe, "--bench", "--exact", bid, "--color", "never"], env=env,
                           capture_output=True, text=True)
        return divan_medians(p.stdout).get(row)
    if kind == "pilot":
        subprocess.run([exe, "--bench", "--exact", bid, "--json", doc, "--max-time", "1"],
                       env=env, capture_output=True, text=True)
        try:
            results = json.loads(Path(doc).read_text())["results"]
        except (OSError, KeyError, json.JSONDecodeError):
            return None
        return next((r["pis"][0]["mean"] for r in results if r["name"] == pn), None)
    p = subprocess.run([exe, "--bench", "--exact", bid], env=env, capture_output=True, text=True)
    got = control_figures(p.stdout).get(pn)
    return statistics.median(got) if got else None


def spread(xs):
    xs = sorted(x for x in xs if x is not None)
    if not xs:
        return "-"
    return f"{xs[0]:.4g}/{statistics.median(xs):.4g}/{xs[-1]:.4g}"


def main(argv):
    reps, modes, flt = 3, ["malloc as is", "tcache_count=65535"], None
    args = list(argv)
    while args:
        a = args.pop(0)
        if a == "--reps":
            reps = int(args.pop(0))
        elif a == "--no-tunable":
            modes = modes[:1]
        else:
            flt = re.compile(a)
    out = Path(__file__).resolve().parent.parent / "target" / "divan-bars"
    exes = {k: executables(out / f"examples-{k}.build.json") for k in ("divan", "pilot", "control")}
    if not all(exes.values()):
        sys.exit(f"no builds in {out}: run lab/divan-dropin-agreement.sh examples first")
    base = dict(os.environ)
    base.pop("NEXTEST", None)
    print(f"load at start: {' '.join(Path('/proc/loadavg').read_text().split()[:3])}")
    print("id\tmalloc\tdivan min/median/max ns\tpilot-divan\tcontrol")
    with tempfile.TemporaryDirectory() as tmp:
        doc = str(Path(tmp) / "pilot.json")
        for tid in filter(None, IDS):
            if flt and not flt.search(tid):
                continue
            target, pn = tid.split("/", 1)
            for mode in modes:
                env = base | (TUNABLE if mode != modes[0] else {})
                figs = {k: [] for k in exes}
                for r in range(reps):
                    order = list(exes) if r % 2 == 0 else list(exes)[::-1]
                    for k in order:
                        figs[k].append(once(k, exes[k][target], pn, env, doc))
                print(f"{tid}\t{mode}\t" + "\t".join(spread(figs[k]) for k in exes), flush=True)
    print(f"load at end: {' '.join(Path('/proc/loadavg').read_text().split()[:3])}")


if __name__ == "__main__":
    main(sys.argv[1:])
