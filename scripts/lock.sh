#!/usr/bin/env bash
# Refresh the lock (requirements/*.txt): every dependency of every install, pinned with hashes,
# resolved for every platform and Python 3.11+ by uv (`uv pip compile --universal`), and
# installed by plain pip (`pip install --require-hashes`), so users need nothing but pip.
#   bash scripts/lock.sh             re-resolve keeping current pins where they still fit
#   bash scripts/lock.sh --upgrade   take the newest releases (then run bash scripts/test.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
upgrade=()
[ "${1:-}" = "--upgrade" ] && upgrade=(--upgrade)
uv=${UV:-.venv/bin/uv}
if [ ! -x "$uv" ]; then
  uv=$(mktemp -d)/venv
  python3 -m venv "$uv" && "$uv/bin/pip" install -q uv && uv="$uv/bin/uv"
fi
compile() {  # compile OUT ARGS...: one lock file
  local out=$1; shift
  "$uv" pip compile --quiet --universal --python-version 3.11 --generate-hashes \
    --no-header --custom-compile-command "bash scripts/lock.sh" "${upgrade[@]}" \
    -o "requirements/$out.txt" "$@"
}
compile build requirements/build.in
compile core pyproject.toml                                       # pip install scopa
compile server pyproject.toml --extra server                      # scripts/run.sh
compile dev pyproject.toml --extra server --extra dev --extra rl --extra ray  # scripts/test.sh
# torch: the CPU build (PyPI's default Linux wheel is a CUDA build of several GB); pip finds
# it on a --find-links folder or the PyTorch CPU index
compile train pyproject.toml --extra train --no-emit-package torch
echo "lock written: requirements/{build,core,server,dev,train}.txt"
