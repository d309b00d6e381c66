#!/usr/bin/env bash
# Set up (system packages included) and run every check: ruff, mypy, the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --dev
.venv/bin/ruff check src tests bench scripts
.venv/bin/mypy
.venv/bin/python -m pytest -n 2 "$@"
