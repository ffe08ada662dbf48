#!/usr/bin/env bash
# Makes DEST a copy of this checkout's workspace crates in which pilot-divan has its `control`
# feature back: a plain `Instant` loop instead of pilot's engine, for checking a figure where
# pilot-divan and divan disagree against a timing that is neither harness's (never for
# measuring). The control lives here, not in the shipped crate: `control/` is its module
# (`control/crew.rs`: a bench's N threads released together by a spinning gate), and
# `hooks.patch` the few places of pilot-divan that call it (a `Mode::Control` of the `Bencher`,
# its arm in each `bench*` method, the run that prints each bench's line, the feature).
#
#   bash lab/divan-control/prepare.sh DEST      prints DEST/crates/pilot-divan
#   bash lab/divan-control/prepare.sh DEST test also runs the control's unit tests and lints
#
# With the feature, each selected bench prints five medians of its time per iteration, in ns,
# and nothing else: `ID<TAB>ns ns ns ns ns` (on N threads, `<TAB>at once X`: how many threads
# were timing at once, on average). lab/divan-dropin-agreement.sh uses it as its third build.
# When pilot-divan has changed where the hooks go, the patch no longer applies and this says so:
# refresh hooks.patch against the new bencher.rs and divan.rs.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
dest=${1:?usage: prepare.sh DEST [test]}
rm -rf "$dest"
mkdir -p "$dest"
# The workspace's manifest, lock and shipped crates; its members cut to the crates (the
# examples and tests are not copied), so the crates' `*.workspace = true` still resolve.
cp "$root/Cargo.toml" "$root/Cargo.lock" "$dest/"
sed -i 's#^members = .*#members = ["crates/*"]#' "$dest/Cargo.toml"
cp -a "$root/crates" "$dest/crates"
cp -a "$here/control" "$dest/crates/pilot-divan/src/control"
if ! patch -s -p1 -d "$dest" --forward <"$here/hooks.patch"; then
  echo "lab/divan-control/hooks.patch no longer applies to crates/pilot-divan: refresh it" >&2
  exit 1
fi
if [ "${2:-}" = test ]; then
  (cd "$dest" && CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$dest/target} \
    cargo test -q -p pilot-divan --features control --lib &&
    CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$dest/target} \
    cargo clippy -q -p pilot-divan --features control --all-targets -- -D warnings) >&2
fi
echo "$dest/crates/pilot-divan"
