"""``scopa analyse``: every legal move of a position with the search bot's estimate.

The position (docs/formats.md) names every card, but the analysis is fair: it works from
the view of the seat to move, exactly as that player would see the game.
"""

from __future__ import annotations

from typing import Any

from rich.table import Table

from ..bots.base import Limit
from ..messages import sentence
from ..notation import load_position
from ..view import PlayerView
from . import render


def analyse_position(
    data: Any, limit: Limit | None = None, seed: int | str | None = 0
) -> dict[str, Any]:
    """The analysis as JSON-ready data; ``ValueError`` for a bad position or a finished
    hand, ``ImportError`` if the search bot's analysis is not installed."""
    from ..bots.analysis import analyse, payload

    game = load_position(data)
    if game.hand_over:
        raise ValueError("the hand in this position is over: nothing to analyse")
    seat = game.to_move
    view = PlayerView.of(game, seat)
    values = analyse(view, limit, seed=seed)
    out = payload(view, values)
    for row, mv in zip(out["moves"], values, strict=True):
        row.update(notation=str(mv.move), value=round(mv.value, 4),
                   explanation=mv.explanation, samples=mv.samples)
    return {"seat": seat, **out}


def analysis_table(analysis: dict[str, Any]) -> Table:
    """The analysis as a table, best move first."""
    from ..moves import Move

    table = Table(title=f"Seat {analysis['seat']} to play: every legal move, best first")
    for col in ("#", "move", "value", "why"):
        table.add_column(col, justify="right" if col in ("#", "value") else "left")
    for i, row in enumerate(analysis["moves"], 1):
        move = Move.from_dict(row["move"])
        table.add_row(str(i), render.move_text(move), f"{row['value']:+.2f}", row["explanation"])
    caption = "value: expected hand-point margin of the mover's side for the rest of the hand"
    table.caption = " ".join([*(sentence(m) for m in analysis.get("context", [])), caption])
    return table
