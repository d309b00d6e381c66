#!/usr/bin/env bash
# Set up (system packages included) and run every check: ruff, mypy, the whole test suite,
# with the locked versions (requirements/dev.txt).
#   bash scripts/test.sh [PYTEST ARGS]            the checks CI runs
#   bash scripts/test.sh --latest [PYTEST ARGS]   the same against the newest releases (in
#                                                 .venv-latest), to see drift on purpose
# The server tests run on real PostgreSQL and Redis: the local ones if they answer (or
# SCOPA_TEST_DATABASE_URL / SCOPA_TEST_BROKER_URL), else private ones started for this run
# (see scripts/test_services.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
setup=(--dev)
export SCOPA_VENV=${SCOPA_VENV:-.venv}
if [ "${1:-}" = "--latest" ]; then
  shift
  setup+=(--latest)
  export SCOPA_VENV=.venv-latest
fi
bash scripts/setup.sh "${setup[@]}"
venv=$SCOPA_VENV
# shellcheck source=scripts/test_services.sh
source scripts/test_services.sh
trap stop_test_services EXIT
start_test_services
"$venv/bin/ruff" check src tests bench scripts
"$venv/bin/mypy"
# --dist loadgroup: the tests of one xdist_group (tests/arena/test_ray.py: one Ray cluster)
# run in one worker
"$venv/bin/python" -m pytest -n 2 --dist loadgroup "$@"
# the playout, world-sampling and scoring tests once more on the pure-Python path (the
# compiled kernel is what the run above used where it is built)
SCOPA_PURE_PYTHON=1 "$venv/bin/python" -m pytest -n 2 -q -m "not kernel" tests/engine/test_kernel.py \
  tests/engine/test_properties.py tests/bots/test_kernel_worlds.py tests/bots/test_search.py
