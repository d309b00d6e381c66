"""scopa review, end to end through the command line."""

from __future__ import annotations

import json
import random
from pathlib import Path

from typer.testing import CliRunner

from scopa import Rules
from scopa.cli import app
from scopa.match import Match
from scopa.record import game_record

runner = CliRunner()


def _record(tmp_path: Path) -> Path:
    rng = random.Random(9)
    game = Match(Rules.preset(), seed="cli-review")
    while not game.hand.hand_over:
        game.hand.play(rng.choice(game.hand.legal_moves()))
    path = tmp_path / "rec.json"
    path.write_text(json.dumps(game_record(game, players=["Ann", "Bob"])))
    return path


def test_review_prints_a_summary_per_player(tmp_path: Path) -> None:
    result = runner.invoke(app, ["review", str(_record(tmp_path)), "--simulations", "60"])
    assert result.exit_code == 0, result.output
    assert "Review at 60 simulations a play" in result.output
    assert "Ann: 18 plays, average loss" in result.output
    assert "Bob: 18 plays, average loss" in result.output


def test_review_text_gives_the_reason_and_the_hindsight_of_each_marked_play(
        tmp_path: Path) -> None:
    path = _record(tmp_path)
    data = json.loads(runner.invoke(app, ["review", str(path), "--json",
                                          "--simulations", "60"]).output)
    marked = [p for p in data["plays"] if p["mark"]]
    assert marked, "a random player's hand has marked plays"
    text = runner.invoke(app, ["review", str(path), "--simulations", "60"]).output
    lines = text.splitlines()
    for p in marked:
        head = next(i for i, ln in enumerate(lines)
                    if ln.startswith(f"  hand {p['hand']}, move {p['index']}:"))
        assert lines[head + 1] == f"      why: {p['why_best']}"
        assert lines[head + 2].startswith("      hindsight, with every card seen (")
        if p["hindsight_loss"]:
            assert f"best {p['hindsight_best']}, loss {p['hindsight_loss']:.2f}" in lines[head + 2]
        else:
            assert f"{p['played']} was the best play" in lines[head + 2]
    assert "Hindsight: the best play with every card seen" in text


def test_review_json_holds_every_play(tmp_path: Path) -> None:
    result = runner.invoke(app, ["review", str(_record(tmp_path)), "--json",
                                 "--simulations", "60"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert len(data["plays"]) == 36
    assert {s["seat"] for s in data["seats"]} == {0, 1}
    assert set(data["thresholds"]) == {"inaccuracy", "mistake", "blunder"}
    for p in data["plays"]:  # the hindsight, labelled as such, with every play
        assert p["hindsight_best"] and p["hindsight_loss"] >= 0
        assert isinstance(p["hindsight_exact"], bool)


def test_review_refuses_a_broken_record(tmp_path: Path) -> None:
    path = _record(tmp_path)
    rec = json.loads(path.read_text())
    rec["hands"][0]["moves"][3] = rec["hands"][0]["moves"][0]
    path.write_text(json.dumps(rec))
    result = runner.invoke(app, ["review", str(path)])
    assert result.exit_code != 0
    assert "not a valid game record" in " ".join(result.output.split())
