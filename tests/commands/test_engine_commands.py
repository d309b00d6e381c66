"""scopa replay and scopa verify, end to end through the command line."""

from __future__ import annotations

import json
import random
from pathlib import Path

from typer.testing import CliRunner

from scopa import Game, Rules
from scopa.cli import app
from scopa.record import game_record, record_to_text
from scopa.shuffle import commitment

runner = CliRunner()


def _record(tmp_path: Path, text: bool) -> tuple[Path, dict]:
    rng = random.Random(4)
    game = Game(Rules.preset(), seed="cli")
    while not game.hand_over:
        game.play(rng.choice(game.legal_moves()))
    rec = game_record(game, players=["Ann", "Bob"])
    path = tmp_path / ("rec.txt" if text else "rec.json")
    path.write_text(record_to_text(rec) if text else json.dumps(rec))
    return path, rec


def test_replay_prints_every_move_and_the_score_sheet(tmp_path: Path) -> None:
    path, rec = _record(tmp_path, text=True)
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    moves = rec["hands"][0]["moves"]
    assert result.output.count("Ann ") + result.output.count("Bob ") >= len(moves)
    totals = [s["total"] for s in rec["hands"][0]["result"]["sides"]]
    assert f"Final score: {totals[0]} - {totals[1]}" in result.output
    assert "primiera" in result.output


def test_verify_accepts_an_honest_record(tmp_path: Path) -> None:
    path, _ = _record(tmp_path, text=False)
    result = runner.invoke(app, ["verify", str(path)])
    assert result.exit_code == 0, result.output
    assert "OK" in result.output


def test_verify_rejects_a_broken_commitment(tmp_path: Path) -> None:
    path, rec = _record(tmp_path, text=False)
    rec["hands"][0]["commitment"] = commitment("other")
    path.write_text(json.dumps(rec))
    result = runner.invoke(app, ["verify", str(path)])
    assert result.exit_code == 1
    assert "does not match its commitment" in result.output


def test_replay_refuses_a_corrupt_record(tmp_path: Path) -> None:
    path, rec = _record(tmp_path, text=False)
    rec["hands"][0]["moves"][0] = {"card": "7d", "capture": ["1b", "1c"]}
    path.write_text(json.dumps(rec))
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code != 0
    words = " ".join(result.output.replace("│", " ").split())
    assert "not a valid game record" in words
    assert "hand 1, move 1" in words
