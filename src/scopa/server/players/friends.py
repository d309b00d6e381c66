"""Friends: follow a player, see which of them are online, ask one to your table (besides
sending the link), and the accounts you played lately."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from fastapi import APIRouter, Depends, HTTPException, Request
from pydantic import BaseModel, ConfigDict, Field

from ..common.errors import SIGNED_IN, errors
from ..store.access import store_of
from ..store.account_models import UserRow
from ..store.base import aware
from .answers import Friends, Opponent, Person, Reported
from .limits import Limit, take
from .live import live_tables
from .sessions import Viewer, acting, viewer
from .social_store import SocialStore

router = APIRouter(prefix="/api/friends", tags=["friends"])

#: an account seen this recently (or with a seat connected) counts as online
ONLINE_SECONDS = 300
#: an invitation is shown this long
INVITE_MINUTES = 30
RECENT_MATCHES = 30
#: invitations shown at most
INVITATIONS_SHOWN = 20
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


def social_of(request: Request) -> SocialStore:
    return SocialStore(store_of(request))


async def find_user(request: Request, name: str, me: Viewer) -> UserRow:
    """The account of ``name`` as ``me`` may see it: another's private account is
    answered exactly as an unknown name (404, same words)."""
    user = await social_of(request).by_name(name)
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
    circle = await social_of(request).circle(
        me.id, now - timedelta(minutes=INVITE_MINUTES), INVITATIONS_SHOWN, RECENT_MATCHES)
    hiding = circle.blockers  # who blocked me: not shown online to me
    # invitations sent before a block are not shown
    invites = [(i, n) for i, n in circle.invitations if i.from_user not in circle.blocked]
    # an account gone private since it was followed, or met, is not shown (nor whether it
    # is online): to others it is as if it did not exist
    following = [u for u in circle.following if u.visible_to(me.id)]
    others = [(u, at) for u, at in circle.met if u.visible_to(me.id)]
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


@router.post("/follow", status_code=204, responses=errors(400, 404, *SIGNED_IN))
async def follow(body: Someone, request: Request, me: Viewer = Depends(acting)) -> None:
    user = await find_user(request, body.name, me)
    if user.id == me.id:
        raise HTTPException(400, "you cannot follow yourself")
    social = social_of(request)
    if await social.blocks(user.id, me.id):
        raise HTTPException(403, "this player does not take follows from you")
    if await social.following_count(me.id) >= FOLLOW_MAX:
        raise HTTPException(400, f"you follow {FOLLOW_MAX} players already")
    await social.follow(me.id, user.id)


@router.post("/unfollow", status_code=204, responses=errors(400, 404, *SIGNED_IN))
async def unfollow(body: Someone, request: Request, me: Viewer = Depends(acting)) -> None:
    user = await find_user(request, body.name, me)
    await social_of(request).unfollow(me.id, user.id)


@router.post("/invite", status_code=204, responses=errors(400, 404, *SIGNED_IN))
async def invite(body: Invite, request: Request, me: Viewer = Depends(acting)) -> None:
    """Ask a player you follow to a table where you sit (its invite code)."""
    user = await find_user(request, body.name, me)
    social = social_of(request)
    if not await social.follows(me.id, user.id):
        raise HTTPException(403, "you can invite only players you follow")
    table = live_tables(request).by_invite.get(body.invite)
    if table is None or table.status not in ("waiting", "playing"):
        raise HTTPException(404, "no open table has this invite code")
    if not any(s.user_id == me.id for s in table.seats):
        raise HTTPException(403, "you can invite only to a table where you sit")
    # a blocker never gets it (and the sender is not told why)
    await social.invite(me.id, user.id, table.id, table.invite)


@router.post("/block", status_code=204, responses=errors(400, 404, *SIGNED_IN))
async def block(body: Someone, request: Request, me: Viewer = Depends(acting)) -> None:
    """Block a player: their chat at your tables and their invitations never reach you
    (``moderation``), they cannot follow you (follows either way end), sit at a table
    where you sit, or see you online; they are not told (docs/accounts.md)."""
    user = await find_user(request, body.name, me)
    if user.id == me.id:
        raise HTTPException(400, "you cannot block yourself")
    social = social_of(request)
    if await social.blocked_count(me.id) >= BLOCK_MAX:
        raise HTTPException(400, f"you block {BLOCK_MAX} players already")
    await social.block(me.id, user.id)  # which ends follows both ways


@router.post("/unblock", status_code=204, responses=errors(400, 404, *SIGNED_IN))
async def unblock(body: Someone, request: Request, me: Viewer = Depends(acting)) -> None:
    user = await find_user(request, body.name, me)
    await social_of(request).unblock(me.id, user.id)


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
    already = await social_of(request).report(
        me.id, user.id, (body.reason or "").strip() or None)
    return {"already": already}
