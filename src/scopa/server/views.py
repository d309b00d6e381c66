"""What each socket is told. Views are built by listing what a seat may see (the engine's
``PlayerView``), and for spectators by listing the public fields only."""

from __future__ import annotations

from typing import Any

from ..cards import card_text, cards_of
from ..game import Game
from ..view import history_entry


def public_view(game: Game) -> dict[str, Any]:
    """The view of a spectator: the same shape as ``PlayerView.to_dict()`` with no hand."""
    return {
        "rules": game.rules.to_dict(),
        "seat": None,
        "dealer": game.dealer,
        "to_move": None if game.hand_over else game.to_move,
        "hand": [],
        "hand_sizes": [h.bit_count() for h in game.hands],
        "table": [card_text(c) for c in cards_of(game.table)],
        "stock_size": len(game.stock),
        "captured": [[card_text(c) for c in cards_of(p)] for p in game.captured],
        "scope": list(game.scope),
        "last_capturer": None if game.last_capturer < 0 else game.last_capturer,
        "scores": list(game.scores),
        "hand_over": game.hand_over,
        "hand_number": game.hand_number,
        "history": [history_entry(e) for e in game.history],
    }


def seat_view(game: Game, seat: int | None) -> dict[str, Any]:
    if seat is None:
        return public_view(game)
    data: dict[str, Any] = game.view(seat).to_dict()
    return data


def legal_moves(game: Game, seat: int | None) -> list[dict[str, Any]]:
    if seat is None or game.hand_over or game.to_move != seat:
        return []
    return [m.to_dict() for m in game.view(seat).legal_moves()]


def scores_after(game: Game) -> list[int]:
    """Match totals including the finished current hand."""
    res = game.hand_result()
    return [s + side["total"] for s, side in zip(game.scores, res["sides"], strict=True)]
