"""Limits on actions that cost someone else (mail sent to an inbox, a reset asked for, a
report filed), counted in the database so that they hold across workers and under many
requests at once.

``take`` writes the action under each of its keys and commits, *then* counts: of the
requests racing for a key, the k-th to commit counts at least k rows, so no more than the
limit get through whatever the interleaving (a refused try removes its rows, which can
only let fewer through). Rows older than a day are forgotten."""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import delete, func, select

from ..store.account_models import CountedActionRow
from ..store.database import Store

#: how long a counted action is kept (no window is longer)
KEEP = timedelta(days=1)


@dataclass(frozen=True)
class Limit:
    """At most ``count`` actions under ``key`` in ``seconds``."""

    key: str
    count: int
    seconds: float


async def take(store: Store, limits: list[Limit], now: datetime | None = None) -> int:
    """Count one action under every limit's key: 0 when all allow it (it stays counted),
    else the seconds to wait (the longest window refused; nothing stays counted)."""
    now = now or datetime.now(UTC)
    async with store.session.begin() as s:
        await s.execute(delete(CountedActionRow).where(CountedActionRow.at < now - KEEP))
        rows = [CountedActionRow(key=lim.key[:200], at=now) for lim in limits]
        s.add_all(rows)
        await s.flush()
        ids = [r.id for r in rows]
    wait = 0.0
    async with store.session() as s:
        for lim in limits:
            done = await s.scalar(select(func.count()).select_from(CountedActionRow).where(
                CountedActionRow.key == lim.key[:200],
                CountedActionRow.at >= now - timedelta(seconds=lim.seconds)))
            if int(done or 0) > lim.count:
                wait = max(wait, lim.seconds)
    if wait:
        async with store.session.begin() as s:
            await s.execute(delete(CountedActionRow).where(CountedActionRow.id.in_(ids)))
    return math.ceil(wait)
