"""Ratings of accounts: openskill's Plackett-Luce, one rating per pool, moved after every
rated match; bots hold fixed, published ratings (they are never updated), so a person can
be rated against bots alone. The rating people see (``shown``) is the skill's mean on a
scale players know: 1500 for a newcomer, 40 points to one of openskill's, so it moves with
every rated result from the first (a loss lowers it, a win raises it), marked provisional
(``settled`` false) while the uncertainty is high, as lichess marks "1500?".
Leaderboards sort by it too; the cautious ``mu - 3 sigma`` stays the arena's.

At the end of every match (rated or not) each seat's facts are kept in ``match_players``
(the source of profiles); a rated match also moves the accounts' ratings and adds a point to
each one's history, in the same transaction. A seat that a stand-in took over after the
grace period of a rated match counts as a loss for its player whatever the score."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import select
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError
from sqlalchemy.ext.asyncio import AsyncSession

from ...rules import Rules
from ..store.account_models import MatchPlayerRow, RatingHistoryRow, RatingRow
from ..store.database import Store
from ..store.models import utcnow
from . import farming

log = logging.getLogger("scopa.server")

#: rating pools: individual games of the Scopa family, team games, Scopone
POOLS = ("singles", "teams", "scopone")
#: the same for matches with an online bot (``server.bots``): rated apart from people's,
#: so a bot cannot farm people's ratings (as lichess rates its bots)
BOT_POOLS = tuple(f"bots-{p}" for p in POOLS)
ALL_POOLS = POOLS + BOT_POOLS
#: the published, fixed (mu, sigma) of each bot level on openskill's scale
BOT_RATINGS: dict[str, tuple[float, float]] = {
    "random": (10.0, 1.0),
    "beginner": (18.0, 1.0),
    "intermediate": (24.0, 1.0),
    "expert": (28.0, 1.0),
    "champion": (31.0, 1.0),
}
MODEL = PlackettLuce()
START = (MODEL.mu, MODEL.sigma)


#: the shown scale: a newcomer's rating, and shown points to one of openskill's mu
SCALE_START = 1500
SCALE_STEP = 40
#: a rating is provisional while its sigma is above this (a newcomer's is 8.33: about
#: eight results against bots bring it under)
SETTLED_SIGMA = 5.5


def conservative(mu: float, sigma: float) -> float:
    """A cautious estimate of the skill, the arena's scale: ``mu - 3 sigma``."""
    return mu - 3 * sigma


def shown(mu: float, sigma: float = 0.0) -> int:
    """The rating people see, everywhere the same: the mean skill on the 1500 scale."""
    return round(SCALE_START + SCALE_STEP * (mu - MODEL.mu))


def settled(sigma: float) -> bool:
    """Whether a rating has settled (else it is shown as provisional: "1500?")."""
    return sigma <= SETTLED_SIGMA


def pool_of(rules: Rules, online_bot: bool = False) -> str:
    """The pool a match of ``rules`` is rated in (``online_bot``: a bot account sat at
    it)."""
    if rules.variant.startswith("scopone"):
        pool = "scopone"
    else:
        pool = "teams" if rules.players > rules.teams else "singles"
    return f"bots-{pool}" if online_bot else pool


def published() -> dict[str, Any]:
    """The bots' ratings as the API publishes them."""
    return {level: {"mu": mu, "sigma": sigma, "rating": shown(mu, sigma),
                    "settled": settled(sigma)}
            for level, (mu, sigma) in BOT_RATINGS.items()}


@dataclass(frozen=True)
class SeatOutcome:
    seat: int
    side: int
    user_id: int | None
    #: the bot level of a bot seat (None for a person's seat)
    bot: str | None
    abandoned: bool


@dataclass(frozen=True)
class Outcome:
    """What the store keeps of a finished match, taken when it ends."""

    match_id: str
    rules: Rules
    rated: bool
    winner: int
    scores: list[int]
    seats: list[SeatOutcome]
    #: per side, summed over the hands: hands, points, sweeps, settebello, primiera, coins
    sides: list[dict[str, int]]
    #: an online bot's account sat at it: rated in the bots' pool
    online_bot: bool = False


