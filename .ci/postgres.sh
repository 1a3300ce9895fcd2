# Starts a throwaway PostgreSQL cluster for the store tests and exports its
# DSN as TANKBOT_TEST_POSTGRES; the cluster is stopped and removed when the
# shell that sourced this file exits (or on `tankbot_pg_stop`).
#
#   source .ci/postgres.sh && go test ./store/...
#
# Uses Debian's packages (installed with apt-get when missing and running as
# root). PostgreSQL refuses to run as root, so as root the server runs as the
# `postgres` system user the package creates. It listens only on a unix
# socket inside its temporary directory: no port to collide with.
# TANKBOT_PG_OPTS adds server options (e.g. "-c fsync=off").

tankbot_pg_bindir() {
  local d
  if command -v initdb >/dev/null 2>&1 && command -v pg_ctl >/dev/null 2>&1; then
    dirname "$(command -v initdb)"
    return 0
  fi
  for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
    if [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ]; then
      echo "$d"
      return 0
    fi
  done
  return 1
}

tankbot_pg_start() {
  local bindir as=()
  if ! bindir=$(tankbot_pg_bindir); then
    if [ "$(id -u)" = 0 ]; then
      echo "== installing PostgreSQL (apt-get)"
      apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
      bindir=$(tankbot_pg_bindir) || { echo "postgres.sh: initdb not found after installing postgresql" >&2; return 1; }
    else
      echo "postgres.sh: initdb/pg_ctl not found; install PostgreSQL (Debian: sudo apt-get install postgresql)" >&2
      return 1
    fi
  fi
  TANKBOT_PG_DIR=$(mktemp -d "${TMPDIR:-/tmp}/tankbot-pg.XXXXXX")
  if [ "$(id -u)" = 0 ]; then
    id postgres >/dev/null 2>&1 || { echo "postgres.sh: running as root but there is no postgres user" >&2; return 1; }
    chown postgres: "$TANKBOT_PG_DIR"
    as=(runuser -u postgres --)
  fi
  TANKBOT_PG_AS=("${as[@]}")
  TANKBOT_PG_BIN=$bindir
  "${as[@]}" "$bindir/initdb" -D "$TANKBOT_PG_DIR/data" -U postgres -A trust -E UTF8 --no-sync >"$TANKBOT_PG_DIR/initdb.log" 2>&1 \
    || { cat "$TANKBOT_PG_DIR/initdb.log" >&2; return 1; }
  # No TCP (listen_addresses ''), the socket in our directory.
  "${as[@]}" "$bindir/pg_ctl" -D "$TANKBOT_PG_DIR/data" -l "$TANKBOT_PG_DIR/server.log" -w -s \
    -o "-c listen_addresses='' -k $TANKBOT_PG_DIR -c max_connections=200 ${TANKBOT_PG_OPTS:-}" start \
    || { cat "$TANKBOT_PG_DIR/server.log" >&2; return 1; }
  export TANKBOT_TEST_POSTGRES="postgres://postgres@/postgres?host=$TANKBOT_PG_DIR&sslmode=disable"
  trap tankbot_pg_stop EXIT
  echo "== $("$bindir/pg_ctl" --version) at $TANKBOT_PG_DIR (TANKBOT_TEST_POSTGRES set)"
}

tankbot_pg_stop() {
  [ -n "${TANKBOT_PG_DIR:-}" ] || return 0
  "${TANKBOT_PG_AS[@]}" "$TANKBOT_PG_BIN/pg_ctl" -D "$TANKBOT_PG_DIR/data" -m fast -w -s stop >/dev/null 2>&1 || true
  rm -rf "$TANKBOT_PG_DIR"
  unset TANKBOT_PG_DIR TANKBOT_TEST_POSTGRES
}

tankbot_pg_start
