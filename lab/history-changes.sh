#!/usr/bin/env bash
# Measures issue 30's bars for the history (changes, bisect, unchanged histories, PostgreSQL) on
# the fixture bench, with the cargo-pilot of this checkout. Not run by CI: the first part takes
# about 30 minutes and wants a machine doing nothing else (or, LOADED=1, one busy loop).
#
#   [LOADED=1] bash lab/history-changes.sh changes     (a) 30 commits measured once each
#   bash lab/history-changes.sh bisect                 (b) bisect commits 1..30 (after `changes`)
#   bash lab/history-changes.sh unchanged              (c) 20 unchanged series (after `changes`)
#   bash lab/history-changes.sh postgres               (d) two writers at once, a stopped server
#   [PILOT_BIN=path/to/cargo-pilot] [GAP=S] bash lab/history-changes.sh busier
#                                                      (e) issue 44's bar: a reverted regression,
#                                                          a machine that gets busier, detached HEADs
#
# (a) copies the fixture into a git repository of its own (target/history-bars/repo): commit 1
# gives `spin` and `units` a cost factor each; commit 17 makes `spin` 8% slower, commit 24
# makes `units` 5% faster; every other commit edits a comment. Each commit is checked out and
# measured once by `cargo pilot bench` at its default settings (PILOT_BRANCH=main, a history of
# its own per phase), then `cargo pilot changes` must name commits 17 and 24 (± 1) and nothing
# else. Prints the changes found and the measuring time per commit (min/median/max), builds
# excluded.
# (b) `cargo pilot bisect` between commits 1 and 30 for `spin`: must name commit 17 in at most
# 7 steps and under 3 minutes of measuring; prints the steps, the measuring and the build time.
# (c) A simulation over the real noise of (a): each run's time relative to the median of its
# level (spin before and after 17, units before and after 24), drawn in blocks of 5 consecutive
# runs (keeping the machine's drift within a block) into 20 series of 30 unchanged commits,
# added to a history and given to `cargo pilot changes`: at most 1 change in all.
# (d) A throwaway PostgreSQL server (tests/history/postgres.sh): two `cargo pilot bench` runs at
# once, then one while the server is stopped (exit 1, results on disk), then `history add`
# once it is back; the rows counted before and after each.
# (e) The repository of (a) with four more benches whose code never changes (memory-bound,
# allocating, sorting, hashing: a crate's suite, whose benches a machine's shift moves together)
# and one more change: `spin` is 6% slower at commits 8 to 13 and
# back at 14 (a regression reverted six commits later), then 8% slower from 17 as in (a). Each
# commit is checked out (a detached HEAD, no PILOT_BRANCH) and measured once; from commit 20 on
# one busy loop runs beside the benches (the machine gets busier during the history). Then
# `cargo pilot changes` at main's tip, with no --branch, must name commits 8 and 14 (spin), 17
# (spin) and 24 (units), each within one commit, and no other commit; it lists the machine's
# changes apart. Measured back to back, a commit takes about 5 s, so a host state of a quarter
# of a minute spans three commits (a level, by `changes`' rule); GAP=S waits S seconds after
# each commit, for a history spread over time as CI makes one (GAP=120: about an hour).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
work=$root/target/history-bars
repo=$work/repo
phase=$([ "${LOADED:-0}" = 1 ] && echo loaded || echo quiet)
cp_bin=$work/cargo-pilot
export CARGO_TARGET_DIR=$work/target

build_pilot() {
  mkdir -p "$work"
  if [ -n "${PILOT_BIN:-}" ]; then
    # A cargo-pilot built already (it only runs cargo and reads the results: its own profile
    # does not touch the benches' timings, which cargo bench builds in release).
    cp "$PILOT_BIN" "$cp_bin"
    return
  fi
  cargo build --release -q --manifest-path "$root/Cargo.toml" -p cargo-pilot
  cp "$CARGO_TARGET_DIR/release/cargo-pilot" "$cp_bin"
}

mmm() { # numbers on standard input -> min/median/max
  sort -n | awk '{a[NR]=$1} END {printf "%.1f/%.1f/%.1f", a[1], a[int((NR+1)/2)], a[NR]}'
}

