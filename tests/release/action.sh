#!/usr/bin/env bash
# The GitHub Action's comparison step (action/compare.sh) on a local git repository, without
# GitHub: the fixture workspace (tests/fixture-bench) committed as the base, a commit that
# changes no code, and a commit that makes its benches four times slower (its constant
# SOURCE_COST, 1.0 to 4.0). GITHUB_STEP_SUMMARY and GITHUB_OUTPUT are temporary files.
#   - the unchanged commit against the base: exit 0 (or, on a machine whose speed swung past
#     even the wide noise threshold, exit 3, said as such and tolerated);
#   - the slower commit against the unchanged one: exit 3, and the summary holds the
#     regression and says the job fails.
# Uses the cargo-pilot that target/release holds, built first if missing, or the one in the
# folder PILOT_CARGO_PILOT_DIR names (an installed one, `~/.cargo/bin`).
#
#   bash tests/release/action.sh    # from the repository's root, as .ci/run does
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$PWD
target=${CARGO_TARGET_DIR:-$repo/target}
case $target in /*) ;; *) target=$repo/$target ;; esac
export CARGO_TARGET_DIR=$target

# The summary's names as Markdown code spans, whatever a ref holds: the shipped function itself.
eval "$(sed -n '/^md_code()/,/^}/p' action/compare.sh)"
expect_code() { # NAME WANT
  local got
  got=$(md_code "$1")
  if [ "$got" != "$2" ]; then
    printf 'md_code %q gave %q, not %q\n' "$1" "$got" "$2" >&2
    exit 1
  fi
}
expect_code 'origin/main' '`origin/main`'
expect_code 'a`b' '`` a`b ``'
expect_code $'x\ny\033[2J' '`xy[2J`'
expect_code '``x' '``` ``x ```'

if [ -n "${PILOT_CARGO_PILOT_DIR:-}" ]; then
  export PATH=$PILOT_CARGO_PILOT_DIR:$PATH
else
  cargo build --release -q -p cargo-pilot
  export PATH=$target/release:$PATH
fi
test -x "$(command -v cargo-pilot)"
# The fixture builds in a folder of this script's own. Its `pilot/` goes first: the base's
# checkout of an earlier run belongs to that run's temporary repository, which is gone.
export CARGO_TARGET_DIR=$target/action-check
rm -rf "$CARGO_TARGET_DIR/pilot"

work=$(mktemp -d "${TMPDIR:-/tmp}/pilot-action.XXXXXX")
trap 'rm -rf "$work"' EXIT
fixture=$work/repo
mkdir -p "$fixture/benches"
# The fixture's manifest with its path dependencies made absolute (they are `../../crates/…`).
# The copy's version is tagged (0.1.0-action) and its builds use the build directories the
# cargo-pilot tests' copies of the fixture share (target/tmp, see crates/cargo-pilot/tests/
# common): pilot and its dependencies, built there by the tests, are not built twice more, and
# cargo keeps this copy's executables apart from the others' by its version.
build=$target/tmp/fixture-build
base_build=$target/tmp/fixture-base-build
sed -e "s|path = \"../../crates|path = \"$repo/crates|" \
  -e 's|^version = "0.1.0"$|version = "0.1.0-action"|' \
  tests/fixture-bench/Cargo.toml >"$fixture/Cargo.toml"
grep -q '^version = "0.1.0-action"$' "$fixture/Cargo.toml"
if grep -q '\.\./\.\./' "$fixture/Cargo.toml"; then
  echo "a path left relative in the fixture's manifest" >&2
  exit 1
fi
awk 'tagged == 0 && prev == "name = \"pilot-fixture\"" && $0 == "version = \"0.1.0\"" {
    $0 = "version = \"0.1.0-action\""; tagged = 1 }
  { print; prev = $0 }
  END { if (!tagged) exit 1 }' tests/fixture-bench/Cargo.lock >"$fixture/Cargo.lock"
# Every bench file the manifest names (the others are behind features, but must be there).
cp tests/fixture-bench/benches/*.rs "$fixture/benches/"
printf 'target\npilot-comparison.md\n' >"$fixture/.gitignore"
git() { command git -C "$fixture" -c user.name=pilot -c user.email=pilot@example.com "$@"; }
git init -q
git add -A
git commit -q -m base
git tag base
echo "# a fixture" >"$fixture/README.md"
git add -A
git commit -q -m "no code changed"
git tag unchanged

# Short sessions; a wide noise threshold, so that the same code twice is not flagged on a busy
# runner, while four times the work is far beyond it. The base side builds in a folder that
# outlives this run, so a second run compiles only the fixture.
export CARGO_BUILD_BUILD_DIR=$build
export PILOT_ARGS="--max-time 1 --ci 0.05 --noise 0.5 --base-target-dir $base_build"
export PILOT_INSTRUCTIONS=false
run_action() { # BASE: the action's exit code; its summary in $work/summary.md
  : >"$work/summary.md"
  : >"$work/output"
  local code=0
  (cd "$fixture" && PILOT_BASE=$1 GITHUB_STEP_SUMMARY=$work/summary.md GITHUB_OUTPUT=$work/output \
    bash "$repo/action/compare.sh") || code=$?
  return "$code"
}

echo "--> the unchanged commit against the base"
code=0
run_action base || code=$?
cat "$work/summary.md"
grep -q "^exit-code=$code\$" "$work/output"
case $code in
  0) grep -q 'No regression against `base`' "$work/summary.md" ;;
  3) echo "(the same code was flagged: this machine's speed swung by more than half between runs)" ;;
  *)
    echo "the unchanged commit: exit $code" >&2
    exit 1
    ;;
esac

echo "--> a commit that makes the benches four times slower, against the unchanged one"
sed -i 's/^const SOURCE_COST: f64 = 1.0;$/const SOURCE_COST: f64 = 4.0;/' "$fixture/benches/cost.rs"
grep -q '^const SOURCE_COST: f64 = 4.0;$' "$fixture/benches/cost.rs"
git commit -q -am "four times the work"
code=0
run_action unchanged || code=$?
cat "$work/summary.md"
if [ "$code" -ne 3 ]; then
  echo "the slower commit: exit $code, expected 3 (a regression)" >&2
  exit 1
fi
grep -q '^exit-code=3$' "$work/output"
grep -q '\*\*regressed\*\*' "$work/summary.md"
grep -q '`spin`' "$work/summary.md"
grep -q 'A regression against `unchanged`' "$work/summary.md"
test -s "$fixture/pilot-comparison.md"

echo "--> a missing base: a usage error, nothing run"
code=0
(cd "$fixture" && PILOT_BASE= bash "$repo/action/compare.sh") 2>"$work/err" || code=$?
test "$code" -eq 2
grep -q 'no base revision' "$work/err"
echo "the action's comparison step: ok"
