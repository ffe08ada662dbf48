#!/usr/bin/env bash
# Compiles every case of tests/ui/divan/ against divan 0.1.21 itself, in a scratch crate outside
# the repo, and checks what the cases' comments claim: each `.rs` with a `.stderr` is rejected
# by divan too, with the same first error (its code, or for an error of the attribute itself
# its message); pass/*.rs compile. Needs the registry (or its cache: CARGO_NET_OFFLINE=true).
# Not run by CI: it builds divan.
#
#   bash tests/ui/divan/check-against-divan.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/src" "$scratch/benches"
: > "$scratch/src/lib.rs"
cat > "$scratch/Cargo.toml" <<'TOML'
[package]
name = "divan-ui-check"
version = "0.0.0"
edition = "2024"
publish = false

[dev-dependencies]
divan = "=0.1.21"

[workspace]
TOML
cases=("$here"/*.rs "$here"/pass/*.rs)
for case in "${cases[@]}"; do
  name="$(basename "$case" .rs)"
  cp "$case" "$scratch/benches/$name.rs"
  printf '\n[[bench]]\nname = "%s"\nharness = false\n' "$name" >> "$scratch/Cargo.toml"
done

# The first error of a compiler output: `error[E0XXX]`, or `error: MESSAGE` for one without a
# code (the attribute's own errors), the message up to its first quoted name: divan 0.1.21 says
# "expected 'args' option containing ''" where pilot-divan names the argument's type.
first_error() {
  grep -m1 -E '^error(\[E[0-9]+\])?:?' | sed -E "s/^(error\[E[0-9]+\]).*/\1/; s/^(error: [^']*'[^']*').*/\1/"
}

failures=0
for case in "${cases[@]}"; do
  name="$(basename "$case" .rs)"
  stderr="${case%.rs}.stderr"
  out="$(cd "$scratch" && cargo check -q --bench "$name" 2>&1)" && status=0 || status=$?
  if [ -f "$stderr" ]; then
    expected="$(first_error < "$stderr")"
    actual="$(first_error <<<"$out" || true)"
    if [ "$status" -ne 0 ] && [ "$actual" = "$expected" ]; then
      echo "ok: divan rejects $name.rs too ($actual)"
    else
      echo "FAILED: $name.rs: pilot-divan gives '$expected', divan 0.1.21 exit $status '${actual:-no error}'"
      failures=$((failures + 1))
    fi
  elif [ "$status" -eq 0 ]; then
    echo "ok: divan accepts $name.rs"
  else
    echo "FAILED: divan 0.1.21 rejects $name.rs, which pilot-divan accepts:"
    echo "$out" | head -20
    failures=$((failures + 1))
  fi
done
if [ "$failures" -ne 0 ]; then
  echo "$failures case(s) disagree with divan 0.1.21" >&2
  exit 1
fi
echo "every case agrees with divan 0.1.21"