# Appends four benches whose code no commit changes to SRC, before its `pilot::main!()`:
# memory-bound (a sum over 256 KiB), allocation (a BTreeMap built), sorting (1 000 values) and
# hashing (FNV-1a over 4 KiB).
add_unchanged_benches() {
  local src=$1
  grep -q '^pilot::main!();' "$src" || { echo "fixture changed: no pilot::main!() in $src" >&2; exit 1; }
  sed -i '/^pilot::main!();/d' "$src"
  cat >>"$src" <<'RS'

#[pilot::bench]
fn sum_256k(b: &mut Bencher) {
    let v: Vec<u64> = (0..32_768u64).map(|i| i.wrapping_mul(0x9e37_79b9)).collect();
    b.iter(|| black_box(&v).iter().fold(0u64, |a, x| a.wrapping_add(*x)));
}

#[pilot::bench]
fn btree_200(b: &mut Bencher) {
    b.iter(|| {
        let mut m = std::collections::BTreeMap::new();
        for i in 0..200u64 {
            m.insert(black_box(i.wrapping_mul(0xbf58_476d) % 1_000), i);
        }
        m.len()
    });
}

#[pilot::bench]
fn sort_1k(b: &mut Bencher) {
    let v: Vec<u64> = (0..1_000u64).map(|i| mix(i % 64 + 1)).collect();
    b.iter_batched(|| v.clone(), |mut v| { v.sort_unstable(); v });
}

#[pilot::bench]
fn fnv_4k(b: &mut Bencher) {
    let data: Vec<u8> = (0..4_096u32).map(|i| (i % 251) as u8).collect();
    b.iter(|| {
        black_box(&data).iter().fold(0xcbf2_9ce4_8422_2325u64, |h, x| {
            (h ^ u64::from(*x)).wrapping_mul(0x0100_0000_01b3)
        })
    });
}

pilot::main!();
RS
}

