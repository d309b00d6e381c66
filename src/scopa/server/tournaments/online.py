"""Online rounds: a table at the server for every pairing of a round, and each table's
result entered into the event when its match ends.

A round's tables are made once the round is stored (``Tournaments.round_hooks``): invite-only,
both seats taken at once by the entrants' accounts, or played by the bots the organiser
entered (so the match starts at once and the grace period runs for whoever is not
there: past it the stand-in plays the seat). The seats' tokens are derived from the
server's secret (``seat_token``), never stored, and handed to the account seated there
only. When a match ends (``Master.match_end_hooks``) its score becomes the table's result; a
seat a stand-in held at the end, or left past the grace period of a rated match, is the
entrant's absence: a forfeit loss, whatever the stand-in scored; both seats absent is a
double forfeit, a loss for both (in a knockout, which needs a winner, the stand-ins'
result stands: the organiser may correct it). When the round's last table is in and the
organiser asked for it, the next round is paired at once (``Tournaments.round_may_be_over``,
as after a withdrawal).
"""

from __future__ import annotations

import dataclasses
import logging
from typing import TYPE_CHECKING, Any

from sqlalchemy.exc import IntegrityError

from ...rules import Rules
from ...tournament import MAX_DECIDER_DEALS, Event, Result, Round, TournamentError
from ..common.refusal import Refusal
from ..play.spec import TableSpec
from ..store.tournament_models import RoundTableRow
from .answers import TournamentSeat
from .service import Tournaments, model_of
from .store import StoredTournament, TournamentStore, retried

if TYPE_CHECKING:
    from ..play.master import Master
    from ..play.table import Table

log = logging.getLogger("scopa.server")

HUMAN = {"kind": "human"}
#: the target of a table of fixed deals: out of reach, its deals end the match
MAX_TARGET = 1000
#: running events looked at after a restart
RESUME_MAX = 10_000


def absent_seats(table: Table) -> set[int]:
    """The seats their players were not at when the match ended (a stand-in played on),
    or left past the grace period of a rated match."""
    return set(table.abandoned) | {s.seat for s in table.seats
                                   if s.kind == "human" and (s.standin or s.resigned)
                                   and not s.present}


def seat_token(master: Master, table_id: str, seat: int) -> str:
    """The token of an entrant's seat at an event's table: an HMAC of the table and seat
    under the server's secret, so it is handed out again whenever its account asks and
    never stored (the seat keeps only its hash, as every seat)."""
    return master.token_hash(f"scopa-event-seat/{table_id}/{seat}")


def table_deals(event: Event, round_number: int,
                number: int) -> tuple[Rules, list[str] | None, int | None]:
    """What a round's table plays: the rules, and in an event of fixed deals its hand
    seeds (the model's: in duplicate every table's the same, then in a knockout the
    decider's) and its number of deals, the rules' target out of reach (the deals end
    the match). Home sits on seat 0: on deal d the seat that leads is the dealer's
    neighbour, and the deal passes on, so home leads every other deal as the model says
    (``duplicate.home_side``)."""
    rules = event.rules()
    if event.target is not None:
        return rules, None, None
    seeds = [seed for seed, _ in event.deal_seeds(round_number, number)]
    if event.format == "knockout":
        seeds += [seed for seed, _ in event.decider_seeds(round_number, number)]
    return dataclasses.replace(rules, target=MAX_TARGET), seeds, event.deals_per_round


def table_result(table: Table, row: RoundTableRow, event: Event) -> Result:
    """The event's result of a finished match (home first)."""
    t = event.table(row.round, row.number)
    assert t.away is not None
    names = {row.home_seat: t.home, 1 - row.home_seat: t.away}
    gone = sorted(absent_seats(table))
    if len(gone) == 1:
        return Result(forfeit=names[gone[0]])
    if len(gone) == 2 and event.double_forfeits:
        return Result(double_forfeit=True)
    scores = table.final_scores or [0, 0]
    home, away = scores[row.home_seat], scores[1 - row.home_seat]
    if event.target is not None:
        return Result(score=(home, away))
    game = table.game
    assert game is not None
    played = [_points(hand, row.home_seat) for hand in game.hand_log()]
    count = event.deals_per_round or 0
    deals, extra = tuple(played[:count]), played[count:]
    if event.format != "knockout" or sum(d[0] for d in deals) != sum(d[1] for d in deals):
        return Result(deals=deals)
    # a level knockout: the hands after the deals were the decider's, until one was won
    return Result(deals=deals, decider=tuple(extra[:MAX_DECIDER_DEALS]))


def _points(hand: dict[str, Any], home_seat: int) -> tuple[int, int]:
    """A hand's points, home first."""
    sides = (hand.get("result") or {}).get("sides") or [{"total": 0}, {"total": 0}]
    return int(sides[home_seat]["total"]), int(sides[1 - home_seat]["total"])


