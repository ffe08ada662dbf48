#!/usr/bin/env bash
# The bars of pilot-divan (issue 32), outside CI: divan's own example benches and published
# crates' divan benches, unchanged, built and run under divan 0.1.21 itself and under
# pilot-divan, interleaved, on this machine. Needs the registry the first time, and a clone of
# divan's repository for its examples (they are not in its published package): DIVAN_REPO, a git
# directory or work tree (`git clone https://github.com/nvzqz/divan`), whose tag v0.1.21 is
# used. Do not run it beside another benchmark.
#
#   DIVAN_REPO=… bash lab/divan-dropin-agreement.sh [SOURCE ...] [-- FILTER] [--max-time S]
#   SOURCE: examples, nonempty-collections, bytesize (default: all three)
#   FILTER: a Python regex; only the ids it finds run (e.g. `-- '^math::'`)
#   --max-time S: pilot's cap per bench (default: pilot's own, 10 s)
#
# The sources, at pinned versions:
#   divan 0.1.21's examples/ (every target that builds without features: atomic,
#     collections, math, memcpy, panic, scratch, search, sort, string, threads, time): args,
#     consts, types, threads (0, 1, 4, 16), groups, counters, with_inputs, bench_refs, …
#   nonempty-collections 1.4.0  vec: 16 ids; args = LENS, sample_size, Bencher::bench
#   bytesize 2.7.0              display: 5 ids; plain functions, DIVAN_SAMPLE_COUNT set in main
#
# For each source: NAME-divan as published (divan pinned to =0.1.21) and NAME-pilot with the
# divan dependency replaced by `package = "pilot-divan"` and a path to this repository's
# crates/pilot-divan: the one line a user changes. Both get an empty [workspace] table; nothing
# else is touched. Both are built with `cargo bench --no-run`; the ids are compared (divan's
# `--list --format terse` under NEXTEST=1; pilot-divan's under PILOT_LIST_NAMES=1, pilot's
# names, whose `::t=N` thread-count suffixes are divan's `t=N` rows, folded into their id for
# the comparison); then each id runs interleaved: divan three times (`--bench --exact ID`), its
# figure the median of its three medians and its interval their range (divan reports no
# interval: this is divan against itself), and pilot-divan once (`--bench --exact ID --json
# FILE`), its figure the time estimate with its 95% interval. An id agrees when |pilot − divan|
# ≤ pilot's half-width + divan's half-range. A third build, NAME-control, is pilot-divan with its
# `control` feature (put back by lab/divan-control/prepare.sh): the same bench functions, each routine timed by a plain `Instant` loop
# (blocks of about 20 µs, five medians of up to 2000 blocks) instead of either harness; on N
# threads, N threads released together by a spinning gate for each block, each timing its own
# part, the median over every thread's readings (its last column: how many threads were timing at
# once, on average); it runs once per id between the others, and where the two harnesses
# disagree the table says which is closer to it. Printed per source: the table, ids run, ids agreeing, wall time under each tool,
# which harness the control sides with, the load average at the start and end. Everything is kept
# in target/divan-bars/: raw/NAME/ (each invocation's output and document), NAME.tsv, summary.txt.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
out=$root/target/divan-bars
mkdir -p "$out/src"

declare -A version=([examples]=0.1.21 [nonempty-collections]=1.4.0 [bytesize]=2.7.0)
sources=()
filter=
max_time=
while [ $# -gt 0 ]; do
  case $1 in
    --) filter=${2:-}; shift $(($# > 1 ? 2 : 1)) ;;
    --max-time) max_time=$2; shift 2 ;;
    *) [ -n "${version[$1]:-}" ] || { echo "unknown source $1 (examples, nonempty-collections, bytesize)" >&2; exit 2; }
       sources+=("$1"); shift ;;
  esac
done
[ ${#sources[@]} -gt 0 ] || sources=(examples nonempty-collections bytesize)

# Brings SOURCE's package into $out/src/SOURCE (once).
fetch() {
  local name=$1 ver=$2 dest=$out/src/$1
  [ -f "$dest/Cargo.toml" ] && return 0
  if [ "$name" = examples ]; then
    [ -n "${DIVAN_REPO:-}" ] || { echo "DIVAN_REPO: a clone of divan's repository is needed for its examples" >&2; exit 2; }
    mkdir -p "$dest"
    git -C "$DIVAN_REPO" archive "v$ver" examples | tar -x -C "$dest" --strip-components=1
  else
    curl -sSfL "https://static.crates.io/crates/$name/$name-$ver.crate" -o "$out/src/$name-$ver.crate"
    mkdir -p "$dest"
    tar -xzf "$out/src/$name-$ver.crate" -C "$dest" --strip-components=1
  fi
}

# The control's pilot-divan: this checkout's, with the control put back (lab/divan-control/).
control_divan=$(bash "$here/divan-control/prepare.sh" "$out/control-crates")
echo "load at start: $(cut -d' ' -f1-3 /proc/loadavg)" | tee "$out/load-start"
for name in "${sources[@]}"; do
  fetch "$name" "${version[$name]}"
  for kind in divan pilot control; do
    dir=$out/$name-$kind
    divan_dir=$root/crates/pilot-divan
    [ "$kind" = control ] && divan_dir=$control_divan
    python3 "$here/divan_dropin_agreement.py" prepare "$out/src/$name" "$dir" "$kind" "$divan_dir"
    echo "building $name (${version[$name]}, $kind): cargo bench --no-run"
    if ! (cd "$dir" && CARGO_TARGET_DIR="$dir/target" cargo bench --no-run --message-format=json \
          >"$dir.build.json" 2>"$dir.build.log"); then
      echo "$name ($kind) does not build; see $dir.build.log" >&2
      grep -E '^error' -A5 "$dir.build.log" >&2 || true
      exit 1
    fi
  done
done
python3 "$here/divan_dropin_agreement.py" run "$out" "$filter" "$max_time" "${sources[@]}"
echo "load at end: $(cut -d' ' -f1-3 /proc/loadavg)" | tee "$out/load-end"
cat "$out/load-start" "$out/load-end" >>"$out/summary.txt"
