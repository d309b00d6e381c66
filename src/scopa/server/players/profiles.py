"""Profiles and leaderboards: a player's ratings and their history, games played and won
per variant, averages over hands, recent matches with replay links; the best rated players
of each pool. A private profile is shown to its owner only (and leaves the leaderboards);
a private table's matches are listed only to the people who played them."""

from __future__ import annotations

from collections import defaultdict

from fastapi import APIRouter, HTTPException, Query, Request
from sqlalchemy import func, select

from ...rules import Rules
from ..common.errors import errors
from ..store.access import iso_time, store_of
from ..store.account_models import MatchPlayerRow, RatingHistoryRow, RatingRow, UserRow
from ..store.models import MatchRow, TableRow
from . import farming
from .answers import (
    BotRatings,
    Figures,
    Leaderboard,
    MatchRatings,
    Profile,
    RatingPoint,
    RecentMatch,
)
from .friends import ties
from .passwords import name_key
from .ratings import POOLS, START, pool_of, published, settled, shown
from .sessions import viewer

router = APIRouter(prefix="/api", tags=["players"])

RECENT = 20
#: matches a profile's figures are worked out from (the newest)
STATS_SPAN = 2000
HISTORY_POINTS = 200
PAGE_MAX = 100


def rate(part: int, whole: int) -> float | None:
    return round(part / whole, 3) if whole else None


def figures(rows: list[tuple[MatchPlayerRow, MatchRow]]) -> Figures:
    """Games played and won per variant, and the per-hand averages, over ``rows``."""
    per: dict[str, dict[str, int]] = defaultdict(lambda: {"played": 0, "won": 0})
    hands = points = sweeps = settebello = primiera = coins = 0
    for mp, m in rows:
        v = per[str(m.rules.get("variant"))]
        v["played"] += 1
        v["won"] += int(mp.won)
        hands += mp.hands
        points += mp.points
        sweeps += mp.sweeps
        settebello += mp.settebello
        primiera += mp.primiera
        coins += mp.coins
    return {
        "variants": [{"variant": k, "played": v["played"], "won": v["won"]}
                     for k, v in sorted(per.items())],
        "played": sum(v["played"] for v in per.values()),
        "won": sum(v["won"] for v in per.values()),
        "hands": hands,
        "points_per_hand": rate(points, hands),
        "sweeps_per_hand": rate(sweeps, hands),
        # how often the player's side took the item's point, per hand
        "items": {"settebello": rate(settebello, hands), "primiera": rate(primiera, hands),
                  "coins": rate(coins, hands)},
    }


def recent_entry(mp: MatchPlayerRow, m: MatchRow) -> RecentMatch:
    return {
        "match_id": m.id, "variant": m.rules.get("variant"), "seat": mp.seat, "side": mp.side,
        "players": m.players, "scores": m.scores, "won": mp.won, "abandoned": mp.abandoned,
        "rating_before": mp.rating_before, "rating_after": mp.rating_after,
        "finished_at": iso_time(m.finished_at), "replay_url": f"/replay/{m.id}",
    }


@router.get("/players/{name}", responses=errors(404))
async def profile(name: str, request: Request) -> Profile:
    """A player's profile (404 for an unknown name and for another's private profile)."""
    if len(name) > 40:
        raise HTTPException(404, "no public profile with this name")
    me = await viewer(request)
    async with store_of(request).session() as s:
        user = (await s.scalars(select(UserRow).where(UserRow.name_key == name_key(name))
                                )).first()
        own = user is not None and me is not None and me.id == user.id
        if user is None or not user.visible_to(None if me is None else me.id):
            raise HTTPException(404, "no public profile with this name")
        rows = [(mp, m, public) for mp, m, public in (await s.execute(
            select(MatchPlayerRow, MatchRow, TableRow.public)
            .join(MatchRow, MatchRow.id == MatchPlayerRow.match_id)
            .join(TableRow, TableRow.id == MatchRow.table_id)
            .where(MatchPlayerRow.user_id == user.id)
            .order_by(MatchRow.finished_at.desc())
            .limit(STATS_SPAN)
        )).tuples()]
        ratings = list(await s.scalars(select(RatingRow).where(RatingRow.user_id == user.id)))
        provisional_now = user.id in await farming.provisional(s, [user.id])
        tie = await ties(s, me.id, user.id) if me is not None and not own else {
            "following": False, "follows_you": False, "blocked": False}
        history = list(await s.scalars(
            select(RatingHistoryRow).where(RatingHistoryRow.user_id == user.id)
            .order_by(RatingHistoryRow.at.desc(), RatingHistoryRow.id.desc())
            .limit(HISTORY_POINTS)))
        # private tables' matches are listed only to those who played them
        shared: set[str] = set()
        if me is not None and not own:
            private_ids = [m.id for _, m, public in rows if not public]
            if private_ids:
                shared = set(await s.scalars(select(MatchPlayerRow.match_id).where(
                    MatchPlayerRow.match_id.in_(private_ids),
                    MatchPlayerRow.user_id == me.id)))
    listed = [(mp, m) for mp, m, public in rows if public or own or m.id in shared]
    by_pool: dict[str, list[RatingPoint]] = {p: [] for p in POOLS}
    for h in reversed(history):
        points = by_pool.setdefault(h.pool, [])
        if not points and len(history) < HISTORY_POINTS:
            # the whole history is here: it starts from the rating every account starts at
            points.append({"at": iso_time(user.created_at), "rating": shown(*START),
                           "match_id": None})
        points.append({"at": iso_time(h.at), "rating": h.rating, "match_id": h.match_id})
    return {
        "name": user.name, "own": own, "private": user.private,
        "provisional": provisional_now,
        **tie,
        "since": iso_time(user.created_at),
        "ratings": {r.pool: {"rating": shown(r.mu, r.sigma), "settled": settled(r.sigma),
                             "mu": round(r.mu, 3),
                             "sigma": round(r.sigma, 3), "games": r.games, "wins": r.wins}
                    for r in ratings},
        "history": by_pool,
        "stats": figures([(mp, m) for mp, m, _ in rows]),
        "recent": [recent_entry(mp, m) for mp, m in listed[:RECENT]],
    }


