"""What each socket is told. Views are built by listing what a seat may see (the engine's
``PlayerView``), and for spectators by listing the public fields only."""

from __future__ import annotations

from typing import Any

from ..game import Game
from ..view import PlayerView


def seat_view(game: Game, seat: int | None) -> dict[str, Any]:
    """What one seat (or, for None, a spectator) may see, as JSON."""
    view = PlayerView.public(game) if seat is None else game.view(seat)
    return view.to_dict()


def legal_moves(game: Game, seat: int | None) -> list[dict[str, Any]]:
    if seat is None or game.hand_over or game.to_move != seat:
        return []
    return [m.to_dict() for m in game.view(seat).legal_moves()]
