#!/usr/bin/env python3
"""Who keeps the cores busy while a command runs: samples /proc/stat and every process's
CPU time (/proc/PID/stat utime + stime) every PERIOD seconds while COMMAND runs, and prints,
per interval and in total, the busy cores as pilot's sampler computes them (from /proc/stat's
idle, iowait and steal), split into the command's own process tree (by name), the other
processes, this script, and what no process accounts for (interrupts, the counters' rounding).

    python3 lab/busy_attribution.py [--period 0.1] [--csv FILE] -- COMMAND...

Linux only. Nothing is asserted; the figures move with the machine's load.
"""
import argparse, os, subprocess, sys, time

TCK = os.sysconf("SC_CLK_TCK")
CORES = os.cpu_count()


def cpu_line():
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:9]]
    return sum(v), v[3] + v[4], v[7]


def procs():
    out = {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat") as f:
                s = f.read()
        except OSError:
            continue
        name = s[s.index("(") + 1 : s.rindex(")")]
        rest = s[s.rindex(")") + 2 :].split()
        out[int(d)] = (name, int(rest[1]), int(rest[11]) + int(rest[12]))  # name, ppid, ticks
    return out


def tree_of(root, ps):
    kids = {}
    for pid, (_, ppid, _) in ps.items():
        kids.setdefault(ppid, []).append(pid)
    seen, todo = set(), [root]
    while todo:
        p = todo.pop()
        if p in seen:
            continue
        seen.add(p)
        todo.extend(kids.get(p, []))
    return seen


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--period", type=float, default=0.1)
    ap.add_argument("--csv")
    ap.add_argument("command", nargs="+")
    a = ap.parse_args()
    me = os.getpid()
    child = subprocess.Popen(a.command)
    prev_t, prev_c, prev_p = time.monotonic(), cpu_line(), procs()
    tree = tree_of(child.pid, prev_p)
    rows = []
    while True:
        done = child.poll() is not None
        time.sleep(a.period)
        t, c, p = time.monotonic(), cpu_line(), procs()
        tree |= tree_of(child.pid, p)
        dt = t - prev_t
        total = c[0] - prev_c[0]
        idle = (c[1] - prev_c[1]) / total if total else 0.0
        steal = (c[2] - prev_c[2]) / total if total else 0.0
        busy = max(0.0, 1 - idle - steal) * CORES
        by = {"tree": {}, "others": {}, "lab": 0.0}
        for pid, (name, _, ticks) in p.items():
            before = prev_p.get(pid)
            d = (ticks - before[2]) if before else ticks
            if d <= 0:
                continue
            cores = d / TCK / dt
            if pid == me:
                by["lab"] += cores
            elif pid in tree:
                by["tree"][name] = by["tree"].get(name, 0.0) + cores
            else:
                by["others"][name] = by["others"].get(name, 0.0) + cores
        accounted = sum(by["tree"].values()) + sum(by["others"].values()) + by["lab"]
        rows.append((dt, busy, by, busy - accounted))
        prev_t, prev_c, prev_p = t, c, p
        if done:
            break
    span = sum(r[0] for r in rows)
    avg = lambda f: sum(r[0] * f(r) for r in rows) / span
    names = sorted({n for r in rows for n in r[2]["tree"]})
    print(f"{len(rows)} intervals over {span:.1f} s, {CORES} cores; mean cores:")
    print(f"  busy (as /proc/stat says): {avg(lambda r: r[1]):.3f}")
    for n in names:
        print(f"  command's tree, {n}: {avg(lambda r: r[2]['tree'].get(n, 0.0)):.3f}")
    print(f"  other processes: {avg(lambda r: sum(r[2]['others'].values())):.3f}")
    top = {}
    for r in rows:
        for n, v in r[2]["others"].items():
            top[n] = top.get(n, 0.0) + r[0] * v / span
    for n, v in sorted(top.items(), key=lambda x: -x[1])[:8]:
        print(f"    {n}: {v:.3f}")
    print(f"  this script: {avg(lambda r: r[2]['lab']):.3f}")
    print(f"  no process: {avg(lambda r: r[3]):.3f}")
    if a.csv:
        with open(a.csv, "w") as f:
            f.write("seconds,busy,tree,others,lab,unaccounted\n")
            for dt, busy, by, gap in rows:
                f.write(f"{dt:.4f},{busy:.4f},{sum(by['tree'].values()):.4f},"
                        f"{sum(by['others'].values()):.4f},{by['lab']:.4f},{gap:.4f}\n")
    sys.exit(child.returncode)


if __name__ == "__main__":
    main()
