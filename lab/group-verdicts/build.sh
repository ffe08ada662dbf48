#!/usr/bin/env bash
# Builds lab/group-verdicts/bench.rs in a crate outside the workspace (target/lab/group-verdicts),
# in release as `cargo bench` builds it, and prints the bench binary's path: for run.sh here and
# ../one-process-baselines.sh. Usage: bash lab/group-verdicts/build.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
crate=$root/target/lab/group-verdicts/crate
mkdir -p "$crate/benches" "$crate/src"
cat > "$crate/Cargo.toml" <<TOML
[package]
name = "group-verdicts"
version = "0.0.0"
edition = "2024"
publish = false

[dev-dependencies]
pilot = { package = "pilot-bench", path = "$root/crates/pilot" }
pilot-examples = { path = "$root/examples" }

[[bench]]
name = "groups"
harness = false

[workspace]
TOML
: > "$crate/src/lib.rs"
cp "$here/bench.rs" "$crate/benches/groups.rs"
cd "$crate"
cargo bench -q --bench groups --no-run --message-format=json 2>/dev/null |
  python3 -c 'import json,sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["target"]["name"] == "groups":
        print(m["executable"])'