def side_stats(results: list[dict[str, Any]], sides: int) -> list[dict[str, int]]:
    """Each side's facts over the hands' score sheets (``scoring.score_hand``)."""
    out = [dict(hands=0, points=0, sweeps=0, settebello=0, primiera=0, coins=0)
           for _ in range(sides)]
    for res in results:
        for i, side in enumerate(res["sides"]):
            o = out[i]
            o["hands"] += 1
            o["points"] += int(side["total"])
            o["sweeps"] += int(side.get("scope") or 0)
            o["settebello"] += int(bool(side["points"].get("settebello")))
            o["primiera"] += int(bool(side["points"].get("primiera")))
            o["coins"] += int(bool(side["points"].get("coins")))
    return out


def ranks(outcome: Outcome) -> list[int]:
    """Each side's finishing place (0 first): the winner first, the rest by points."""
    order = []
    for side, score in enumerate(outcome.scores):
        if side == outcome.winner:
            order.append(0)
        else:
            order.append(1 + sum(1 for s, sc in enumerate(outcome.scores)
                                 if s != outcome.winner and s != side and sc > score))
    return order


def new_ratings(outcome: Outcome, current: dict[int, tuple[float, float]],
                keep: set[int] | frozenset[int] = frozenset()
                ) -> dict[int, tuple[float, float]]:
    """The accounts' (mu, sigma) after a rated match, from ``current`` (missing accounts
    start at openskill's default); the accounts in ``keep`` keep theirs (``farming``).
    Bots' ratings stay as published."""
    sides = outcome.rules.teams
    by_side: list[list[SeatOutcome]] = [[] for _ in range(sides)]
    for s in outcome.seats:
        by_side[s.side].append(s)

    def rating(s: SeatOutcome) -> Any:
        if s.user_id is None:
            mu, sigma = BOT_RATINGS.get(s.bot or "", BOT_RATINGS["intermediate"])
        else:
            mu, sigma = current.get(s.user_id, START)
        return MODEL.rating(mu=mu, sigma=sigma)

    def rate(places: list[int]) -> dict[int, tuple[float, float]]:
        teams = [[rating(s) for s in side] for side in by_side]
        rated = MODEL.rate(teams, ranks=[float(p) for p in places])
        return {s.user_id: (r.mu, r.sigma)
                for side, team in zip(by_side, rated, strict=True)
                for s, r in zip(side, team, strict=True) if s.user_id is not None}

    places = ranks(outcome)
    out = rate(places)
    last = max(places) + 1
    for side, seats in enumerate(by_side):
        quitters = [s for s in seats if s.abandoned and s.user_id is not None]
        if quitters:  # rated as if their side had finished last, alone
            worse = rate([last if i == side else p for i, p in enumerate(places)])
            for s in quitters:
                assert s.user_id is not None
                out[s.user_id] = worse[s.user_id]
    for u in keep:
        if u in out:
            out[u] = current.get(u, START)
    return out


async def _recorded(s: AsyncSession, match_id: str) -> bool:
    """Has the match's end been kept already? (Its seats are written together.)"""
    return await s.scalar(select(MatchPlayerRow.seat)
                          .where(MatchPlayerRow.match_id == match_id).limit(1)) is not None


#: tries of recording a match end that the database refused for a passing reason
TRIES = 5


def transient(error: DBAPIError) -> bool:
    """A refusal that trying again can mend: SQLite busy past its timeout, a lost
    connection (OperationalError), a PostgreSQL deadlock or serialization failure."""
    code = getattr(error.orig, "sqlstate", None) or getattr(error.orig, "pgcode", None)
    return isinstance(error, OperationalError) or code in ("40P01", "40001")


async def _pause(attempt: int) -> None:
    await asyncio.sleep(0.5 * 2 ** attempt)


