#!/usr/bin/env bash
# pilot as a user installs it, without publishing: every crate we publish is packaged and
# verified (`cargo package`), the `.crate` files become a directory source that replaces
# crates.io, and a fresh crate outside the repository then does what the README and the book
# tell a new user to do:
#   - the README's dependency line and first bench, `cargo bench` (capped short);
#   - `cargo install --locked cargo-pilot` (unoptimised, see below), then `cargo pilot bench`,
#     `compare` and `report`;
#   - the criterion and divan one-line switches (the book's lines) on a small bench each.
# Nothing reaches the network and nothing names a path: the fresh crate resolves only from
# that source, which holds our packages and the third-party crates of the workspace's lock
# (`cargo vendor`, copies of the crates.io packages with their checksums).
#
#   bash tests/release/install.sh              # from the repository's root, as .ci/run does
#   bash tests/release/install.sh --package    # only package and verify every crate
#
# Everything builds in the folder `release-check` of the repository's target folder
# (CARGO_TARGET_DIR or target/), apart from the workspace's builds and its `target/pilot`; the
# source stays at one path there, so the fresh crates and cargo-pilot's install share the
# third-party crates they compile alike, and a second run compiles nothing again.
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$PWD

# Our published crates, in the order they depend on each other.
crates=(pilot-settings pilot-format pilot-stats pilot-engine pilot-macros pilot-bench
  pilot-criterion pilot-divan-macros pilot-divan cargo-pilot)

