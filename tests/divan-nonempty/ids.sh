#!/usr/bin/env bash
# The bench ids of nonempty-collections 1.4.0's divan benches, as divan forms them.
#
#   bash tests/divan-nonempty/ids.sh                 # the file unchanged; pilot-divan's
#                                                    # `--list --format terse` against ids.txt
#   bash tests/divan-nonempty/ids.sh --from-divan    # rewrite ids.txt from divan 0.1.21
#   bash tests/divan-nonempty/ids.sh --results RUN.json…  # measured runs: an estimate with an
#                                                    # interval for each id
#
# ids.txt is divan's own listing of the same, unchanged file: `--from-divan` builds it against
# divan 0.1.21 in a scratch crate outside the repo (it needs the registry), listed as divan
# lists for nextest (`NEXTEST=1`, `--list --format terse`: one `ID: benchmark` line each, in an
# order divan leaves unspecified), sorted. pilot-divan's listing is sorted the same way.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
ids() { sed -n 's/: benchmark$//p' | LC_ALL=C sort; }
bench_sha256=a339e9f7bf73007ffab586325098cc25252840be60b96b57d235b2f700b6e46e

if [ "${1:-}" = --from-divan ]; then
  scratch="$(mktemp -d)"
  trap 'rm -rf "$scratch"' EXIT
  mkdir -p "$scratch/src" "$scratch/benches"
  : > "$scratch/src/lib.rs"
  cp "$here/benches/vec.rs" "$scratch/benches/"
  cat > "$scratch/Cargo.toml" <<'TOML'
[package]
name = "divan-nonempty-reference"
version = "0.0.0"
edition = "2024"
publish = false

[dev-dependencies]
nonempty-collections = "=1.4.0"
divan = "=0.1.21"

[[bench]]
name = "vec"
harness = false

[workspace]
TOML
  (cd "$scratch" && NEXTEST=1 cargo bench -q --bench vec -- --list --format terse) | ids > "$here/ids.txt"
  echo "wrote $here/ids.txt: $(wc -l < "$here/ids.txt") ids from divan 0.1.21"
  exit 0
fi

if [ "${1:-}" = --results ]; then
  # Each RUN.json is a `--json` document (pilot.run/1) of the bench binary; together they hold
  # one result per id, none failed, each with a time estimate and its interval.
  shift
  python3 - "$here/ids.txt" "${@:?--results needs the run documents}" <<'PY'
import json, sys
ids = open(sys.argv[1]).read().split("\n")
ids = [i for i in ids if i]
results = [r for f in sys.argv[2:] for r in json.load(open(f))["results"]]
names = [r["name"] for r in results]
def interval(r):
    return any(p.get("mean") is not None and p.get("ci") for p in r["pis"])
bad = [r["name"] for r in results if r["status"] == "failed" or not interval(r)]
if sorted(names) != sorted(ids) or bad:
    missing = [i for i in ids if i not in names]
    sys.exit(f"error: {', '.join(sys.argv[2:])}: {len(names)} results for {len(ids)} ids; "
             f"missing {missing[:5]}, without an estimate and interval {bad[:5]}")
print(f"a result with an estimate and its interval for each of the {len(ids)} ids")
PY
  exit 0
fi

# The file is nonempty-collections', byte for byte (its sha256 in the crate of 1.4.0).
(cd "$here" && sha256sum --check --quiet) <<<"$bench_sha256  benches/vec.rs"

cd "$here/../.."
listed="$(cargo bench -q -p divan-nonempty --bench vec -- --list --format terse | ids)"
if diff -u --label "ids.txt (divan 0.1.21)" --label "pilot-divan --list --format terse" \
  "$here/ids.txt" - <<<"$listed"; then
  echo "pilot-divan lists divan's $(wc -l < "$here/ids.txt") ids"
else
  echo "error: pilot-divan's ids differ from divan's (tests/divan-nonempty/ids.txt)" >&2
  exit 1
fi
