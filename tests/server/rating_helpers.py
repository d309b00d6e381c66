"""Rated matches without playing them: the rows a finished match has (its table and
match) and its outcome, for tests of the rating-recording path (ratings.Ratings)."""

from __future__ import annotations

from scopa.rules import Rules
from scopa.server.players.ratings import Outcome, SeatOutcome
from scopa.server.store.database import Store
from scopa.server.store.models import MatchRow, TableRow


def one_on_one(match_id: str, winner: int | None, loser: int | None,
               bot: str = "intermediate") -> Outcome:
    """A rated two-player match won 11 to 5 by ``winner`` over ``loser`` (None: a bot)."""
    return Outcome(match_id, Rules(), True, 0, [11, 5],
                   [SeatOutcome(0, 0, winner, None if winner else bot, False),
                    SeatOutcome(1, 1, loser, None if loser else bot, False)],
                   [dict(hands=3, points=11, sweeps=1, settebello=1, primiera=1, coins=1),
                    dict(hands=3, points=5, sweeps=0, settebello=0, primiera=0, coins=0)])


async def make_matches(store: Store, ids: list[str]) -> None:
    """The tables and matches the outcomes belong to (as the master made them)."""
    async with store.session.begin() as s:
        for m in ids:
            s.add(TableRow(id=f"t-{m}", invite=f"i-{m}", public=False,
                           rules=Rules().to_dict(), grace_seconds=1.0, status="playing",
                           rated=True))
            await s.flush()
            s.add(MatchRow(id=m, table_id=f"t-{m}", number=1, rules=Rules().to_dict(),
                           players=["a", "b"]))
