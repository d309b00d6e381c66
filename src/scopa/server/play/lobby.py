"""The lobby API: server facts, creating and joining tables, the public table list."""

from __future__ import annotations

from typing import Annotated, Any, Literal, Protocol

from fastapi import APIRouter, HTTPException, Request
from pydantic import BaseModel, ConfigDict, Field

from ...rules import VARIANTS, Rules, table_rules, variant_facts
from ..common.errors import errors
from ..common.ratelimit import RateLimiter
from ..common.refusal import Refusal
from ..common.security import client_address
from ..players.moderation import blockers_of
from ..players.names import LABEL_PATTERN, NAME_MAX, clean_name
from ..players.ratings import BOT_RATINGS
from ..players.sessions import acting_or_guest
from ..store.access import store_of
from . import frames, offers
from .answers import Meta, PublicTables, SeatTaken, TableInfo, TableMade
from .botpool import known_levels
from .master import Master
from .spec import TableSpec
from .table import Table

router = APIRouter(prefix="/api", tags=["lobby"])

#: the levels promised by the bots package (unregistered ones play as "random" for now)
LEVELS = ["beginner", "intermediate", "expert", "champion"]
PUBLIC_LIST_MAX = 100


#: a nickname as the schema can say it (``names.LABEL_PATTERN``: ``names.clean_name``
#: still decides, and refuses what a pattern cannot name, unassigned characters, with 400)
Nickname = Annotated[str, Field(min_length=1, max_length=NAME_MAX, pattern=LABEL_PATTERN)]
#: a guest who makes a table and gives no name sits as this (nothing is lost: the name
#: is shown at that table only, made distinct there like any other)
GUEST_NAME = "Guest"


class SeatSpec(BaseModel):
    """A seat: a person's, one of our bots (``level``), an outside program the server
    runs (``bot``: its name in the server's settings), or an online bot's (``online``:
    ``bot`` names the bot account challenged; none: any online bot may take it)."""

    model_config = ConfigDict(extra="forbid")
    kind: Literal["human", "bot", "external", "online"]
    level: str | None = Field(default=None, max_length=64)
    bot: str | None = Field(default=None, max_length=64)


class CreateTable(BaseModel):
    model_config = ConfigDict(extra="forbid")
    variant: str = Field(default="scopa", max_length=40)
    players: int | None = Field(default=None, ge=2, le=6)
    teams: int | None = Field(default=None, ge=2, le=6)
    target: int | None = Field(default=None, ge=1, le=1000)
    options: dict[str, Any] = Field(default_factory=dict)
    public: bool = False
    #: teach me for every seat (on) or for none (off); always off in rated games
    teach: bool = True
    #: the creator's nickname (a guest's; a signed-in maker sits under the account name)
    name: Nickname | None = None
    creator_seat: int | None = Field(default=None, ge=0, le=5)
    grace_seconds: float | None = Field(default=None, ge=0, le=3600)
    seats: list[SeatSpec] | None = Field(default=None, min_length=2, max_length=6)
    #: matches move the players' ratings: for signed-in players and rated bots only (off
    #: by default, so a friends' table is unrated unless asked)
    rated: bool = False


