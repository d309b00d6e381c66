"""The bots' HTTP routes: a person makes bot accounts (``POST /api/bots``), gives each API
tokens (shown once, kept hashed, revocable, several a bot), and anyone sees the bots online
now (``GET /api/bot/online``) to challenge one (a table with an ``online`` seat naming it,
``POST /api/tables``). The bot itself connects with a token to ``/api/bot/connect``
(``link``); its token opens nothing else."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Path, Request, Response
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import select

from ...rules import VARIANTS, Rules
from ..common.errors import SIGNED_IN, errors
from ..common.refusal import Refusal
from ..players import passwords
from ..players.account_store import AccountStore
from ..players.names import clean_label
from ..players.ratings import ALL_POOLS, settled, shown
from ..players.sessions import Viewer, acting, viewer
from ..store.access import store_of
from ..store.account_models import RatingRow
from ..store.base import aware
from ..store.database import Store
from .answers import BotRating, MadeToken, MyBot, MyBots, OnlineList, TokenInfo
from .bot_store import BotStore, seen_lately

router = APIRouter(prefix="/api/bots", tags=["bots"])
#: the bots' list, beside their connection (``/api/bot/connect``): a path no bot's name
#: can take
listing = APIRouter(prefix="/api/bot", tags=["bots"])
#: API tokens one bot may hold at once
TOKENS_PER_BOT = 10


class NewBot(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(max_length=200)
    #: the variants it accepts challenges in (none: every variant)
    variants: list[str] = Field(default_factory=list, max_length=len(VARIANTS))
    about: str = Field(default="", max_length=200)
    #: it may play other bots (unrated, when the other bot's author says so too)
    allows_bots: bool = False


class BotChange(BaseModel):
    """What an author may change of a bot (what is left out stays)."""

    model_config = ConfigDict(extra="forbid")
    variants: list[str] | None = Field(default=None, max_length=len(VARIANTS))
    about: str | None = Field(default=None, max_length=200)
    allows_bots: bool | None = None


class NewToken(BaseModel):
    model_config = ConfigDict(extra="forbid")
    label: str = Field(default="token", min_length=1, max_length=64)


def _iso(t: datetime | None) -> str | None:
    return None if t is None else aware(t).isoformat().replace("+00:00", "Z")


def _variants(given: list[str]) -> list[str]:
    out = []
    for v in given:
        if v not in VARIANTS:
            raise HTTPException(400, f"unknown variant {v!r}; choose among {', '.join(VARIANTS)}")
        if v not in out:
            out.append(v)
    return out


def _about(text: str) -> str:
    try:
        return clean_label(text, 200, "line about the bot") if text.strip() else ""
    except ValueError as e:
        raise HTTPException(400, str(e)) from None


def _mine(bot: Any, author: str, ratings: dict[str, BotRating], tokens: list[Any]) -> MyBot:
    return {"name": bot.name, "author": author, "variants": list(bot.bot_variants or []),
            "about": bot.bot_about or "", "online": seen_lately(bot.bot_seen_at),
            "allows_bots": bool(bot.bot_allows_bots), "ratings": ratings,
            "tokens": [_token_info(t) for t in tokens]}


def _token_info(t: Any) -> TokenInfo:
    return {"id": t.id, "label": t.label, "created_at": _iso(t.created_at) or "",
            "last_used": _iso(t.last_used)}


async def _ratings(store: Store, user_ids: list[int]) -> dict[int, dict[str, BotRating]]:
    out: dict[int, dict[str, BotRating]] = {u: {} for u in user_ids}
    async with store.session() as s:
        for r in await s.scalars(select(RatingRow).where(RatingRow.user_id.in_(user_ids))):
            if r.pool in ALL_POOLS:
                out[r.user_id][r.pool] = {"rating": shown(r.mu, r.sigma),
                                          "settled": settled(r.sigma), "games": r.games}
    return out


async def _own_bot(request: Request, name: str, v: Viewer) -> Any:
    bot = await BotStore(store_of(request)).bot(passwords.name_key(name))
    if bot is None or bot.bot_author_id != v.id:
        raise HTTPException(404, "you have no bot with this name")
    return bot


@router.post("", status_code=201, responses=errors(400, 409, *SIGNED_IN))
async def make_bot(body: NewBot, request: Request, v: Viewer = Depends(acting)) -> MyBot:
    """A new bot account, made by the signed-in person (its author): a new account that
    never plays as a person and never signs in with a password."""
    settings = request.app.state.settings
    if not settings.bots_online:
        raise HTTPException(403, "this server does not let bots play online")
    store = BotStore(store_of(request))
    me = await AccountStore(store_of(request)).user(v.id)
    if me is None or me.is_bot:
        raise HTTPException(403, "a bot account cannot make bots")
    if await store.count_of(v.id) >= settings.bots_per_author:
        raise HTTPException(409, f"you have made {settings.bots_per_author} bots, as many "
                                 "as this server allows one person")
    try:
        name = passwords.check_user_name(body.name)
    except ValueError as e:
        raise HTTPException(400, str(e)) from None
    key, look = passwords.name_key(name), passwords.skeleton_key(name)
    if await AccountStore(store_of(request)).name_taken(key, look):
        raise HTTPException(409, "this name is taken, or looks too much like one that is")
    bot = await store.create_bot(name, key, look, v.id, _variants(body.variants),
                                 _about(body.about), body.allows_bots)
    if bot is None:
        raise HTTPException(409, "this name is taken, or looks too much like one that is")
    if await store.rank_of(bot) > settings.bots_per_author:
        # made at the same moment as others past the limit: the first ones made stay
        await AccountStore(store_of(request)).delete_user(bot.id)
        raise HTTPException(409, f"you have made {settings.bots_per_author} bots, as many "
                                 "as this server allows one person")
    return _mine(bot, v.name, {}, [])


@router.post("/{name}", responses=errors(400, 404, *SIGNED_IN))
async def change_bot(name: str, body: BotChange, request: Request,
                     v: Viewer = Depends(acting)) -> MyBot:
    """Change one of your bots' variants, line, or whether it plays other bots."""
    bot = await _own_bot(request, name, v)
    store = BotStore(store_of(request))
    variants = bot.bot_variants or [] if body.variants is None else _variants(body.variants)
    about = bot.bot_about or "" if body.about is None else _about(body.about)
    allows = bot.bot_allows_bots if body.allows_bots is None else body.allows_bots
    await store.change(bot.id, variants, about, allows)
    fresh = await store.bot(bot.name_key)
    assert fresh is not None
    ratings = await _ratings(store_of(request), [bot.id])
    return _mine(fresh, v.name, ratings[bot.id], await store.tokens(bot.id))


