#!/usr/bin/env bash
# The bench ids of base64 0.22.1's criterion benches, as criterion forms them.
#
#   bash tests/criterion-base64/ids.sh                   # the file unchanged; pilot-criterion's
#                                                        # `--list` against ids.txt
#   bash tests/criterion-base64/ids.sh --from-criterion  # rewrite ids.txt from criterion 0.8.2
#   bash tests/criterion-base64/ids.sh --results RUN.json…  # measured runs: a mean for each id
#
# ids.txt is criterion's own listing of the same, unchanged file: `--from-criterion` builds it
# against criterion 0.8.2 in a scratch crate outside the repo (it needs the registry). Both sides
# keep the ids of libtest's `NAME: benchmark` lines, in the order listed.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
ids() { sed -n 's/: benchmark$//p'; }
bench_sha256=cebbcc8649e760e569c6be04f5e727aee2c2568ced7faab580fc0aa0d0426d26

if [ "${1:-}" = --from-criterion ]; then
  scratch="$(mktemp -d)"
  trap 'rm -rf "$scratch"' EXIT
  mkdir -p "$scratch/src" "$scratch/benches"
  : > "$scratch/src/lib.rs"
  cp "$here/benches/benchmarks.rs" "$scratch/benches/"
  cat > "$scratch/Cargo.toml" <<'TOML'
[package]
name = "criterion-base64-reference"
version = "0.0.0"
edition = "2018"
publish = false

[dev-dependencies]
base64 = "=0.22.1"
criterion = { version = "=0.8.2", default-features = false, features = ["cargo_bench_support"] }
rand = { version = "0.8.5", features = ["small_rng"] }

[[bench]]
name = "benchmarks"
harness = false

[workspace]
TOML
  (cd "$scratch" && cargo bench -q --bench benchmarks -- --list) | ids > "$here/ids.txt"
  echo "wrote $here/ids.txt: $(wc -l < "$here/ids.txt") ids from criterion 0.8.2"
  exit 0
fi

if [ "${1:-}" = --results ]; then
  # Each RUN.json is a `--json` document (pilot.run/1) of the bench binary; together they hold
  # one result per id, none failed, each with a time per iteration.
  shift
  python3 - "$here/ids.txt" "${@:?--results needs the run documents}" <<'PY'
import json, sys
ids = open(sys.argv[1]).read().split()
results = [r for f in sys.argv[2:] for r in json.load(open(f))["results"]]
names = [r["name"] for r in results]
bad = [r["name"] for r in results
       if r["status"] == "failed" or not any(p.get("mean") for p in r["pis"])]
if sorted(names) != sorted(ids) or bad:
    missing = [i for i in ids if i not in names]
    sys.exit(f"error: {', '.join(sys.argv[2:])}: {len(names)} results for {len(ids)} ids; "
             f"missing {missing[:5]}, without an estimate {bad[:5]}")
print(f"a result with an estimate for each of the {len(ids)} ids")
PY
  exit 0
fi

# The file is base64's, byte for byte (its sha256 in the crate of base64 0.22.1).
(cd "$here" && sha256sum --check --quiet) <<<"$bench_sha256  benches/benchmarks.rs"

cd "$here/../.."
listed="$(cargo bench -q -p criterion-base64 --bench benchmarks -- --list | ids)"
if diff -u --label "ids.txt (criterion 0.8.2)" --label "pilot-criterion --list" \
  "$here/ids.txt" - <<<"$listed"; then
  echo "pilot-criterion lists criterion's $(wc -l < "$here/ids.txt") ids, in criterion's order"
else
  echo "error: pilot-criterion's ids differ from criterion's (tests/criterion-base64/ids.txt)" >&2
  exit 1
fi
