#!/usr/bin/env python3
"""Two builds of pilot-divan's bench binaries, interleaved id by id (the order alternates), on
the ids of a table `divan-dropin-agreement.sh` left (target/divan-bars/NAME.tsv): per build,
the wall time a pass over the ids takes, the median and 90th-percentile half-width, how many
estimates agree with divan's figures in the table and hold the control's, the processes a
bench took and the statuses; then the two builds' estimates side by side (ratio, intervals
overlapping). What a change to how a bench's processes measure costs and buys, on real
benches, without trusting an hour's absolute figures (the host moves them).

    python3 lab/divan_dropin_builds.py TSV OLD_DIR NEW_DIR [REPS] [--max-time S]

OLD_DIR and NEW_DIR hold one executable per bench target, named by the target (`math`,
`sort`, ... copied from each build's target/release/deps). Each runs in a scratch folder of
its own, so the builds' saved results do not mix. Run it on a machine doing nothing else (or
beside a busy loop, for the loaded phase)."""
import collections, json, os, statistics as st, subprocess, sys, tempfile, time


def run(tsv, dirs, reps, cap):
    ids = [l.split('\t')[0] for l in open(tsv).read().splitlines()[1:]]
    scratch = {side: tempfile.mkdtemp(prefix=f'divan-{side}-') for side in dirs}
    rows = []
    for rep in range(reps):
        for k, tid in enumerate(ids):
            target, bid = tid.split('/', 1)
            order = list(dirs) if (k + rep) % 2 == 0 else list(reversed(dirs))
            for side in order:
                doc = os.path.join(scratch[side], 'result.json')
                t = time.time()
                subprocess.run([os.path.join(dirs[side], target), '--bench', '--exact', bid,
                                '--json', doc, '--max-time', cap],
                               capture_output=True, cwd=scratch[side])
                row = dict(rep=rep, id=tid, side=side, wall=time.time() - t, status='error',
                           mean=None, low=None, high=None, procs=None)
                try:
                    r = json.load(open(doc))['results'][0]
                    pi = r['pis'][0] if r['pis'] else None
                    row.update(status=r['status'], procs=(r.get('processes') or {}).get('count'))
                    if pi:
                        row.update(mean=pi['mean'], low=pi['ci']['low'], high=pi['ci']['high'])
                    os.remove(doc)
                except (OSError, ValueError, KeyError, IndexError):
                    pass
                rows.append(row)
        print(f'pass {rep + 1} of {reps} done', file=sys.stderr)
    return rows


def summary(rows, tsv):
    ref = {}
    for l in open(tsv).read().splitlines()[1:]:
        f = l.split('\t')
        ref[f[0]] = dict(median=float(f[1]), low=float(f[2]), high=float(f[3]),
                         control=float(f[9]) if f[9] else None)
    for side in ('old', 'new'):
        rs = [r for r in rows if r['side'] == side]
        walls = collections.defaultdict(float)
        for r in rs:
            walls[r['rep']] += r['wall']
        est = [r for r in rs if r['mean']]
        hw = sorted(100 * (r['high'] - r['low']) / 2 / r['mean'] for r in est)
        agree = sum(1 for r in est if abs(r['mean'] - ref[r['id']]['median'])
                    <= (r['high'] - r['low']) / 2 + (ref[r['id']]['high'] - ref[r['id']]['low']) / 2)
        control = sum(1 for r in est if ref[r['id']]['control']
                      and r['low'] <= ref[r['id']]['control'] <= r['high'])
        print(f"{side}: wall a pass {[round(w, 1) for w in walls.values()]} s; half-width median "
              f"{st.median(hw):.2f}%, 90th {hw[int(0.9 * len(hw))]:.2f}%; agree with divan "
              f"{agree}/{len(rs)}; the control inside {control}; processes median "
              f"{st.median([r['procs'] or 0 for r in rs])}; "
              f"{dict(collections.Counter(r['status'] for r in rs))}")
    pairs = collections.defaultdict(dict)
    for r in rows:
        pairs[(r['rep'], r['id'])][r['side']] = r
    both = [p for p in pairs.values() if p.get('old', {}).get('mean') and p.get('new', {}).get('mean')]
    if both:
        ratio = [p['new']['mean'] / p['old']['mean'] for p in both]
        overlap = sum(1 for p in both if p['new']['low'] <= p['old']['high']
                      and p['old']['low'] <= p['new']['high'])
        print(f"new/old estimate: median {st.median(ratio):.4f}, min {min(ratio):.3f}, max "
              f"{max(ratio):.3f}; intervals overlapping {overlap} of {len(both)}")


def main():
    args = sys.argv[1:]
    cap = '2'
    if '--max-time' in args:
        i = args.index('--max-time')
        cap = args[i + 1]
        del args[i:i + 2]
    if len(args) < 3:
        sys.exit(__doc__)
    tsv, old, new = args[:3]
    reps = int(args[3]) if len(args) > 3 else 1
    summary(run(tsv, {'old': old, 'new': new}, reps, cap), tsv)


if __name__ == '__main__':
    main()
