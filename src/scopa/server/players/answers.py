"""What the account, profile, friends and e-mail routes answer, as types (see
``common.answers``)."""

from __future__ import annotations

from typing import Any, NotRequired

from typing_extensions import TypedDict

from ..common.answers import Number, strict


@strict
class User(TypedDict):
    id: int
    name: str
    private: bool


@strict
class Account(TypedDict):
    """Who is signed in (``user`` null for a guest) and the CSRF token changes send."""
    user: User | None
    csrf: str | None
    #: after a sign-up or sign-in that claimed guest seats: the matches now the account's
    claimed_matches: NotRequired[int]


@strict
class Policy(TypedDict):
    user_name: str
    password: str
    user_name_length: list[int]
    password_length: list[int]
    email: bool


@strict
class ResetLink(TypedDict):
    name: str


@strict
class PrivacyState(TypedDict):
    private: bool


@strict
class Claimed(TypedDict):
    claimed_matches: int


@strict
class EmailState(TypedDict):
    email: str | None
    verified: bool
    #: the site sends e-mail
    available: NotRequired[bool]


@strict
class Sent(TypedDict):
    detail: str


@strict
class Reported(TypedDict):
    #: this reporter had reported this player already (counted once)
    already: bool


@strict
class VariantFigures(TypedDict):
    variant: str
    played: int
    won: int


@strict
class ItemRates(TypedDict):
    settebello: float | None
    primiera: float | None
    coins: float | None


@strict
class Figures(TypedDict):
    variants: list[VariantFigures]
    played: int
    won: int
    hands: int
    points_per_hand: float | None
    sweeps_per_hand: float | None
    items: ItemRates


@strict
class RecentMatch(TypedDict):
    match_id: str
    variant: str | None
    seat: int
    side: int
    players: list[str]
    scores: list[int] | None
    won: bool
    abandoned: bool
    rating_before: Number | None
    rating_after: Number | None
    finished_at: str | None
    replay_url: str


@strict
class Rating(TypedDict):
    rating: int
    settled: bool
    mu: float
    sigma: float
    games: int
    wins: int


@strict
class RatingPoint(TypedDict):
    at: str | None
    rating: Number
    match_id: str | None


@strict
class Ties(TypedDict):
    """How the viewer and another follow each other: ``following`` (I follow them),
    ``follows_you`` (they follow me) and ``blocked`` (I blocked them)."""
    following: bool
    follows_you: bool
    blocked: bool


@strict
class BotAbout(TypedDict):
    """A bot account's card on its profile: its author (None once the author's account
    is gone), the variants it plays, its line."""
    author: str | None
    variants: list[str]
    about: str


@strict
class Profile(TypedDict):
    name: str
    own: bool
    private: bool
    #: a bot account: its card (a person: None)
    bot: BotAbout | None
    provisional: bool
    #: how the viewer and this player follow and block each other (``Ties``)
    following: bool
    follows_you: bool
    blocked: bool
    since: str | None
    ratings: dict[str, Rating]
    history: dict[str, list[RatingPoint]]
    stats: Figures
    recent: list[RecentMatch]


@strict
class RatingChange(TypedDict):
    seat: int
    name: str
    before: Number | None
    after: Number | None
    abandoned: bool


@strict
class MatchRatings(TypedDict):
    match_id: str
    pool: str
    changes: list[RatingChange]


@strict
class LeaderboardEntry(TypedDict):
    rank: int
    name: str
    rating: int
    settled: bool
    provisional: bool
    games: int
    wins: int
    #: a bot account's line (marked as a bot)
    bot: bool


@strict
class Leaderboard(TypedDict):
    pool: str
    page: int
    per_page: int
    total: int
    pages: int
    min_games: int
    entries: list[LeaderboardEntry]
    #: the bot levels' published ratings (``ratings.published``)
    bots: Any


@strict
class BotRatings(TypedDict):
    bots: Any
    pools: list[str]


@strict
class Person(TypedDict):
    name: str
    online: bool


@strict
class Opponent(Person):
    following: bool


#: an invitation to a table (``from``: who sent it, a name Python keeps for itself)
Invitation = TypedDict("Invitation", {"from": str, "invite": str, "url": str,
                                      "table_id": str})
strict(Invitation)


@strict
class Friends(TypedDict):
    following: list[Person]
    invitations: list[Invitation]
    recent_opponents: list[Opponent]
