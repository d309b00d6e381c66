"""Every legal move of a seat with its expected value and why, as structured messages.

Used by the terminal ``hint``, ``scopa analyse`` and the web "teach me" mode. The values
come from the search bot's determinized search (see ``search.py``) and are the expected
hand-point margin of the mover's side over the other side(s) for the rest of the hand.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from ..messages import Message, sentence
from ..moves import Move
from ..view import PlayerView
from .base import Limit
from .endgame import model_value
from .explain import describe, reasons, still_to_come, verdict
from .search import exact_heads_up, search_view

#: simulations used when the caller gives no limit (about half a second on one core)
DEFAULT_LIMIT = Limit(simulations=3000)


@dataclass(frozen=True)
class MoveValue:
    """One legal move, its expected hand-point margin, why, and how many worlds judged it.

    ``reasons`` say what the move takes and leaves, ``margin`` how it compares with the best
    move (messages of ``scopa.messages``); ``explanation`` is both in English sentences."""

    move: Move
    value: float
    explanation: str
    samples: int = 0
    reasons: tuple[Message, ...] = field(default=())
    margin: tuple[Message, ...] = field(default=())


def analyse(
    view: PlayerView, limit: Limit | None = None, seed: int | str | None = None
) -> list[MoveValue]:
    """Each legal move of the seat to move, best first. Raises ValueError when it is not
    the view's seat to move. Same view, limit (by simulations) and seed: same result."""
    if not isinstance(view, PlayerView):
        raise TypeError("analyse needs a PlayerView")
    if not view.my_turn:
        raise ValueError("it is not this seat's turn: nothing to analyse")
    rng = random.Random(seed)
    stats = search_view(view, limit or DEFAULT_LIMIT, rng, match_aware=False)
    # heads-up with every card known the values are exact: order equal ones as the bot
    # breaks the tie, by a good player's likely replies (endgame.py)
    tie: dict[int, float] = {}
    if exact_heads_up(view):
        world = view.sample(rng)
        for st in stats:
            g = world.copy()
            g.play_code(st.code)
            tie[st.code] = model_value(g, view.seat)
    ranked = sorted(stats, key=lambda st: (-round(st.mean, 9), -tie.get(st.code, 0.0)))
    pairs = [(Move.from_code(st.code), st.mean) for st in ranked]
    return judge(view, pairs, [st.count for st in ranked])


def judge(
    view: PlayerView, ranked: list[tuple[Move, float]], samples: list[int] | None = None
) -> list[MoveValue]:
    """Moves with their expected margins, best first, explained: the reasons of each and
    how it compares with the best."""
    out = []
    for i, (move, value) in enumerate(ranked):
        why = tuple(reasons(view, move))
        margin = tuple(verdict(ranked, i))
        text = " ".join(sentence(m) for m in why + margin)
        out.append(MoveValue(move, value, text, samples[i] if samples else 0, why, margin))
    return out


def payload(view: PlayerView, values: list[MoveValue]) -> dict[str, Any]:
    """The analysis as JSON-ready data (the server's ``analysis`` reply, docs/server-protocol.md):
    each move with its value, its label, reasons and margin as messages (scopa.messages),
    the prizes still unseen as ``context``, and as ``common`` the reasons every move shares
    (said once, not under each move: they do not tell the moves apart)."""
    shared = common_reasons(values)
    moves = [
        {
            "move": mv.move.to_dict(),
            "value": round(float(mv.value), 3),
            "best": i == 0,
            "label": describe(view, mv.move),
            "reasons": [r for r in mv.reasons if r not in shared],
            "margin": list(mv.margin),
        }
        for i, mv in enumerate(values)
    ]
    context = still_to_come(view)
    return {"moves": moves, "context": [context] if context else [], "common": shared}


def common_reasons(values: list[MoveValue]) -> list[Message]:
    """The reasons every one of two or more moves gives, in the first move's order."""
    if len(values) < 2:
        return []
    return [r for r in values[0].reasons if all(r in mv.reasons for mv in values[1:])]