@router.get("", responses=errors(*SIGNED_IN))
async def my_bots(request: Request) -> MyBots:
    """The signed-in person's bots and their tokens (never the tokens themselves)."""
    v = await viewer(request)
    if v is None:
        raise HTTPException(401, "sign in first")
    store = BotStore(store_of(request))
    bots = await store.bots_of(v.id)
    ratings = await _ratings(store_of(request), [b.id for b in bots])
    return {"allowed": request.app.state.settings.bots_per_author, "bots": [
        _mine(b, v.name, ratings[b.id], await store.tokens(b.id)) for b in bots]}


@router.post("/{name}/tokens", status_code=201, responses=errors(400, 404, *SIGNED_IN))
async def make_token(name: str, body: NewToken, request: Request,
                     v: Viewer = Depends(acting)) -> MadeToken:
    """A new API token for one of your bots: shown in this answer only."""
    bot = await _own_bot(request, name, v)
    store = BotStore(store_of(request))
    if len(await store.tokens(bot.id)) >= TOKENS_PER_BOT:
        raise HTTPException(409, f"a bot has {TOKENS_PER_BOT} tokens at most: revoke one first")
    try:
        label = clean_label(body.label, 64, "token's label")
    except ValueError as e:
        raise HTTPException(400, str(e)) from None
    row, token = await store.add_token(bot.id, label)
    if await store.token_rank(row) > TOKENS_PER_BOT:  # several made at once: the first stay
        await store.revoke(bot.id, row.id)
        raise HTTPException(409, f"a bot has {TOKENS_PER_BOT} tokens at most: revoke one first")
    return {**_token_info(row), "token": token}


@router.delete("/{name}/tokens/{token_id}", status_code=204,
               responses=errors(404, *SIGNED_IN))
async def revoke_token(name: str, token_id: Annotated[int, Path(ge=1, le=2**31 - 1)],
                       request: Request,
                       v: Viewer = Depends(acting)) -> Response:
    """Revoke a token: it opens nothing from now (a connection it opened stays until it
    closes)."""
    bot = await _own_bot(request, name, v)
    if not await BotStore(store_of(request)).revoke(bot.id, token_id):
        raise HTTPException(404, "this bot has no token with this id")
    return Response(status_code=204)


@router.delete("/{name}", status_code=204, responses=errors(404, *SIGNED_IN))
async def delete_bot(name: str, request: Request, v: Viewer = Depends(acting)) -> Response:
    """Delete one of your bots: its account goes as a person's does (its tokens, ratings;
    its matches stay, its seats renamed), and its connection opens nothing from now."""
    bot = await _own_bot(request, name, v)
    await AccountStore(store_of(request)).delete_user(bot.id)
    return Response(status_code=204)


@listing.get("/online")
async def online(request: Request) -> OnlineList:
    """The bots connected now: name, author, variants, line and ratings."""
    store = BotStore(store_of(request))
    found = await store.online()
    ratings = await _ratings(store_of(request), [b.id for b, _ in found])
    return {"bots": [{"name": b.name, "author": author, "variants": list(b.bot_variants or []),
                      "about": b.bot_about or "", "online": True,
                      "allows_bots": bool(b.bot_allows_bots), "ratings": ratings[b.id]}
                     for b, author in found]}


class OnlineBots:
    """What the lobby asks of the bots' side (``lobby.OnlineBots``)."""

    def __init__(self, store: Store) -> None:
        self.bots = BotStore(store)

    async def challenged(self, name: str, rules: Rules, challenger: int | None,
                         against_bot: bool = False) -> tuple[int, str]:
        bot = await self.bots.bot(passwords.name_key(name))
        if bot is None:
            raise Refusal("not_found", f"no bot is called {name!r}")
        if bot.id == challenger:
            raise Refusal("bad_message", "a bot does not challenge itself")
        if not seen_lately(bot.bot_seen_at):
            raise Refusal("offline", f"{bot.name} is not online now")
        if bot.bot_variants and rules.variant not in bot.bot_variants:
            raise Refusal("bad_message", f"{bot.name} plays only "
                                         f"{', '.join(bot.bot_variants)}")
        if against_bot and not bot.bot_allows_bots:
            raise Refusal("forbidden", f"{bot.name}'s author does not let it play other bots")
        return bot.id, bot.name
