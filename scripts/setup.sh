#!/usr/bin/env bash
# Install everything scopa needs on a fresh Debian machine: system packages (with --dev,
# Chromium for the browser tests), a virtual environment in .venv, and the package.
set -euo pipefail
cd "$(dirname "$0")/.."
dev=0
[ "${1:-}" = "--dev" ] && dev=1
if [ "$dev" = 1 ]; then
  # Only what is missing: where Node.js comes from NodeSource it carries its own npm, and
  # asking apt for Debian's npm beside it fails ("held broken packages").
  missing=()
  [ -x /usr/bin/chromium ] || missing+=(chromium)
  command -v npm >/dev/null || missing+=(npm)
  # a C compiler and the Python headers build the optional kernel (src/scopa/_kernel.c);
  # without them pip skips it and everything runs on the pure-Python path
  command -v gcc >/dev/null || missing+=(gcc)
  python3 -c 'import sysconfig, os, sys; sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))' \
    || missing+=(python3-dev)
  if [ "${#missing[@]}" -gt 0 ]; then
    if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
fi
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
.venv/bin/python -m pip install -q --upgrade pip
if [ "$dev" = 1 ]; then
  .venv/bin/python -m pip install -q -e '.[dev,rl,ray]'
else
  .venv/bin/python -m pip install -q -e .
fi
if .venv/bin/python -c 'import scopa._kernel' 2>/dev/null; then
  echo "compiled kernel built (scopa._kernel)"
else
  echo "compiled kernel not built (no C compiler or Python headers?): pure-Python playouts" >&2
fi
if [ "$dev" = 1 ]; then
  # axe-core, the accessibility checker the browser tests inject (tests/web/package.json)
  npm ci --prefix tests/web --no-audit --no-fund --silent
fi
