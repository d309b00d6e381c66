"""What a finished match at a table means for the players' records (``players.ratings``):
the table's facts turned into an ``Outcome``, and the master's match-end hook that hands it
over. Here, not in ``ratings``, because the players' side does not know the live table."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from ..players.ratings import Outcome, Ratings, SeatOutcome, side_stats
from .table import Table


def outcome_of(table: Table) -> Outcome:
    """The outcome of the match that just ended at ``table``."""
    game = table.game
    assert game is not None and table.winner is not None and table.match_id is not None
    # a resignation may end the match mid-hand: that hand has no score sheet
    last = [game.hand.hand_result()] if game.hand.hand_over else []
    results = [e["result"] for e in game.results if e.get("result")] + last
    rules = table.rules
    return Outcome(
        match_id=table.match_id, rules=rules, rated=table.rated, winner=table.winner,
        scores=list(table.final_scores or game.match_totals()),
        seats=[SeatOutcome(s.seat, rules.side_of(s.seat), s.user_id,
                           s.level if s.kind == "bot" else None, s.seat in table.abandoned)
               for s in table.seats],
        sides=side_stats(results, rules.teams),
        online_bot=any(s.bot_account for s in table.seats),
    )


def rating_hook(ratings: Ratings) -> Callable[[Table], Awaitable[None]]:
    """A match-end hook that records the outcome (read at once, while the table is as the
    match left it) and never raises."""
    return lambda table: ratings.hook(outcome_of(table))
