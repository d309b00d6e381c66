"""The rows of match reviews (``match_reviews``): asking for one within the asker's bound,
its progress while the analysis workers judge it, and the review kept once done. Every
worker reads the same rows, so a review asked at one worker is seen from any."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import func, select, text, update

from ..common.refusal import Refusal
from ..store.base import aware, utcnow
from ..store.database import Store
from ..store.models import ReviewRow

#: a review asked or being judged that has not moved for this long was lost (its worker
#: stopped): it reads as failed and may be asked again
STALE = timedelta(minutes=10)
IN_FLIGHT = ("queued", "running")


def stale(row: ReviewRow, now: datetime | None = None) -> bool:
    """In flight but not moved for ``STALE``: its worker is gone."""
    return row.status in IN_FLIGHT and aware(row.updated_at) < (now or utcnow()) - STALE


def settled(row: ReviewRow | None, now: datetime | None = None) -> bool:
    """Nothing to ask: the review is kept, or on its way (in flight, not stale)."""
    return row is not None and (row.status == "done" or
                                (row.status in IN_FLIGHT and not stale(row, now)))


class ReviewStore:
    """Match reviews on the server's one store."""

    def __init__(self, store: Store) -> None:
        self.session = store.session
        self.exclusive = store.exclusive
        self.is_sqlite = store.is_sqlite

    async def get(self, match_id: str) -> ReviewRow | None:
        async with self.session() as s:
            row: ReviewRow | None = await s.get(ReviewRow, match_id)
            return row

    async def ask(self, match_id: str, asker: str, simulations: int, per_asker: int) -> bool:
        """Queue the review of ``match_id`` for ``asker``: True if it is now queued, False
        if it is done or in flight already (nothing to do). A ``too_many`` ``Refusal`` when
        ``asker`` has ``per_asker`` reviews in flight: the count and the write are one
        transaction no other request can interleave with (``Store.exclusive``; on
        PostgreSQL an advisory lock of the reviews' table, held to the commit)."""
        now = utcnow()
        async with self.exclusive() as s:
            if not self.is_sqlite:
                await s.execute(text("SELECT pg_advisory_xact_lock(hashtext('match_reviews'))"))
            row = await s.get(ReviewRow, match_id)
            if settled(row, now):
                return False
            mine = await s.scalar(select(func.count()).select_from(ReviewRow).where(
                ReviewRow.asker == asker, ReviewRow.status.in_(IN_FLIGHT),
                ReviewRow.updated_at >= now - STALE))
            if (mine or 0) >= per_asker:
                raise Refusal("too_many", f"you have {mine} reviews on the way already (at "
                              f"most {per_asker}): wait for one to finish")
            fresh: dict[str, Any] = {
                "status": "queued", "asker": asker, "simulations": simulations, "done": 0,
                "total": 0, "review": None, "error": None, "asked_at": now, "updated_at": now}
            if row is None:
                s.add(ReviewRow(match_id=match_id, **fresh))
            else:
                for key, value in fresh.items():
                    setattr(row, key, value)
            return True

    async def _set(self, match_id: str, **values: Any) -> None:
        async with self.session.begin() as s:
            await s.execute(update(ReviewRow).where(ReviewRow.match_id == match_id)
                            .values(updated_at=utcnow(), **values))

    async def running(self, match_id: str, total: int) -> None:
        await self._set(match_id, status="running", total=total, done=0)

    async def progress(self, match_id: str, done: int) -> None:
        await self._set(match_id, done=done)

    async def finish(self, match_id: str, review: dict[str, Any]) -> None:
        await self._set(match_id, status="done", done=len(review["plays"]), review=review,
                        asker=None)

    async def fail(self, match_id: str, why: str) -> None:
        await self._set(match_id, status="failed", error=why[:200], asker=None)
