"""scopa replay and scopa verify, end to end through the command line."""

from __future__ import annotations

import json
import random
from pathlib import Path

from typer.testing import CliRunner

from scopa import Rules
from scopa.cli import app
from scopa.match import Match
from scopa.record import game_record, record_to_text
from scopa.shuffle import commitment

runner = CliRunner()


def _record(tmp_path: Path, text: bool) -> tuple[Path, dict]:
    rng = random.Random(4)
    game = Match(Rules.preset(), seed="cli")
    hand = game.hand
    while not hand.hand_over:
        hand.play(rng.choice(hand.legal_moves()))
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


def test_verify_fails_on_a_text_record_with_two_items_swapped(tmp_path: Path) -> None:
    path, rec = _record(tmp_path, text=True)
    sides = rec["hands"][0]["result"]["sides"]
    items = [k for k in sides[0]["points"] if any(s["points"][k] for s in sides)]
    a, b = next((a, b) for a in items for b in items
                if [s["points"][a] for s in sides] != [s["points"][b] for s in sides])
    for s in sides:
        s["points"][a], s["points"][b] = s["points"][b], s["points"][a]
    path.write_text(record_to_text(rec))
    result = runner.invoke(app, ["verify", str(path)])
    assert result.exit_code == 1, result.output
    words = " ".join(result.output.split())
    assert f"FAIL hand 1, {min(a, b, key=items.index)}: recorded" in words


def test_verify_fails_on_a_json_record_with_cards_99(tmp_path: Path) -> None:
    path, rec = _record(tmp_path, text=False)
    rec["hands"][0]["result"]["sides"][1]["cards"] = 99
    path.write_text(json.dumps(rec))
    result = runner.invoke(app, ["verify", str(path)])
    assert result.exit_code == 1, result.output
    assert "FAIL hand 1, side 1, cards: recorded 99" in " ".join(result.output.split())


def test_replay_prints_the_final_score_of_a_text_record_without_a_final_line(
    tmp_path: Path,
) -> None:
    path, rec = _record(tmp_path, text=True)
    path.write_text(path.read_text().split("\nfinal")[0] + "\n")
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    totals = [s["total"] for s in rec["hands"][0]["result"]["sides"]]
    assert f"Final score: {totals[0]} - {totals[1]}" in result.output
