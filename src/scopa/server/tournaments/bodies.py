"""The API's request bodies: what the schema can check is checked here (pydantic), what
only the tournament model can tell (a format's rounds, a variant's options) is checked by
building the event (``rules.check_settings``)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ...tournament import FORMATS
from ..players.names import LABEL_PATTERN, NAME_MAX

#: entrants an event may take at most
CAPACITY_MAX = 256
#: text without control characters or line breaks, something besides spaces
_TEXT = LABEL_PATTERN
#: an event's name (cleaned as players' names are by ``rules.check_settings``: it is shown
#: to everyone in the list)
EVENT_NAME_MAX = 80
TournamentName = Annotated[str, Field(min_length=1, max_length=EVENT_NAME_MAX, pattern=_TEXT)]
EntrantName = Annotated[str, Field(min_length=1, max_length=NAME_MAX, pattern=_TEXT)]
Note = Annotated[str, Field(max_length=200, pattern=r"^[^\x00-\x08\x0b-\x1f\x7f]*$")]
Points = Annotated[int, Field(ge=0, le=1000)]
Format = Literal["swiss", "round-robin", "knockout"]
assert set(FORMATS) == {"swiss", "round-robin", "knockout"}


class CreateTournament(BaseModel):
    """A new event. ``mode``: ``online`` (entrants join with their accounts and play at
    the server's tables) or ``paper`` (a club night: the organiser names the entrants and
    enters every table's result)."""

    model_config = ConfigDict(extra="forbid")
    name: TournamentName
    mode: Literal["online", "paper"] = "online"
    variant: str = Field(default="scopa", max_length=40)
    players: int | None = Field(default=None, ge=2, le=6)
    format: Format = "swiss"
    rounds: int | None = Field(default=None, ge=1, le=60)
    #: a table plays this many deals a round ... (neither: 4 deals)
    deals_per_round: int | None = Field(default=None, ge=1, le=30)
    #: ... or one match to this target
    target: int | None = Field(default=None, ge=1, le=1000)
    duplicate: bool = False
    #: rules options other than players, teams and target (the lobby's "Rules options":
    #: ``Rules`` field names; checked by building the event's rules)
    options: dict[str, Any] = Field(default_factory=dict, max_length=40)
    rated: bool = False
    teach: bool = False
    starts_at: datetime | None = None
    capacity: int = Field(default=16, ge=2, le=CAPACITY_MAX)
    #: start the next round as soon as the last table of one is done (online)
    auto_next: bool = False
    #: online: how long a seat waits for its player before a stand-in plays it and the
    #: table counts as a forfeit (None: the server's ``grace_seconds``)
    grace_seconds: int | None = Field(default=None, ge=10, le=3600)
    #: Swiss: match points of a round an entrant asked to sit out (0, or 1: a half-point bye)
    rest_points: int = Field(default=1, ge=0, le=1)
    #: paper: the results page shows each result to the opponents to confirm before it is
    #: saved (as a bridge table's scorer does)
    confirm_results: bool = False
    #: the round clock: each round is meant to end this many minutes after it is paired
    #: (shown to the players as "round ends at"); None: no clock
    round_minutes: int | None = Field(default=None, ge=5, le=600)
    #: paper mode: the entrants, in seeding order
    entrants: list[EntrantName] | None = Field(default=None, max_length=CAPACITY_MAX)


class ResultBody(BaseModel):
    """A table's result, home first: each deal's points (fixed deals) or the match's
    final score (a target), plus a knockout's decider deals; or a forfeit (one entrant
    named), or a double forfeit (neither played; not in a knockout)."""

    model_config = ConfigDict(extra="forbid")
    deals: list[tuple[Points, Points]] = Field(default_factory=list, max_length=30)
    score: tuple[Points, Points] | None = None
    decider: list[tuple[Points, Points]] = Field(default_factory=list, max_length=10)
    forfeit: EntrantName | None = None
    double_forfeit: bool = False
    #: a correction's reason (kept in the audit)
    note: Note = ""

    def result_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"deals": [list(d) for d in self.deals],
                               "decider": [list(d) for d in self.decider]}
        if self.score is not None:
            out["score"] = list(self.score)
        if self.forfeit is not None:
            out["forfeit"] = self.forfeit
        if self.double_forfeit:
            out["double_forfeit"] = True
        return out


class Withdraw(BaseModel):
    model_config = ConfigDict(extra="forbid")
    entrant: EntrantName
    note: Note = ""


class AddBot(BaseModel):
    """A bot entrant (online events): a bot level; a name, else "<level> <n>"."""

    model_config = ConfigDict(extra="forbid")
    level: str = Field(min_length=1, max_length=64)
    name: EntrantName | None = None


class SitOut(BaseModel):
    """Organiser: an entrant sits a coming round out (Swiss)."""

    model_config = ConfigDict(extra="forbid")
    entrant: EntrantName
    round: int = Field(ge=1, le=60)
    note: Note = ""


class LateEntry(BaseModel):
    """Organiser of a paper Swiss: an entrant who arrives while round 1 is played."""

    model_config = ConfigDict(extra="forbid")
    entrant: EntrantName
    note: Note = ""
