"""A plain-text picture of an episode for ``render()``: the public state and the hand of
the seat to move only (what that seat sees), so a rendering shown to a player leaks nothing
beyond that seat's own view."""

from __future__ import annotations

from ..cards import card_text, cards_text
from ..view import PlayerView
from .actions import Turn


def render_text(view: PlayerView, turn: Turn | None, names: list[str]) -> str:
    """The table, every seat's counts, and the hand of ``view.seat`` (the seat to move)."""
    rules = view.rules
    scores = " ".join(f"side {s}: {p}" for s, p in enumerate(view.scores))
    lines = [
        f"{rules.variant}, {rules.players} players, hand {view.hand_number} "
        f"(to {rules.target}; {scores}); stock {view.stock_size}",
        "table: " + (" ".join(cards_text(view.table)) or "(empty)"),
    ]
    for seat, name in enumerate(names):
        mark = " <- to move" if not view.hand_over and seat == view.to_move else ""
        dealer = " (dealer)" if seat == view.dealer else ""
        lines.append(
            f"{name}{dealer} side {seat % rules.teams}: {view.hand_sizes[seat]} in hand, "
            f"pile {view.captured[seat].bit_count()}, sweeps {view.scope[seat]}{mark}"
        )
    if view.seat >= 0:
        lines.append(f"hand of {names[view.seat]}: " + " ".join(cards_text(view.hand)))
    if turn is not None:
        taken = " ".join(cards_text(turn.taken)) or "nothing yet"
        lines.append(f"playing {card_text(turn.card)}, taken {taken}")
    if view.hand_over:
        lines.append("the hand is over")
    return "\n".join(lines)
