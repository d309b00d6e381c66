"""Frozen bots: a level as it played at a pinned git commit, so later changes cannot move
the yardstick.

``champion-2026-12`` is the champion of commit 922e4b1 (December 2026), the one issue 17
measured against outside bots. Pinning parameters and weights would not freeze it: its
play runs through the engine, the world sampler, the play model, the rollouts, the round
value and the exact solver, and any of them may change (a compiled kernel, a learned
prior). Copying that code would be a second home for all of it. So the arena runs the
pinned commit's own code, unchanged, as an outside program speaking the bot protocol:

- the commit's ``src`` is extracted once with ``git archive`` into a cache directory
  (``$SCOPA_CACHE`` or ``~/.cache/scopa``, then ``frozen/<commit>``);
- ``champion-2026-12@N`` plays N simulations a move with no clock of its own, so that a
  measurement on a loaded machine does not depend on the load;
- each program is this Python with that ``src`` first on its path (``-I``: no
  ``PYTHONPATH``, no current directory), serving the level through the commit's own
  ``protocol.serve``. The pinned code needs nothing the current install lacks.

It needs a git checkout that holds the commit; elsewhere the spec fails with a clear
error. Each move costs a protocol round trip (well under a millisecond) on top of the
search, and the arena's time per move includes it.
"""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Frozen:
    """A level at a commit."""

    commit: str
    level: str


FROZEN: dict[str, Frozen] = {
    "champion-2026-12": Frozen("922e4b156477b88a81df9009d6fa36479130438e", "champion"),
}

#: run inside the frozen program: the pinned ``src`` first, proof it is the one imported,
#: then the pinned code's own protocol loop under the frozen name; with a simulation count
#: (``name@N``), the level plays N simulations a move with no clock of its own (the host's
#: time limit, if any, still caps it)
_BOOT = (
    "import sys, os; src, level, name, sims = sys.argv[1:5]; sys.path.insert(0, src)\n"
    "import scopa\n"
    "if not os.path.abspath(scopa.__file__).startswith(os.path.abspath(src)):\n"
    "    sys.exit('frozen bot: imported ' + scopa.__file__ + ', not ' + src)\n"
    "from scopa.bots.base import Bot, Limit, make_bot\n"
    "from scopa.protocol.serve import serve\n"
    "class Counted(Bot):\n"
    "    def __init__(self, seed):\n"
    "        super().__init__(seed); self.inner = make_bot(level, seed); self.name = name\n"
    "    def choose(self, view, limit=None):\n"
    "        cap = limit.seconds if limit is not None else None\n"
    "        return self.inner.choose(view, Limit(seconds=cap, simulations=int(sims)))\n"
    "make = Counted if sims else (lambda s: make_bot(level, s))\n"
    "sys.exit(serve(make, name, sys.stdin, sys.stdout))\n"
)


def parse_spec(spec: str) -> tuple[Frozen, int | None] | None:
    """A frozen bot's spec, ``name`` or ``name@N`` (N simulations a move, no clock): the
    bot and N; None for a spec that names no frozen bot."""
    name, at, count = spec.partition("@")
    frozen = FROZEN.get(name)
    if frozen is None:
        return None
    if not at:
        return frozen, None
    if not count.isdigit() or int(count) < 1:
        raise ValueError(f"{spec!r}: write {name}@N with N a positive simulation count")
    return frozen, int(count)


def is_frozen(spec: str) -> bool:
    """Whether a bot spec names a frozen bot."""
    return spec.partition("@")[0] in FROZEN


def cache_dir() -> Path:
    """Where pinned sources are kept."""
    root = os.environ.get("SCOPA_CACHE") or os.path.join(Path.home(), ".cache", "scopa")
    return Path(root) / "frozen"


def repository() -> Path:
    """The git checkout this package runs from (ValueError when it is not one)."""
    here = Path(__file__).resolve().parent
    try:
        out = subprocess.run(
            ["git", "-C", str(here), "rev-parse", "--show-toplevel"],
            capture_output=True, text=True, check=True,
        )
    except (OSError, subprocess.CalledProcessError):
        raise ValueError("frozen bots need the scopa git checkout (git not found here)") from None
    return Path(out.stdout.strip())


def checkout(commit: str) -> Path:
    """The ``src`` directory of ``commit``, extracted into the cache on first use."""
    target = cache_dir() / commit
    src = target / "src"
    if (src / "scopa" / "__init__.py").is_file():
        return src
    repo = repository()
    try:
        data = subprocess.run(
            ["git", "-C", str(repo), "archive", "--format=tar", commit, "src"],
            capture_output=True, check=True,
        ).stdout
    except subprocess.CalledProcessError as e:
        raise ValueError(
            f"frozen bot: commit {commit[:12]} is not in {repo}: {e.stderr.decode().strip()}"
        ) from None
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(dir=target.parent, prefix=f".{commit[:12]}-"))
    try:
        with tarfile.open(fileobj=io.BytesIO(data)) as tar:
            tar.extractall(tmp, filter="data")
        try:
            os.rename(tmp, target)  # atomic: another worker may have won the race
        except OSError:
            if not (src / "scopa" / "__init__.py").is_file():
                raise
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
    return src


def frozen_command(spec: str) -> list[str]:
    """The command line of a frozen bot's program (its source extracted if need be)."""
    parsed = parse_spec(spec)
    if parsed is None:
        raise ValueError(f"unknown frozen bot {spec!r}; choose one of {', '.join(FROZEN)}")
    frozen, sims = parsed
    src = checkout(frozen.commit)
    return [sys.executable, "-I", "-c", _BOOT, str(src), frozen.level, spec, str(sims or "")]
