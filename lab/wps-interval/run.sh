#!/usr/bin/env bash
# The WPS interval's alternatives under simulated sessions (main.rs says what each one is): not
# a timing, a Monte Carlo that runs anywhere in about a minute. Builds main.rs in a crate outside
# the workspace against this checkout's pilot-stats.
# Usage: bash lab/wps-interval/run.sh [MODEL P1 P2 LEVELS]...
#   (default: ar 0 0.03 6, ar 0.5 0.03 6, ar 0.9 0.03 6, ar 0.97 0.03 6, preempt 0.3 3000000 6)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
crate=$root/target/wps-interval
mkdir -p "$crate/src"
cat > "$crate/Cargo.toml" <<TOML
[package]
name = "wps-interval"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
pilot-stats = { path = "$root/crates/pilot-stats" }
rand = "0.9"
rand_distr = "0.5"
rand_chacha = "0.9"
statrs = { version = "0.18", default-features = false }

[workspace]
TOML
cp "$here/main.rs" "$crate/src/main.rs"
(cd "$crate" && cargo build -q --release)
bin=$crate/target/release/wps-interval
if [ $# -eq 0 ]; then
  set -- ar 0 0.03 6 ar 0.5 0.03 6 ar 0.9 0.03 6 ar 0.97 0.03 6 preempt 0.3 3000000 6
fi
while [ $# -ge 4 ]; do
  "$bin" "$1" "$2" "$3" "$4"
  shift 4
done
