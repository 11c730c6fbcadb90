#!/usr/bin/env bash
# The whole test suite: ruff, mypy, then pytest (last, so its summary closes the output).
#
#   bash scripts/test.sh [--system] [pytest arguments…]
#
# It works in a virtual environment: the active one ($VIRTUAL_ENV), else .venv in the repository
# (made with `python3 -m venv` if missing, as README's first command does), so it runs on a system
# Python that refuses `pip install` (PEP 668). It installs meeple with its test extras there and
# changes nothing else on the machine unless asked:
#
#   --system  (or MEEPLE_TEST_SYSTEM=1; CI's .ci/run asks for it) as root on Debian: install the
#             missing Debian packages the browser, database, multi-process and deployment tests need
#             (chromium, postgresql, redis-server, nginx, gcc; nginx's own service is not started), create a
#             throwaway PostgreSQL test database on the loopback interface and start the cluster if it
#             is stopped, and start a throwaway Redis on a free loopback port; what it started is
#             stopped again at the end.
#
# Without it, whatever services exist are used (tests/services.py finds them the same way when pytest
# runs alone) and the tests of a missing one are skipped, each with its reason.
set -euo pipefail
cd "$(dirname "$0")/.."

system=${MEEPLE_TEST_SYSTEM:-0}
if [ "${1:-}" = "--system" ]; then
  system=1
  shift
fi

if [ -n "${VIRTUAL_ENV:-}" ]; then
  python="$VIRTUAL_ENV/bin/python"
else
  [ -x .venv/bin/python ] || python3 -m venv .venv
  python=.venv/bin/python
fi
"$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' || { echo "meeple needs Python 3.11 or newer" >&2; exit 1; }
echo "== installing meeple and its test tools into $("$python" -c 'import sys; print(sys.prefix)')"
"$python" -m pip install --quiet --disable-pip-version-check -e '.[test,postgres,research,ray,bench]'

stop_cluster=""
redis_dir=""
cleanup() {
  if [ -n "$stop_cluster" ]; then
    echo "== stopping the PostgreSQL cluster this run started ($stop_cluster)"
    pg_ctlcluster $stop_cluster stop || true
  fi
  if [ -n "$redis_dir" ]; then
    echo "== stopping the Redis this run started"
    [ ! -f "$redis_dir/redis.pid" ] || kill "$(cat "$redis_dir/redis.pid")" 2>/dev/null || true
    rm -rf "$redis_dir"
  fi
}
trap cleanup EXIT

