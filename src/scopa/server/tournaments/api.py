"""The events' HTTP API: the lobby's list, creating an event, joining and leaving it, the
organiser's actions (start a round, withdraw an entrant, enter or correct a result,
download the event), and the public event page's data and a round's print view.

Refusals are raised where their rule lives, as ``Refusal`` (``common.refusal``: its code
gives the status) or the tournament model's ``TournamentError`` (400), and answered by the
app's handlers: 403 not the organiser, 404 no such event, round or table, 409 the event's
state (full, started, entered twice, the round not over), 429 too many events. A refused
request changes nothing."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import JSONResponse, Response

from ...tournament import (
    Event,
    Result,
    Round,
    TournamentError,
    crosstable,
    standings,
    standings_csv,
    travellers,
)
from ..common.errors import SIGNED_IN, errors
from ..common.refusal import Refusal
from ..play.lobby import bot_levels
from ..players.ratings import BOT_RATINGS
from ..players.sessions import acting, viewer
from .answers import (
    Crosstable,
    PrintedRound,
    TournamentList,
    TournamentPage,
    TournamentSeat,
    Travellers,
)
from .bodies import AddBot, CreateTournament, LateEntry, ResultBody, SitOut, Withdraw
from .online import RoundTables
from .policy import may_organise
from .service import Tournaments, model_of
from .store import StoredTournament
from .views import dealt_cards, event_page, list_line, round_deals, sees_all

router = APIRouter(prefix="/api/events", tags=["events"])

#: events in one page of the lobby's list, and the furthest page
LIST_PAGE = 50
LIST_OFFSET_MAX = 100_000
TournamentId = Annotated[str, Path(min_length=1, max_length=32)]
Number = Annotated[int, Path(ge=1, le=1000)]


def tournaments_of(request: Request) -> Tournaments:
    service: Tournaments = request.app.state.tournaments
    return service


def tables_of(request: Request) -> RoundTables | None:
    tables: RoundTables | None = getattr(request.app.state, "round_tables", None)
    return tables


def round_of(event: Event, number: int) -> Round:
    """The event's round ``number``: a round that is not there is unknown (404), not a
    broken rule."""
    try:
        return event.round(number)
    except TournamentError as e:
        raise Refusal("not_found", str(e)) from None


async def page(request: Request, stored: StoredTournament) -> TournamentPage:
    v = await viewer(request)
    me = None
    if v is not None:
        me = next((e.name for e in stored.entrants if e.user_id == v.id), None)
    tables = await tournaments_of(request).store.tables(stored.row.id)
    return event_page(stored, model_of(stored), tables, v.id if v else None, me)


@router.get("")
async def list_events(
    request: Request,
    limit: int = Query(LIST_PAGE, ge=1, le=LIST_PAGE),
    offset: int = Query(0, ge=0, le=LIST_OFFSET_MAX),
) -> TournamentList:
    """Events open for entries or running, soonest start first, a page at a time (each
    line says how many have entered; the event's page says who)."""
    v = await viewer(request)
    me = v.id if v else None
    found, total = await tournaments_of(request).store.page(("open", "running"), limit, offset, me)
    return {"events": [list_line(e, me) for e in found], "total": total}


@router.post("", status_code=201, responses=errors(400, 429, *SIGNED_IN))
async def create_event(req: CreateTournament, request: Request) -> TournamentPage:
    """Create an event; the signed-in account is its organiser (a few events open at
    once and a day each: ``events_open_per_organiser``, ``events_per_organiser_per_day``)."""
    v = await acting(request)
    settings = request.app.state.settings
    stored = await tournaments_of(request).create(
        req, v.id, settings.events_open_per_organiser,
        settings.events_per_organiser_per_day)
    return await page(request, stored)


@router.get("/{event_id}", responses=errors(404))
async def get_event(event_id: TournamentId, request: Request) -> TournamentPage:
    """The event page: entrants, pairings with table numbers, standings, commitments, the
    seeds of rounds that are over, and the viewer's own table now."""
    stored = await tournaments_of(request).load(event_id)
    return await page(request, stored)


@router.post("/{event_id}/join", responses=errors(404, 409, *SIGNED_IN))
async def join(event_id: TournamentId, request: Request) -> TournamentPage:
    """Enter an online event with the signed-in account (before it starts)."""
    v = await acting(request)
    stored = await tournaments_of(request).join(event_id, v.id, v.name)
    return await page(request, stored)


@router.post("/{event_id}/bots", responses=errors(400, 404, 409, *SIGNED_IN))
async def add_bot(event_id: TournamentId, req: AddBot, request: Request) -> TournamentPage:
    """Organiser: enter a bot (an online event, before it starts). In a rated event only
    a bot with a published rating."""
    v = await acting(request)
    levels = bot_levels()
    stored = await tournaments_of(request).load(event_id)
    may_organise(stored.row.organiser_id, v.id)
    if req.level not in levels:
        raise TournamentError(f"unknown bot level {req.level!r}; one of {levels}")
    if stored.row.settings.get("rated") and req.level not in BOT_RATINGS:
        raise TournamentError(f"the bot {req.level!r} has no published rating")
    stored = await tournaments_of(request).add_bot(event_id, v.id, req.level, req.name)
    return await page(request, stored)


@router.post("/{event_id}/leave", responses=errors(404, 409, *SIGNED_IN))
async def leave(event_id: TournamentId, request: Request) -> TournamentPage:
    """Leave an online event before it starts."""
    v = await acting(request)
    stored = await tournaments_of(request).leave(event_id, v.id)
    return await page(request, stored)


@router.post("/{event_id}/rounds", status_code=201,
             responses=errors(404, 409, *SIGNED_IN))
async def start_round(event_id: TournamentId, request: Request) -> TournamentPage:
    """Organiser: start the event (entries close, round 1 is paired) or pair the next
    round once every table of this one is done; an online round's tables open at once."""
    v = await acting(request)
    stored, _ = await tournaments_of(request).start_round(event_id, v.id)
    return await page(request, stored)


@router.post("/{event_id}/withdraw", responses=errors(400, 404, 409, *SIGNED_IN))
async def withdraw(event_id: TournamentId, req: Withdraw, request: Request) -> TournamentPage:
    """Organiser: withdraw an entrant (not paired again; its table now is a forfeit). If
    that completes the round, an event with auto-next pairs the next one, as when a
    round's last match ends."""
    v = await acting(request)
    stored = await tournaments_of(request).withdraw(event_id, v.id, req.entrant, req.note)
    return await page(request, stored)


@router.post("/{event_id}/sit-out", responses=errors(400, 404, 409, *SIGNED_IN))
async def sit_out(event_id: TournamentId, req: SitOut, request: Request) -> TournamentPage:
    """Organiser: an entrant sits a coming round out (Swiss: not paired that round, the
    event's ``rest_points`` match points)."""
    v = await acting(request)
    stored = await tournaments_of(request).sit_out(event_id, v.id, req.entrant, req.round,
                                              req.note)
    return await page(request, stored)


@router.post("/{event_id}/late-entry", responses=errors(400, 404, 409, *SIGNED_IN))
async def late_entry(event_id: TournamentId, req: LateEntry, request: Request) -> TournamentPage:
    """Organiser of a paper Swiss: enter a late arrival while round 1 is played (paired
    from round 2, no match points for round 1)."""
    v = await acting(request)
    stored = await tournaments_of(request).late_entry(event_id, v.id, req.entrant, req.note)
    return await page(request, stored)


@router.post("/{event_id}/reinstate", responses=errors(400, 404, 409, *SIGNED_IN))
async def reinstate(event_id: TournamentId, req: Withdraw, request: Request) -> TournamentPage:
    """Organiser: undo a withdrawal made in the round being played (until the next round
    is paired): the entrant is paired again and the table it forfeited is as it was; an
    online table whose match ended meanwhile has its result entered now."""
    v = await acting(request)
    stored, event = await tournaments_of(request).reinstate(event_id, v.id, req.entrant,
                                                       req.note)
    tables = tables_of(request)
    if tables is not None:
        await tables.reopen(stored, event)
    return await page(request, await tournaments_of(request).load(event_id))


def _result(req: ResultBody) -> Result:
    return Result.from_dict(req.result_dict())


@router.post("/{event_id}/rounds/{round_number}/tables/{table_number}/result",
             responses=errors(400, 404, 409, *SIGNED_IN))
async def enter_result(event_id: TournamentId, round_number: Number, table_number: Number,
                       req: ResultBody, request: Request) -> TournamentPage:
    """Organiser: enter a table's result (home first); a second one is refused."""
    v = await acting(request)
    stored = await tournaments_of(request).enter(event_id, v.id, round_number,
                                            table_number, _result(req))
    return await page(request, stored)


@router.put("/{event_id}/rounds/{round_number}/tables/{table_number}/result",
            responses=errors(400, 404, 409, *SIGNED_IN))
async def correct_result(event_id: TournamentId, round_number: Number, table_number: Number,
                         req: ResultBody, request: Request) -> TournamentPage:
    """Organiser: replace a table's result, with a note (kept in the event's audit)."""
    v = await acting(request)
    stored = await tournaments_of(request).correct(event_id, v.id, round_number,
                                              table_number, _result(req), req.note)
    return await page(request, stored)


@router.post("/{event_id}/seat", responses=errors(404, *SIGNED_IN))
async def my_seat(event_id: TournamentId, request: Request) -> TournamentSeat:
    """An entrant's seat at its table of the current round: the table and the seat's
    token (kept by the page as a joined seat's is)."""
    v = await acting(request)
    tables = tables_of(request)
    stored = await tournaments_of(request).load(event_id)
    if tables is None:
        raise Refusal("not_found", "this server plays no online events")
    return await tables.seat_of(stored, v.id)


@router.get("/{event_id}/download", responses=errors(403, 404, 409))
async def download(event_id: TournamentId, request: Request) -> JSONResponse:
    """Organiser: the event's JSON (``scopa.tournament.Event.from_dict`` reads it). Until
    the event is over it is the public form (no seed of a round not over: the organiser
    may be playing); a paper event's organiser gets the full form (the boards are dealt
    from it)."""
    v = await viewer(request)
    stored = await tournaments_of(request).load(event_id)
    may_organise(stored.row.organiser_id, v.id if v else None)
    event = model_of(stored)
    if event is None:
        raise Refusal("conflict", "the event has not started")
    full = event.finished or stored.row.mode == "paper"
    return JSONResponse(event.to_dict(public=not full), headers={
        "Content-Disposition": f'attachment; filename="event-{stored.row.id}.json"'})


@router.get("/{event_id}/rounds/{round_number}/print", responses=errors(404, 409))
async def print_round(event_id: TournamentId, round_number: Number,
                      request: Request) -> PrintedRound:
    """A round's pairings for printing: table numbers, home and away; in a duplicate
    event each deal's cards per table, once the round is over (or, for a paper event,
    to its organiser, who deals the boards)."""
    v = await viewer(request)
    stored = await tournaments_of(request).load(event_id)
    event = model_of(stored)
    if event is None:
        raise Refusal("conflict", "the event has not started")
    rnd = round_of(event, round_number)
    boards = rnd.complete or sees_all(stored, v.id if v else None)
    show = event.duplicate and event.target is None and boards
    return {
        "event": stored.row.name, "round": rnd.number, "rounds": event.rounds,
        "commitment": rnd.commitment, "seed": rnd.seed if rnd.complete else None,
        "duplicate": event.duplicate,
        "tables": [{"number": t.number, "home": t.home, "away": t.away,
                    "deals": round_deals(event, rnd.number, t.number)
                    if show and t.away is not None else None}
                   for t in rnd.tables],
    }


async def _results_of(request: Request, event_id: str) -> tuple[StoredTournament, Event, bool]:
    """The event and what the viewer may see of its results: a paper event's organiser
    everything, everyone else the public copy (a duplicate round's results once it is
    over)."""
    v = await viewer(request)
    stored = await tournaments_of(request).load(event_id)
    event = model_of(stored)
    if event is None:
        raise Refusal("conflict", "the event has not started")
    everything = sees_all(stored, v.id if v else None)
    return stored, event if everything else event.public_copy(), everything


@router.get("/{event_id}/crosstable", responses=errors(404, 409))
async def event_crosstable(event_id: TournamentId, request: Request) -> Crosstable:
    """Each entrant in standings order with its round-by-round history (opponent, side,
    points, match points, how the table ended) and the match points it took from each
    entrant it met."""
    _, event, _ = await _results_of(request, event_id)
    return {"entrants": crosstable(event, standings(event))}


@router.get("/{event_id}/standings.csv", responses={
    **errors(404, 409),
    200: {"description": "the standings as CSV", "content": {"text/csv": {}}}})
async def standings_export(event_id: TournamentId, request: Request) -> Response:
    """The standings as CSV (a header row; names that a spreadsheet would read as a
    formula are quoted)."""
    stored, event, _ = await _results_of(request, event_id)
    return Response(standings_csv(standings(event)), media_type="text/csv; charset=utf-8",
                    headers={"Content-Disposition":
                             f'attachment; filename="standings-{stored.row.id}.csv"'})


@router.get("/{event_id}/rounds/{round_number}/travellers", responses=errors(403, 404, 409))
async def round_travellers(event_id: TournamentId, round_number: Number,
                           request: Request) -> Travellers:
    """A duplicate round's travellers once it is over: per deal, every table's points on
    the same cards and its field score, and the deal's cards (every seat's hand)."""
    _, event, everything = await _results_of(request, event_id)
    if not event.duplicate or event.target is not None:
        raise Refusal("conflict", "travellers are a duplicate event's")
    rnd = round_of(event, round_number)
    if not rnd.complete and not everything:
        raise Refusal("forbidden", "the travellers are shown once the round is over")
    rules = event.rules()
    seeds = event.deal_seeds(round_number, rnd.tables[0].number)
    deals = travellers(event, round_number)
    for deal in deals:
        seed, side = seeds[deal["deal"]]
        deal["cards"] = dealt_cards(rules, seed, side) if rnd.complete else None
    return {"round": round_number, "deals": deals}
