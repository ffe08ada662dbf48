#!/usr/bin/env bash
# Compiles every case of tests/ui/criterion/ against criterion 0.8.2 itself, in a scratch crate
# outside the repo, and checks what the cases' comments claim: each `.rs` with a `.stderr` is
# rejected by criterion too, with the same error code as pilot-criterion's first error;
# custom-measurement.rs (the one case pilot rejects on purpose) and pass/*.rs compile.
# Needs the registry (or its cache: CARGO_NET_OFFLINE=true). Not run by CI: it builds criterion.
#
#   bash tests/ui/criterion/check-against-criterion.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/src" "$scratch/benches"
: > "$scratch/src/lib.rs"
cat > "$scratch/Cargo.toml" <<'TOML'
[package]
name = "criterion-ui-check"
version = "0.0.0"
edition = "2024"
publish = false

[dev-dependencies]
criterion = { version = "=0.8.2", default-features = false, features = ["cargo_bench_support", "async_tokio"] }
tokio = { version = "1", features = ["rt"] }

[workspace]
TOML
cases=("$here"/*.rs "$here"/pass/*.rs)
for case in "${cases[@]}"; do
  name="$(basename "$case" .rs)"
  cp "$case" "$scratch/benches/$name.rs"
  printf '\n[[bench]]\nname = "%s"\nharness = false\n' "$name" >> "$scratch/Cargo.toml"
done

failures=0
for case in "${cases[@]}"; do
  name="$(basename "$case" .rs)"
  stderr="${case%.rs}.stderr"
  out="$(cd "$scratch" && cargo check -q --bench "$name" 2>&1)" && status=0 || status=$?
  if [ -f "$stderr" ] && [ "$name" != custom-measurement ]; then
    expected="$(grep -m1 -o '^error\[E[0-9]*\]' "$stderr")"
    actual="$(grep -m1 -o '^error\[E[0-9]*\]' <<<"$out" || true)"
    if [ "$status" -ne 0 ] && [ "$actual" = "$expected" ]; then
      echo "ok: criterion rejects $name.rs too ($actual)"
    else
      echo "FAILED: $name.rs: pilot-criterion gives $expected, criterion 0.8.2 exit $status ${actual:-no error}"
      failures=$((failures + 1))
    fi
  elif [ "$status" -eq 0 ]; then
    echo "ok: criterion accepts $name.rs"
  else
    echo "FAILED: criterion rejects $name.rs:"; echo "$out"
    failures=$((failures + 1))
  fi
done
exit "$failures"
