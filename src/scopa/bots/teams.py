"""The search at a table of partners (Scopone: four players in two teams), near the end of
the hand.

With ten cards a hand and no stock, a Scopone hand hides little once a few plays are left:
the search then solves every sampled world exactly (``search.evaluate``; the same few
worlds are drawn again and again, and solved once each). Two things change there:

- **the exact values decide.** Earlier, a move's sampled value is noisy and the heuristic
  prior (``search.PRIOR``) steadies it; once every world is solved, the values are each
  world's best play for both teams, and the prior's one-ply judgement could only overrule
  them. So the prior only breaks ties.
- **ties go to the move a good player answers worst.** Against perfect play several moves
  are often worth the same; a real opponent may find the reply that makes them equal in
  only one. As heads-up (``endgame``), among the moves with the best exact value the
  search plays the one worth most when the opponents reply as the heuristic bot would
  (our partner and we still play our best), averaged over a few sampled worlds, since at
  four seats the hands are not known.

``exact_cards``: from how many cards in all hands a world is solved exactly at a table
(heads-up 6, as ever; among partners 10). ``solve_cost``: the simulations a fresh solve is
charged, so that a search's budget bounds its time there too. Against ``alphabeta`` 12x5
in Scopone Scientifico this lifted the champion by +0.28 +- 0.16 a deal (60 deals, paired;
docs/bots.md).
"""

from __future__ import annotations

from collections.abc import Callable

from ..hand import Hand
from ..rules import Rules
from ..view import PlayerView
from .endgame import TIE, model_value
from .movestat import MoveStat

#: solve exactly once at most this many cards are in all hands (and the stock is empty):
#: heads-up and at three, and at tables of two teams of partners
EXACT_CARDS = 6
TEAM_EXACT_CARDS = 10
#: sampled worlds the tie-break averages the model's replies over
TIE_WORLDS = 8


def solve_cost(in_hands: int) -> int:
    """Simulations a fresh exact solve with ``in_hands`` cards left is charged: one up to
    ``EXACT_CARDS`` (heads-up nothing changes), then doubling with each card from 4 at 7
    (a Scopone solve from 10 cards takes about 0.6 ms, some 50 kernel rollouts), so the
    simulation budget bounds a search's time late in a Scopone hand too."""
    return 1 if in_hands <= EXACT_CARDS else 1 << (in_hands - EXACT_CARDS + 1)


def partners(players: int, teams: int) -> bool:
    """A table of two teams of partners (Scopone and 4-player Scopa in pairs)."""
    return teams == 2 and players >= 4


def exact_cards(rules: Rules) -> int:
    """Cards in all hands from which the search solves a world exactly at this table."""
    return TEAM_EXACT_CARDS if partners(rules.players, rules.teams) else EXACT_CARDS


def solved_phase(view: PlayerView) -> bool:
    """At a table of partners, every move of this view's seat leads to a state the search
    solves exactly in every world (the stock is empty and few cards are left)."""
    rules = view.rules
    return (
        partners(rules.players, rules.teams)
        and not view.stock_size
        and sum(view.hand_sizes) - 1 <= exact_cards(rules)
    )


def choose_solved(
    stats: list[MoveStat],
    prior: Callable[[int], float],
    draw: Callable[[], Hand],
    side: int,
    match_aware: bool = False,
    worlds: int = TIE_WORLDS,
) -> MoveStat:
    """Of ``stats`` (each move's mean exact value over the sampled worlds), a move with the
    best value; among several, the one worth most against the model's replies over
    ``worlds`` worlds from ``draw`` (the same worlds for each move); on a further tie the
    best ``prior`` (the heuristic's score of the move), then the first in legal order."""
    top = max(st.mean for st in stats)
    tied = [st for st in stats if st.mean >= top - TIE]
    if len(tied) == 1:
        return tied[0]
    sampled = [draw() for _ in range(worlds)]
    scored = []
    for st in tied:
        total = 0.0
        for world in sampled:
            g = world.copy()
            g.play_code(st.code)
            total += model_value(g, side, match_aware)
        scored.append((total / worlds, prior(st.code), st))
    choice = scored[0]
    for item in scored[1:]:
        if item[0] > choice[0] + TIE or (item[0] >= choice[0] - TIE and item[1] > choice[1]):
            choice = item
    return choice[2]
