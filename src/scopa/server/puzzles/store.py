"""The puzzles' rows: loading checked puzzles, the puzzle of a day, the next one for a
player, and a first answer moving the two ratings in one transaction (any worker, any
number of answers at once: the rows read are locked, and an answer counts once)."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select

from ..store.base import utcnow
from ..store.database import Store
from ..store.puzzle_models import PuzzleAttemptRow, PuzzleDayRow, PuzzleRatingRow, PuzzleRow
from . import rating

#: the puzzle of a day is drawn among this many of those nearest the middle rating
DAILY_POOL = 200
#: the rating windows (either side of the player's) the next puzzle is looked for in first
WINDOWS = (100, 400)
#: ids a guest may ask to skip at most (the page keeps the ones it has seen)
SKIP_MAX = 100


@dataclass(frozen=True)
class Rated:
    """What a first answer did: the player's rating before and after (None when the answer
    was not the first, so nothing moved) and the puzzle's rating after."""

    first: bool
    before: int | None
    after: int | None
    settled: bool
    puzzle: int


class PuzzleStore:
    def __init__(self, store: Store) -> None:
        self.store = store
        self.session = store.session

    async def add(self, puzzles: Sequence[dict[str, Any]]) -> int:
        """Keep ``puzzles`` (already verified), in one transaction; those kept before are
        left as they are. Returns how many are new."""
        if not puzzles:
            return 0
        now = utcnow()
        async with self.session.begin() as s:
            ids = [p["id"] for p in puzzles]
            known = set(await s.scalars(select(PuzzleRow.id).where(PuzzleRow.id.in_(ids))))
            fresh = []
            for p in puzzles:
                if p["id"] in known:
                    continue
                known.add(p["id"])
                fresh.append(PuzzleRow(
                    id=p["id"], kind=p["kind"], variant=p["variant"], body=p,
                    rating=int(p["rating"]), mu=rating.mu_of(int(p["rating"])),
                    sigma=rating.PUZZLE_SIGMA, attempts=0, solved=0, loaded_at=now))
            s.add_all(fresh)
            return len(fresh)

    async def count(self) -> int:
        async with self.session() as s:
            return int(await s.scalar(select(func.count()).select_from(PuzzleRow)) or 0)

    async def get(self, puzzle_id: str) -> PuzzleRow | None:
        async with self.session() as s:
            row: PuzzleRow | None = await s.get(PuzzleRow, puzzle_id)
            return row

    async def daily(self, day: str) -> PuzzleRow | None:
        """The puzzle of ``day`` (``YYYY-MM-DD``, UTC): chosen once, the first time the day
        is asked for (by whichever worker), among puzzles not yet a day's, near the middle
        rating, by the day's hash; the same for everyone all day."""
        async with self.session() as s:
            chosen = await s.get(PuzzleDayRow, day)
            if chosen is not None:
                return await s.get(PuzzleRow, chosen.puzzle_id)
            used = select(PuzzleDayRow.puzzle_id)
            pool = list(await s.scalars(
                select(PuzzleRow.id).where(PuzzleRow.id.not_in(used))
                .order_by(func.abs(PuzzleRow.rating - rating.SCALE_START), PuzzleRow.id)
                .limit(DAILY_POOL)))
            if not pool:  # every puzzle has had its day: they come round again
                pool = list(await s.scalars(select(PuzzleRow.id).order_by(PuzzleRow.id)
                                            .limit(DAILY_POOL)))
            if not pool:
                return None
        pick = pool[int(hashlib.sha256(day.encode()).hexdigest(), 16) % len(pool)]
        async with self.session.begin() as s:
            await s.execute(self.store.insert(PuzzleDayRow).values(day=day, puzzle_id=pick)
                            .on_conflict_do_nothing(index_elements=["day"]))
        async with self.session() as s:
            chosen = await s.get(PuzzleDayRow, day)  # another worker's, if it was first
            return await s.get(PuzzleRow, chosen.puzzle_id if chosen else pick)

    async def player(self, user_id: int) -> PuzzleRatingRow | None:
        async with self.session() as s:
            row: PuzzleRatingRow | None = await s.get(PuzzleRatingRow, user_id)
            return row

    async def attempt(self, user_id: int, puzzle_id: str) -> PuzzleAttemptRow | None:
        async with self.session() as s:
            row: PuzzleAttemptRow | None = await s.get(PuzzleAttemptRow, (user_id, puzzle_id))
            return row

    async def next_for(self, user_id: int | None, near: int, skip: Sequence[str]
                       ) -> PuzzleRow | None:
        """The puzzle nearest ``near`` in rating that the player has not answered (an
        account's answers are kept) and that is not in ``skip`` (what a guest's page has
        seen); ties by id. Looked for in widening rating windows first (the rating is
        indexed), so a large collection is not sorted whole for each request."""
        for window in (*WINDOWS, None):
            q = select(PuzzleRow).where(PuzzleRow.id.not_in(list(skip)[:SKIP_MAX]))
            if window is not None:
                q = q.where(PuzzleRow.rating.between(near - window, near + window))
            if user_id is not None:
                q = q.where(PuzzleRow.id.not_in(select(PuzzleAttemptRow.puzzle_id).where(
                    PuzzleAttemptRow.user_id == user_id)))
            q = q.order_by(func.abs(PuzzleRow.rating - near), PuzzleRow.id).limit(1)
            async with self.session() as s:
                row: PuzzleRow | None = await s.scalar(q)
            if row is not None:
                return row
        return None

    async def answer(self, user_id: int, puzzle_id: str, correct: bool,
                     move: dict[str, Any]) -> Rated:
        """An account's answer: the first one moves its puzzle rating and the puzzle's and
        is kept; a later one changes nothing. One transaction, its rows locked."""
        now = utcnow()
        async with self.store.exclusive() as s:
            await s.execute(self.store.insert(PuzzleRatingRow).values(
                user_id=user_id, mu=rating.START[0], sigma=rating.START[1], attempts=0,
                solved=0, updated_at=now).on_conflict_do_nothing(index_elements=["user_id"]))
            player = await s.scalar(select(PuzzleRatingRow).where(
                PuzzleRatingRow.user_id == user_id).with_for_update())
            puzzle = await s.scalar(select(PuzzleRow).where(PuzzleRow.id == puzzle_id)
                                    .with_for_update())
            assert player is not None and puzzle is not None
            done = await s.get(PuzzleAttemptRow, (user_id, puzzle_id))
            if done is not None:
                return Rated(False, None, None, rating.settled(player.sigma),
                             rating.shown(puzzle.mu))
            before = rating.shown(player.mu)
            (player.mu, player.sigma), (puzzle.mu, puzzle.sigma) = rating.move(
                (player.mu, player.sigma), (puzzle.mu, puzzle.sigma), correct)
            after = rating.shown(player.mu)
            player.attempts += 1
            player.solved += int(correct)
            player.updated_at = now
            puzzle.attempts += 1
            puzzle.solved += int(correct)
            puzzle.rating = rating.shown(puzzle.mu)
            s.add(PuzzleAttemptRow(user_id=user_id, puzzle_id=puzzle_id, correct=correct,
                                   move=move, rating_before=before, rating_after=after, at=now))
            return Rated(True, before, after, rating.settled(player.sigma), puzzle.rating)
