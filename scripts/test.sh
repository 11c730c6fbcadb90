#!/usr/bin/env bash
# Installs everything the tests need, then runs the whole suite: ruff, mypy, the shared engine
# contract check for every installed game, and pytest (last, so its summary closes the output).
set -euo pipefail
cd "$(dirname "$0")/.."

python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' || { echo "meeple needs Python 3.11 or newer" >&2; exit 1; }
python3 -m pip install --quiet --disable-pip-version-check -e '.[test]'

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
