"""Who may move whose rating: the policy against rating farming (several accounts of one
person throwing rated matches to another).

- **Shared address**: when two accounts at a rated table have been used from one client
  address (a sign-up or sign-in; addresses are kept ``address_keep_days``), the match is
  kept as unrated: no rating moves, no rated game is counted. People sharing a home or
  a café can still play each other, just not for rating.
- **Provisional accounts**: an account is provisional until it has played rated matches
  against ``PROVISIONAL_OPPONENTS`` different accounts on the other side. A provisional
  opponent is worth nothing to a rating: a player with one on another side keeps their
  rating for that match (the game is counted, shown as no change), while the provisional
  player is rated as usual (against established players and bots). Bots, whose ratings
  are fixed, always count. So a ring of fresh accounts cannot lift anyone, and an honest
  newcomer is established after a few different opponents.
"""

from __future__ import annotations

from sqlalchemy import distinct, func, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased

from ..store.account_models import AddressRow, MatchPlayerRow

#: different accounts an account must have met in rated matches to count for others
PROVISIONAL_OPPONENTS = 3


async def opponents_met(s: AsyncSession, users: list[int]) -> dict[int, int]:
    """How many different accounts each of ``users`` has played rated matches against
    (on another side, in matches where its rating was kept)."""
    me, other = aliased(MatchPlayerRow), aliased(MatchPlayerRow)
    rows = (await s.execute(
        select(me.user_id, func.count(distinct(other.user_id)))
        .join(other, (other.match_id == me.match_id) & (other.side != me.side))
        .where(me.user_id.in_(users), me.rating_after.is_not(None),
               other.user_id.is_not(None))
        .group_by(me.user_id))).all()
    met = {int(uid): int(n) for uid, n in rows if uid is not None}
    return {u: met.get(u, 0) for u in users}


async def provisional(s: AsyncSession, users: list[int]) -> set[int]:
    return {u for u, n in (await opponents_met(s, users)).items()
            if n < PROVISIONAL_OPPONENTS}


async def share_an_address(s: AsyncSession, users: list[int]) -> bool:
    """Have two of ``users`` been used from one address (in the addresses kept)?"""
    if len(users) < 2:
        return False
    shared = await s.scalar(
        select(AddressRow.address)
        .where(AddressRow.user_id.in_(users), AddressRow.kind == "session")
        .group_by(AddressRow.address)
        .having(func.count(distinct(AddressRow.user_id)) > 1).limit(1))
    return shared is not None


def kept(sides: dict[int, int], provisional: set[int]) -> set[int]:
    """The accounts (``sides``: account -> side) whose rating stays this match: those
    with a provisional account on another side."""
    return {u for u, side in sides.items()
            if any(o in provisional and sides[o] != side for o in sides)}
