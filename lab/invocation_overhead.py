#!/usr/bin/env python3
"""What one invocation of a bench binary costs outside its bench's sessions (issue 41): the time
from the binary's start to its first child process, and from its last child's exit to its own,
for two builds run in turn (A B A B ...), so that the machine's load is alike for both. The
phases come from `strace -f --seccomp-bpf -e trace=execve,exit_group` timestamps (only those
two syscalls stop the traced processes); the sessions' own time, which load moves most, is left
out. Prints each phase's min/median/max per build, the paired ratio A/B of the time outside the
sessions, and the load average at the start and end. Needs strace.

    python3 lab/invocation_overhead.py BIN_A BIN_B ID [RUNS] [-- EXTRA ARGS]

Run it in the folder the bench would be run from (its git state is read there).
"""
import os
import statistics
import subprocess
import sys
import tempfile


def phases(binary, bench, extra):
    """(before the first child, after the last child, whole) in seconds, for one invocation."""
    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, "trace")
        doc = os.path.join(tmp, "doc.json")
        subprocess.run(["strace", "-f", "--seccomp-bpf", "-ttt", "-e", "trace=execve,exit_group",
                        "-o", log, binary, "--bench", "--exact", bench, "--json", doc, *extra],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        events = []
        for line in open(log):
            parts = line.split()
            if len(parts) < 3 or "ENOENT" in line or "resumed" in line:
                continue
            pid, at = parts[0], float(parts[1])
            if parts[2].startswith("execve(") and binary in line:
                events.append(("exec", pid, at))
            elif parts[2].startswith("exit_group("):
                events.append(("exit", pid, at))
    parent = events[0][1]
    start = events[0][2]
    end = max(at for kind, pid, at in events if kind == "exit" and pid == parent)
    children = [(kind, at) for kind, pid, at in events if pid != parent]
    first = min((at for kind, at in children if kind == "exec"), default=end)
    last = max((at for kind, at in children if kind == "exit"), default=start)
    return first - start, end - last, end - start


def spread(xs):
    return f"{min(xs) * 1e3:8.1f} {statistics.median(xs) * 1e3:8.1f} {max(xs) * 1e3:8.1f}"


def main():
    args = sys.argv[1:]
    extra = []
    if "--" in args:
        extra = args[args.index("--") + 1:]
        args = args[:args.index("--")]
    a, b, bench = args[0], args[1], args[2]
    runs = int(args[3]) if len(args) > 3 else 10
    load = lambda: " ".join(open("/proc/loadavg").read().split()[:3])
    print(f"load at start: {load()}")
    got = {a: [], b: []}
    phases(a, bench, extra)
    phases(b, bench, extra)
    for _ in range(runs):
        for binary in (a, b):
            got[binary].append(phases(binary, bench, extra))
    print("ms (min median max)     before first child      after last child        outside sessions        whole")
    for name, binary in (("A", a), ("B", b)):
        rows = got[binary]
        before = [r[0] for r in rows]
        after = [r[1] for r in rows]
        outside = [r[0] + r[1] for r in rows]
        whole = [r[2] for r in rows]
        print(f"{name} {spread(before)}   {spread(after)}   {spread(outside)}   {spread(whole)}")
    ratios = [(x[0] + x[1]) / (y[0] + y[1]) for x, y in zip(got[a], got[b])]
    print(f"A/B outside sessions, pair by pair: min {min(ratios):.3f} median "
          f"{statistics.median(ratios):.3f} max {max(ratios):.3f} ({runs} pairs)")
    print(f"load at end: {load()}")


if __name__ == "__main__":
    main()
