# Real PostgreSQL and Redis for the test suite; sourced by scripts/test.sh.
#
# start_test_services uses the ones answering at their default local addresses
# (127.0.0.1:${SCOPA_TEST_PG_PORT:-5432} as user postgres without a password, and
# 127.0.0.1:${SCOPA_TEST_REDIS_PORT:-6379}; point those at unused ports to try the private
# path) unless SCOPA_TEST_DATABASE_URL /
# SCOPA_TEST_BROKER_URL name others. Where none answers it installs the server with apt-get
# (if missing) and starts a private one on a free port in a temporary directory, for this
# run only; stop_test_services stops what was started here and removes the directory.
# Either way the URLs are exported for pytest.

TEST_SERVICES_DIR=""
TEST_PG_BIN=""
TEST_APT_UPDATED=0

_as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
# PostgreSQL refuses to run as root: as root, run it as the postgres user the package made
_as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

_apt_install() {
  if [ "$TEST_APT_UPDATED" = 0 ]; then
    _as_root apt-get update -qq
    TEST_APT_UPDATED=1
  fi
  DEBIAN_FRONTEND=noninteractive _as_root apt-get install -y -qq "$@" >/dev/null
}

_probe() { "${SCOPA_VENV:-.venv}/bin/python" scripts/probe_service.py "$@"; }

# a free port: one the system picks, or the first free one in SCOPA_TEST_PORT_RANGE ("lo-hi")
_free_port() {
  "${SCOPA_VENV:-.venv}/bin/python" - "${SCOPA_TEST_PORT_RANGE:-}" <<'PY'
import socket, sys
lo, _, hi = sys.argv[1].partition("-")
for port in range(int(lo), int(hi) + 1) if lo else [0]:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            continue
        print(s.getsockname()[1])
        break
else:
    sys.exit("no free port in SCOPA_TEST_PORT_RANGE")
PY
}

_services_dir() {
  if [ -z "$TEST_SERVICES_DIR" ]; then
    TEST_SERVICES_DIR=$(mktemp -d "${TMPDIR:-/tmp}/scopa-test-services.XXXXXX")
    chmod 755 "$TEST_SERVICES_DIR"
  fi
}

_pg_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }

start_private_postgres() {
  TEST_PG_BIN=$(_pg_bin)
  if [ -z "$TEST_PG_BIN" ]; then
    _apt_install postgresql
    TEST_PG_BIN=$(_pg_bin)
  fi
  _services_dir
  local dir="$TEST_SERVICES_DIR/pg" port
  mkdir -p "$dir"
  [ "$(id -u)" = 0 ] && chown postgres: "$dir"
  port=$(_free_port)
  _as_pg "$TEST_PG_BIN/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --no-sync \
    >"$dir/initdb.log"
  # a throwaway instance: durability of PostgreSQL itself is not under test (the server
  # under test is what gets killed), so skip its disk flushes
  _as_pg "$TEST_PG_BIN/pg_ctl" -D "$dir/data" -l "$dir/postgres.log" -w -o \
    "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off" \
    start >/dev/null
  export SCOPA_TEST_DATABASE_URL="postgresql://postgres@127.0.0.1:$port/postgres"
  _probe postgres "$SCOPA_TEST_DATABASE_URL" --wait 30
  echo "test services: started a private PostgreSQL on 127.0.0.1:$port"
}

start_private_redis() {
  command -v redis-server >/dev/null || _apt_install redis-server
  _services_dir
  local port
  port=$(_free_port)
  redis-server --port "$port" --bind 127.0.0.1 --daemonize yes --save '' --appendonly no \
    --dir "$TEST_SERVICES_DIR" --pidfile "$TEST_SERVICES_DIR/redis.pid" \
    --logfile "$TEST_SERVICES_DIR/redis.log"
  export SCOPA_TEST_BROKER_URL="redis://127.0.0.1:$port/0"
  _probe redis "$SCOPA_TEST_BROKER_URL" --wait 30
  echo "test services: started a private Redis on 127.0.0.1:$port"
}

start_test_services() {
  local pg_url="postgresql://postgres@127.0.0.1:${SCOPA_TEST_PG_PORT:-5432}/postgres"
  local redis_url="redis://127.0.0.1:${SCOPA_TEST_REDIS_PORT:-6379}/0"
  if [ -z "${SCOPA_TEST_DATABASE_URL:-}" ]; then
    if _probe postgres "$pg_url"; then
      export SCOPA_TEST_DATABASE_URL="$pg_url"
    else
      start_private_postgres
    fi
  fi
  if [ -z "${SCOPA_TEST_BROKER_URL:-}" ]; then
    if _probe redis "$redis_url"; then
      export SCOPA_TEST_BROKER_URL="$redis_url"
    else
      start_private_redis
    fi
  fi
  echo "test services: PostgreSQL $SCOPA_TEST_DATABASE_URL, Redis $SCOPA_TEST_BROKER_URL"
}

stop_test_services() {
  if [ -n "$TEST_PG_BIN" ] && [ -d "$TEST_SERVICES_DIR/pg/data" ]; then
    _as_pg "$TEST_PG_BIN/pg_ctl" -D "$TEST_SERVICES_DIR/pg/data" -m immediate -w stop \
      >/dev/null 2>&1 || true
  fi
  if [ -n "$TEST_SERVICES_DIR" ] && [ -f "$TEST_SERVICES_DIR/redis.pid" ]; then
    kill "$(cat "$TEST_SERVICES_DIR/redis.pid")" 2>/dev/null || true
  fi
  if [ -n "$TEST_SERVICES_DIR" ]; then
    rm -rf "$TEST_SERVICES_DIR"
  fi
}
