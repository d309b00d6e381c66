#!/usr/bin/env bash
# Install scopa on a fresh Debian machine: the system packages it needs, a virtual environment,
# and the package with the locked versions of its dependencies (requirements/*.txt, pinned
# with hashes; bash scripts/lock.sh refreshes them).
#   bash scripts/setup.sh            the web app: the server extra (what scripts/run.sh needs)
#   bash scripts/setup.sh --core     the core only: engine, bots, arena, bot protocol, terminal
#   bash scripts/setup.sh --dev      everything the checks and tests need (server, dev, rl, ray),
#                                    Chromium for the browser tests, axe-core for accessibility
#   bash scripts/setup.sh --dev --latest
#                                    the same with the newest releases instead of the lock, in
#                                    .venv-latest (scripts/test.sh --latest), to see drift on purpose
# The virtual environment is .venv (SCOPA_VENV names another).
set -euo pipefail
cd "$(dirname "$0")/.."
mode=server
latest=0
for arg in "$@"; do
  case "$arg" in
    --dev) mode=dev ;;
    --core) mode=core ;;
    --latest) latest=1 ;;
    *) echo "setup.sh: unknown option $arg (--core, --dev, --latest)" >&2; exit 2 ;;
  esac
done
venv=${SCOPA_VENV:-.venv}
[ "$latest" = 1 ] && venv=${SCOPA_VENV:-.venv-latest}

# system packages, only what is missing: where Node.js comes from NodeSource it carries its
# own npm, and asking apt for Debian's npm beside it fails ("held broken packages")
missing=()
python3 -c 'import ensurepip, venv' 2>/dev/null || missing+=(python3-venv)
if [ "$mode" = dev ]; then
  [ -x /usr/bin/chromium ] || missing+=(chromium)
  command -v npm >/dev/null || missing+=(npm)
  # a C compiler and the Python headers build the optional kernel (src/scopa/_kernel.c);
  # without them pip skips it and everything runs on the pure-Python path
  command -v gcc >/dev/null || missing+=(gcc)
  # pg_dump and pg_restore: scopa admin backup / restore of a PostgreSQL database
  command -v pg_dump >/dev/null || missing+=(postgresql-client)
  # nginx in front of two workers (tests/server/ops/test_nginx.py runs it, unprivileged)
  command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || missing+=(nginx-light)
  python3 -c 'import sysconfig, os, sys; sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))' \
    || missing+=(python3-dev)
fi
if [ "${#missing[@]}" -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
pip=("$venv/bin/python" -m pip install -q)
case "$mode" in
  core) extras="" ;;
  server) extras="[server]" ;;
  dev) extras="[server,dev,rl,ray]" ;;
esac
if [ "$latest" = 1 ]; then
  "${pip[@]}" --upgrade pip setuptools wheel
  "${pip[@]}" --upgrade --upgrade-strategy eager -e ".$extras"
  "$venv/bin/python" -m pip list --format=freeze > "$venv/latest-versions.txt"
  echo "newest releases installed in $venv (list: $venv/latest-versions.txt)"
else
  # the lock first (every version pinned, every file checked against its hash), then the
  # package itself, built with the locked setuptools and nothing else pulled in
  "${pip[@]}" --require-hashes -r requirements/build.txt
  "${pip[@]}" --require-hashes -r "requirements/$mode.txt"
  "${pip[@]}" --no-deps --no-build-isolation -e .
fi
if "$venv/bin/python" -c 'import scopa._kernel' 2>/dev/null; then
  echo "compiled kernel built (scopa._kernel)"
else
  echo "compiled kernel not built (no C compiler or Python headers?): pure-Python playouts" >&2
fi
if [ "$mode" = dev ]; then
  # axe-core, the accessibility checker the browser tests inject (tests/web/package.json)
  npm ci --prefix tests/web --no-audit --no-fund --silent
fi