@router.get("/matches/{match_id}/ratings", responses=errors(404))
async def match_ratings(match_id: str, request: Request) -> MatchRatings:
    """How a finished rated match moved each signed-in player's rating (the match-end box
    shows it). A private profile's change is told to its owner only."""
    if len(match_id) > 32:
        raise HTTPException(404, "no finished match with this id")
    me = await viewer(request)
    async with store_of(request).session() as s:
        m = await s.get(MatchRow, match_id)
        if m is None or m.finished_at is None:
            raise HTTPException(404, "no finished match with this id")
        rows = (await s.execute(
            select(MatchPlayerRow, UserRow.name, UserRow.private)
            .join(UserRow, UserRow.id == MatchPlayerRow.user_id)
            .where(MatchPlayerRow.match_id == match_id,
                   MatchPlayerRow.rating_after.is_not(None))
            .order_by(MatchPlayerRow.seat)
        )).tuples().all()
    return {
        "match_id": match_id, "pool": pool_of(Rules.from_dict(m.rules)),
        "changes": [{"seat": mp.seat, "name": name, "before": mp.rating_before,
                     "after": mp.rating_after, "abandoned": mp.abandoned}
                    for mp, name, private in rows
                    if not private or (me is not None and me.id == mp.user_id)],
    }


@router.get("/leaderboard/{pool}", responses=errors(404))
async def leaderboard(
    pool: str, request: Request, page: int = Query(1, ge=1, le=100_000),
    per_page: int = Query(20, ge=1, le=PAGE_MAX),
) -> Leaderboard:
    """The pool's players by rating (``ratings.shown``), best first, a page at a time;
    only public profiles with at least ``leaderboard_min_games`` rated matches."""
    if pool not in POOLS:
        raise HTTPException(404, f"no such pool: one of {', '.join(POOLS)}")
    least = request.app.state.settings.leaderboard_min_games
    where = (RatingRow.pool == pool, RatingRow.games >= least, UserRow.private.is_(False))
    async with store_of(request).session() as s:
        total = int(await s.scalar(
            select(func.count()).select_from(RatingRow)
            .join(UserRow, UserRow.id == RatingRow.user_id).where(*where)) or 0)
        rows = (await s.execute(
            select(RatingRow, UserRow.name).join(UserRow, UserRow.id == RatingRow.user_id)
            .where(*where)
            .order_by(RatingRow.mu.desc(), UserRow.name_key)
            .limit(per_page).offset((page - 1) * per_page)
        )).tuples().all()
        marked = await farming.provisional(s, [r.user_id for r, _ in rows])
    first = (page - 1) * per_page
    return {
        "pool": pool, "page": page, "per_page": per_page, "total": total,
        "pages": max(1, -(-total // per_page)), "min_games": least,
        "entries": [{"rank": first + i + 1, "name": name, "rating": shown(r.mu, r.sigma),
                     "settled": settled(r.sigma),
                     "provisional": r.user_id in marked, "games": r.games, "wins": r.wins}
                    for i, (r, name) in enumerate(rows)],
        "bots": published(),
    }


@router.get("/ratings/bots")
def bot_ratings() -> BotRatings:
    """The fixed, published ratings of the bot levels (openskill's scale)."""
    return {"bots": published(), "pools": list(POOLS)}
