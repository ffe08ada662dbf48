#!/usr/bin/env bash
# A throwaway PostgreSQL server on loopback, from Debian's packages, for the history's tests and
# bars (`.ci/run`, `lab/history-changes.sh`).
#
#   bash tests/history/postgres.sh start DIR [PORT]   prints the URL of a server in DIR (new, or
#                                                     the one stopped there)
#   bash tests/history/postgres.sh stop DIR           stops it (DIR is kept; remove it after)
#
# The server trusts local connections of its superuser `pilot` (a test server: nothing else
# listens on its port, and it holds nothing worth a password). As root, it runs as the
# `postgres` user, since PostgreSQL refuses to run as root.
set -euo pipefail
action=${1:?start or stop}
dir=${2:?the folder of the server}
port=${3:-54329}
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
if [ -z "$bin" ]; then
  echo "postgresql is not installed (apt-get install postgresql)" >&2
  exit 1
fi
as_server=()
if [ "$(id -u)" -eq 0 ]; then
  as_server=(runuser -u postgres --)
fi
case $action in
  start)
    mkdir -p "$dir"
    if [ "$(id -u)" -eq 0 ]; then chown postgres "$dir"; fi
    # A server stopped before starts again with its data.
    if [ ! -d "$dir/data" ]; then
      "${as_server[@]}" "$bin/initdb" -D "$dir/data" -U pilot --auth=trust -E UTF8 >"$dir/initdb.log" 2>&1
    fi
    "${as_server[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
      -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off" start >/dev/null
    echo "postgres://pilot@127.0.0.1:$port/postgres"
    ;;
  stop)
    "${as_server[@]}" "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null
    ;;
  *)
    echo "start or stop, not $action" >&2
    exit 2
    ;;
esac
