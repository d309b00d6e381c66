"""Choosing among equally good moves when nothing is hidden (heads-up, the last round).

With every card known the exact solve (``exact.solve``) gives each move's value against
perfect play. Often several moves share the best value: against a perfect opponent they are
all the same, yet a real one may only find the reply that makes them equal in one of them.
So among the moves that are best against perfect play (within ``margin``), play the one
worth most against a good player's likely replies. The model of that player is the heuristic
bot's judgement of each reply from the replier's own knowledge (``heuristic.game_score``),
the same model that reads the opponent's plays (``play_model``); tied replies count
equally. Our own later plays are still chosen to maximise.

Nothing is given up against perfect play (with ``margin`` 0), and against ``heuristic`` in
2-player Scopa the last round alone gains about 0.15 points a hand (docs/bots.md).
"""

from __future__ import annotations

from ..hand import Hand
from .heuristic import game_score
from .movestat import MoveStat
from .points import utility

#: replies scored within this of the best are all the model's choice (the heuristic bot
#: breaks such ties at random)
TIE = 1e-9


def model_replies(g: Hand) -> list[int]:
    """The packed moves a good player (the heuristic's judgement) would make here."""
    codes = g.legal_codes()
    if len(codes) == 1:
        return codes
    scores = [game_score(g, code) for code in codes]
    top = max(scores)
    return [code for code, s in zip(codes, scores, strict=True) if s >= top - TIE]


def model_value(g: Hand, side: int, match_aware: bool = False) -> float:
    """The value to ``side`` of a state with nothing hidden when ``side`` plays its best and
    the other side plays the model's replies (ties averaged). Heads-up only."""
    if g.hand_over:
        return utility(g, side, match_aware)
    if g.to_move % g.rules.teams == side:
        best = float("-inf")
        for code in g.legal_codes():
            h = g.copy()
            h.play_code(code)
            v = model_value(h, side, match_aware)
            if v > best:
                best = v
        return best
    replies = model_replies(g)
    total = 0.0
    for code in replies:
        h = g.copy()
        h.play_code(code)
        total += model_value(h, side, match_aware)
    return total / len(replies)


def break_ties(
    g: Hand, stats: list[MoveStat], match_aware: bool = False, margin: float = 0.0
) -> MoveStat:
    """Of ``stats`` (exact values of the moves of ``g``'s seat to move), the move within
    ``margin`` of the best that is worth most against the model's replies; on a further
    tie the first in legal order."""
    side = g.to_move % g.rules.teams
    top = max(st.mean for st in stats)
    choice = stats[0]
    best = float("-inf")
    for st in stats:
        if st.mean < top - margin - TIE:
            continue
        h = g.copy()
        h.play_code(st.code)
        v = model_value(h, side, match_aware)
        if v > best + TIE:
            choice, best = st, v
    return choice
