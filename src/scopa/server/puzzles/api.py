"""The puzzle routes: the day's puzzle, the next one, one by its id, and an answer, which
the server checks (the page never holds the answer before it is given). Guests solve
unrated; an account's first answer to a puzzle moves its puzzle rating. Answers are rate
limited per address, as other writes are."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Annotated

from fastapi import APIRouter, Query, Request

from ...bots.puzzles import PuzzleError, fair_view, move_code, view_of
from ..common.errors import errors
from ..common.ratelimit import RateLimiter
from ..common.refusal import Refusal
from ..common.security import client_address
from ..players.sessions import Viewer, acting_or_guest, viewer
from ..store.puzzle_models import PuzzleRow
from . import rating
from .answers import AnswerBody, PuzzleAnswer, PuzzleAsked, PuzzleRating, RatingMove
from .store import SKIP_MAX, PuzzleStore

router = APIRouter(prefix="/api/puzzles", tags=["puzzles"])

#: answers per second and burst from one address
ANSWERS_PER_SECOND = 1.0
ANSWERS_BURST = 20
#: a puzzle's id: 16 hex digits (``bots.puzzles.puzzle_id``); any other is simply unknown
ID = re.compile(r"[0-9a-f]{16}")


def puzzles_of(request: Request) -> PuzzleStore:
    store: PuzzleStore = request.app.state.puzzles
    return store


def today() -> str:
    return datetime.now(UTC).date().isoformat()


async def _asked(request: Request, row: PuzzleRow, day: str | None,
                 me: Viewer | None) -> PuzzleAsked:
    store = puzzles_of(request)
    player = None
    answered = False
    if me is not None:
        mine = await store.player(me.id)
        player = _rating(mine.mu, mine.sigma, mine.attempts, mine.solved) if mine else \
            _rating(*rating.START, 0, 0)
        answered = await store.attempt(me.id, row.id) is not None
    shown = fair_view(row.body)
    return {"puzzle": {"id": shown["id"], "kind": shown["kind"], "variant": shown["variant"],
                       "view": shown["view"]},
            "rating": row.rating, "day": day, "player": player, "answered": answered}


async def _puzzle(request: Request, puzzle_id: str) -> PuzzleRow:
    row = await puzzles_of(request).get(puzzle_id) if ID.fullmatch(puzzle_id) else None
    if row is None:
        raise Refusal("not_found", "no such puzzle")
    return row


def _rating(mu: float, sigma: float, attempts: int, solved: int) -> PuzzleRating:
    return {"rating": rating.shown(mu), "settled": rating.settled(sigma),
            "attempts": attempts, "solved": solved}


@router.get("/daily", responses=errors(404))
async def daily(request: Request) -> PuzzleAsked:
    """The puzzle of the day (UTC): the same for everyone all day."""
    day = today()
    row = await puzzles_of(request).daily(day)
    if row is None:
        raise Refusal("not_found", "there are no puzzles on this server yet")
    return await _asked(request, row, day, await viewer(request))


@router.get("/next", responses=errors(404))
async def next_puzzle(
    request: Request,
    skip: Annotated[str, Query(max_length=SKIP_MAX * 17,
                               description="ids seen already, comma-separated")] = "",
) -> PuzzleAsked:
    """The next puzzle for the asker: near its puzzle rating, not one it answered (an
    account) or that its page lists in ``skip`` (a guest, who starts at 1500)."""
    me = await viewer(request)
    store = puzzles_of(request)
    near = rating.SCALE_START
    if me is not None:
        mine = await store.player(me.id)
        if mine is not None:
            near = rating.shown(mine.mu)
    seen = [s for s in skip.split(",") if s][:SKIP_MAX]
    row = await store.next_for(me.id if me else None, near, seen)
    if row is None:
        raise Refusal("not_found", "no puzzle left to solve: come back for new ones")
    return await _asked(request, row, None, me)


@router.get("/{puzzle_id}", responses=errors(404))
async def one(puzzle_id: str, request: Request) -> PuzzleAsked:
    """One puzzle by its id (a shared link)."""
    row = await _puzzle(request, puzzle_id)
    return await _asked(request, row, None, await viewer(request))


@router.post("/{puzzle_id}/answer", responses=errors(404, 429, 503))
async def answer(puzzle_id: str, body: AnswerBody, request: Request) -> PuzzleAnswer:
    """Answer a puzzle with a play: the server says whether it is the best, then shows the
    solution, every play's value and the reason. An account's first answer moves its
    puzzle rating (with its CSRF token); a guest's is unrated."""
    limiter: RateLimiter = request.app.state.limiter
    if not await limiter.take(f"puzzle:{client_address(request)}", ANSWERS_PER_SECOND,
                              ANSWERS_BURST):
        raise Refusal("rate_limited", "too many answers from this address: wait a moment")
    store = puzzles_of(request)
    row = await _puzzle(request, puzzle_id)
    p = row.body
    view = view_of(p["view"])
    try:
        code = move_code(view, body.move.model_dump())
    except PuzzleError as e:
        raise Refusal("bad_message", str(e)) from None
    correct = code == move_code(view, p["best"])
    me = await acting_or_guest(request)
    moved: RatingMove | None = None
    puzzle_rating = row.rating
    if me is not None:
        done = await store.answer(me.id, row.id, correct, body.move.model_dump())
        puzzle_rating = done.puzzle
        if done.first and done.before is not None and done.after is not None:
            moved = {"before": done.before, "after": done.after, "settled": done.settled}
    return {"puzzle_id": row.id, "correct": correct, "best": p["best"], "plays": p["plays"],
            "margin": p["margin"], "deals": p["deals"], "reason": p["reason"],
            "explained": p["explained"], "rating": moved, "puzzle_rating": puzzle_rating}
