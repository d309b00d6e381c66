"""The engine benchmark still runs (tiny sizes): a smoke test, not a timing test."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_engine_benchmark_runs() -> None:
    out = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "engine.py"), "--runs", "1", "--deals", "30"],
        capture_output=True, text=True, timeout=300, check=True,
    ).stdout
    for line in ("public 2p deals/s", "internal 2p deals/s", "movegen internal ns"):
        assert line in out