class JoinTable(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: Nickname
    seat: int | None = Field(default=None, ge=0, le=5)


def master_of(request: Request) -> Master:
    master: Master = request.app.state.master
    return master


def bot_levels() -> list[str]:
    return LEVELS + [n for n in known_levels() if n not in LEVELS]




@router.get("/meta")
def meta(request: Request) -> Meta:
    """Variants (with allowed player counts and sides), bot levels (``levels``: the four
    for people; ``bot_levels``: every bot that may sit, engines included), limits, timings."""
    settings = request.app.state.settings
    return {
        "variants": [variant_facts(v) for v in VARIANTS],
        "bot_levels": bot_levels(),
        "levels": LEVELS,
        "external_bots": bool(settings.external_bots),
        "external_bot_names": sorted(settings.external_bots),
        "limits": {"name_length": NAME_MAX, "message_bytes": settings.max_message_bytes},
        "grace_seconds": settings.grace_seconds,
        "bots_online": settings.bots_online,
        "hand_pause_seconds": settings.hand_pause_seconds,
    }


def build_rules(req: CreateTable) -> Rules:
    return table_rules(req.variant, req.options, players=req.players, teams=req.teams,
                       target=req.target)


def check_seats(req: CreateTable, rules: Rules, settings: Any) -> list[dict[str, Any]]:
    specs = req.seats
    if specs is None:
        specs = [SeatSpec(kind="human", level=None, bot=None)] + [
            SeatSpec(kind="bot", level="intermediate", bot=None) for _ in range(rules.players - 1)
        ]
    if len(specs) != rules.players:
        raise ValueError(f"give {rules.players} seats, one per player, not {len(specs)}")
    online = [spec for spec in specs if spec.kind == "online"]
    if len(online) > 1 and (req.rated or not all(spec.bot for spec in online)):
        raise ValueError("online bots play each other only unrated, each named (and each "
                         "author must let it)")
    out: list[dict[str, Any]] = []
    levels = bot_levels()
    for i, spec in enumerate(specs):
        if spec.kind == "bot":
            level = spec.level or "intermediate"
            if level not in levels:
                raise ValueError(f"seat {i}: unknown bot level {level!r}; one of {levels}")
            out.append({"kind": "bot", "level": level})
        elif spec.kind == "external":
            if not settings.external_bots:
                raise ValueError("this server does not allow external bots")
            if spec.bot not in settings.external_bots:
                raise ValueError(f"seat {i}: unknown external bot {spec.bot!r}")
            out.append({"kind": "external", "bot": str(spec.bot)})
        elif spec.kind == "online":
            if not settings.bots_online:
                raise ValueError("this server does not let bots play online")
            out.append({"kind": "online", "bot": spec.bot})
        else:
            out.append({"kind": "human"})
    return out


def check_rated(seats: list[dict[str, Any]], signed_in: bool) -> None:
    """A rated table: made by a signed-in player, every bot one with a published rating."""
    if not signed_in:
        raise ValueError("sign in to make a rated table")
    for i, spec in enumerate(seats):
        if spec["kind"] == "external":
            raise ValueError(f"seat {i}: outside programs do not play rated games")
        # (an online bot's seat is rated, in the bots' pool: ``ratings.pool_of``)
        if spec["kind"] == "bot" and spec["level"] not in BOT_RATINGS:
            raise ValueError(f"seat {i}: the bot {spec['level']!r} has no published rating")


async def _allow_create(request: Request, settings: Any) -> bool:
    """One token bucket per client address, in the app's limiter (``state.limiter``:
    Redis's, shared by every worker, when there is one; else this process's)."""
    limiter: RateLimiter = request.app.state.limiter
    return await limiter.take(f"create:{client_address(request)}",
                              settings.create_per_minute / 60, settings.create_burst)


@router.post("/tables", status_code=201, responses=errors(400, 401, 403, 409, 429, 503))
async def create_table(req: CreateTable, request: Request) -> TableMade:
    """Create a table; the creator takes a human seat and gets its secret token."""
    master = master_of(request)
    settings = request.app.state.settings
    if not await _allow_create(request, settings):
        raise HTTPException(429, "too many new tables from this address: wait a minute")
    account = await acting_or_guest(request)
    try:
        rules = build_rules(req)
        seats = check_seats(req, rules, settings)
        if req.rated:
            check_rated(seats, account is not None)
        humans = [i for i, s in enumerate(seats) if s["kind"] == "human"]
        creator_seat = req.creator_seat
        if creator_seat is None and humans:
            creator_seat = humans[0]
        if creator_seat is not None and creator_seat not in humans:
            raise ValueError(f"creator_seat {creator_seat} is not a human seat")
        if req.rated and creator_seat is None:
            raise ValueError("the maker of a rated table sits at it")
        name = None
        if creator_seat is not None:
            name = account.name if account is not None else clean_name(req.name or GUEST_NAME)
    except ValueError as e:
        raise HTTPException(400, str(e)) from None
    await name_online_bots(request, seats, rules, account.id if account else None)
    grace = settings.grace_seconds if req.grace_seconds is None else req.grace_seconds
    table, seat, token = await master.create_table(TableSpec(
        rules=rules, seats=seats, grace=grace, public=req.public, creator=name,
        creator_seat=creator_seat, address=client_address(request),
        creator_user=account.id if account is not None else None, rated=req.rated,
        teach=req.teach))
    await offer_to_bots(request, table)
    return {
        "table": frames.table_info(table, with_invite=True), "seat": seat, "token": token,
        "invite": table.invite, "invite_url": f"/join/{table.invite}",
        "ws_url": f"/ws/{table.id}",
    }


class OnlineBots(Protocol):
    """The bots' side as the lobby needs it (``server.bots`` puts one on ``app.state``)."""

    async def challenged(self, name: str, rules: Rules, challenger: int | None,
                         against_bot: bool = False) -> tuple[int, str]:
        """The bot account ``name`` (id, name) if it is online and plays ``rules`` (and,
        ``against_bot``, its author lets it play bots); else ``Refusal``."""


async def name_online_bots(request: Request, seats: list[dict[str, Any]], rules: Rules,
                           challenger: int | None) -> None:
    """Each challenged bot's seat gets its account (refused when the bot is unknown,
    offline or does not play the variant). Two bots at one table: each one's author lets
    it play bots, and such tables are few (``bot_games_per_hour`` an address)."""
    named = [spec for spec in seats if spec["kind"] == "online" and spec.get("bot")]
    against_bot = len([s for s in seats if s["kind"] == "online"]) > 1
    if len({spec["bot"].casefold() for spec in named}) < len(named):
        raise Refusal("bad_message", "a bot takes one seat a table")
    for spec in named:
        bots: OnlineBots | None = getattr(request.app.state, "online_bots", None)
        if bots is None:
            raise Refusal("bad_message", "this server does not let bots play online")
        spec["user_id"], spec["name"] = await bots.challenged(spec["bot"], rules,
                                                             challenger, against_bot)
    if against_bot:  # counted once the table may be made
        settings = request.app.state.settings
        limiter: RateLimiter = request.app.state.limiter
        if not await limiter.take(f"botgames:{client_address(request)}",
                                  settings.bot_games_per_hour / 3600, 1):
            raise Refusal("too_many", "bots play each other a few times an hour from one "
                                      "address: try later")


async def offer_to_bots(request: Request, table: Table) -> None:
    """Offer the new table's seats for online bots: a challenge to its bot, any other
    seat to every bot online (``offers``)."""
    for seat in offers.open_seats(table):
        await request.app.state.broker.publish(offers.channel_of(table, seat),
                                               offers.offer(table, seat))


@router.get("/invites/{invite}", responses=errors(404))
async def look_at_invite(invite: str, request: Request) -> TableInfo:
    """The table behind an invite code, to show before joining."""
    master = master_of(request)
    table = await master.find_invite(invite)
    if table is None:
        raise HTTPException(404, "no table has this invite code")
    return frames.table_info(table, with_invite=True)


async def refuse_if_blocked(request: Request, master: Master, invite: str,
                            user_id: int) -> None:
    """403 when an account seated at the table blocked ``user_id``: a blocked player does
    not sit at the blocker's table (docs/accounts.md, "What a block means"). A guest is
    no account, so a blocked player who signs out is not recognised (the documented
    limit); the blocker's chat still hides only the seats of blocked accounts."""
    table = await master.find_invite(invite)
    if table is None:
        return  # the join answers 404
    seated = {s.user_id for s in table.seats if s.user_id is not None}
    if not seated:
        return
    async with store_of(request).session() as s:
        if seated & await blockers_of(s, user_id):
            raise HTTPException(403, "you cannot sit at this table")


@router.post("/invites/{invite}/join", responses=errors(400, 401, 403, 404, 409))
async def join(invite: str, req: JoinTable, request: Request) -> SeatTaken:
    """Take a free human seat with a nickname; returns the secret seat token."""
    master = master_of(request)
    account = await acting_or_guest(request)
    try:
        name = account.name if account is not None else clean_name(req.name)
    except ValueError as e:
        raise HTTPException(400, str(e)) from None
    if account is not None:
        await refuse_if_blocked(request, master, invite, account.id)
    table, seat, token = await master.join(
        invite, name, req.seat, account.id if account is not None else None)
    return {"table": frames.table_info(table, with_invite=True), "seat": seat, "token": token,
            "ws_url": f"/ws/{table.id}"}


@router.get("/tables")
def public_tables(request: Request) -> PublicTables:
    """Public tables waiting for players or playing, newest first."""
    master = master_of(request)
    live = [t for t in master.tables.values() if t.public and t.status in ("waiting", "playing")]
    live.sort(key=lambda t: t.created_at, reverse=True)
    return {"tables": [frames.table_info(t) for t in live[:PUBLIC_LIST_MAX]]}


@router.get("/tables/{table_id}", responses=errors(404))
async def table(table_id: str, request: Request) -> TableInfo:
    """One public table (anyone may watch it); a private table is seen only through its
    invite (``GET /api/invites/<invite>``), so here it is as unknown as a wrong id."""
    master = master_of(request)
    t = await master.find(table_id)
    if t is None or not t.public:
        raise HTTPException(404, "no such table")
    return frames.table_info(t)
