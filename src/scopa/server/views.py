"""What each socket is told. Views are built by listing what a seat may see (the engine's
``PlayerView``), and for spectators by listing the public fields only."""

from __future__ import annotations

import functools
from typing import Any

from ..cards import card_text, cards_of
from ..game import Game
from ..rules import Rules
from ..view import history_entry


@functools.lru_cache(maxsize=256)
def rules_dict(rules: Rules) -> dict[str, Any]:
    """``rules.to_dict()`` once per rules (it builds a preset to compare with: a fifth of
    the server's time per move before this cache). Shared: never mutate the result."""
    return rules.to_dict()


def public_view(game: Game) -> dict[str, Any]:
    """The view of a spectator: the same shape as ``PlayerView.to_dict()`` with no hand."""
    return {
        "rules": rules_dict(game.rules),
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
    """``game.view(seat).to_dict()`` (the tests check it is equal), with the rules' JSON
    form cached."""
    if seat is None:
        return public_view(game)
    v = game.view(seat)
    return {
        "rules": rules_dict(v.rules),
        "seat": v.seat,
        "dealer": v.dealer,
        "to_move": None if v.hand_over else v.to_move,
        "hand": [card_text(c) for c in cards_of(v.hand)],
        "hand_sizes": list(v.hand_sizes),
        "table": [card_text(c) for c in cards_of(v.table)],
        "stock_size": v.stock_size,
        "captured": [[card_text(c) for c in cards_of(p)] for p in v.captured],
        "scope": list(v.scope),
        "last_capturer": None if v.last_capturer < 0 else v.last_capturer,
        "scores": list(v.scores),
        "hand_over": v.hand_over,
        "hand_number": v.hand_number,
        "history": [history_entry(e) for e in v.history],
    }


def legal_moves(game: Game, seat: int | None) -> list[dict[str, Any]]:
    if seat is None or game.hand_over or game.to_move != seat:
        return []
    return [m.to_dict() for m in game.view(seat).legal_moves()]


def scores_after(game: Game) -> list[int]:
    """Match totals including the finished current hand."""
    res = game.hand_result()
    return [s + side["total"] for s, side in zip(game.scores, res["sides"], strict=True)]
