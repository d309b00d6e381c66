"""The history API: finished matches, replayable move by move, exportable as game records,
and the check of a revealed seed against its commitment."""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from typing import Any, Protocol

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import JSONResponse, PlainTextResponse, Response
from starlette.concurrency import run_in_threadpool

from ...cards import card_text
from ...match import Match
from ...moves import move_fields
from ...notation import dump_position
from ...replay import replay_log
from ...rules import Rules
from ...shuffle import commitment, deck_from_seed
from ...view import history_entry
from ..common.errors import errors
from ..store.access import iso_time, store_of
from ..store.models import EventRow, MatchRow, played
from .answers import MatchList, MatchReplay, MatchSummary, Verified

router = APIRouter(prefix="/api", tags=["history"])

#: the furthest page of the match list (bounded so the database never sees a huge number)
OFFSET_MAX = 1_000_000


def summary(m: MatchRow) -> MatchSummary:
    return {
        "id": m.id, "table_id": m.table_id, "number": m.number,
        "variant": m.rules.get("variant"), "rules": m.rules, "players": m.players,
        "teams": Rules.from_dict(m.rules).teams,
        "scores": m.scores, "winner": m.winner, "hands": m.hands,
        "started_at": iso_time(m.started_at), "finished_at": iso_time(m.finished_at),
    }


def resigned(events: list[EventRow]) -> list[int]:
    """The seats whose player resigned the match, in the order they did."""
    return [ev.data["seat"] for ev in events if ev.kind == "resign"]


def rebuild(rules: dict[str, Any], events: list[EventRow]) -> tuple[Match, list[dict[str, Any]]]:
    """Replay a match from its events (the engine's one replay): the final game and, per
    hand, every position."""
    game: Match | None = None
    hands: list[dict[str, Any]] = []
    for step in replay_log(Rules.from_dict(rules), played(events)):
        game = step.game
        if step.move is None:
            seed = game.hand_seed
            assert seed is not None
            hands.append({
                "number": game.hand_number, "dealer": game.hand.dealer, "seed": seed,
                "redeals": game.hand_attempt, "commitment": commitment(seed),
                "moves": [], "positions": [dump_position(game.hand)], "result": None,
            })
            continue
        hands[-1]["moves"].append(history_entry(game.hand.last_entry()))
        hands[-1]["positions"].append(dump_position(game.hand))
        if game.hand.hand_over:
            hands[-1]["result"] = game.hand.hand_result()
            hands[-1]["scores_after"] = game.match_totals()
    if game is None:
        raise ValueError("a match without a deal")
    return game, hands


class DealSeal(Protocol):
    """What the history asks of the events (``tournaments.online.RoundTables``, set on the app's
    state as ``deal_seal``): whether a table's deals are still secret because other tables
    of its duplicate round are playing them, and if so why."""

    async def sealed(self, table_id: str) -> str | None: ...


async def finished(request: Request, match_id: str) -> MatchRow:
    """A finished match whose cards anyone may see now (403 while its duplicate round is
    still being played elsewhere: its moves show that round's cards)."""
    m = await store_of(request).match(match_id)
    if m is None or m.finished_at is None:
        raise HTTPException(404, "no finished match with this id")
    seal: DealSeal | None = getattr(request.app.state, "deal_seal", None)
    why = None if seal is None else await seal.sealed(m.table_id)
    if why is not None:
        raise HTTPException(403, why)
    return m


@router.get("/matches")
async def matches(
    request: Request,
    limit: int = Query(50, ge=1, le=200),
    offset: int = Query(0, ge=0, le=OFFSET_MAX),
) -> MatchList:
    """Finished matches of public tables, newest first (private tables' matches are
    reached only by their id, which only their players are told)."""
    rows, total = await store_of(request).finished_matches(limit, offset)
    return {"matches": [summary(m) for m in rows], "total": total}


#: replays of finished matches (they never change), most recent last
_REPLAYS: OrderedDict[str, MatchReplay] = OrderedDict()
REPLAY_CACHE = 64
_LOCK = threading.Lock()


@router.get("/matches/{match_id}", responses=errors(403, 404))
async def match(match_id: str, request: Request) -> MatchReplay:
    """A finished match with every hand's positions, for a move-by-move replay."""
    m = await finished(request, match_id)
    with _LOCK:  # the replay is built in a worker thread
        cached = _REPLAYS.get(match_id)
        if cached is not None:
            _REPLAYS.move_to_end(match_id)
            return cached
    store = store_of(request)
    # replaying a match is CPU work: off the event loop
    events = await store.events(m.id)
    _, hands = await run_in_threadpool(rebuild, m.rules, events)
    out: MatchReplay = {**summary(m), "resigned": resigned(events),
                        "replay": {"hands": hands}}
    with _LOCK:
        _REPLAYS[match_id] = out
        while len(_REPLAYS) > REPLAY_CACHE:
            _REPLAYS.popitem(last=False)
    return out


def export_record(m: MatchRow, events: list[EventRow]) -> dict[str, Any]:
    """The game record of a match (``scopa.record`` when it is there, else our own JSON of
    the same facts)."""
    game, hands = rebuild(m.rules, events)
    try:
        from ...record import game_record
    except ImportError:
        return {
            "format": "scopa-server-events", "rules": m.rules, "players": m.players,
            "hands": [
                {"number": h["number"], "dealer": h["dealer"], "seed": h["seed"],
                 "redeals": h["redeals"], "commitment": h["commitment"],
                 "deck": [card_text(c) for c in deck_from_seed(h["seed"], h["redeals"])],
                 "moves": [move_fields(mv) for mv in h["moves"]],
                 "result": h["result"]}
                for h in hands
            ],
            "scores": m.scores, "winner": m.winner,
        }
    return game_record(game, list(m.players))


@router.get("/matches/{match_id}/record", responses={
    **errors(403, 404, 501),
    200: {"description": "the game record: JSON (scopa.record), or text with ?format=text",
          "content": {"application/json": {}, "text/plain": {}}}})
async def record(
    match_id: str, request: Request, format: str = Query("json", pattern="^(json|text)$")
) -> Response:
    """Download the game record (JSON, or ``?format=text``)."""
    store = store_of(request)
    m = await finished(request, match_id)
    rec = await run_in_threadpool(export_record, m, await store.events(m.id))
    headers = {"Content-Disposition": f'attachment; filename="scopa-{m.id}.{format}"'}
    if format == "text":
        try:
            from ...record import record_to_text
        except ImportError:
            raise HTTPException(501, "the text record format is not available") from None
        return PlainTextResponse(record_to_text(rec), headers=headers)
    return JSONResponse(json.loads(json.dumps(rec)), headers=headers)


@router.get("/verify")
def verify(
    seed: str = Query(max_length=200),
    commitment_hex: str | None = Query(None, alias="commitment", max_length=128),
    attempt: int = Query(0, ge=0, le=100),
) -> Verified:
    """Check a revealed hand seed against its published commitment; show its deck."""
    actual = commitment(seed)
    return {
        "ok": None if commitment_hex is None else actual == commitment_hex.lower(),
        "commitment": actual,
        "deck": [card_text(c) for c in deck_from_seed(seed, attempt)],
    }