make_repo() {
  local reverted=${1:-}
  rm -rf "$repo" && mkdir -p "$repo/benches"
  cp "$root/tests/fixture-bench/Cargo.toml" "$root/tests/fixture-bench/Cargo.lock" "$repo/"
  cp "$root"/tests/fixture-bench/benches/*.rs "$repo/benches/"
  sed -i "s#path = \"../../crates#path = \"$root/crates#" "$repo/Cargo.toml"
  printf 'target\n' >"$repo/.gitignore"
  local src=$repo/benches/cost.rs
  cd "$repo" && git init -q --initial-branch=main
  local i
  for i in $(seq 1 30); do
    if [ "$i" = 1 ]; then
      # A cost factor of each bench's own.
      sed -i 's/^const SOURCE_COST: f64 = 1.0;/const SOURCE_COST: f64 = 1.0;\nconst SPIN: f64 = 1.0;\nconst UNITS: f64 = 1.0;/' "$src"
      sed -i 's/let steps = (2_000.0 \* cost()).round() as u64;/let steps = (2_000.0 * cost() * SPIN).round() as u64;/' "$src"
      sed -i 's/let steps = (20_000.0 \* cost()).round() as u64;/let steps = (20_000.0 * cost() * UNITS).round() as u64;/' "$src"
      grep -q 'cost() \* SPIN' "$src" && grep -q 'cost() \* UNITS' "$src" || { echo "fixture changed: cannot add the factors" >&2; exit 1; }
      if [ -n "$reverted" ]; then
        # Four benches of other kinds whose code never changes: a crate's suite, where a
        # machine's shift moves every bench of a run at once (the evidence `changes` reads).
        add_unchanged_benches "$src"
      fi
    elif [ -n "$reverted" ] && [ "$i" = 8 ]; then
      sed -i 's/^const SPIN: f64 = 1.0;/const SPIN: f64 = 1.06;/' "$src"
    elif [ -n "$reverted" ] && [ "$i" = 14 ]; then
      sed -i 's/^const SPIN: f64 = 1.06;/const SPIN: f64 = 1.0;/' "$src"
    elif [ "$i" = 17 ]; then
      sed -i 's/^const SPIN: f64 = 1.0;/const SPIN: f64 = 1.08;/' "$src"
    elif [ "$i" = 24 ]; then
      sed -i 's/^const UNITS: f64 = 1.0;/const UNITS: f64 = 0.95;/' "$src"
    else
      printf '// commit %s\n' "$i" >>"$src"
    fi
    git add -A
    GIT_COMMITTER_DATE="$((1700000000 + i)) +0000" GIT_AUTHOR_DATE="$((1700000000 + i)) +0000" \
      git -c user.name=bars -c user.email=bars@example.com commit -qm "commit $i"
  done
}

commit_of() { git -C "$repo" rev-list --reverse main | sed -n "${1}p"; }

changes_bar() {
  build_pilot
  make_repo
  local history=$work/history-$phase.sqlite
  rm -f "$history" "$work/times-$phase.txt"
  local busy=""
  if [ "$phase" = loaded ]; then
    sh -c 'while :; do :; done' & busy=$!
    trap 'kill "$busy" 2>/dev/null' EXIT
  fi
  echo "phase $phase; load before: $(uptime)"
  local i c t0 t1
  for i in $(seq 1 30); do
    c=$(commit_of "$i")
    git -C "$repo" checkout -q "$c"
    # The build first, outside the timing.
    (cd "$repo" && cargo bench -q --no-run >/dev/null 2>&1)
    t0=$(date +%s.%N)
    (cd "$repo" && PILOT_BRANCH=main "$cp_bin" pilot bench --history "$history" >"$work/bench-$phase-$i.txt" 2>&1)
    t1=$(date +%s.%N)
    echo "$(echo "$t1 - $t0" | bc)" >>"$work/times-$phase.txt"
  done
  git -C "$repo" checkout -q main
  [ -n "$busy" ] && kill "$busy" 2>/dev/null
  echo "load after: $(uptime)"
  echo "measuring per commit (s, min/median/max): $(mmm <"$work/times-$phase.txt")"
  (cd "$repo" && PILOT_BRANCH=main "$cp_bin" pilot changes --history "$history" --branch main --format json) >"$work/changes-$phase.json"
  (cd "$repo" && "$cp_bin" pilot changes --history "$history" --branch main)
  python3 - "$work/changes-$phase.json" "$(commit_of 17)" "$(commit_of 24)" "$(git -C "$repo" rev-list --reverse main | tr '\n' ' ')" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
c17, c24, order = sys.argv[2], sys.argv[3], sys.argv[4].split()
place = {c: i + 1 for i, c in enumerate(order)}
found = [(ch["bench"], place.get(ch["commit"]), ch["change"]) for ch in doc["changes"]]
print("changes found (bench, commit, change):", [(b, n, f"{100*x:+.2f}%") for b, n, x in found])
ok17 = any(b == "spin" and n is not None and abs(n - 17) <= 1 and x > 0 for b, n, x in found)
ok24 = any(b == "units" and n is not None and abs(n - 24) <= 1 and x < 0 for b, n, x in found)
print(f"bar: commit 17 (spin slower) {'named' if ok17 else 'MISSED'}, commit 24 (units faster) "
      f"{'named' if ok24 else 'MISSED'}, {len(found) - ok17 - ok24} other change(s): "
      f"{'PASS' if ok17 and ok24 and len(found) == 2 else 'FAIL'}")
PY
}

bisect_bar() {
  [ -x "$cp_bin" ] && [ -d "$repo" ] || { echo "run \`changes\` first" >&2; exit 1; }
  echo "load before: $(uptime)"
  local t0 t1 out
  t0=$(date +%s.%N)
  out=$(cd "$repo" && "$cp_bin" pilot bisect "$(commit_of 1)" "$(commit_of 30)" spin --exact \
    --history "$work/history-bisect.sqlite" 2>&1)
  t1=$(date +%s.%N)
  echo "$out"
  echo "load after: $(uptime)"
  echo "wall time $(echo "$t1 - $t0" | bc) s (builds included)"
  local named steps
  named=$(echo "$out" | sed -n 's/^first slower commit: \([0-9a-f]*\).*/\1/p')
  steps=$(echo "$out" | sed -n 's/^\([0-9]*\) steps; measuring.*/\1/p')
  local measuring
  measuring=$(echo "$out" | sed -n 's/^[0-9]* steps; measuring \([0-9.]*\) s.*/\1/p')
  echo "bar: named $( [ "$named" = "$(commit_of 17)" ] && echo "commit 17" || echo "$named (not 17)"), $steps steps (at most 7), measuring $measuring s (under 180): $( [ "$named" = "$(commit_of 17)" ] && [ "${steps:-99}" -le 7 ] && [ "$(echo "${measuring:-999} < 180" | bc)" = 1 ] && echo PASS || echo FAIL)"
}

