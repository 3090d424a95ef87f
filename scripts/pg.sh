#!/usr/bin/env bash
# Throwaway PostgreSQL server on loopback for the test run, from Debian's package.
#
#   scripts/pg.sh start   # install (if needed), initdb, start; prints the URL as the last stdout line
#   scripts/pg.sh stop    # stop the cluster if running
#
# Env: PGTEST_DIR  (default /tmp/faultline-pg)  cluster + logs live here
#      PGTEST_PORT (default 55432)              TCP port on 127.0.0.1
#
# Layout: $PGTEST_DIR/data (PGDATA, also the unix socket dir), $PGTEST_DIR/pg.sh.log
# (this script's log) and $PGTEST_DIR/postgres.log (server log).
# This cluster is independent of Debian's default "main" cluster (port 5432,
# socket in /var/run/postgresql): own data dir, own port, own socket dir.
set -Eeuo pipefail

readonly DB_NAME=faultline_test
readonly DB_USER=faultline
readonly DB_PASS=faultline

PGTEST_DIR=${PGTEST_DIR:-/tmp/faultline-pg}
PGTEST_PORT=${PGTEST_PORT:-55432}

# Caller's libpq env (PGHOST, PGUSER, PGOPTIONS, ...) must not redirect our admin commands.
while IFS= read -r var; do
  case $var in PGTEST_*) ;; *) unset "$var" ;; esac
done < <(compgen -e | grep '^PG' || true)

err() { printf 'pg.sh: error: %s\n' "$*" >&"${ERR_FD:-2}"; }
die() {
  err "$*"
  [[ -n ${LOG:-} && -f $LOG ]] && printf 'pg.sh: see %s (and %s)\n' "$LOG" "$SERVER_LOG" >&"${ERR_FD:-2}"
  exit 1
}
on_err() {
  local rc=$? line=$1
  err "command failed (exit $rc) at line $line: $BASH_COMMAND"
  if [[ -n ${LOG:-} && -f $LOG ]]; then
    printf -- '--- last lines of %s ---\n' "$LOG" >&"${ERR_FD:-2}"
    tail -n 20 "$LOG" >&"${ERR_FD:-2}" || true
  fi
  exit "$rc"
}
trap 'on_err $LINENO' ERR

usage() { printf 'usage: %s start|stop\n' "$0" >&2; exit 2; }

