#!/usr/bin/env bash
# The filter bar of issue 32, outside CI: criterion's own filter strings select the same ids
# under criterion and under pilot-criterion, on four crates' unchanged benches (hex 0.4.3 with
# criterion 0.3, bytecount 0.6.9 with criterion 0.4 without default features, tinyvec 1.13.3
# with criterion 0.8, base64 0.22.1 with criterion 0.5). Deterministic: nothing is timed.
#
# Each crate is fetched from crates.io and built twice by lab/criterion-dropin-agreement.sh --build-only
# (as published, and with the one-line switch to pilot-criterion; needs the network the first
# time, then reuses target/criterion-bars/). Then for every filter case of criterion_dropin_agreement.py's
# FILTER_CASES (regular expressions anchored and not, alternations, classes, escaped
# metacharacters, `--exact` ids, filters that match nothing, invalid expressions) both binaries
# list their ids with `--bench --list ARGS`, and the lists are compared: the same ids in the
# same order, or both refusing an invalid expression (criterion panics, pilot-criterion exits
# with 2). Exit code 1 when a case differs.
# Usage: bash lab/criterion-dropin-filters.sh [CRATE ...]   (default: hex bytecount tinyvec base64)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
out=$root/target/criterion-bars
if [ $# -gt 0 ]; then crates=("$@"); else crates=(hex bytecount tinyvec base64); fi
declare -A spec=([hex]=hex=0.4.3=hex [bytecount]=bytecount=0.6.9=bench
                 [tinyvec]=tinyvec=1.13.3=smallvec [base64]=base64=0.22.1=benchmarks)
for c in "${crates[@]}"; do
  [ -n "${spec[$c]:-}" ] || { echo "unknown crate $c (${!spec[*]})" >&2; exit 2; }
done
bash "$here/criterion-dropin-agreement.sh" --build-only "${crates[@]}"
python3 "$here/criterion_dropin_agreement.py" filters "$out" $(for c in "${crates[@]}"; do echo "${spec[$c]}"; done)