unchanged_bar() {
  [ -f "$work/history-quiet.sqlite" ] || [ -f "$work/history-loaded.sqlite" ] || { echo "run \`changes\` first" >&2; exit 1; }
  local src=$work/history-quiet.sqlite
  [ -f "$src" ] || src=$work/history-loaded.sqlite
  local sim=$work/unchanged
  rm -rf "$sim" && mkdir -p "$sim"
  cd "$sim" && git init -q --initial-branch=main
  (cd "$repo" && "$cp_bin" pilot history --history "$src" --branch main --format json) >"$sim/measured.json"
  python3 - "$sim" <<'PY'
import json, random, statistics, subprocess, sys
sim = sys.argv[1]
doc = json.load(open(f"{sim}/measured.json"))
levels = []  # runs relative to the median of their level, in order
for s in doc["series"]:
    xs = [p["estimate"] for p in s["points"] if p["estimate"]]
    cut = 16 if s["bench"] == "spin" else 23
    for part in (xs[:cut], xs[cut:]):
        m = statistics.median(part)
        levels.append([x / m for x in part])
noise = [x for part in levels for x in part]
print(f"real noise: {len(noise)} runs relative to their level's median, sd {100*statistics.stdev(noise):.2f}%")
rng = random.Random(30)
blocks = [part[i:i + 5] for part in levels for i in range(0, len(part) - 4)]
series = []
for k in range(20):
    xs = []
    while len(xs) < 30:
        xs += rng.choice(blocks)
    series.append(xs[:30])
json.dump(series, open(f"{sim}/series.json", "w"))
PY
  local i c
  for i in $(seq 1 30); do
    GIT_COMMITTER_DATE="$((1700000000 + i)) +0000" git -c user.name=bars -c user.email=b@e commit -q --allow-empty -m "commit $i"
    c=$(git rev-parse HEAD)
    python3 - "$sim" "$i" "$c" <<'PY'
import json, sys
sim, i, c = sys.argv[1], int(sys.argv[2]), sys.argv[3]
series = json.load(open(f"{sim}/series.json"))
results = [{"schema": "pilot.result/1", "name": f"series_{k:02}", "target": "sim", "status": "ok",
            "pis": [{"name": "time", "unit": "ns", "mean": 1000 * s[i - 1],
                     "ci": {"low": 990 * s[i - 1], "high": 1010 * s[i - 1], "confidence": 0.95}}],
            "machine": {"cpu": "sim", "cores": 2, "os": "linux", "arch": "x86_64", "pilot": "0.1.0",
                        "git_commit": c, "git_dirty": False},
            "started": f"2026-01-01T00:00:{i:02}Z"} for k, s in enumerate(series)]
json.dump({"schema": "pilot.run/1", "results": results}, open(f"{sim}/run.json", "w"))
PY
    "$cp_bin" pilot history add --run "$sim/run.json" --history "$sim/history.sqlite" --target-dir "$sim/target" >/dev/null
  done
  "$cp_bin" pilot changes --history "$sim/history.sqlite" --format json >"$sim/changes.json"
  python3 - "$sim/changes.json" <<'PY'
import json, sys
n = len(json.load(open(sys.argv[1]))["changes"])
print(f"bar: {n} change(s) in 20 unchanged series of 30 commits (at most 1): {'PASS' if n <= 1 else 'FAIL'}")
PY
}

postgres_bar() {
  build_pilot
  [ -d "$repo" ] || make_repo
  local server=$work/postgres
  rm -rf "$server"
  local url
  url=$(bash "$root/tests/history/postgres.sh" start "$server" 54331) || exit 1
  trap 'bash "$root/tests/history/postgres.sh" stop "$server" 2>/dev/null' EXIT
  local psql
  psql=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)/psql
  count() { "$psql" -qtA "$url" -c "SELECT (SELECT count(*) FROM runs) || ' runs, ' || (SELECT count(*) FROM results) || ' results'" 2>/dev/null || echo "no tables yet"; }
  (cd "$repo" && git checkout -q main && cargo bench -q --no-run >/dev/null 2>&1)
  echo "before: $(count)"
  local quick=(--max-time 2 --ci 0.05)
  (cd "$repo" && "$cp_bin" pilot bench "${quick[@]}" --history "$url" >"$work/pg-a.txt" 2>&1; echo "first writer exit $?") &
  local a=$!
  (cd "$repo" && "$cp_bin" pilot bench "${quick[@]}" --history "$url" >"$work/pg-b.txt" 2>&1; echo "second writer exit $?") &
  local b=$!
  wait "$a" "$b"
  echo "after two writers at once: $(count) (each run has 2 results: 2 runs, 4 results expected)"
  bash "$root/tests/history/postgres.sh" stop "$server"
  (cd "$repo" && "$cp_bin" pilot bench "${quick[@]}" --history "$url" >"$work/pg-c.txt" 2>&1)
  echo "a run while the server is stopped: exit $? ($(grep -c '^error' "$work/pg-c.txt") error line):"
  grep -A3 '^error' "$work/pg-c.txt" | sed 's/^/  /'
  echo "  its results on disk: $(ls "$CARGO_TARGET_DIR"/pilot/results/cost/ | tr '\n' ' ')"
  bash "$root/tests/history/postgres.sh" start "$server" 54331 >/dev/null
  echo "server back: $(count)"
  (cd "$repo" && "$cp_bin" pilot history add --history "$url")
  echo "after history add: $(count) (3 runs, 6 results expected)"
  bash "$root/tests/history/postgres.sh" stop "$server"
  trap - EXIT
}

