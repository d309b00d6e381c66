"""An event's settings: who is entered, the format and its number of rounds, the rules
every table plays, deals a round or a target, duplicate, and how seeds are derived.

Fixed when the event is made and checked once then (``TournamentError``, nothing made,
when they do not fit); the running event (``event.Event``: rounds, results, the
organiser's changes) is built on them. Apart because what an event *is* and what has
*happened* in it are two jobs: the settings never change once rounds are paired (a late
entry, Swiss only, is the one exception).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..rules import Rules, table_rules
from . import duplicate, pairing
from .results import TournamentError

FORMATS = ("swiss", "round-robin", "knockout")
#: deals a round when neither deals nor a target is given
DEFAULT_DEALS = 4


@dataclass(frozen=True)
class Entrant:
    """One entrant: a player (two-sided games for one a side) or a fixed partnership
    (Scopone: the team is the entrant, ``players`` its members)."""

    name: str
    players: tuple[str, ...] = ()


@dataclass
class Settings:
    """What an event is: its entrants (in seeding order, best first) and its settings."""

    entrants: list[Entrant]
    format: str = "swiss"
    #: None: the format's own (Swiss: ceil(log2 entrants), round robin: one cycle,
    #: knockout: the bracket's rounds)
    rounds: int | None = None
    variant: str = "scopa"
    players: int | None = None
    teams: int | None = None
    #: rules options other than players, teams and target (``Rules`` field names)
    options: dict[str, Any] = field(default_factory=dict)
    #: a table plays this many deals a round (default ``DEFAULT_DEALS``) ...
    deals_per_round: int | None = None
    #: ... or one match to this target (None for fixed deals)
    target: int | None = None
    #: every table of a round plays the same deals, scored against the field
    duplicate: bool = False
    #: the event's seed: every round's seed comes from it (secret until the event ends)
    seed: str | None = None
    #: how seeds are derived (``duplicate.SEEDINGS``): ``hmac`` for every new event; an
    #: event stored before it reads as ``legacy``, so its rounds deal and verify as before
    seeding: str = "hmac"
    name: str = ""

    def __post_init__(self) -> None:
        self.entrants = [e if isinstance(e, Entrant) else Entrant(str(e)) for e in self.entrants]
        names = [e.name for e in self.entrants]
        if len(names) < 2:
            raise TournamentError("an event needs at least two entrants")
        if any(not n.strip() for n in names):
            raise TournamentError("an entrant needs a name")
        if len(set(names)) != len(names):
            twice = next(n for n in names if names.count(n) > 1)
            raise TournamentError(f"entrant {twice!r} is entered twice")
        if self.seeding not in duplicate.SEEDINGS:
            raise TournamentError(f"unknown seeding {self.seeding!r}; one of "
                                  f"{', '.join(duplicate.SEEDINGS)}")
        if self.format not in FORMATS:
            raise TournamentError(
                f"unknown format {self.format!r}; choose one of {', '.join(FORMATS)}")
        if self.target is not None and self.deals_per_round is not None:
            raise TournamentError("give deals per round or a target, not both")
        if self.target is None and self.deals_per_round is None:
            self.deals_per_round = DEFAULT_DEALS
        if self.deals_per_round is not None and self.deals_per_round < 1:
            raise TournamentError("deals per round must be at least 1")
        if self.duplicate and self.target is not None:
            raise TournamentError(
                "duplicate events play a fixed number of deals a round, not matches to a "
                "target (tables' matches would last different numbers of deals)")
        rules = self.rules()
        if rules.teams != 2:
            raise TournamentError(
                f"a tournament table has two sides, one per entrant; {rules.variant} with "
                f"{rules.players} players has {rules.teams}")
        self.rounds = self._check_rounds(self.rounds)

    def _check_rounds(self, rounds: int | None) -> int:
        n = len(self.entrants)
        cycle = n - 1 if n % 2 == 0 else n
        if self.format == "knockout":
            needed = pairing.knockout_rounds(n)
            if rounds not in (None, needed):
                raise TournamentError(f"a knockout of {n} entrants has {needed} rounds")
            return needed
        if self.format == "round-robin":
            if rounds is None:
                return cycle
            if not 1 <= rounds <= 2 * cycle:
                raise TournamentError(
                    f"a round robin of {n} entrants has {cycle} rounds (up to {2 * cycle} "
                    "played twice, home and away)")
            return rounds
        if rounds is None:
            return pairing.knockout_rounds(n)
        if rounds < 1:
            raise TournamentError("rounds must be at least 1")
        return rounds

    def rules(self) -> Rules:
        """The rules every table plays."""
        try:
            return table_rules(self.variant, dict(self.options), players=self.players,
                               teams=self.teams, target=self.target)
        except ValueError as e:
            raise TournamentError(str(e)) from None

    @property
    def names(self) -> list[str]:
        """Entrants' names in seeding order (best first)."""
        return [e.name for e in self.entrants]

    def seed_of(self, name: str) -> int:
        """An entrant's seed number (1 = the best)."""
        self._known(name)
        return self.names.index(name) + 1

    @property
    def double_forfeits(self) -> bool:
        """Whether a table neither entrant played is a double forfeit (no winner). Not in
        a knockout, whose tables need a winner: there one entrant forfeits alone, and the
        other, withdrawn too, forfeits its next table in turn."""
        return self.format != "knockout"

    def _known(self, name: str) -> None:
        if name not in self.names:
            raise TournamentError(f"no entrant named {name!r}")
