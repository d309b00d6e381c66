"""Players protecting themselves and the operator acting on reports.

A player **blocks** another (``POST /api/friends/block``): the blocked player's table
chat and invitations never reach the blocker (the blocked player is not told). A player
**reports** another from their profile (``POST /api/players/<name>/report``), for the
operator, who lists the reports and **mutes** (chat refused) or **suspends** (no sign-in,
every session ended) an account until a time, from the command line (``scopa admin``).
The decisions (is it muted, suspended, blocked) live here, once.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from ..store.account_models import BlockRow, PlayerReportRow, SessionRow, UserRow
from ..store.database import Store
from ..store.models import utcnow


def active(until: datetime | None, now: datetime | None = None) -> bool:
    """A mute or suspension in force at ``now``."""
    if until is None:
        return False
    until = until if until.tzinfo is not None else until.replace(tzinfo=UTC)
    return until > (now or utcnow())


def suspended(user: UserRow, now: datetime | None = None) -> bool:
    return active(user.suspended_until, now)


def muted(user: UserRow, now: datetime | None = None) -> bool:
    return active(user.muted_until, now)


async def blocked_by(s: AsyncSession, blocker: int) -> set[int]:
    """The accounts ``blocker`` blocked (whose chat and invitations it never gets)."""
    return set(await s.scalars(select(BlockRow.blocked_id)
                               .where(BlockRow.blocker_id == blocker)))


async def blocks(s: AsyncSession, blocker: int, blocked: int) -> bool:
    return await s.get(BlockRow, (blocker, blocked)) is not None


async def blockers_of(s: AsyncSession, blocked: int) -> set[int]:
    """The accounts that blocked ``blocked``: it may not follow them, sit at their tables
    or see whether they are online (docs/accounts.md, "What a block means")."""
    return set(await s.scalars(select(BlockRow.blocker_id)
                               .where(BlockRow.blocked_id == blocked)))


# -- the operator's side (``scopa admin``) ----------------------------------------------
class Moderation:
    """The operator's reads and acts on the server's one store."""

    def __init__(self, store: Store) -> None:
        self.session = store.session

    async def player_reports(self, limit: int = 50) -> list[dict[str, Any]]:
        """Players reported from their profiles, newest first."""
        async with self.session() as s:
            rows = (await s.execute(
                select(PlayerReportRow).order_by(PlayerReportRow.created_at.desc(),
                                                 PlayerReportRow.id.desc()).limit(limit)
            )).scalars().all()
            names = {u.id: u for u in await s.scalars(select(UserRow).where(UserRow.id.in_(
                {r.reporter_id for r in rows} | {r.reported_id for r in rows})))}
        return [{"id": r.id, "at": r.created_at, "reported": names[r.reported_id].name,
                 "by": names[r.reporter_id].name, "reason": r.reason,
                 "muted": muted(names[r.reported_id]),
                 "suspended": suspended(names[r.reported_id])} for r in rows]

    async def set_mute(self, user_id: int, until: datetime | None) -> None:
        """Mute the account's chat until ``until`` (None: unmute)."""
        async with self.session.begin() as s:
            await s.execute(update(UserRow).where(UserRow.id == user_id)
                            .values(muted_until=until))

    async def set_suspension(self, user_id: int, until: datetime | None) -> None:
        """Suspend the account until ``until`` (None: lift it); suspending ends every
        session of it at once."""
        async with self.session.begin() as s:
            await s.execute(update(UserRow).where(UserRow.id == user_id)
                            .values(suspended_until=until))
            if until is not None:
                await s.execute(delete(SessionRow).where(SessionRow.user_id == user_id))

    async def is_muted(self, user_id: int) -> datetime | None:
        """Until when the account's chat is muted, if it is now."""
        async with self.session() as s:
            user = await s.get(UserRow, user_id)
        return user.muted_until if user is not None and muted(user) else None
