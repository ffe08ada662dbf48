#!/usr/bin/env bash
# The bars of pilot-criterion (issue 16), outside CI: real crates' criterion benches, unchanged,
# built and run under criterion itself and under pilot-criterion, interleaved, on this machine.
# Needs the network (crates.io) the first time; about 45 minutes on 2 cores (criterion alone
# spends ~8 s per bench id, less where a bench sets shorter times). Do not run it beside another
# benchmark. Usage: bash lab/criterion-dropin-agreement.sh [--build-only] [CRATE ...] [-- FILTER]
#   --build-only: fetch, copy and build the crates, run nothing (the controls and the filter
#                 script use the copies)
#   CRATE: base64, itertools, sharded-slab, hex, bytecount, tinyvec (default: the first three,
#          issue 16's; the last three are issue 32's, run by lab/criterion-dropin-controls.sh)
#   FILTER: a Python regex; only the bench ids it finds run (e.g. `-- '^slice iter$'`)
#
# The crates, at pinned versions, and the bench targets run (every target is built):
#   base64 0.22.1       benchmarks: 88 ids; benchmark_group, chained group settings
#                       (warm_up_time/measurement_time/throughput), BenchmarkId::new,
#                       bench_with_input with fn items, Throughput::Bytes, #[macro_use]
#   itertools 0.14.0    bench1 only (39 ids; its 9 other targets have ~170 more and are only
#                       built): Criterion::bench_function, iter_batched + BatchSize::LargeInput,
#                       criterion feature `html_reports`
#   sharded-slab 0.1.7  bench: 35 ids; iter_custom timing 4 threads, measurement_time(15 s),
#                       BenchmarkId::new, criterion 0.3
#   hex 0.4.3           hex: 9 ids; Criterion::bench_function only, criterion 0.3
#   bytecount 0.6.9     bench: 225 ids; criterion 0.4 without default features, a config
#                       function, bench_with_input with fn items, Throughput::Bytes
#   tinyvec 1.13.3      smallvec (built with --features alloc,real_blackbox, its
#                       required-features): 220 ids, one group per library and array type, the
#                       operations as functions; criterion 0.8
#
# For each crate: the published package is fetched from static.crates.io into
# target/criterion-bars/src/, then copied twice: NAME-criterion as published, NAME-pilot with the
# criterion dev-dependency's `version` replaced by `package = "pilot-criterion"` and a path to
# this repository's crates/pilot-criterion (its features kept): the one line a user changes.
# Both copies get an empty [workspace] table so that neither joins pilot's workspace; nothing
# else is touched. Both are built with `cargo bench --no-run`, their `--list` ids compared, then
# each bench id runs once under each tool, alternating which goes first: criterion with the
# regex `^ID$` (regex-escaped), pilot-criterion with `--exact ID --json FILE`.
#
# criterion's estimate is read from target/criterion/**/new/estimates.json (the slope when
# criterion fitted one, else the mean, with its 95% interval), found through the benchmark.json
# beside it, which names the full id (so criterion's own escaping of ids into folder names never
# has to be redone here). pilot-criterion's is the time interval of the run document the bench
# binary writes with --json. An id agrees when |pilot − criterion| ≤ pilot's half-width +
# criterion's half-width. Printed per crate: the table, ids run, ids agreeing (bar: ≥ 80%), wall
# time of the suite under each tool (bar: pilot-criterion's below criterion's), and the load
# average at the start and end. Everything is kept in target/criterion-bars/: raw/NAME/ (each
# invocation's output and run document), NAME.tsv (the table) and summary.txt.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
out=$root/target/criterion-bars
mkdir -p "$out/src"

declare -A version=([base64]=0.22.1 [itertools]=0.14.0 [sharded-slab]=0.1.7 [hex]=0.4.3
                   [bytecount]=0.6.9 [tinyvec]=1.13.3)
declare -A targets=([base64]=benchmarks [itertools]=bench1 [sharded-slab]=bench [hex]=hex
                    [bytecount]=bench [tinyvec]=smallvec)
# The features a crate's bench target requires (`required-features`), passed to cargo bench.
declare -A features=([tinyvec]=alloc,real_blackbox)
crates=()
filter=
build_only=
while [ $# -gt 0 ]; do
  case $1 in
    --build-only) build_only=1; shift ;;
    --) filter=${2:-}; shift $(($# > 1 ? 2 : 1)) ;;
    *) [ -n "${version[$1]:-}" ] || { echo "unknown crate $1 (${!version[*]})" >&2; exit 2; }
       crates+=("$1"); shift ;;
  esac
done
[ ${#crates[@]} -gt 0 ] || crates=(base64 itertools sharded-slab)

# Fetches NAME-VERSION's published package into $out/src (once).
fetch() {
  local name=$1 ver=$2
  [ -f "$out/src/$name-$ver/Cargo.toml" ] && return 0
  curl -sSfL "https://static.crates.io/crates/$name/$name-$ver.crate" -o "$out/src/$name-$ver.crate"
  tar -xzf "$out/src/$name-$ver.crate" -C "$out/src"
  ls "$out/src/$name-$ver"/benches/*.rs >/dev/null || { echo "$name-$ver ships no benches" >&2; exit 1; }
}

echo "load at start: $(cut -d' ' -f1-3 /proc/loadavg)" | tee "$out/load-start"
for name in "${crates[@]}"; do
  ver=${version[$name]}
  fetch "$name" "$ver"
  for kind in criterion pilot; do
    dir=$out/$name-$kind
    python3 "$here/criterion_dropin_agreement.py" prepare "$out/src/$name-$ver" "$dir" "$kind" "$root/crates/pilot-criterion"
    echo "building $name $ver ($kind): cargo bench --no-run"
    if ! (cd "$dir" && CARGO_TARGET_DIR="$dir/target" cargo bench --no-run --message-format=json \
          ${features[$name]:+--features "${features[$name]}"} \
          >"$dir.build.json" 2>"$dir.build.log"); then
      echo "$name ($kind) does not build; see $dir.build.log:" >&2
      python3 "$here/criterion_dropin_agreement.py" errors "$dir.build.json" >&2
      grep -E '^error' "$dir.build.log" >&2
      exit 1
    fi
  done
done
[ -z "$build_only" ] || exit 0
python3 "$here/criterion_dropin_agreement.py" run "$out" "$filter" \
  $(for n in "${crates[@]}"; do echo "$n=${version[$n]}=${targets[$n]}"; done)
echo "load at end: $(cut -d' ' -f1-3 /proc/loadavg)" | tee "$out/load-end"
cat "$out/load-start" "$out/load-end" >>"$out/summary.txt"
