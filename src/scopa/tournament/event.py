"""The event as it runs: its rounds and tables, results, and the organiser's corrections,
on its settings (``settings.Settings``), as plain data with JSON forms (the server stores
it; the CLI plays it).

Every change goes through a method that checks its input first and raises
``TournamentError`` without changing anything when it does not fit. Corrections and
withdrawals are kept in ``audit``. No I/O, no clock: a round's seed comes from the event's
seed when it has one (a bot event, replayable), else from the operating system's
cryptographic source (``scopa.shuffle.new_seed``), and a caller may pass its own.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from ..shuffle import commitment, new_seed
from . import duplicate, pairing
from .results import MAX_DECIDER_DEALS, Outcome, Result, TournamentError, check_result
from .settings import FORMATS, Entrant, Settings
from .standings import standings

__all__ = ["FORMATS", "AuditEntry", "Entrant", "Event", "Round", "Settings", "Table"]


@dataclass
class Table:
    """A pairing in a round; ``away`` None is a bye (no result to enter)."""

    number: int
    home: str
    away: str | None
    result: Result | None = None

    @property
    def done(self) -> bool:
        return self.away is None or self.result is not None


@dataclass
class Round:
    number: int
    #: secret until the round is over
    seed: str
    tables: list[Table]
    #: when the organiser means the round to end (ISO 8601, UTC), shown to the players; the
    #: model keeps no clock: the caller gives it
    ends_at: str | None = None
    #: entrants who asked to sit this round out (Swiss): not paired, ``Event.rest_points``
    #: match points each
    resting: list[str] = field(default_factory=list)

    @property
    def commitment(self) -> str:
        """The hash published with the pairings, before any deal is played."""
        return commitment(self.seed)

    @property
    def complete(self) -> bool:
        return all(t.done for t in self.tables)

    @property
    def byes(self) -> list[str]:
        return [t.home for t in self.tables if t.away is None]


@dataclass(frozen=True)
class AuditEntry:
    """An organiser's change: ``correct`` (a result replaced), ``withdraw`` (with the round,
    and the table it forfeited: its result before and after) or ``reinstate`` (a withdrawal
    undone: the table's result put back)."""

    action: str
    note: str = ""
    round: int | None = None
    table: int | None = None
    entrant: str | None = None
    before: dict[str, Any] | None = None
    after: dict[str, Any] | None = None


@dataclass
class Event(Settings):
    """A tournament between entrants in one variant: its settings (``Settings``, the
    fields given when it is made), then what happens in it: rounds, withdrawals, rests
    and the audit of the organiser's changes."""

    played: list[Round] = field(default_factory=list)
    withdrawn: list[str] = field(default_factory=list)
    audit: list[AuditEntry] = field(default_factory=list)
    #: Swiss: the match points of a round an entrant asked to sit out (0, or 1: half a
    #: win, as chess's half-point bye), and who will sit out which coming round
    rest_points: int = 1
    rests: dict[int, list[str]] = field(default_factory=dict)

    # -- reading ---------------------------------------------------------------------
    @property
    def current(self) -> Round | None:
        return self.played[-1] if self.played else None

    @property
    def finished(self) -> bool:
        return len(self.played) == self.rounds and all(r.complete for r in self.played)

    def round(self, number: int) -> Round:
        if not 1 <= number <= len(self.played):
            raise TournamentError(
                f"no round {number}: {len(self.played)} rounds have been paired")
        return self.played[number - 1]

    def table(self, round_number: int, table_number: int) -> Table:
        rnd = self.round(round_number)
        for table in rnd.tables:
            if table.number == table_number:
                return table
        raise TournamentError(f"round {round_number} has no table {table_number}")

    def outcome(self, table: Table, result: Result | None = None) -> Outcome:
        """A table's result read for standings (``result``: instead of the table's own)."""
        result = result if result is not None else table.result
        if table.away is None or result is None:
            raise TournamentError(f"table {table.number} has no result")
        return check_result(
            result, table.home, table.away, deals=self.deals_per_round,
            knockout=self.format == "knockout",
            better_seed=min(table.home, table.away, key=self.seed_of),
        )

    def deal_seeds(self, round_number: int, table_number: int) -> list[tuple[str, int]]:
        """A table's deals: (hand seed, the side the home entrant holds), in order; empty
        for an event played to a target (``match_seed``)."""
        rnd = self.round(round_number)
        self.table(round_number, table_number)
        shared = None if self.duplicate else table_number
        return [(duplicate.deal_seed(rnd.seed, d, shared, self.seeding),
                 duplicate.home_side(d))
                for d in range(self.deals_per_round or 0)]

    def match_seed(self, round_number: int, table_number: int) -> str:
        """A table's match seed (events played to a target)."""
        self.table(round_number, table_number)
        return duplicate.match_seed(self.round(round_number).seed, table_number,
                                    self.seeding)

    def decider_seeds(self, round_number: int, table_number: int) -> list[tuple[str, int]]:
        """A knockout table's decider deals, in order (played only while they are drawn)."""
        seed = self.round(round_number).seed
        return [(duplicate.decider_seed(seed, table_number, d, self.seeding),
                 duplicate.home_side(d))
                for d in range(MAX_DECIDER_DEALS)]

    # -- changing ----------------------------------------------------------------------
    def next_round(self, seed: str | None = None, ends_at: str | None = None) -> Round:
        """Pair the next round and return it (its seed's commitment is public from now;
        ``ends_at``: the round's clock, if the event keeps one)."""
        if self.current is not None and not self.current.complete:
            missing = [str(t.number) for t in self.current.tables if not t.done]
            raise TournamentError(
                f"round {self.current.number} is not over: table {', '.join(missing)} "
                "has no result")
        if self.finished:
            raise TournamentError(f"the event is over after {self.rounds} rounds")
        number = len(self.played) + 1
        if seed is None:
            seed = (duplicate.round_seed(self.seed, number, self.seeding)
                    if self.seed is not None else new_seed())
        pairs = self._pairs(number)
        tables = [Table(i + 1, home, away) for i, (home, away) in enumerate(pairs)]
        for table in tables:
            gone = [n for n in (table.home, table.away) if n in self.withdrawn]
            if table.away is not None and gone:
                table.result = self._forfeit(gone)
        rnd = Round(number, seed, tables, ends_at,
                    [n for n in self.rests.get(number, []) if n not in self.withdrawn])
        self.played.append(rnd)
        return rnd

    def _pairs(self, number: int) -> list[pairing.Pair]:
        if self.format == "round-robin":
            schedule = pairing.round_robin_rounds(self.names)
            pairs = schedule[(number - 1) % len(schedule)]
            if (number - 1) // len(schedule) % 2:  # the second cycle: home and away swap
                pairs = [(b, a) if b is not None else (a, b) for a, b in pairs]
            return pairs
        if self.format == "knockout":
            if number == 1:
                return pairing.knockout_first_round(self.names)
            previous = self.played[-1]
            winners = [t.home if t.away is None else self.outcome(t).winner
                       for t in previous.tables]
            return pairing.knockout_next_round([w for w in winners if w is not None])
        resting = set(self.rests.get(number, []))
        ranked = [s.entrant for s in standings(self)
                  if s.entrant not in self.withdrawn and s.entrant not in resting]
        met = {pairing.met_key(t.home, t.away)
               for r in self.played for t in r.tables if t.away is not None}
        byes: dict[str, int] = {}
        for r in self.played:
            for name in r.byes:
                byes[name] = byes.get(name, 0) + 1
        if len(ranked) < 2:
            raise TournamentError("fewer than two entrants are left to pair")
        found, bye = pairing.swiss_pairs(ranked, met, byes)
        return [*found, *([(bye, None)] if bye is not None else [])]

    def enter_result(self, round_number: int, table_number: int, result: Result) -> None:
        """Enter a table's result; a result already there is refused (``correct_result``
        replaces one, with a note in the audit)."""
        table = self.table(round_number, table_number)
        if table.away is None:
            raise TournamentError(
                f"round {round_number} table {table_number} is {table.home}'s bye: no result")
        if table.result is not None:
            raise TournamentError(
                f"round {round_number} table {table_number} already has a result "
                "(an organiser corrects it instead)")
        self.outcome(table, result)
        table.result = result

    def correct_result(
        self, round_number: int, table_number: int, result: Result, note: str = ""
    ) -> None:
        """Replace a table's result, logged in ``audit``. A knockout result whose winner
        has already been paired in the next round cannot change its winner."""
        table = self.table(round_number, table_number)
        if table.result is None:
            raise TournamentError(
                f"round {round_number} table {table_number} has no result to correct")
        new = self.outcome(table, result)
        if (self.format == "knockout" and round_number < len(self.played)
                and new.winner != self.outcome(table).winner):
            raise TournamentError(
                "the next round is already paired with this match's winner; the winner "
                "cannot change")
        self.audit.append(AuditEntry("correct", note, round_number, table_number, None,
                                     table.result.to_dict(), result.to_dict()))
        table.result = result

    def withdraw(self, name: str, note: str = "") -> None:
        """Withdraw an entrant: it is not paired again, and a table of the current round
        it has not played is a forfeit (its opponent wins; a double forfeit if the
        opponent withdrew from it first). Results so far stand."""
        self._known(name)
        if name in self.withdrawn:
            raise TournamentError(f"{name} has already withdrawn")
        self.withdrawn.append(name)
        rnd, number, before, after = self.current, None, None, None
        if rnd is not None:
            for table in rnd.tables:
                if table.away is None or name not in (table.home, table.away):
                    continue
                other = table.away if name == table.home else table.home
                changed = None
                if table.result is None:
                    changed = Result(forfeit=name)
                elif (self.double_forfeits and table.result.forfeit == other
                      and other in self.withdrawn):
                    # the other withdrew first and this one has not played either
                    changed = Result(double_forfeit=True)
                if changed is not None:
                    number, before, after = table.number, table.result, changed
                    table.result = changed
        self.audit.append(AuditEntry(
            "withdraw", note, round=None if rnd is None else rnd.number, table=number,
            entrant=name, before=None if before is None else before.to_dict(),
            after=None if after is None else after.to_dict()))

    def sit_out(self, name: str, round_number: int, note: str = "") -> None:
        """An entrant sits a coming round out (Swiss; asked before that round is paired):
        it is not paired then and takes ``rest_points`` match points."""
        self._known(name)
        if self.format != "swiss":
            raise TournamentError(
                f"only a Swiss event lets an entrant sit a round out ({self.format}: its "
                "pairings are fixed in advance)")
        if name in self.withdrawn:
            raise TournamentError(f"{name} has withdrawn")
        if not len(self.played) < round_number <= (self.rounds or 0):
            raise TournamentError(
                f"round {round_number} is not a coming round (rounds {len(self.played) + 1}"
                f" to {self.rounds} are)")
        if name in self.rests.get(round_number, []):
            raise TournamentError(f"{name} already sits out round {round_number}")
        self.rests.setdefault(round_number, []).append(name)
        self.audit.append(AuditEntry("sit_out", note, round=round_number, entrant=name))

    def add_entrant(self, name: str, note: str = "") -> None:
        """A late entry (Swiss, while round 1 is being played): paired from round 2, with no
        match points for round 1."""
        if self.format != "swiss":
            raise TournamentError("only a Swiss event takes a late entry")
        if len(self.played) > 1 or (self.current is not None and self.current.complete):
            raise TournamentError("late entries close when round 1 is over")
        if not name.strip():
            raise TournamentError("an entrant needs a name")
        if name in self.names:
            raise TournamentError(f"entrant {name!r} is entered already")
        self.entrants.append(Entrant(name))
        self.audit.append(AuditEntry("late_entry", note, round=len(self.played) or None,
                                     entrant=name))

    def reinstatable(self) -> list[str]:
        """The withdrawn entrants whose withdrawal can still be undone: made in the round
        being played (none paired since), its table not changed since."""
        return [name for name in self.withdrawn if self._undoable(name) is not None]

    def _undoable(self, name: str) -> AuditEntry | None:
        rnd = self.current
        last = next((a for a in reversed(self.audit) if a.entrant == name
                     and a.action in ("withdraw", "reinstate")), None)
        if rnd is None or last is None or last.action != "withdraw" or last.round != rnd.number:
            return None
        if last.table is not None:
            table = self.table(rnd.number, last.table)
            if table.result is None or table.result.to_dict() != last.after:
                return None  # corrected since: the organiser decides that table
        return last

    def reinstate(self, name: str, note: str = "") -> None:
        """Undo a withdrawal made in this round: the entrant is paired again, and the
        table its withdrawal forfeited is as it was (unplayed, or the other's forfeit)."""
        self._known(name)
        if name not in self.withdrawn:
            raise TournamentError(f"{name} has not withdrawn")
        entry = self._undoable(name)
        if entry is None:
            raise TournamentError(
                f"{name}'s withdrawal can no longer be undone (a round was paired since, or "
                "its table's result was corrected)")
        self.withdrawn.remove(name)
        restored: Result | None = None
        if entry.table is not None and self.current is not None:
            table = self.table(self.current.number, entry.table)
            restored = None if entry.before is None else Result.from_dict(entry.before)
            table.result = restored
        self.audit.append(AuditEntry(
            "reinstate", note, round=entry.round, table=entry.table, entrant=name,
            before=entry.after, after=None if restored is None else restored.to_dict()))

    def _forfeit(self, gone: list[str]) -> Result:
        """The result of a table not played by ``gone`` (one entrant or both)."""
        if len(gone) == 2 and self.double_forfeits:
            return Result(double_forfeit=True)
        return Result(forfeit=gone[-1])

    def sealed(self, rnd: Round) -> bool:
        """Whether a round's results are still secret: in duplicate, until every table has
        played the round's deals, a table's points tell the others about their cards."""
        return self.duplicate and not rnd.complete

    def public_copy(self) -> Event:
        """The event as players may see it while it runs: a sealed round's results left
        out (the standings are worked out from this)."""
        copy = Event.from_dict(self.to_dict())
        for rnd in copy.played:
            if self.sealed(self.round(rnd.number)):
                for table in rnd.tables:
                    table.result = None
        return copy

    # -- JSON --------------------------------------------------------------------------
    def to_dict(self, public: bool = False, sealed: bool = True) -> dict[str, Any]:
        """The JSON form. ``public``: what players may see, the seeds of rounds not yet
        over (and the event's seed, until it ends) left out, and (``sealed``: not for a
        paper event's organiser, who enters them) a sealed round's results and their
        corrections (``done`` says which tables are over); commitments always in."""
        def hidden(number: int | None) -> bool:
            return public and sealed and number is not None and 1 <= number <= len(self.played) \
                and self.sealed(self.round(number))

        out: dict[str, Any] = {
            "name": self.name, "format": self.format, "rounds": self.rounds,
            "variant": self.variant, "players": self.players, "teams": self.teams,
            "options": dict(self.options), "deals_per_round": self.deals_per_round,
            "target": self.target, "duplicate": self.duplicate, "seeding": self.seeding,
            "seed": None if public and not self.finished else self.seed,
            "entrants": [{"name": e.name, "players": list(e.players)} for e in self.entrants],
            "withdrawn": list(self.withdrawn),
            "rest_points": self.rest_points,
            "rests": {str(k): list(v) for k, v in self.rests.items()},
            "played": [
                {"number": r.number, "commitment": r.commitment, "ends_at": r.ends_at,
                 "resting": list(r.resting),
                 "seed": None if public and not r.complete else r.seed,
                 "tables": [{"number": t.number, "home": t.home, "away": t.away,
                             "result": None if t.result is None or hidden(r.number)
                             else t.result.to_dict(), "done": t.done}
                            for t in r.tables]}
                for r in self.played
            ],
            "audit": [dataclasses.asdict(a) if not hidden(a.round)
                      else {**dataclasses.asdict(a), "before": None, "after": None}
                      for a in self.audit],
        }
        return out

    @classmethod
    def from_dict(cls, data: Any) -> Event:
        """Read the JSON form (a full one: public forms lack seeds), checking every result
        again; anything wrong is a ``TournamentError``."""
        if not isinstance(data, dict):
            raise TournamentError("an event is a JSON object")
        try:
            entrants = [Entrant(e["name"], tuple(e.get("players", ()))) for e in data["entrants"]]
            event = cls(
                entrants, format=data.get("format", "swiss"), rounds=data.get("rounds"),
                variant=data.get("variant", "scopa"), players=data.get("players"),
                teams=data.get("teams"), options=dict(data.get("options", {})),
                deals_per_round=data.get("deals_per_round"), target=data.get("target"),
                duplicate=bool(data.get("duplicate", False)), seed=data.get("seed"),
                name=data.get("name", ""), seeding=data.get("seeding", "legacy"),
            )
            event.withdrawn = [str(n) for n in data.get("withdrawn", [])]
            event.rest_points = int(data.get("rest_points", 1))
            if event.rest_points not in (0, 1):
                raise TournamentError("rest_points is 0 or 1")
            event.rests = {int(k): [str(n) for n in v]
                           for k, v in (data.get("rests") or {}).items()}
            for names in event.rests.values():
                for n in names:
                    event._known(n)
            for n in event.withdrawn:
                event._known(n)
            event.audit = [AuditEntry(**a) for a in data.get("audit", [])]
            for index, r in enumerate(data.get("played", []), 1):
                if r.get("number") != index:
                    raise TournamentError(f"round {index} is numbered {r.get('number')!r}")
                if r.get("seed") is None:
                    raise TournamentError(
                        f"round {r.get('number')} has no seed (a public form cannot be read back)")
                tables = [Table(t["number"], t["home"], t["away"]) for t in r["tables"]]
                if len({t.number for t in tables}) != len(tables):
                    raise TournamentError(f"round {index} has two tables with one number")
                for t in tables:
                    event._known(t.home)
                    if t.away is not None:
                        event._known(t.away)
                event.played.append(Round(r["number"], r["seed"], tables, r.get("ends_at"),
                                          [str(n) for n in r.get("resting", [])]))
                for t, raw in zip(tables, r["tables"], strict=True):
                    if raw.get("result") is not None:
                        result = Result.from_dict(raw["result"])
                        event.outcome(t, result)
                        t.result = result
        except (KeyError, TypeError) as e:
            raise TournamentError(f"not an event's JSON form: {e!r}") from None
        return event
