#!/usr/bin/env bash
# Installs everything the tests need, then runs the whole suite: ruff, mypy, the shared engine
# contract check for every installed game, and pytest (last, so its summary closes the output).
set -euo pipefail
cd "$(dirname "$0")/.."

python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' || { echo "meeple needs Python 3.11 or newer" >&2; exit 1; }
python3 -m pip install --quiet --disable-pip-version-check -e '.[test,postgres]'

# System packages the server and browser tests use: Debian's chromium (driven through Playwright,
# whose own browser download cannot work here) and a PostgreSQL server for the PostgreSQL runs.
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v pg_ctlcluster >/dev/null 2>&1 || missing+=(postgresql)
if [ ${#missing[@]} -gt 0 ]; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    echo "== installing ${missing[*]}"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  else
    echo "missing ${missing[*]} and cannot install them here: those tests will be skipped (outside CI)" >&2
  fi
fi

start_postgres() {
  # A throwaway PostgreSQL on the loopback interface (Debian's default), for tests/server.
  command -v pg_ctlcluster >/dev/null 2>&1 && [ "$(id -u)" = 0 ] || return 1
  local version port
  version=$(ls /usr/lib/postgresql | sort -V | tail -1)
  pg_lsclusters -h | awk '{print $1, $2}' | grep -qx "$version main" || pg_createcluster "$version" main >/dev/null
  pg_ctlcluster "$version" main status >/dev/null 2>&1 || pg_ctlcluster "$version" main start
  port=$(pg_lsclusters -h | awk -v v="$version" '$1 == v && $2 == "main" {print $3}')
  su postgres -c "psql -p $port -qtAc \"SELECT 1 FROM pg_roles WHERE rolname = 'meeple_test'\"" | grep -q 1 \
    || su postgres -c "psql -p $port -qc \"CREATE ROLE meeple_test LOGIN PASSWORD 'meeple_test'\""
  su postgres -c "psql -p $port -qtAc \"SELECT 1 FROM pg_database WHERE datname = 'meeple_test'\"" | grep -q 1 \
    || su postgres -c "createdb -p $port -O meeple_test meeple_test"
  local url="postgresql+psycopg://meeple_test:meeple_test@127.0.0.1:$port/meeple_test"
  python3 -c "import sqlalchemy, sys; sqlalchemy.create_engine(sys.argv[1]).connect().close()" "$url" || return 1
  export MEEPLE_TEST_POSTGRES_URL="$url"
}
if [ -z "${MEEPLE_TEST_POSTGRES_URL:-}" ]; then
  echo "== PostgreSQL for the server tests"
  start_postgres || echo "no PostgreSQL server here: the PostgreSQL runs of tests/server will be skipped" >&2
fi

echo "== ruff"
python3 -m ruff check .
echo "== mypy"
python3 -m mypy
echo "== engine contract (../shared/checks/contract.py)"
if [ ! -f ../shared/checks/contract.py ]; then
  echo "../shared/checks/contract.py is missing: clone the repository beside shared/" >&2
  exit 1
fi
mapfile -t games < <(python3 -c 'import meeple; print("\n".join(meeple.game_names()))')
python3 ../shared/checks/contract.py "${games[@]}"
echo "== pytest"
python3 -m pytest -q -p no:cacheprovider "$@"
