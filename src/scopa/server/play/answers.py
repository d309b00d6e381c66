"""What the play routes answer, as types: the OpenAPI document states each answer's
fields from these (every route declares its model), a client can be generated from it, and
the contract test checks answers against them. TypedDicts, so the frames that build the
same dicts on every move pay nothing at run time (the move path's counts,
``tests/server/play/test_move_budget.py``); FastAPI validates a route's answer against its type
and refuses a field the type does not name (``extra="forbid"``), so the two cannot drift.

Rules travel as ``Rules.to_dict()`` (a variant's options vary: ``rules.variant_facts``
names them); a replay's hands as the engine's positions (``history.rebuild``)."""

from __future__ import annotations

from typing import Any, Literal, NotRequired

from pydantic import ConfigDict, with_config
from typing_extensions import TypedDict

#: answers name every field they hold, and nothing else
strict = with_config(ConfigDict(extra="forbid"))

SeatKind = Literal["human", "bot", "external"]
TableStatus = Literal["waiting", "playing", "finished", "expired"]


@strict
class SeatInfo(TypedDict):
    seat: int
    side: int
    name: str | None
    kind: SeatKind
    #: a bot's level (None for people)
    level: str | None
    taken: bool
    connected: bool
    #: a stand-in bot plays the seat while its player is away or after a resignation
    standin: bool
    resigned: bool
    #: an online bot's seat (``server.bots``): shown as a bot's
    bot_account: bool


@strict
class TableInfo(TypedDict):
    """A table as the lobby and every frame show it."""
    id: str
    variant: str
    rules: dict[str, Any]
    players: int
    teams: int
    target: int
    public: bool
    rated: bool
    teach: bool
    rematch: bool
    status: TableStatus
    #: only when asked for by its invite, or public
    invite: str | None
    seats: list[SeatInfo]
    match_id: str | None
    match_number: int
    scores: list[int]
    spectators: int
    created_at: str
    #: an event's table: its event, and whether its deals are a duplicate round's
    event_id: NotRequired[str]
    shared_deals: NotRequired[bool]


@strict
class SeatTaken(TypedDict):
    """A seat just taken: the secret token that opens it on ``ws_url``."""
    table: TableInfo
    seat: int | None
    token: str | None
    ws_url: str


@strict
class TableMade(SeatTaken):
    invite: str
    invite_url: str


@strict
class PublicTables(TypedDict):
    tables: list[TableInfo]


@strict
class Limits(TypedDict):
    name_length: int
    message_bytes: int


@strict
class Meta(TypedDict):
    """What a client needs to offer a table: variants (``rules.variant_facts``), bots,
    limits and timings."""
    variants: list[dict[str, Any]]
    bot_levels: list[str]
    levels: list[str]
    external_bots: bool
    external_bot_names: list[str]
    limits: Limits
    grace_seconds: float
    hand_pause_seconds: float


@strict
class MatchSummary(TypedDict):
    id: str
    table_id: str
    number: int
    variant: str | None
    rules: dict[str, Any]
    players: list[str]
    teams: int
    scores: list[int] | None
    winner: int | None
    hands: int
    started_at: str | None
    finished_at: str | None


@strict
class MatchList(TypedDict):
    matches: list[MatchSummary]
    total: int


@strict
class Replay(TypedDict):
    #: every hand's positions, as ``history.rebuild`` gives them
    hands: list[dict[str, Any]]


@strict
class MatchReplay(MatchSummary):
    resigned: list[int]
    replay: Replay


@strict
class Verified(TypedDict):
    #: whether the seed's commitment is the one given (None: none given)
    ok: bool | None
    commitment: str
    deck: list[str]


@strict
class PlayJudged(TypedDict):
    """One play of a review (``bots.review.PlayReview``): valued in expected points for
    the mover's side from what that seat could know then."""

    hand: int
    #: the play's number within its hand (1-based)
    index: int
    seat: int
    played: str
    best: str
    #: None for a forced play (not searched)
    played_value: float | None
    best_value: float | None
    loss: float
    #: "inaccuracy", "mistake", "blunder" or None
    mark: str | None
    choices: int
    #: why the best play is best, in the teach-me words (empty for a forced play)
    why_best: str
    #: hindsight, with every card seen (the oracle on the true position; never the mark's
    #: basis): the best play then, the points the play made lost against it, and whether
    #: those values were solved exactly. Absent from reviews made before it existed
    hindsight_best: NotRequired[str | None]
    hindsight_loss: NotRequired[float | None]
    hindsight_exact: NotRequired[bool | None]


@strict
class SeatReview(TypedDict):
    seat: int
    plays: int
    average_loss: float
    #: how many plays got each mark
    marks: dict[str, int]
    #: the three costliest plays
    costliest: list[PlayJudged]


@strict
class Thresholds(TypedDict):
    inaccuracy: float
    mistake: float
    blunder: float


@strict
class ReviewBody(TypedDict):
    simulations: int
    thresholds: Thresholds
    plays: list[PlayJudged]
    seats: list[SeatReview]


@strict
class MatchReview(TypedDict):
    """A match's review as asked: ``none`` (never asked), ``queued``, ``running`` (``done``
    of ``total`` plays judged), ``done`` (with ``review``) or ``failed`` (``error``)."""

    match_id: str
    status: str
    done: int
    total: int
    #: reviews waiting before this one at its worker (0 once it runs)
    ahead: int
    review: ReviewBody | None
    error: str | None
