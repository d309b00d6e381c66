"""bench/strength.py: the pool, equal-time and ratings plumbing on a tiny run."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
_spec = importlib.util.spec_from_file_location("strength", ROOT / "bench" / "strength.py")
assert _spec and _spec.loader
strength = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(strength)


def test_pool_and_equal_time_on_the_same_deals(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run.json"
    args = ["--only", "pool2", "equal2", "--levels", "beginner", "--pool", "alphabeta-4x3",
            "alphabeta", "--deals", "2", "--json", str(out)]
    assert strength.main(args) == 0
    data = json.loads(out.read_text())
    pool = [ln for ln in data["lines"] if ln["section"] == "pool2"]
    assert [ln["bots"] for ln in pool] == [["alphabeta-4x3", "beginner"],
                                          ["alphabeta", "beginner"]]
    assert all(len(ln["deal_margins"]) == 2 for ln in data["lines"])
    # both sides' time per move in every line
    assert all(len(ln["move_ms"]) == 2 for ln in data["lines"])
    (equal,) = [ln for ln in data["lines"] if ln["section"] == "equal2"]
    assert equal["bots"][1] == "beginner" and equal["bots"][0].startswith("alphabeta-")
    rated = {name for name, _, _ in data["ratings"]["pool2"]}
    assert rated == {"alphabeta-4x3", "alphabeta", "beginner"}
    capsys.readouterr()
    assert strength.main(["--ratings-from", str(out)]) == 0
    assert "openskill ratings over every pairing, 2 deals" in capsys.readouterr().out