[[ $# -eq 1 ]] || usage
CMD=$1
[[ $CMD == start || $CMD == stop ]] || usage
if ! [[ $PGTEST_PORT =~ ^[0-9]{1,5}$ ]] || ((10#$PGTEST_PORT < 1 || 10#$PGTEST_PORT > 65535)); then
  die "PGTEST_PORT must be a TCP port number, got '$PGTEST_PORT'"
fi

PGTEST_DIR=$(realpath -m -- "$PGTEST_DIR")
[[ $PGTEST_DIR != / ]] || die "refusing to use / as PGTEST_DIR"
readonly PGDATA_DIR=$PGTEST_DIR/data
readonly LOG=$PGTEST_DIR/pg.sh.log
readonly SERVER_LOG=$PGTEST_DIR/postgres.log

# Run from a directory every user can read; otherwise initdb/pg_ctl run as
# `postgres` complain "could not change directory to /root".
cd /

# Newest installed server version, e.g. /usr/lib/postgresql/15/bin ("" if none).
find_bindir() {
  local d best=""
  for d in /usr/lib/postgresql/*/bin; do
    [[ -x $d/initdb && -x $d/pg_ctl && -x $d/postgres ]] || continue
    if [[ -z $best ]] || [[ $(printf '%s\n%s\n' "$best" "$d" | sort -V | tail -n 1) == "$d" ]]; then
      best=$d
    fi
  done
  printf '%s' "$best"
}

# initdb/postgres refuse to run as root, so when we are root every server-side
# command runs as the `postgres` OS user (created by the Debian package).
as_pg() {
  if ((EUID == 0)); then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

# pg_ctl status: 0 = running, 3 = not running, 4 = no usable data dir.
cluster_running() {
  [[ -f $PGDATA_DIR/PG_VERSION ]] || return 1
  as_pg "$BINDIR/pg_ctl" status -D "$PGDATA_DIR" >/dev/null 2>&1
}

# Port the running postmaster listens on (line 4 of postmaster.pid).
running_port() { sed -n 4p "$PGDATA_DIR/postmaster.pid" 2>/dev/null || true; }

admin_psql() {
  # Superuser over the unix socket in the data dir (0700, so only postgres/root can reach it).
  as_pg "$BINDIR/psql" -X -q -v ON_ERROR_STOP=1 -h "$PGDATA_DIR" -p "$PGTEST_PORT" -U postgres -d postgres "$@"
}

install_postgres() {
  ((EUID == 0)) || die "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin) and installing it needs root"
  echo "== installing postgresql from apt"
  # Non-interactive and no stdin, so it works under CI=true. The package's
  # postinst may create/start a default cluster on 5432; we don't rely on it,
  # and tolerate its failure as long as the binaries landed.
  if ! { apt-get update -qq &&
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
      -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold postgresql; } </dev/null; then
    echo "!! apt-get returned non-zero; checking whether the binaries are usable anyway"
  fi
}

write_conf() {
  # Rewritten on every start so a changed PGTEST_PORT takes effect.
  # fsync/synchronous_commit/full_page_writes off: data is disposable, and
  # skipping durability makes the test suite much faster. Never do this in prod.
  as_pg tee "$PGDATA_DIR/faultline.conf" >/dev/null <<EOF
listen_addresses = '127.0.0.1'
port = $PGTEST_PORT
unix_socket_directories = '$PGDATA_DIR'
fsync = off
synchronous_commit = off
full_page_writes = off
# What README.md asks of a PostgreSQL that keeps 90 days of day partitions (faultline doctor checks it).
max_locks_per_transaction = 256
EOF
}

init_cluster() {
  if [[ -e $PGDATA_DIR ]]; then
    # Half-initialised or made by another major version: it's throwaway, redo it.
    echo "== removing unusable data dir $PGDATA_DIR"
    rm -rf -- "$PGDATA_DIR"
  fi
  echo "== initdb $PGDATA_DIR"
  # Explicit locale: the container may not have the caller's $LANG generated.
  as_pg "$BINDIR/initdb" -D "$PGDATA_DIR" -U postgres -E UTF8 --locale=C.UTF-8 \
    --auth=trust </dev/null
  # Trust on 127.0.0.1 only (plus the 0700 socket dir for our own admin connection).
  as_pg tee "$PGDATA_DIR/pg_hba.conf" >/dev/null <<'EOF'
# TYPE  DATABASE  USER  ADDRESS        METHOD
local   all       all                  trust
host    all       all   127.0.0.1/32   trust
EOF
  printf "\ninclude_if_exists = 'faultline.conf'\n" | as_pg tee -a "$PGDATA_DIR/postgresql.conf" >/dev/null
}

wait_ready() {
  local i
  for ((i = 0; i < 60; i++)); do
    if "$BINDIR/pg_isready" -q -h 127.0.0.1 -p "$PGTEST_PORT" -t 1 </dev/null; then
      return 0
    fi
    sleep 0.5
  done
  die "server did not become ready on 127.0.0.1:$PGTEST_PORT"
}

ensure_db() {
  echo "== ensuring role $DB_USER and database $DB_NAME"
  # \gexec runs each generated statement on its own (CREATE DATABASE can't be in a transaction).
  admin_psql -f - <<EOF
SELECT format('CREATE ROLE %I LOGIN', '$DB_USER')
  WHERE NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '$DB_USER') \gexec
ALTER ROLE "$DB_USER" LOGIN CREATEDB PASSWORD '$DB_PASS';
-- Tests drop their databases WITH (FORCE), which ends every session on them: an autovacuum worker's too, which only
-- members of pg_signal_backend may end (else the drop fails with 42501 whenever autovacuum happens to be there).
GRANT pg_signal_backend TO "$DB_USER";
SELECT format('CREATE DATABASE %I OWNER %I', '$DB_NAME', '$DB_USER')
  WHERE NOT EXISTS (SELECT 1 FROM pg_database WHERE datname = '$DB_NAME') \gexec
EOF
}

# ---- stop --------------------------------------------------------------------
if [[ $CMD == stop ]]; then
  BINDIR=$(find_bindir)
  if [[ -z $BINDIR || ! -f $PGDATA_DIR/PG_VERSION ]]; then
    exit 0 # nothing installed or never initialised: nothing to stop
  fi
  if cluster_running; then
    if [[ -d $PGTEST_DIR && -w $PGTEST_DIR ]]; then
      as_pg "$BINDIR/pg_ctl" stop -D "$PGDATA_DIR" -m fast -w </dev/null >>"$LOG" 2>&1 ||
        die "pg_ctl stop failed"
    else
      as_pg "$BINDIR/pg_ctl" stop -D "$PGDATA_DIR" -m fast -w </dev/null >/dev/null ||
        die "pg_ctl stop failed"
    fi
  fi
  exit 0
fi

# ---- start -------------------------------------------------------------------
mkdir -p -- "$PGTEST_DIR"
# From here on: stdout/stderr go to the log; fd 3 = real stdout (URL), fd 4 = real stderr.
exec 3>&1 4>&2 >>"$LOG" 2>&1
ERR_FD=4
echo "== $(date -u +%FT%TZ) pg.sh start (dir=$PGTEST_DIR port=$PGTEST_PORT)"

# Serialise concurrent starts (e.g. parallel test workers) on the same dir.
exec 9>"$PGTEST_DIR/.lock"
flock -w 300 9 || die "timed out waiting for lock $PGTEST_DIR/.lock"

BINDIR=$(find_bindir)
if [[ -z $BINDIR ]]; then
  install_postgres
  BINDIR=$(find_bindir)
  [[ -n $BINDIR ]] || die "postgresql install did not provide /usr/lib/postgresql/*/bin/{initdb,pg_ctl,postgres}"
fi
MAJOR=$(basename "$(dirname "$BINDIR")")
echo "== using $BINDIR (major $MAJOR)"

if ((EUID == 0)); then
  id postgres >/dev/null 2>&1 || die "OS user 'postgres' is missing (normally created by the postgresql package)"
  chown postgres: "$PGTEST_DIR"
  chmod 0755 "$PGTEST_DIR"
  # The server log is opened by pg_ctl running as postgres.
  touch "$SERVER_LOG" && chown postgres: "$SERVER_LOG"
fi
as_pg test -w "$PGTEST_DIR" -a -x "$PGTEST_DIR" ||
  die "the server's OS user cannot write $PGTEST_DIR (is a parent directory not traversable?)"

if cluster_running; then
  port=$(running_port)
  [[ $port == "$PGTEST_PORT" ]] ||
    die "cluster in $PGDATA_DIR is already running on port ${port:-?}, not $PGTEST_PORT; run 'scripts/pg.sh stop' first"
  echo "== already running on port $PGTEST_PORT"
else
  if [[ $(cat "$PGDATA_DIR/PG_VERSION" 2>/dev/null || true) != "$MAJOR" ]]; then
    init_cluster
  fi
  # Something else (e.g. another cluster) on our port would make the start fail
  # confusingly, and we must never hand out a URL to a server we don't own.
  if "$BINDIR/pg_isready" -q -h 127.0.0.1 -p "$PGTEST_PORT" -t 1 </dev/null; then
    die "port $PGTEST_PORT on 127.0.0.1 is already used by another server; set PGTEST_PORT to a free port"
  fi
  write_conf
  echo "== starting server"
  # Close fds 3/4 (caller's stdout/stderr) and 9 (lock) for the daemon: otherwise
  # the postmaster inherits them, `$(pg.sh start)` never sees EOF and the lock is never released.
  as_pg "$BINDIR/pg_ctl" start -D "$PGDATA_DIR" -l "$SERVER_LOG" -w -t 60 </dev/null 3>&- 4>&- 9>&- || {
    tail -n 20 "$SERVER_LOG" >&4 || true
    die "pg_ctl start failed"
  }
fi

wait_ready
ensure_db
echo "== ready"
printf 'postgres://%s:%s@127.0.0.1:%s/%s\n' "$DB_USER" "$DB_PASS" "$PGTEST_PORT" "$DB_NAME" >&3
