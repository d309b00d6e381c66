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


def test_engine_pair_runs_and_measures_the_tree_it_names(tmp_path: Path) -> None:
    """``bench/engine_pair.py`` with this checkout on both sides (tiny sizes), and a tree
    without ``src/scopa`` refused instead of silently measuring the installed package."""
    cmd = [sys.executable, str(ROOT / "bench" / "engine_pair.py"), str(ROOT), str(ROOT),
           "--pairs", "1", "--deals", "20", "--runs", "1"]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=300, check=True).stdout
    for line in ("public 2p deals/s", "internal 4p deals/s", "movegen public ns", "new/base"):
        assert line in out
    (tmp_path / "bench").mkdir()
    (tmp_path / "bench" / "engine.py").write_text((ROOT / "bench" / "engine.py").read_text())
    cmd[2] = str(tmp_path)
    bad = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert bad.returncode != 0 and "not the tree" in bad.stderr