class RoundTables:
    """The server's tables of online events."""

    def __init__(self, events: Tournaments, master: Master, grace: float) -> None:
        self.events = events
        self.store: TournamentStore = events.store
        self.master = master
        self.grace = grace
        events.round_hooks.append(self.open_round)
        master.match_end_hooks.append(self.match_ended)

    async def open_round(self, stored: StoredTournament, event: Event, rnd: Round) -> None:
        """Make the round's tables (online events; a paper event has none)."""
        if stored.row.mode != "online":
            return
        made = {(t.round, t.number) for t in await self.store.tables(stored.row.id)}
        for t in rnd.tables:
            if t.away is None or t.result is not None or (rnd.number, t.number) in made:
                continue
            try:
                await self._open(stored, event, rnd.number, t.number, (t.home, t.away))
            except Refusal as e:  # a full server: made at the next start (resume)
                log.error("event %s round %d table %d: no table: %s", stored.row.id,
                          rnd.number, t.number, e.message)

    async def _open(self, stored: StoredTournament, event: Event, round_number: int, number: int,
                    names: tuple[str, str]) -> None:
        """One table: home on seat 0; a bot entrant's seat is a bot, an account's is taken
        for it (with a token derived from the server's secret, never stored), so the match
        starts at once."""
        entrants = {e.name: e for e in stored.entrants}
        who = [entrants[n] for n in names]
        specs = [HUMAN if e.bot is None else {"kind": "bot", "level": e.bot} for e in who]
        settings = stored.row.settings
        rules, seeds, deals = table_deals(event, round_number, number)
        grace = float(settings.get("grace_seconds") or self.grace)
        table, _, _ = await self.master.create_table(TableSpec(
            rules=rules, seats=specs, grace=grace, rated=bool(settings.get("rated")),
            teach=bool(settings.get("teach")), seeds=list(seeds or []), deals=deals,
            event_id=stored.row.id, shared_deals=event.duplicate and seeds is not None))
        # stored before the seats fill the table and its match starts: the match-end
        # hook must find it however fast the match goes
        row = RoundTableRow(
            table_id=table.id, event_id=stored.row.id, round=round_number, number=number,
            invite=table.invite, home_seat=0, entered=False)
        try:
            await self.store.add_tables([row])
        except IntegrityError:  # another worker made this round's table first
            log.warning("event %s round %d table %d made twice", stored.row.id,
                        round_number, number)
            return
        for seat, e in enumerate(who):
            if e.bot is None:
                await self.master.join(table.invite, e.name, seat, e.user_id,
                                       seat_token(self.master, table.id, seat))
        if table.match_over:  # (bots quick enough to finish before the row was stored)
            await self.match_ended(table)

    async def seat_of(self, stored: StoredTournament, user_id: int) -> TournamentSeat:
        """The viewer's seat at its table of the current round: the table and the token."""
        event = model_of(stored)
        me = next((e.name for e in stored.entrants if e.user_id == user_id), None)
        if event is None or event.current is None or me is None:
            raise Refusal("not_found", "you have no table in this event now")
        rnd = event.current
        for row in await self.store.tables(stored.row.id):
            if row.round != rnd.number:
                continue
            t = event.table(row.round, row.number)
            if me in (t.home, t.away):
                seat = row.home_seat if me == t.home else 1 - row.home_seat
                return {"table_id": row.table_id, "seat": seat,
                        "token": seat_token(self.master, row.table_id, seat),
                        "invite": row.invite, "round": row.round, "table": row.number,
                        "ws_url": f"/ws/{row.table_id}"}
        raise Refusal("not_found", "you have no table in this event now")

    async def reopen(self, stored: StoredTournament, event: Event) -> None:
        """After a withdrawal was undone: a table of the round with no result whose match
        already ended (its result was not entered while it was a forfeit) is entered now."""
        rnd = event.current
        if stored.row.mode != "online" or rnd is None:
            return
        open_tables = {t.number for t in rnd.tables if t.result is None}
        for row in await self.store.tables(stored.row.id):
            if row.round != rnd.number or row.number not in open_tables or not row.entered:
                continue
            table = await self.master.find(row.table_id)
            if table is not None and table.match_over:
                await self.store.mark_entered(row.table_id, False)
                await self.match_ended(table)

    async def sealed(self, table_id: str) -> str | None:
        """Why a table's match may not be replayed yet (``play.history.DealSeal``): its deals
        are a duplicate round's that other tables are still playing; None otherwise."""
        row = await self.store.table_of(table_id)
        if row is None:
            return None
        stored = await self.store.get(row.event_id)
        event = None if stored is None else model_of(stored)
        if event is None or not event.sealed(event.round(row.round)):
            return None
        return (f"this match's deals are round {row.round}'s of a duplicate event, still "
                "being played at other tables: its replay opens when the round is over")

    async def match_ended(self, table: Table) -> None:
        """A match ended: if it is an event's table, enter its result (a hook: logs, never
        raises)."""
        try:
            await self._enter(table)
        except Exception:
            log.exception("entering the result of table %s failed", table.id)

    async def _enter(self, table: Table) -> None:
        row = await self.store.table_of(table.id)
        if row is None or row.entered:
            return
        async def attempt() -> None:
            stored = await self.events.load(row.event_id)
            event = model_of(stored)
            if event is None:
                return
            t = event.table(row.round, row.number)
            if t.result is None:  # a withdrawal may have made it a forfeit already
                try:
                    event.enter_result(row.round, row.number, table_result(table, row, event))
                except TournamentError:
                    log.exception("table %s: its result does not fit the event", table.id)
                    return
                await self.store.write(row.event_id, stored.row.version, event=event.to_dict(),
                                       status="finished" if event.finished else "running")
            await self.store.mark_entered(table.id)
            self.events.round_may_be_over(stored, event)

        await retried(attempt)

    async def resume(self) -> None:
        """After a restart: make the tables of a round paired just before the server
        stopped (the round is stored before its tables are made), pair the next round of
        one completed just before (its pairing had not begun), and enter the results of
        tables whose match ended meanwhile."""
        for stored in await self.store.listed(("running",), RESUME_MAX):
            event = model_of(stored)
            rnd = event.current if event is not None else None
            if event is not None and rnd is not None and rnd.complete:
                self.events.round_may_be_over(stored, event)
            elif event is not None and rnd is not None:
                try:
                    await self.open_round(stored, event, rnd)
                except Exception:
                    log.exception("event %s: reopening round %d failed", stored.row.id,
                                  rnd.number)
        for row in await self.store.pending():
            table = await self.master.find(row.table_id)
            if table is not None and table.match_over:
                await self.match_ended(table)
