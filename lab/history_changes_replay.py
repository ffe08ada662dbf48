#!/usr/bin/env python3
"""Replays saved histories of `history-changes.sh busier` through `cargo pilot changes`.

Not a timing: each history (a SQLite file the busier bar left, 30 commits of the fixture with
six benches, measured once each on a machine that got busier from commit 20) is read again by
the `cargo pilot` given, so a change to how `changes` reads a history is judged on the same
measurements as the code before it. The bar is the busier bar's: spin slower at 8, faster at
14, slower at 17, units faster at 24, each named within a commit, and no other commit named.

    python3 lab/history_changes_replay.py PILOT_BIN HISTORY.sqlite ...

Run it from the workspace (`changes` reads the workspace's settings); each history is copied
to a temporary folder first, since opening a history migrates its schema.
"""

import json
import shutil
import subprocess
import sys
import tempfile

WANT = [("spin", 8, True), ("spin", 14, False), ("spin", 17, True), ("units", 24, False)]


def judge(doc):
    """The changes named as (bench, commit number, change), those of WANT named, and the extra."""
    found = []
    for ch in doc["changes"]:
        subject = ch.get("subject") or ""
        n = int(subject.split()[-1]) if subject.startswith("commit ") else None
        found.append((ch["bench"], n, ch["change"]))

    def hit(w):
        return any(b == w[0] and n is not None and abs(n - w[1]) <= 1 and (x > 0) == w[2]
                   for b, n, x in found)

    named = [w for w in WANT if hit(w)]
    extra = [f for f in found
             if not any(f[0] == w[0] and f[1] is not None and abs(f[1] - w[1]) <= 1 for w in WANT)]
    return found, named, extra


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    binary, histories = sys.argv[1], sys.argv[2:]
    passed = 0
    for path in histories:
        with tempfile.TemporaryDirectory() as tmp:
            copy = f"{tmp}/history.sqlite"
            shutil.copyfile(path, copy)
            out = subprocess.run([binary, "pilot", "changes", "--history", copy, "--all",
                                  "--format", "json"], capture_output=True, text=True, check=False)
        if out.returncode not in (0, 3):
            print(f"{path}: exit {out.returncode}: {out.stderr.strip()}")
            continue
        found, named, extra = judge(json.loads(out.stdout))
        ok = len(named) == len(WANT) and not extra
        passed += ok
        missed = [f"{w[0]} {w[1]}" for w in WANT if w not in named]
        print(f"{'PASS' if ok else 'FAIL'} {path}: {len(named)} of {len(WANT)} named"
              f"{' (missed ' + ', '.join(missed) + ')' if missed else ''}"
              f"{', named where no code changed: ' + str([(b, n, f'{100 * x:+.2f}%') for b, n, x in extra]) if extra else ''}")
    print(f"{passed} of {len(histories)} histories pass")


if __name__ == "__main__":
    main()
