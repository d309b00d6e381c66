"""The bot side: serve() answers hello, move requests and errors, line by line."""

from __future__ import annotations

import io
import json

import pytest

from scopa.hand import Hand
from scopa.match import Match
from scopa.moves import Move
from scopa.protocol import encode
from scopa.protocol.serve import serve_named
from scopa.view import PlayerView


def _run(*messages: object) -> list[dict]:
    lines = "".join(m if isinstance(m, str) else encode(m) for m in messages)  # type: ignore[arg-type]
    out = io.StringIO()
    assert serve_named("random", io.StringIO(lines), out, seed=1) == 0
    return [json.loads(line) for line in out.getvalue().splitlines()]


def _request(game: Hand, rid: int = 1) -> dict:
    view = PlayerView.of(game, game.to_move)
    return {"type": "move_request", "id": rid, "view": view.to_dict(),
            "legal": [m.to_dict() for m in view.legal_moves()], "time_limit": 0.5}


def test_handshake_and_move() -> None:
    game = Match.new("scopa", seed=2).hand
    out = _run({"type": "hello", "protocol": 1},
               {"type": "new_game", "rules": game.rules.to_dict(), "seat": 0, "seed": 3},
               _request(game, 7), {"type": "quit"}, {"type": "hello", "protocol": 1})
    assert out[0] == {"type": "ready", "name": "random", "protocol": 1}
    assert out[1]["type"] == "move" and out[1]["id"] == 7
    assert Move.from_dict(out[1]["move"]) in game.legal_moves()
    assert len(out) == 2  # nothing after quit


def test_errors_do_not_stop_the_bot() -> None:
    game = Match.new("scopa", seed=2).hand
    bad_view = _request(game, 2)
    bad_view["view"]["hand"] = ["7d", "7d"]
    not_my_turn = _request(game, 3)
    not_my_turn["view"] = PlayerView.of(game, (game.to_move + 1) % 2).to_dict()
    out = _run("nonsense\n", {"type": "dance"}, {"type": "hello", "protocol": 9}, bad_view,
               not_my_turn, _request(game, 4))
    kinds = [m["type"] for m in out]
    assert kinds == ["error", "error", "error", "error", "error", "move"]
    assert "not JSON" in out[0]["message"]
    assert "dance" in out[1]["message"]
    assert out[3]["id"] == 2 and "twice" in out[3]["message"]
    assert "not this seat's turn" in out[4]["message"]


def test_omniscient_bot_is_not_served() -> None:
    with pytest.raises(ValueError, match="sees every card"):
        serve_named("oracle", io.StringIO(""), io.StringIO())


def test_unknown_bot() -> None:
    with pytest.raises(ValueError, match="unknown bot"):
        serve_named("nosuch", io.StringIO(""), io.StringIO())
