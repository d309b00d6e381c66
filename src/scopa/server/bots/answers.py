"""What the bots' routes answer, as types (see ``common.answers``)."""

from __future__ import annotations

from typing_extensions import TypedDict

from ..common.answers import strict


@strict
class BotRating(TypedDict):
    rating: int
    settled: bool
    games: int


@strict
class TokenInfo(TypedDict):
    id: int
    label: str
    created_at: str
    last_used: str | None


@strict
class MadeToken(TokenInfo):
    #: the token itself: shown this once, never again
    token: str


@strict
class BotInfo(TypedDict):
    name: str
    #: its author's name (None once the author's account is gone)
    author: str | None
    #: the variants it accepts (empty: every variant)
    variants: list[str]
    about: str
    online: bool
    #: it plays other bots (unrated) when their authors let them too
    allows_bots: bool
    #: its rating in each bots' pool it has played in
    ratings: dict[str, BotRating]


@strict
class MyBot(BotInfo):
    """One of the signed-in author's bots, with its tokens (never the tokens themselves)."""
    tokens: list[TokenInfo]


@strict
class MyBots(TypedDict):
    bots: list[MyBot]
    #: how many bots one person may make here
    allowed: int


@strict
class OnlineList(TypedDict):
    bots: list[BotInfo]
