"""The events' operations, each read-check-write: the event is read with its version,
the model changes it (refusing bad input with a ``TournamentError``, nothing changed),
and the new JSON is written only if nobody wrote in between (``TournamentStore.write``); a
lost race is read again and retried, so two workers cannot both pair round 2.

Online rounds' tables are made by ``online.RoundTables`` once the round is stored; a paper
event's results are entered here by its organiser."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from typing import Any, NamedTuple

from ...tournament import Event, Result, Round, TournamentError
from ..common.refusal import Refusal
from ..play.tokens import new_id
from ..players.names import BOT_NAMES
from ..store.base import utcnow
from ..store.tournament_models import TournamentRow
from .bodies import CreateTournament
from .policy import (
    build_event,
    check_open,
    check_running,
    check_settings,
    cleaned,
    entrant_name,
    may_organise,
    pairs_itself,
    settings_of,
)
from .store import StoredTournament, TournamentStore, retried
from .views import entrant_names

log = logging.getLogger("scopa.server")

#: how far an event's start may be from now: a day ago (a form filled in slowly) to a
#: year ahead
START_PAST = timedelta(days=1)
START_AHEAD = timedelta(days=366)


def model_of(stored: StoredTournament) -> Event | None:
    """The event's model, from its stored JSON (checked again); None before it starts."""
    if stored.row.event is None:
        return None
    return Event.from_dict(stored.row.event)


def _status(event: Event) -> str:
    return "finished" if event.finished else "running"


class Entry(NamedTuple):
    """Who enters an event: an account (``user_id``) or a bot (``bot``: its level), under
    ``name``; ``taken``: what to say when the store finds the name or account entered."""

    user_id: int | None
    name: str
    bot: str | None
    taken: str


