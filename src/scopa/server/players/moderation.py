"""Players protecting themselves and the operator acting on reports.

A player **blocks** another (``POST /api/friends/block``): the blocked player's table
chat and invitations never reach the blocker (the blocked player is not told). A player
**reports** another from their profile (``POST /api/players/<name>/report``), for the
operator, who lists the open reports, **mutes** (chat refused) or **suspends** (no
sign-in, every session ended) an account until a time, and **closes** a report (a player's
or a chat message's) once handled, from the command line (``scopa admin``). Every act of
the operator is kept in one log (``moderation_actions``, as lichess keeps its moderation
log): the users' ``muted_until`` / ``suspended_until`` hold the one in force, the log what
was done, when, by whom and why. The decisions (is it muted, suspended, blocked) live here,
once.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from ..store.account_models import (
    BlockRow,
    ModerationActionRow,
    PlayerReportRow,
    SessionRow,
    UserRow,
)
from ..store.base import aware
from ..store.database import Store
from ..store.models import ReportRow, utcnow

#: what the log records: a mute or suspension set or lifted, a report closed
ACTIONS = ("mute", "unmute", "suspend", "unsuspend", "close-report", "close-chat-report")
#: who acted, when the operator does not say
OPERATOR = "operator"


class ModerationError(ValueError):
    """An act that cannot be done (a report unknown or already closed): nothing changed."""


def active(until: datetime | None, now: datetime | None = None) -> bool:
    """A mute or suspension in force at ``now``."""
    if until is None:
        return False
    return aware(until) > (now or utcnow())


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

    async def player_reports(self, limit: int = 50,
                             closed: bool = False) -> list[dict[str, Any]]:
        """Players reported from their profiles, newest first: the open reports (with
        ``closed``, every one, each with when it was closed)."""
        async with self.session() as s:
            query = select(PlayerReportRow)
            if not closed:
                query = query.where(PlayerReportRow.handled_at.is_(None))
            rows = (await s.execute(
                query.order_by(PlayerReportRow.created_at.desc(),
                               PlayerReportRow.id.desc()).limit(limit)
            )).scalars().all()
            names = {u.id: u for u in await s.scalars(select(UserRow).where(UserRow.id.in_(
                {r.reporter_id for r in rows} | {r.reported_id for r in rows})))}
        return [{"id": r.id, "at": r.created_at, "reported": names[r.reported_id].name,
                 "by": names[r.reporter_id].name, "reason": r.reason,
                 "muted": muted(names[r.reported_id]),
                 "suspended": suspended(names[r.reported_id]),
                 "closed_at": r.handled_at} for r in rows]

    async def set_mute(self, user_id: int, until: datetime | None, note: str | None = None,
                       by: str = OPERATOR) -> None:
        """Mute the account's chat until ``until`` (None: unmute), logged."""
        async with self.session.begin() as s:
            await s.execute(update(UserRow).where(UserRow.id == user_id)
                            .values(muted_until=until))
            s.add(_act("mute" if until is not None else "unmute", by, note, user_id,
                       until=until))

    async def set_suspension(self, user_id: int, until: datetime | None,
                             note: str | None = None, by: str = OPERATOR) -> None:
        """Suspend the account until ``until`` (None: lift it), logged; suspending ends
        every session of it at once."""
        async with self.session.begin() as s:
            await s.execute(update(UserRow).where(UserRow.id == user_id)
                            .values(suspended_until=until))
            if until is not None:
                await s.execute(delete(SessionRow).where(SessionRow.user_id == user_id))
            s.add(_act("suspend" if until is not None else "unsuspend", by, note, user_id,
                       until=until))

    async def close_report(self, report_id: int, chat: bool = False,
                           note: str | None = None, by: str = OPERATOR) -> None:
        """Close a report once handled (a player's; with ``chat``, a chat message's),
        logged with ``note`` (what was done); raise ``ModerationError``, changing nothing,
        for a report that does not exist or is closed already. One guarded UPDATE: two
        operators closing it at once close it once."""
        row: type[PlayerReportRow] | type[ReportRow] = ReportRow if chat else PlayerReportRow
        kind = "chat report" if chat else "player report"
        now = utcnow()
        async with self.session.begin() as s:
            done = await s.execute(update(row).where(row.id == report_id,
                                                     row.handled_at.is_(None))
                                   .values(handled_at=now))
            if not done.rowcount:  # type: ignore[attr-defined]
                exists = await s.get(row, report_id) is not None
                raise ModerationError(f"{kind} #{report_id} is closed already" if exists
                                      else f"no {kind} #{report_id}")
            user = None
            if not chat:
                report = await s.get(PlayerReportRow, report_id)
                user = report.reported_id if report is not None else None
            s.add(_act("close-chat-report" if chat else "close-report", by, note, user,
                       report_id=report_id, at=now))

    async def log(self, user_id: int | None = None, limit: int = 50) -> list[dict[str, Any]]:
        """The operator's acts, newest first (of one account, with ``user_id``)."""
        async with self.session() as s:
            query = select(ModerationActionRow, UserRow.name).outerjoin(
                UserRow, UserRow.id == ModerationActionRow.user_id)
            if user_id is not None:
                query = query.where(ModerationActionRow.user_id == user_id)
            rows = (await s.execute(query.order_by(ModerationActionRow.id.desc())
                                    .limit(limit))).all()
        return [{"id": a.id, "at": a.at, "action": a.action, "account": name,
                 "report": a.report_id, "until": a.until, "note": a.note, "by": a.by}
                for a, name in rows]

    async def is_muted(self, user_id: int) -> datetime | None:
        """Until when the account's chat is muted, if it is now."""
        async with self.session() as s:
            user = await s.get(UserRow, user_id)
        return user.muted_until if user is not None and muted(user) else None


def _act(action: str, by: str, note: str | None, user_id: int | None, *,
         until: datetime | None = None, report_id: int | None = None,
         at: datetime | None = None) -> ModerationActionRow:
    """One row of the log (``ACTIONS``); raise ``ModerationError`` for a note over 200
    characters or a name over 64 (the caller's transaction then changes nothing)."""
    assert action in ACTIONS
    if note is not None and len(note) > 200:
        raise ModerationError("a note is at most 200 characters")
    if not 0 < len(by) <= 64:
        raise ModerationError("who acted is 1 to 64 characters")
    return ModerationActionRow(action=action, by=by, note=note or None, user_id=user_id,
                               until=until, report_id=report_id, at=at or utcnow())
