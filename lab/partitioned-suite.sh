#!/usr/bin/env bash
# Measures issue 44's bar for `cargo pilot bench --partition`: the examples (`-p
# pilot-examples`) split 3 ways, three `cargo pilot bench` processes at once, writing into one
# PostgreSQL history (a throwaway server on loopback, tests/history/postgres.sh), then one
# report of the commit's run (`--results history:HEAD`). It checks that the benches the
# history gives back for the commit are the benches of one unpartitioned run, each exactly
# once. Not run by CI: a few minutes, most of it the first build.
#
#   [PILOT_BIN=path/to/cargo-pilot] [SPLIT=hash|count] [PORT=54371] [FLAGS="--max-time 1 …"]
#   bash lab/partitioned-suite.sh
#
# The three shares run concurrently, as three CI runners would, each with a target directory of
# its own (one build folder shared, so the examples are compiled once): the history's writers
# at once are part of what is measured. On a machine of few cores they slow each other's
# benches; the bar is which benches are recorded, never a timing, so the short sessions of
# FLAGS are enough. The checkout must be clean: a run of a tree with uncommitted changes is not
# its commit's, and `history:HEAD` leaves it out.
#
# Prints each share's benches and time, the unpartitioned run's benches, what `export`
# and `report` read back from the history, and PASS or FAIL (exit 1).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
work=$root/target/partitioned-suite
split=${SPLIT:-hash}
port=${PORT:-54371}
flags=${FLAGS:---max-time 1 --ci 0.05 --processes 2}
mkdir -p "$work"

if [ -n "$(git -C "$root" status --porcelain --untracked-files=no)" ]; then
  echo "the checkout has uncommitted changes: commit them first (history:HEAD reads clean runs only)" >&2
  exit 1
fi
if [ -n "${PILOT_BIN:-}" ]; then
  bin=$PILOT_BIN
else
  cargo build --release -q --manifest-path "$root/Cargo.toml" -p cargo-pilot || exit 1
  bin=${CARGO_TARGET_DIR:-$root/target}/release/cargo-pilot
fi

rm -rf "$work/pg" "$work/out" && mkdir -p "$work/out"
url=$(bash "$root/tests/history/postgres.sh" start "$work/pg" "$port") || exit 1
trap 'bash "$root/tests/history/postgres.sh" stop "$work/pg"' EXIT
echo "history: $url"
export CARGO_BUILD_BUILD_DIR=$work/build
unset PILOT_HISTORY PILOT_MACHINE

names_of_run() { # a pilot.run/1 document -> target/name per line
  python3 -c 'import json,sys
for r in json.load(open(sys.argv[1]))["results"]: print(r["target"] + "/" + r["name"])' "$1"
}

cd "$root" || exit 1
start=$(date +%s)
# shellcheck disable=SC2086
CARGO_TARGET_DIR=$work/target-whole "$bin" pilot bench -p pilot-examples --history off \
  --json "$work/out/whole.json" $flags >"$work/out/whole.log" 2>&1
echo "unpartitioned: exit $?, $(($(date +%s) - start)) s (the build included)"
names_of_run "$work/out/whole.json" | sort >"$work/out/whole.txt"
echo "  $(wc -l <"$work/out/whole.txt") benches"

start=$(date +%s)
pids=()
for k in 1 2 3; do
  # shellcheck disable=SC2086
  ( s=$(date +%s)
    CARGO_TARGET_DIR=$work/target-$k "$bin" pilot bench -p pilot-examples \
      --partition "$split:$k/3" --history "$url" --json "$work/out/part-$k.json" $flags \
      >"$work/out/part-$k.log" 2>&1
    echo "$? $(($(date +%s) - s))" >"$work/out/part-$k.status" ) &
  pids+=($!)
done
wait "${pids[@]}"
echo "three shares at once: $(($(date +%s) - start)) s"
for k in 1 2 3; do
  read -r code secs <"$work/out/part-$k.status"
  echo "  $split:$k/3: exit $code, $secs s, $(grep -m1 '^partition' "$work/out/part-$k.log"), $(grep -m1 '^history:' "$work/out/part-$k.log")"
  names_of_run "$work/out/part-$k.json" >>"$work/out/shares.txt"
done
sort "$work/out/shares.txt" -o "$work/out/shares.txt"

CARGO_TARGET_DIR=$work/target-whole "$bin" pilot export --format md history:HEAD --history "$url" \
  >"$work/out/export.md" 2>"$work/out/export.err"
echo "export history:HEAD: exit $?"
sed -n 's/^| `\(.*\)` | .*/\1/p' "$work/out/export.md" | sort >"$work/out/read.txt"
CARGO_TARGET_DIR=$work/target-whole "$bin" pilot report --results history:HEAD --history "$url" \
  --out "$work/out/report" >"$work/out/report.log" 2>&1
echo "report --results history:HEAD: exit $?: $(cat "$work/out/report.log")"

fail=0
dups=$(uniq -d "$work/out/read.txt")
if [ -n "$dups" ]; then echo "FAIL: read back more than once: $dups"; fail=1; fi
if ! diff <(sort -u "$work/out/shares.txt") "$work/out/shares.txt" >/dev/null; then
  echo "FAIL: a bench ran in two shares"; fail=1
fi
if ! diff "$work/out/whole.txt" "$work/out/shares.txt"; then
  echo "FAIL: the shares' benches are not the unpartitioned run's"; fail=1
fi
if ! diff "$work/out/whole.txt" "$work/out/read.txt"; then
  echo "FAIL: the history's run of HEAD is not the unpartitioned run's benches"; fail=1
fi
if [ ! -f "$work/out/report/index.html" ]; then echo "FAIL: no report"; fail=1; fi
echo "benches: unpartitioned $(wc -l <"$work/out/whole.txt"), shares $(wc -l <"$work/out/shares.txt"), read back $(wc -l <"$work/out/read.txt") ($(sort -u "$work/out/read.txt" | wc -l) distinct)"
if [ "$fail" = 0 ]; then echo PASS; else exit 1; fi
