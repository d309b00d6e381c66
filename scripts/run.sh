#!/usr/bin/env bash
# Set up and start the web app on http://127.0.0.1:8000 (flags pass through to scopa serve).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/scopa serve "$@"
