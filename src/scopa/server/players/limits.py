"""Limits on actions that cost someone else (mail sent to an inbox, a reset asked for, a
report filed), counted in the database so that they hold across workers and under many
requests at once.

Each key has one row: how many actions since its window began. ``take`` counts an action
under all its limits in one transaction, each by a guarded UPDATE (``count < limit``, or
a new window once the old one is over), which the database applies one at a time per row
(a row lock on PostgreSQL, the one writer on SQLite); if any limit is used up the whole
transaction rolls back, so a refused try counts nowhere. Exactly ``limit`` of any number
of requests at once get through. Windows are fixed (they start with their first action).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import delete, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from ..store.account_models import CountedActionRow
from ..store.database import Store

#: rows whose window began this long ago are forgotten (no window is longer)
KEEP = timedelta(days=1)


@dataclass(frozen=True)
class Limit:
    """At most ``count`` actions under ``key`` in ``seconds``."""

    key: str
    count: int
    seconds: float


class Refused(Exception):
    """A limit is used up (rolls the counting transaction back)."""


async def _count(s: AsyncSession, lim: Limit, now: datetime) -> None:
    key = lim.key[:200]
    try:
        async with s.begin_nested():
            s.add(CountedActionRow(key=key, count=0, start=now))
    except IntegrityError:  # counted before: the row is there
        pass
    renewed = await s.execute(update(CountedActionRow).where(
        CountedActionRow.key == key,
        CountedActionRow.start <= now - timedelta(seconds=lim.seconds))
        .values(count=1, start=now))
    if getattr(renewed, "rowcount", 0):
        return
    counted = await s.execute(update(CountedActionRow).where(
        CountedActionRow.key == key, CountedActionRow.count < lim.count)
        .values(count=CountedActionRow.count + 1))
    if not getattr(counted, "rowcount", 0):
        raise Refused(key)


async def take(store: Store, limits: list[Limit], now: datetime | None = None) -> int:
    """Count one action under every limit: 0 when all allow it, else the seconds to wait
    (the longest window; nothing is counted then)."""
    now = now or datetime.now(UTC)
    try:
        async with store.session.begin() as s:
            # keys in one order: two requests never wait for each other's rows crosswise
            for lim in sorted(limits, key=lambda x: x.key):
                await _count(s, lim, now)
    except Refused:
        return math.ceil(max(lim.seconds for lim in limits))
    if now.minute == 0:  # now and then, forget the old windows
        async with store.session.begin() as s:
            await s.execute(delete(CountedActionRow).where(CountedActionRow.start < now - KEEP))
    return 0


async def claim(store: Store, key: str, seconds: float, now: datetime | None = None) -> bool:
    """Claim ``key`` once per ``seconds``: True for exactly one caller per window,
    however many ask at once."""
    return await take(store, [Limit(key, 1, seconds)], now) == 0


async def release(store: Store, key: str) -> None:
    """Give a claim back (what it was for did not happen)."""
    async with store.session.begin() as s:
        await s.execute(delete(CountedActionRow).where(CountedActionRow.key == key[:200]))