class Ratings:
    """Keeps finished matches' seats, and moves ratings after rated ones."""

    def __init__(self, store: Store,
                 pause: Callable[[int], Awaitable[None]] = _pause) -> None:
        self.store = store
        #: waits before the next try (tests pass one that waits for an event, not time)
        self.pause = pause

    async def record_surely(self, outcome: Outcome) -> bool:
        """``record``, tried again (up to ``TRIES``) while the database refuses it for a
        passing reason: nothing was written then, and a match counts once however often
        it is tried, so a busy moment never loses a finished match."""
        for attempt in range(TRIES):
            try:
                return await self.record(outcome)
            except DBAPIError as e:
                if attempt == TRIES - 1 or not transient(e):
                    raise
                log.warning("recording match %s: %s; trying again", outcome.match_id, e)
                await self.pause(attempt)
        raise AssertionError("unreachable")

    async def record(self, outcome: Outcome) -> bool:
        """Keep ``outcome`` and move the ratings, in one transaction that reads the ratings
        under a lock (so matches of one account ending at once, on any worker, each move
        it from where the previous one left it); False when the match was already
        recorded (a match counts once, whoever records it)."""
        try:
            return await self._record(outcome)
        except IntegrityError:
            if await self.recorded(outcome.match_id):
                return False  # another worker recorded it at the same moment
            raise

    async def recorded(self, match_id: str) -> bool:
        async with self.store.session() as s:
            return await _recorded(s, match_id)

    async def _record(self, outcome: Outcome) -> bool:
        pool = pool_of(outcome.rules, outcome.online_bot)
        users = sorted({s.user_id for s in outcome.seats if s.user_id is not None})
        now = utcnow()
        async with self.store.exclusive() as s:
            rated = outcome.rated
            if rated and await farming.share_an_address(s, users):
                log.info("match %s not rated: two of its accounts share an address",
                         outcome.match_id)
                rated = False
            current_rows: dict[int, RatingRow] = {}
            if rated and users:
                # every row exists first (a newcomer's too), then all are locked, in one
                # order: two transactions never wait for each other in a circle
                await s.execute(self.store.insert(RatingRow).values([
                    dict(user_id=u, pool=pool, mu=START[0], sigma=START[1], games=0, wins=0,
                         updated_at=now) for u in users
                ]).on_conflict_do_nothing(index_elements=["user_id", "pool"]))
                current_rows = {r.user_id: r for r in await s.scalars(
                    select(RatingRow).where(RatingRow.user_id.in_(users),
                                            RatingRow.pool == pool)
                    .order_by(RatingRow.user_id).with_for_update())}
            if await _recorded(s, outcome.match_id):
                return False
            moved: dict[int, tuple[float, float]] = {}
            if rated:
                sides = {seat.user_id: seat.side for seat in outcome.seats
                         if seat.user_id is not None}
                keep = farming.kept(sides, await farming.provisional(s, users))
                moved = new_ratings(outcome, {u: (r.mu, r.sigma)
                                              for u, r in current_rows.items()}, keep)
            for seat in outcome.seats:
                st = outcome.sides[seat.side]
                won = seat.side == outcome.winner and not seat.abandoned
                before = after = None
                if seat.user_id is not None and seat.user_id in moved:
                    row = current_rows[seat.user_id]
                    before = shown(row.mu, row.sigma)
                    row.mu, row.sigma = moved[seat.user_id]
                    row.games += 1
                    row.wins += int(won)
                    row.updated_at = now
                    after = shown(row.mu, row.sigma)
                    s.add(RatingHistoryRow(user_id=seat.user_id, pool=pool,
                                           match_id=outcome.match_id, rating=after, at=now))
                s.add(MatchPlayerRow(
                    match_id=outcome.match_id, seat=seat.seat, user_id=seat.user_id,
                    side=seat.side, won=won, abandoned=seat.abandoned, points=st["points"],
                    hands=st["hands"], sweeps=st["sweeps"], settebello=st["settebello"],
                    primiera=st["primiera"], coins=st["coins"], rating_before=before,
                    rating_after=after,
                ))
        return True

    def hook(self, outcome: Outcome) -> Awaitable[None]:
        """For the master's match-end hook (``play.outcome.rating_hook``): record the
        outcome, logging (never raising) a failure (a lost rating update must not stop the
        table)."""

        async def run() -> None:
            try:
                await self.record_surely(outcome)
            except Exception:
                log.exception("could not record match %s for the ratings", outcome.match_id)
        return run()
