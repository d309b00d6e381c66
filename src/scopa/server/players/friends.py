"""Friends: follow a player, see which of them are online, ask one to your table (besides
sending the link), and the accounts you played lately."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from fastapi import APIRouter, Depends, HTTPException, Request
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError

from ..common.errors import SIGNED_IN, errors
from ..store.access import store_of
from ..store.account_models import (
    BlockRow,
    FollowRow,
    InvitationRow,
    MatchPlayerRow,
    PlayerReportRow,
    UserRow,
)
from ..store.models import MatchRow, utcnow
from .answers import Friends, Opponent, Person, Reported, Ties
from .limits import Limit, take
from .live import live_tables
from .moderation import blocked_by, blockers_of, blocks
from .passwords import name_key
from .sessions import Viewer, acting, aware, viewer

if TYPE_CHECKING:
    from sqlalchemy.ext.asyncio import AsyncSession

router = APIRouter(prefix="/api/friends", tags=["friends"])

#: an account seen this recently (or with a seat connected) counts as online
ONLINE_SECONDS = 300
#: an invitation is shown this long
INVITE_MINUTES = 30
RECENT_MATCHES = 30
FOLLOW_MAX = 500
#: blocks one account may hold
BLOCK_MAX = 1000


class Someone(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(max_length=40)


class Report(Someone):
    #: what the player did, in the reporter's words (optional)
    reason: str | None = Field(default=None, max_length=200)


class Invite(Someone):
    #: the table's invite code (the one in its /join/ link)
    invite: str = Field(max_length=64)


async def find_user(request: Request, name: str, me: Viewer) -> UserRow:
    """The account of ``name`` as ``me`` may see it: another's private account is
    answered exactly as an unknown name (404, same words)."""
    async with store_of(request).session() as s:
        user = (await s.scalars(select(UserRow).where(UserRow.name_key == name_key(name))
                                )).first()
    if user is None or not user.visible_to(me.id):
        raise HTTPException(404, "no player with this name")
    return user


def online(user: UserRow, seated: set[int], now: datetime) -> bool:
    """Seated and connected now, or a request seen lately."""
    if user.id in seated:
        return True
    return user.last_seen is not None and (
        now - aware(user.last_seen)).total_seconds() <= ONLINE_SECONDS


@router.get("", responses=errors(401))
async def friends(request: Request) -> Friends:
    """Whom you follow (online first), invitations to tables, recent opponents."""
    me = await viewer(request)
    if me is None:
        raise HTTPException(401, "sign in first")
    now = datetime.now(UTC)
    seated = live_tables(request).online_accounts()  # once: it walks every live table
    async with store_of(request).session() as s:
        following = list(await s.scalars(
            select(UserRow).join(FollowRow, FollowRow.followee_id == UserRow.id)
            .where(FollowRow.follower_id == me.id).order_by(UserRow.name_key)))
        since = now - timedelta(minutes=INVITE_MINUTES)
        invites = (await s.execute(
            select(InvitationRow, UserRow.name).join(UserRow, UserRow.id == InvitationRow.from_user)
            .where(InvitationRow.to_user == me.id, InvitationRow.created_at >= since)
            .order_by(InvitationRow.created_at.desc()).limit(20))).tuples().all()
        mine = list(await s.scalars(
            select(MatchPlayerRow.match_id).join(MatchRow, MatchRow.id == MatchPlayerRow.match_id)
            .where(MatchPlayerRow.user_id == me.id)
            .order_by(MatchRow.finished_at.desc()).limit(RECENT_MATCHES)))
        others = (await s.execute(
            select(UserRow, MatchRow.finished_at)
            .join(MatchPlayerRow, MatchPlayerRow.user_id == UserRow.id)
            .join(MatchRow, MatchRow.id == MatchPlayerRow.match_id)
            .where(MatchPlayerRow.match_id.in_(mine), UserRow.id != me.id)
            .order_by(MatchRow.finished_at.desc()))).tuples().all()
        shut = await blocked_by(s, me.id)
        hiding = await blockers_of(s, me.id)  # who blocked me: not shown online to me
    invites = [(i, n) for i, n in invites if i.from_user not in shut]  # sent before a block
    # an account gone private since it was followed, or met, is not shown (nor whether it
    # is online): to others it is as if it did not exist
    following = [u for u in following if u.visible_to(me.id)]
    others = [(u, at) for u, at in others if u.visible_to(me.id)]
    followed = {u.id for u in following}
    recent: list[Opponent] = []
    seen: set[int] = set()
    for u, _ in others:
        if u.id not in seen:
            seen.add(u.id)
            recent.append({"name": u.name, "following": u.id in followed,
                           "online": u.id not in hiding and online(u, seated, now)})
    people: list[Person] = [
        {"name": u.name, "online": u.id not in hiding and online(u, seated, now)}
        for u in following]
    people.sort(key=lambda p: not p["online"])
    return {
        "following": people,
        "invitations": [{"from": name, "invite": inv.invite, "url": f"/join/{inv.invite}",
                         "table_id": inv.table_id} for inv, name in invites],
        "recent_opponents": recent,
    }


async def ties(s: AsyncSession, me: int, other: int) -> Ties:
    """How the viewer ``me`` and ``other`` follow each other, as a profile shows it:
    ``following`` (I follow them) and ``follows_you`` (they follow me: the followed
    person's only notice of a follow) and ``blocked`` (I blocked them)."""
    return {"following": await s.get(FollowRow, (me, other)) is not None,
            "follows_you": await s.get(FollowRow, (other, me)) is not None,
            "blocked": await blocks(s, me, other)}


async def add_once(request: Request, row: FollowRow | BlockRow) -> None:
    """Keep a tie between two accounts; one kept already is the same outcome."""
    try:
        async with store_of(request).session.begin() as s:
            s.add(row)
    except IntegrityError:
        pass


@router.post("/follow", status_code=204, responses=errors(400, 404, *SIGNED_IN))
async def follow(body: Someone, request: Request, me: Viewer = Depends(acting)) -> None:
    user = await find_user(request, body.name, me)
    if user.id == me.id:
        raise HTTPException(400, "you cannot follow yourself")
    async with store_of(request).session() as s:
        if await blocks(s, user.id, me.id):
            raise HTTPException(403, "this player does not take follows from you")
        count = len(list(await s.scalars(
            select(FollowRow.followee_id).where(FollowRow.follower_id == me.id))))
    if count >= FOLLOW_MAX:
        raise HTTPException(400, f"you follow {FOLLOW_MAX} players already")
    await add_once(request, FollowRow(follower_id=me.id, followee_id=user.id,
                                      created_at=utcnow()))


@router.post("/unfollow", status_code=204, responses=errors(400, 404, *SIGNED_IN))
async def unfollow(body: Someone, request: Request, me: Viewer = Depends(acting)) -> None:
    user = await find_user(request, body.name, me)
    async with store_of(request).session.begin() as s:
        await s.execute(delete(FollowRow).where(FollowRow.follower_id == me.id,
                                                FollowRow.followee_id == user.id))


@router.post("/invite", status_code=204, responses=errors(400, 404, *SIGNED_IN))
async def invite(body: Invite, request: Request, me: Viewer = Depends(acting)) -> None:
    """Ask a player you follow to a table where you sit (its invite code)."""
    user = await find_user(request, body.name, me)
    async with store_of(request).session() as s:
        follows = await s.get(FollowRow, (me.id, user.id))
    if follows is None:
        raise HTTPException(403, "you can invite only players you follow")
    table = live_tables(request).by_invite.get(body.invite)
    if table is None or table.status not in ("waiting", "playing"):
        raise HTTPException(404, "no open table has this invite code")
    if not any(s.user_id == me.id for s in table.seats):
        raise HTTPException(403, "you can invite only to a table where you sit")
    async with store_of(request).session.begin() as s:
        if await blocks(s, user.id, me.id):
            return  # it never reaches them (and the sender is not told why)
        s.add(InvitationRow(from_user=me.id, to_user=user.id, table_id=table.id,
                            invite=table.invite, created_at=utcnow()))


@router.post("/block", status_code=204, responses=errors(400, 404, *SIGNED_IN))
async def block(body: Someone, request: Request, me: Viewer = Depends(acting)) -> None:
    """Block a player: their chat at your tables and their invitations never reach you
    (``moderation``), they cannot follow you (follows either way end), sit at a table
    where you sit, or see you online; they are not told (docs/accounts.md)."""
    user = await find_user(request, body.name, me)
    if user.id == me.id:
        raise HTTPException(400, "you cannot block yourself")
    async with store_of(request).session() as s:
        if len(await blocked_by(s, me.id)) >= BLOCK_MAX:
            raise HTTPException(400, f"you block {BLOCK_MAX} players already")
    await add_once(request, BlockRow(blocker_id=me.id, blocked_id=user.id,
                                     created_at=utcnow()))
    async with store_of(request).session.begin() as s:  # a block ends follows both ways
        await s.execute(delete(FollowRow).where(
            ((FollowRow.follower_id == me.id) & (FollowRow.followee_id == user.id))
            | ((FollowRow.follower_id == user.id) & (FollowRow.followee_id == me.id))))


@router.post("/unblock", status_code=204, responses=errors(400, 404, *SIGNED_IN))
async def unblock(body: Someone, request: Request, me: Viewer = Depends(acting)) -> None:
    user = await find_user(request, body.name, me)
    async with store_of(request).session.begin() as s:
        await s.execute(delete(BlockRow).where(BlockRow.blocker_id == me.id,
                                               BlockRow.blocked_id == user.id))


@router.post("/report", responses=errors(400, 404, 429, *SIGNED_IN))
async def report(body: Report, request: Request,
                 me: Viewer = Depends(acting)) -> Reported:
    """Report a player to the operator (``scopa admin reports``); each reporter's report
    of a player is kept once (``already``: it was before). An account reports at most
    ``reports_per_hour`` and ``reports_per_day`` times (counted in the database, so
    requests at once cannot pass it)."""
    user = await find_user(request, body.name, me)
    if user.id == me.id:
        raise HTTPException(400, "you cannot report yourself")
    settings = request.app.state.settings
    wait = await take(store_of(request), [
        Limit(f"report-hour:{me.id}", settings.reports_per_hour, 3600),
        Limit(f"report-day:{me.id}", settings.reports_per_day, 86400)])
    if wait:
        raise HTTPException(429, "you reported many players lately: try again later",
                            headers={"Retry-After": str(wait)})
    async with store_of(request).session.begin() as s:
        already = (await s.scalars(select(PlayerReportRow.id).where(
            PlayerReportRow.reporter_id == me.id,
            PlayerReportRow.reported_id == user.id).limit(1))).first() is not None
        if not already:
            s.add(PlayerReportRow(reporter_id=me.id, reported_id=user.id,
                                  reason=(body.reason or "").strip() or None,
                                  created_at=utcnow()))
    return {"already": already}