install_system_packages() {
  # Debian's chromium (Playwright drives it: its own browser download cannot work here), PostgreSQL,
  # Redis, nginx (tests/server/test_deploy_nginx.py runs docs/deploy/nginx-meeple.conf) and a C compiler
  # (tests/test_compiled.py builds the compiled engines, docs/compiled.md).
  local missing=()
  command -v gcc >/dev/null 2>&1 || missing+=(gcc)
  command -v chromium >/dev/null 2>&1 || missing+=(chromium)
  command -v pg_ctlcluster >/dev/null 2>&1 || missing+=(postgresql)
  command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
  command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || missing+=(nginx)
  [ ${#missing[@]} -gt 0 ] || return 0
  echo "== installing ${missing[*]}"
  apt-get update -qq
  local rest=() package
  for package in "${missing[@]}"; do [ "$package" = nginx ] || rest+=("$package"); done
  [ ${#rest[@]} -eq 0 ] || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${rest[@]}" >/dev/null
  [ ${#rest[@]} -eq ${#missing[@]} ] || install_nginx_stopped
}

install_nginx_stopped() {
  # The nginx test runs nginx itself; Debian's package would also start a site on port 80 (and fail
  # to install if that port is taken), so its start is refused the Debian way, with policy-rc.d.
  local policy=/usr/sbin/policy-rc.d made=""
  if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod +x "$policy" && made=yes
  fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx >/dev/null || { [ -z "$made" ] || rm -f "$policy"; return 1; }
  [ -z "$made" ] || rm -f "$policy"
}

as_postgres() {  # from /, since the postgres user may not enter the folder we run in
  (cd / && su postgres -c "$1")
}

start_postgres() {
  # A throwaway database meeple_test (role meeple_test) on the newest cluster, reached over loopback.
  local version port
  version=$(ls /usr/lib/postgresql | sort -V | tail -1)
  pg_lsclusters -h | awk '{print $1, $2}' | grep -qx "$version main" || pg_createcluster "$version" main >/dev/null
  if ! pg_ctlcluster "$version" main status >/dev/null 2>&1; then
    pg_ctlcluster "$version" main start </dev/null
    stop_cluster="$version main"
  fi
  port=$(pg_lsclusters -h | awk -v v="$version" '$1 == v && $2 == "main" {print $3}')
  as_postgres "psql -p $port -qtAc \"SELECT 1 FROM pg_roles WHERE rolname = 'meeple_test'\"" | grep -q 1 \
    || as_postgres "psql -p $port -qc \"CREATE ROLE meeple_test LOGIN PASSWORD 'meeple_test'\""
  as_postgres "psql -p $port -qtAc \"SELECT 1 FROM pg_database WHERE datname = 'meeple_test'\"" | grep -q 1 \
    || as_postgres "createdb -p $port -O meeple_test meeple_test"
  export MEEPLE_TEST_POSTGRES_URL="postgresql+psycopg://meeple_test:meeple_test@127.0.0.1:$port/meeple_test"
}

start_redis() {
  # A throwaway Redis on a free loopback port, nothing saved to disk, for the multi-process tests.
  local port
  port=$("$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  redis_dir=$(mktemp -d)
  # Its standard input from /dev/null: started with none open, Redis 7.0 crashes at once (a file it
  # opens takes descriptor 0, which daemonizing then points at /dev/null).
  redis-server --bind 127.0.0.1 --port "$port" --save "" --appendonly no --daemonize yes \
    --dir "$redis_dir" --pidfile "$redis_dir/redis.pid" --logfile "$redis_dir/redis.log" </dev/null
  for _ in $(seq 1 50); do
    redis-cli -p "$port" ping 2>/dev/null | grep -q PONG && break
    sleep 0.1
  done
  redis-cli -p "$port" ping 2>/dev/null | grep -q PONG || { echo "the test Redis did not start:" >&2; tail -20 "$redis_dir/redis.log" >&2; exit 1; }
  export MEEPLE_TEST_REDIS_URL="redis://127.0.0.1:$port/0"
}

if [ "$system" = 1 ]; then
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "--system needs root on Debian or Ubuntu (apt-get); install chromium, postgresql, redis-server and nginx yourself" >&2
    exit 1
  fi
  install_system_packages
  echo "== PostgreSQL and Redis for the server tests"
  start_postgres
  start_redis
else
  echo "== no --system: nothing installed or started; tests of a missing service (chromium, PostgreSQL, Redis, nginx) are skipped"
fi

echo "== ruff"
"$python" -m ruff check .
echo "== mypy"
"$python" -m mypy
if [ -f ../shared/checks/contract.py ]; then
  # The outside contract check, when the shared folder happens to sit beside the repository; the
  # project's own tests/test_engine_contract.py holds the same checks and more.
  echo "== outside engine contract check (../shared/checks/contract.py)"
  mapfile -t games < <("$python" -c 'import meeple; print("\n".join(meeple.game_names()))')
  "$python" ../shared/checks/contract.py "${games[@]}"
fi
# One pytest-xdist worker per core (MEEPLE_TEST_WORKERS sets another count, 0 runs in this process;
# a later -n among the arguments wins). Tests that share an outside service are grouped in pyproject.toml.
# The 25 slowest tests are listed at the end, so a run shows where its time went.
workers=${MEEPLE_TEST_WORKERS:-auto}
echo "== pytest ($workers workers)"
"$python" -m pytest -q -p no:cacheprovider -n "$workers" --dist loadgroup --durations=25 "$@"