busier_bar() {
  build_pilot
  make_repo reverted
  local history=$work/history-busier.sqlite
  rm -f "$history" "$work/times-busier.txt"
  local busy=""
  trap '[ -n "${busy:-}" ] && kill "$busy" 2>/dev/null' EXIT
  echo "load before: $(uptime)"
  local i c t0 t1
  for i in $(seq 1 30); do
    c=$(commit_of "$i")
    git -C "$repo" checkout -q "$c"
    if [ "$i" = 20 ]; then
      sh -c 'while :; do :; done' & busy=$!
      echo "commit 20: a busy loop from now on ($(uptime))"
    fi
    (cd "$repo" && cargo bench -q --no-run >/dev/null 2>&1)
    t0=$(date +%s.%N)
    (cd "$repo" && env -u PILOT_BRANCH -u GITHUB_HEAD_REF -u GITHUB_REF_NAME -u CI_COMMIT_REF_NAME \
      "$cp_bin" pilot bench --history "$history" >"$work/bench-busier-$i.txt" 2>&1)
    t1=$(date +%s.%N)
    echo "$(echo "$t1 - $t0" | bc)" >>"$work/times-busier.txt"
    if [ "${GAP:-0}" != 0 ] && [ "$i" != 30 ]; then sleep "$GAP"; fi
  done
  [ -n "$busy" ] && kill "$busy" 2>/dev/null
  busy=""
  git -C "$repo" checkout -q main
  echo "load after: $(uptime)"
  echo "measuring per commit (s, min/median/max): $(mmm <"$work/times-busier.txt")"
  (cd "$repo" && env -u PILOT_BRANCH "$cp_bin" pilot changes --history "$history" --format json) >"$work/changes-busier.json"
  (cd "$repo" && env -u PILOT_BRANCH "$cp_bin" pilot changes --history "$history")
  python3 - "$work/changes-busier.json" "$(git -C "$repo" rev-list --reverse main | tr '\n' ' ')" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
place = {c: i + 1 for i, c in enumerate(sys.argv[2].split())}
found = [(ch["bench"], place.get(ch["commit"]), ch["change"]) for ch in doc["changes"]]
print("changes named (bench, commit, change):", [(b, n, f"{100*x:+.2f}%") for b, n, x in found])
print("the machine's:", [(m["started"], place.get(m["commit"]), f"{100*m['change']:+.2f}%", m["seen_by"],
                          [e["bench"] for e in m["explains"]]) for m in doc["machine_changes"]])
want = [("spin", 8, True), ("spin", 14, False), ("spin", 17, True), ("units", 24, False)]
def hit(w):
    return any(b == w[0] and n is not None and abs(n - w[1]) <= 1 and (x > 0) == w[2] for b, n, x in found)
named = [w for w in want if hit(w)]
extra = [f for f in found if not any(f[0] == w[0] and f[1] is not None and abs(f[1] - w[1]) <= 1 for w in want)]
print(f"bar: {len(named)} of 4 true changes named within a commit "
      f"({', '.join(f'{w[0]} {w[1]}' for w in want if w not in named) or 'none missed'}), "
      f"{len(extra)} commit(s) named where no code changed: "
      f"{'PASS' if len(named) == 4 and not extra else 'FAIL'}")
PY
}

case ${1:-} in
  changes) changes_bar ;;
  busier) busier_bar ;;
  bisect) bisect_bar ;;
  unchanged) unchanged_bar ;;
  postgres) postgres_bar ;;
  *) echo "usage: [LOADED=1] bash lab/history-changes.sh changes|bisect|unchanged|postgres|busier" >&2; exit 2 ;;
esac
