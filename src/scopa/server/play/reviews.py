"""Game reviews on the server: a player asks for a finished match's review, the analysis
workers judge its plays one at a time (``bots.review``: each from its mover's fair view),
and the review is kept with the match.

Never in the request path: a request queues the review and answers at once; the page
asks again for the progress. Bounded twice: ``reviews_per_player`` in flight per player
(an account, or a guest's address) across workers, and ``reviews_queue`` waiting at each
worker (then 503 busy). A review is asked only of a finished match whose cards anyone may
see (``history.finished``: a duplicate round's match waits for its round's end), so a
rated game is reviewed only once it is over."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from fastapi import APIRouter, Request
from starlette.concurrency import run_in_threadpool

from ...bots.review import Review, decisions, play_review, summarize
from ..common.errors import errors
from ..common.refusal import Refusal
from ..common.security import client_address
from ..players.sessions import viewer
from ..store.database import Store
from ..store.models import MatchRow, ReviewRow
from .answers import MatchReview
from .botpool import BotPool
from .history import export_record, finished
from .review_store import ReviewStore, settled, stale

log = logging.getLogger("scopa.server")

router = APIRouter(prefix="/api", tags=["history"])

#: plays judged between two writes of the progress (every worker reads it from the row)
PROGRESS_EVERY = 4


class Reviews:
    """This worker's review queue: one review judged at a time, one play at a time, in
    the analysis workers (below the bots' priority)."""

    def __init__(self, store: Store, pool: BotPool, simulations: int, queue_max: int,
                 per_player: int) -> None:
        self.core = store
        self.rows = ReviewStore(store)
        self.pool = pool
        self.simulations = simulations
        self.queue_max = queue_max
        self.per_player = per_player
        self.waiting: list[str] = []
        self.ready = asyncio.Event()
        #: the review being judged here: (match id, plays judged so far)
        self.current: tuple[str, int] | None = None
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        """Stop judging; the reviews this worker had on the way read as failed at once (not
        after ``STALE``), so their players may ask again at another worker."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        for match_id in self.waiting:
            with contextlib.suppress(Exception):  # a store already gone: STALE does it
                await self.rows.fail(match_id, "the server stopped: ask again")
        self.waiting.clear()

    async def ask(self, match: MatchRow, asker: str) -> None:
        """Queue ``match``'s review unless it is done or on its way (refused with
        ``busy`` when this worker's queue is full, ``too_many`` past the asker's bound)."""
        if settled(await self.rows.get(match.id)):
            return  # kept, or on its way: nothing to queue
        if len(self.waiting) >= self.queue_max:
            raise Refusal("busy", "the server is reviewing many games: ask again in a few "
                          "minutes")
        if await self.rows.ask(match.id, asker, self.simulations, self.per_player):
            self.waiting.append(match.id)
            self.ready.set()

    def ahead(self, match_id: str) -> int:
        """Reviews waiting before ``match_id`` here (0 if it is not waiting here)."""
        return self.waiting.index(match_id) if match_id in self.waiting else 0

    async def _run(self) -> None:
        while True:
            while not self.waiting:
                self.ready.clear()
                await self.ready.wait()
            match_id = self.waiting[0]
            try:
                await self._review(match_id)
            except asyncio.CancelledError:
                raise  # it stays waiting: ``stop`` marks it failed
            except Exception:
                log.exception("the review of match %s failed", match_id)
                await self.rows.fail(match_id, "the review could not be made")
            finally:
                self.current = None
            self.waiting.pop(0)

    async def _review(self, match_id: str) -> None:
        match = await self.core.match(match_id)
        if match is None:
            raise LookupError(match_id)
        record = await run_in_threadpool(export_record, match, await self.core.events(match_id))
        plays = await run_in_threadpool(decisions, record)
        await self.rows.running(match_id, len(plays))
        judged = []
        for n, d in enumerate(plays, 1):
            self.current = (match_id, n - 1)
            fields = await self.pool.judge(d, self.simulations, match_id)
            if fields is not None:
                judged.append(play_review(fields))
            if n % PROGRESS_EVERY == 0:
                await self.rows.progress(match_id, n)
        review = Review(self.simulations, tuple(judged), summarize(judged))
        await self.rows.finish(match_id, review.to_dict())


def reviews_of(request: Request) -> Reviews:
    reviews: Reviews = request.app.state.reviews
    return reviews


def answer(match_id: str, row: ReviewRow | None, reviews: Reviews) -> MatchReview:
    """What the page is told of a review: from the row, with this worker's own progress
    when it is judging it now."""
    if row is None:
        return {"match_id": match_id, "status": "none", "done": 0, "total": 0, "ahead": 0,
                "review": None, "error": None}
    status, done, error = row.status, row.done, row.error
    if stale(row):
        status, error = "failed", "the review was interrupted: ask again"
    current = reviews.current
    if current is not None and current[0] == match_id:
        done = current[1]
    review: Any = row.review if status == "done" else None
    return {"match_id": match_id, "status": status, "done": done, "total": row.total,
            "ahead": reviews.ahead(match_id), "review": review, "error": error}


@router.post("/matches/{match_id}/review", status_code=202,
             responses=errors(403, 404, 429, 503))
async def ask_review(match_id: str, request: Request) -> MatchReview:
    """Ask for a finished match's review: every play valued from its seat's view by the
    champion's search. Answers at once; ask ``GET`` for the progress and the review."""
    match = await finished(request, match_id)
    me = await viewer(request)
    asker = f"user:{me.id}" if me is not None else f"address:{client_address(request)}"
    reviews = reviews_of(request)
    await reviews.ask(match, asker)
    return answer(match_id, await reviews.rows.get(match_id), reviews)


@router.get("/matches/{match_id}/review", responses=errors(403, 404))
async def get_review(match_id: str, request: Request) -> MatchReview:
    """A match's review: whether it was asked, its progress, and the review once done."""
    await finished(request, match_id)
    reviews = reviews_of(request)
    return answer(match_id, await reviews.rows.get(match_id), reviews)