class Tournaments:
    """Creating, joining, starting, entering: every change of an event."""

    def __init__(self, store: TournamentStore) -> None:
        self.store = store
        #: called with (event id, the round just paired) after it is stored (online
        #: events make its tables there)
        self.round_hooks: list[Callable[[StoredTournament, Event, Round], Awaitable[None]]] = []
        #: next rounds being paired by themselves (``round_may_be_over``)
        self._pairing: set[asyncio.Task[None]] = set()

    async def load(self, event_id: str) -> StoredTournament:
        stored = await self.store.get(event_id)
        if stored is None:
            raise Refusal("not_found", "no event has this id")
        return stored

    async def create(self, req: CreateTournament, organiser_id: int, open_max: int,
                     day_max: int) -> StoredTournament:
        """A new event (a ``too_many`` ``Refusal`` past the organiser's limits)."""
        req = cleaned(req)
        check_settings(req)
        now = utcnow()
        starts = req.starts_at
        if starts is not None and starts.tzinfo is None:
            starts = starts.replace(tzinfo=UTC)
        if starts is not None:
            try:
                starts = starts.astimezone(UTC)
            except OverflowError:  # 0001-01-01T00:00+14:00 is before the year 1 in UTC
                starts = datetime.min.replace(tzinfo=UTC)
            if not now - START_PAST <= starts <= now + START_AHEAD:
                raise TournamentError(
                    "the start must be within a year from now (and not in the past)")
        settings = settings_of(req)
        if req.mode == "paper":
            settings["paper_entrants"] = list(req.entrants or [])
        row = TournamentRow(
            id=new_id(12), organiser_id=organiser_id, name=req.name, settings=settings,
            event=None, status="open", starts_at=starts, capacity=req.capacity,
            mode=req.mode, auto_next=req.auto_next, version=0, created_at=now,
            updated_at=now)
        await self.store.create(row, open_max, day_max)
        return await self.load(row.id)

    # -- entering ---------------------------------------------------------------------
    async def join(self, event_id: str, user_id: int, name: str) -> StoredTournament:
        def admit(stored: StoredTournament) -> Entry:
            if stored.row.mode != "online":
                raise Refusal("conflict", "the organiser enters a paper event's entrants")
            check_open(stored.row.status)
            if any(e.user_id == user_id for e in stored.entrants):
                raise Refusal("conflict", "you are already entered")
            return Entry(user_id, name, None,
                         "you are already entered (or an entrant has your name)")

        return await self._enter(event_id, admit)

    async def add_bot(self, event_id: str, viewer_id: int, level: str,
                      name: str | None) -> StoredTournament:
        """Organiser: enter a bot of ``level`` (an online event, before it starts)."""
        def admit(stored: StoredTournament) -> Entry:
            may_organise(stored.row.organiser_id, viewer_id)
            if stored.row.mode != "online":
                raise Refusal("conflict", "a paper event's entrants are named at its creation")
            check_open(stored.row.status)
            taken = {e.name.casefold() for e in stored.entrants}
            try:
                given = None if name is None else entrant_name(name)
            except ValueError as e:
                raise TournamentError(str(e)) from None
            # a bot is named as at a lobby's table (an Italian name; its level is shown
            # beside it), the first free one, then numbered
            label = given or next(name for name in (*BOT_NAMES, *(
                f"{bot} {n}" for n in range(2, 1000) for bot in BOT_NAMES))
                if name.casefold() not in taken)
            return Entry(None, label, level, f"an entrant is already named {label!r}")

        return await self._enter(event_id, admit)

    async def _enter(self, event_id: str,
                     admit: Callable[[StoredTournament], Entry]) -> StoredTournament:
        """Add one entrant while the event has room: ``admit`` checks who may (raising to
        refuse) and says who; a write that lost to another reads the event again."""
        async def attempt() -> StoredTournament:
            stored = await self.load(event_id)
            row = stored.row
            entry = admit(stored)
            if len(stored.entrants) >= row.capacity:
                raise Refusal("conflict", f"the event is full ({row.capacity} places)")
            try:
                await self.store.join(event_id, row.version, entry.user_id, entry.name,
                                      row.capacity, entry.bot)
            except LookupError:
                raise Refusal("conflict", entry.taken) from None
            except OverflowError:
                raise Refusal("conflict", f"the event is full ({row.capacity} places)") from None
            return await self.load(event_id)

        return await retried(attempt)

    async def leave(self, event_id: str, user_id: int) -> StoredTournament:
        async def attempt() -> StoredTournament:
            stored = await self.load(event_id)
            check_open(stored.row.status)
            if not await self.store.leave(event_id, stored.row.version, user_id):
                raise Refusal("conflict", "you are not entered in this event")
            return await self.load(event_id)

        return await retried(attempt)

    # -- changing the model -------------------------------------------------------------
    async def change(
        self, event_id: str, viewer_id: int | None,
        step: Callable[[StoredTournament, Event], Any], *, organiser: bool = True,
    ) -> tuple[StoredTournament, Event, Any]:
        """Read the event, let ``step`` change its model (it may raise to refuse), write
        it if nobody wrote meanwhile (else read again and retry)."""
        async def attempt() -> tuple[StoredTournament, Event, Any]:
            stored = await self.load(event_id)
            if organiser:
                may_organise(stored.row.organiser_id, viewer_id)
            event = model_of(stored)
            if event is None:
                raise Refusal("conflict", "the event has not started")
            out = step(stored, event)
            await self.store.write(event_id, stored.row.version, event=event.to_dict(),
                                   status=_status(event))
            self.round_may_be_over(stored, event)
            return await self.load(event_id), event, out

        return await retried(attempt)

    def round_may_be_over(self, stored: StoredTournament, event: Event) -> None:
        """The one place a round ends by itself: called after every change written (a
        table's result from its match's end, a withdrawal that forfeits the last table
        still playing, the organiser's entry) with the model as written; if that
        completed the round and the event pairs itself (``rules.pairs_itself``), the next
        round is paired. Not awaited: whoever made the change (the players told their
        match is over, the organiser's request) does not wait for a whole round's tables
        to be made. Two changes racing to pair it: the second is refused and logged."""
        if not pairs_itself(stored.row.mode, stored.row.auto_next, event):
            return
        task = asyncio.get_running_loop().create_task(self._pair_next(stored.row.id))
        self._pairing.add(task)
        task.add_done_callback(self._pairing.discard)

    async def _pair_next(self, event_id: str) -> None:
        try:
            await self.start_round(event_id, None, organiser=False)
        except Refusal as e:  # another change (or worker) paired it first
            log.info("event %s: next round not started: %s", event_id, e.message)
        except Exception:
            log.exception("event %s: pairing the next round failed", event_id)

    async def start_round(self, event_id: str, viewer_id: int | None,
                          organiser: bool = True) -> tuple[StoredTournament, Round]:
        """Start the event (entries close; round 1 is paired) or pair its next round."""
        async def attempt() -> tuple[StoredTournament, Round]:
            stored = await self.load(event_id)
            row = stored.row
            if organiser:
                may_organise(row.organiser_id, viewer_id)
            event = model_of(stored)
            if event is None:
                names = entrant_names(stored)
                if len(names) < 2:
                    raise Refusal("conflict", "an event needs at least two entrants to start")
                try:
                    event = build_event(row.settings, names)
                except TournamentError as e:
                    raise Refusal("conflict", f"the event cannot start: {e}") from None
            elif row.status == "finished":
                raise Refusal("conflict", "the event is over")
            minutes = row.settings.get("round_minutes")
            ends = None if not minutes else (
                utcnow() + timedelta(minutes=int(minutes))).isoformat().replace("+00:00", "Z")
            try:
                rnd = event.next_round(ends_at=ends)
            except TournamentError as e:
                raise Refusal("conflict", str(e)) from None
            await self.store.write(event_id, row.version, event=event.to_dict(),
                                   status=_status(event))
            stored = await self.load(event_id)
            for hook in self.round_hooks:
                try:
                    await hook(stored, event, rnd)
                except Exception:  # the round is paired and stored: it stands
                    log.exception("event %s round %d: a round hook failed", event_id,
                                  rnd.number)
            return stored, rnd

        return await retried(attempt)

    async def enter(self, event_id: str, viewer_id: int, round_number: int,
                    table_number: int, result: Result) -> StoredTournament:
        def step(stored: StoredTournament, event: Event) -> None:
            event.enter_result(round_number, table_number, result)

        stored, _, _ = await self.change(event_id, viewer_id, step)
        return stored

    async def sit_out(self, event_id: str, viewer_id: int, name: str, round_number: int,
                      note: str) -> StoredTournament:
        """An entrant sits a coming round out (Swiss)."""
        def step(stored: StoredTournament, event: Event) -> None:
            check_running(stored.row.status)
            event.sit_out(name, round_number, note)

        stored, _, _ = await self.change(event_id, viewer_id, step)
        return stored

    async def late_entry(self, event_id: str, viewer_id: int, name: str,
                         note: str) -> StoredTournament:
        """A paper Swiss's late entrant (while round 1 is played): into the model and the
        event's list of names, in one write."""
        try:
            name = entrant_name(name)
        except ValueError as e:
            raise TournamentError(str(e)) from None
        async def attempt() -> StoredTournament:
            stored = await self.load(event_id)
            may_organise(stored.row.organiser_id, viewer_id)
            if stored.row.mode != "paper":
                raise Refusal("conflict", "an online event's entrants join with their accounts "
                                        "before it starts")
            event = model_of(stored)
            if event is None:
                raise Refusal("conflict", "the event has not started: add the name to its list")
            check_running(stored.row.status)
            event.add_entrant(name, note)
            settings = {**stored.row.settings, "paper_entrants": [
                *stored.row.settings.get("paper_entrants", []), name]}
            await self.store.write(event_id, stored.row.version, event=event.to_dict(),
                                   settings=settings)
            return await self.load(event_id)

        return await retried(attempt)

    async def reinstate(self, event_id: str, viewer_id: int, name: str,
                        note: str) -> tuple[StoredTournament, Event]:
        """Undo a withdrawal made in the round being played."""
        def step(stored: StoredTournament, event: Event) -> None:
            check_running(stored.row.status)
            event.reinstate(name, note)

        stored, event, _ = await self.change(event_id, viewer_id, step)
        return stored, event

    async def correct(self, event_id: str, viewer_id: int, round_number: int,
                      table_number: int, result: Result, note: str) -> StoredTournament:
        def step(stored: StoredTournament, event: Event) -> None:
            event.correct_result(round_number, table_number, result, note)

        stored, _, _ = await self.change(event_id, viewer_id, step)
        return stored

    async def withdraw(self, event_id: str, viewer_id: int, name: str,
                       note: str) -> StoredTournament:
        def step(stored: StoredTournament, event: Event) -> None:
            check_running(stored.row.status)
            event.withdraw(name, note)

        stored, _, _ = await self.change(event_id, viewer_id, step)
        return stored