target=${CARGO_TARGET_DIR:-$repo/target}
case $target in /*) ;; *) target=$repo/$target ;; esac
export CARGO_TARGET_DIR=$target

# The version every crate has: the workspace's (`[workspace.package]` in Cargo.toml).
version=$(sed -n '/^\[workspace.package\]/,/^\[/s/^version = "\(.*\)"$/\1/p' Cargo.toml)
test -n "$version"

fresh_target=$target/release-check
# Only this run's results are looked for (the compiled crates are kept for the next run).
rm -rf "$fresh_target/pilot"

step() { printf '\n--> %s\n' "$*"; }
started=$(date +%s)

step "cargo package: every published crate packaged (and built from its .crate alone below)"
package_args=()
for c in "${crates[@]}"; do package_args+=(-p "$c"); done
# --allow-dirty: a developer's uncommitted edits are packaged too (CI's clone has none).
# Verifying builds each package alone from its .crate; the steps below build every one of them
# from the .crate files anyway (pilot-bench and its engine in the fresh crate, cargo-pilot by
# `cargo install`, the drop-ins by their switches), so only `--package` verifies here.
verify=(--no-verify)
if [ "${1:-}" = "--package" ]; then verify=(); fi
cargo package "${package_args[@]}" --locked --allow-dirty "${verify[@]}"
for c in "${crates[@]}"; do
  file=$target/package/$c-$version.crate
  test -s "$file"
  printf '%-22s %8s bytes\n' "$c" "$(stat -c %s "$file")"
done
if [ "${1:-}" = "--package" ]; then exit 0; fi

work=$(mktemp -d "${TMPDIR:-/tmp}/pilot-release.XXXXXX")
trap 'rm -rf "$work"' EXIT
registry=$fresh_target/registry
rm -rf "$registry"
# From here on every build is the fresh crates' and the install's.
export CARGO_TARGET_DIR=$fresh_target
# Cargo never rebuilds a registry's package of a version it has built: what an earlier run built
# from our crates' earlier .crate files (of this same version) is forgotten, so that ours are
# built again from this run's; the third-party builds stay.
mkdir -p "$fresh_target"
find "$fresh_target" -mindepth 3 -maxdepth 3 -path '*/.fingerprint/*' \
  \( -name 'pilot-*' -o -name 'cargo-pilot-*' \) -exec rm -rf {} +

step "a directory source: our .crate files unpacked, and the workspace's third-party crates"
# `cargo vendor` copies the third-party packages of the workspace's lock (with their
# checksums) and leaves our crates out: they are path dependencies here.
cargo vendor --locked --versioned-dirs -q "$registry" >/dev/null
for c in "${crates[@]}"; do
  tar -xzf "$target/package/$c-$version.crate" -C "$registry"
  # The source's record of the package: the .crate's sha256 (what a lock file written against
  # crates.io holds for it) and each file's.
  python3 - "$registry/$c-$version" "$target/package/$c-$version.crate" <<'EOF'
import hashlib, json, os, sys
root, crate = sys.argv[1], sys.argv[2]
digest = lambda path: hashlib.sha256(open(path, "rb").read()).hexdigest()
files = {}
for folder, _, names in os.walk(root):
    for name in names:
        path = os.path.join(folder, name)
        files[os.path.relpath(path, root)] = digest(path)
with open(os.path.join(root, ".cargo-checksum.json"), "w") as out:
    json.dump({"files": files, "package": digest(crate)}, out)
EOF
done

# crates.io replaced by that folder for every cargo command below (they all run in $work), and
# no network: a dependency the folder lacks is an error, never a download.
mkdir -p "$work/.cargo"
cat >"$work/.cargo/config.toml" <<EOF
[source.crates-io]
replace-with = "pilot-release"

[source.pilot-release]
directory = "$registry"

[net]
offline = true
EOF

# The first block of a language after a heading in a Markdown file.
block() { # FILE HEADING LANGUAGE
  awk -v heading="$2" -v lang="$3" '
    $0 == heading { found = 1; next }
    found && !inside && $0 == "```" lang { inside = 1; next }
    inside && $0 == "```" { exit }
    inside { print }' "$1"
}

step "the README's first bench in a fresh crate: its dependency line, \`cargo bench\`"
cd "$work"
cargo new -q --lib fresh
cd fresh
block "$repo/README.md" "## A first bench" toml >>Cargo.toml
grep -q '^pilot-bench = "0.2"' Cargo.toml
if grep -q 'path *=' Cargo.toml; then
  echo "the fresh crate's Cargo.toml names a path" >&2
  exit 1
fi
mkdir benches
block "$repo/README.md" "## A first bench" rust >benches/my_benches.rs
grep -q 'pilot::main!();' benches/my_benches.rs
cargo bench --bench my_benches -- --max-time 0.3
results=$(find "$fresh_target/pilot/results" -name '*.json' | wc -l)
if [ "$results" -lt 1 ]; then
  echo "cargo bench wrote no result document under $fresh_target/pilot/results" >&2
  exit 1
fi
# The README's full-form bench fills a MiB a unit: at least a microsecond on any machine (a
# TiB/s). Less means the compiler dropped the fill, and the README would teach a bench that
# times nothing.
python3 - "$fresh_target/pilot/results/my_benches/fill_1mib.json" <<'PY'
import json, sys
mean = json.load(open(sys.argv[1]))["pis"][0]["mean"]
if not mean > 1000.0:
    sys.exit(f"the README's fill_1mib took {mean} ns a MiB: its fill was optimised away")
PY
# Resolved from the source above only: every package of the lock file comes from crates.io's
# (replaced) registry, and ours at the packaged version.
grep -A2 '^name = "pilot-bench"' Cargo.lock | grep -q 'source = "registry+https://github.com/rust-lang/crates.io-index"'

step "cargo install --locked cargo-pilot, from that source"
root=$work/root
# `cargo install` reads no configuration from the folder it runs in (only CARGO_HOME's), so the
# source replacement is given on its command line. Unoptimised (`--debug`): the same
# resolution from that source, every crate compiled from its .crate, and the command run
# below, which is what this checks; the optimised build of the same sources (the database
# clients, SQLite's C) would take about three times as long on every CI run, and the
# command's speed is not measured here (the benches it builds are, optimised, as always).
cargo --config "$work/.cargo/config.toml" install --locked --debug cargo-pilot \
  --root "$root"
export PATH=$root/bin:$PATH
test "$(command -v cargo-pilot)" = "$root/bin/cargo-pilot"

step "cargo pilot bench, compare, report in the fresh crate"
cargo pilot bench --max-time 0.3 --save-baseline first
# The latest results against the baseline they were saved as: no change, exit 0.
cargo pilot compare first --format md >"$work/compare.md"
grep -q 'sort_10k' "$work/compare.md"
cargo pilot report
test -s "$fresh_target/pilot/report/index.html"

step "the drop-ins' one-line switches: a criterion bench and a divan bench"
cd "$work"
cargo new -q --lib dropins
cd dropins
{
  echo
  echo '[dev-dependencies]'
  block "$repo/book/src/coming-from-criterion.md" "# Coming from criterion" toml | grep '^criterion = '
  block "$repo/book/src/coming-from-divan.md" "# Coming from divan" toml | grep '^divan = '
  printf '\n[[bench]]\nname = "crit"\nharness = false\n\n[[bench]]\nname = "dvn"\nharness = false\n'
} >>Cargo.toml
grep -q '^criterion = { package = "pilot-criterion", version = "0.2" }' Cargo.toml
grep -q '^divan = { package = "pilot-divan", version = "0.2" }' Cargo.toml
mkdir benches
# criterion's own getting-started bench, as a criterion user has it.
cat >benches/crit.rs <<'EOF'
use criterion::{Criterion, black_box, criterion_group, criterion_main};

fn fibonacci(n: u64) -> u64 {
    match n {
        0 | 1 => 1,
        n => fibonacci(n - 1) + fibonacci(n - 2),
    }
}

fn criterion_benchmark(c: &mut Criterion) {
    c.bench_function("fib 20", |b| b.iter(|| fibonacci(black_box(20))));
}

criterion_group!(benches, criterion_benchmark);
criterion_main!(benches);
EOF
# The book's divan file, as it stands in "Coming from divan".
block "$repo/book/src/coming-from-divan.md" "# Coming from divan" rust >benches/dvn.rs
grep -q 'divan::main()' benches/dvn.rs
cargo bench --bench crit -- --quick --max-time 0.3
cargo bench --bench dvn -- --quick --max-time 0.3

printf '\nthe release check took %d s\n' "$(($(date +%s) - started))"
