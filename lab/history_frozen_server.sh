#!/usr/bin/env bash
# How long `cargo pilot history add` takes to give up on a PostgreSQL server that stops
# answering in the middle of a statement (every process of the server stopped with SIGSTOP:
# the kernel still takes connections and acknowledges bytes), and that it waits for a server
# that is alive but slow (another session holds the lock its statement needs), on a throwaway
# server on loopback (tests/history/postgres.sh). The end-to-end tests cannot stop a shared
# server; this measures what they leave out.
#
#   bash lab/history_frozen_server.sh [CARGO_PILOT] [LIMIT]
#
# CARGO_PILOT: the binary (default target/debug/cargo-pilot); LIMIT: the connection string's
# connect_timeout in seconds (default 2). Expected: the frozen server given up after about
# twice LIMIT (exit 1), the slow one waited for until its lock goes (exit 0).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
exe=${1:-$here/target/debug/cargo-pilot}
limit=${2:-2}
port=54339
dir=$(mktemp -d)
chmod 755 "$dir" # the server runs as `postgres` when this runs as root
bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
url=$(bash "$here/tests/history/postgres.sh" start "$dir/server" "$port")
trap 'bash "$here/tests/history/postgres.sh" stop "$dir/server" || true; rm -rf "$dir"' EXIT
"$bin/psql" -q "$url" -c "CREATE DATABASE lab"
db="${url%/*}/lab"
run() { # a run document of one result started at second $1
  printf '{"schema":"pilot.run/1","results":[{"schema":"pilot.result/1","name":"b","target":"t","status":"ok","pis":[{"name":"time","unit":"ns","mean":10.0,"ci":{"low":9.9,"high":10.1,"confidence":0.95}}],"processes":{"count":3,"means":[10,10,10]},"machine":{"cpu":"c","cores":1,"os":"linux","arch":"x","pilot":"0.1.0"},"started":"2026-01-01T00:00:%02dZ"}]}' "$1" >"$dir/run-$1.json"
  echo "$dir/run-$1.json"
}
add() { # history add of run $1; prints the exit code and the seconds it took
  local start end code=0
  start=$(date +%s.%N)
  (cd "$dir" && "$exe" pilot history add --run "$(run "$1")" --history "$db?connect_timeout=$limit" \
    --target-dir "$dir/target" >/dev/null 2>"$dir/err-$1") || code=$?
  end=$(date +%s.%N)
  printf 'exit %s after %.2f s: %s\n' "$code" "$(echo "$end - $start" | bc)" "$(tail -c 300 "$dir/err-$1" | tr '\n' ' ')"
}
lock() { # holds the lock on `runs` for $1 seconds, in the background
  "$bin/psql" -q "$db" -c "BEGIN; LOCK TABLE runs IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep($1); COMMIT;" \
    >/dev/null 2>&1 &
  sleep 0.5
}
add 0 >/dev/null # the schema

echo "== alive, its lock held for $((3 * limit)) s (limit $limit s)"
lock $((3 * limit))
add 1
wait

echo "== frozen mid-statement (every server process stopped 1 s after the statement)"
lock 10
add 2 &
adder=$!
sleep 1
postmaster=$(head -1 "$dir/server/data/postmaster.pid")
server=("$postmaster" $(pgrep -P "$postmaster"))
kill -STOP "${server[@]}"
wait "$adder"
kill -CONT "${server[@]}"
wait
