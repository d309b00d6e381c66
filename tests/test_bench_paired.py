"""bench/paired.py compares two strength runs deal by deal."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("paired", ROOT / "bench" / "paired.py")
assert _spec and _spec.loader
paired_mod = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(paired_mod)


def _run(path: Path, margins: list[float]) -> str:
    line = {
        "section": "champion2", "bots": ["heuristic", "champion"], "variant": "scopa",
        "margin": sum(margins) / len(margins), "deal_margins": margins,
    }
    path.write_text(json.dumps({"lines": [line]}))
    return str(path)


def test_paired_difference_of_two_runs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a = _run(tmp_path / "a.json", [1.0, -2.0, 3.0, 0.0])
    b = _run(tmp_path / "b.json", [2.0, -2.0, 4.0, 0.0])
    assert paired_mod.main([a, b]) == 0
    out = capsys.readouterr().out
    # differences 1, 0, 1, 0: mean 0.5, sd 0.577, se 0.289
    assert "paired difference +0.500 ± 0.289" in out
    assert "+0.500 -> +1.000" in out


def test_runs_over_different_deals_are_refused() -> None:
    with pytest.raises(ValueError, match="same deals"):
        paired_mod.paired([1.0, 2.0, 3.0], [1.0, 2.0])
