"""Profiles and leaderboards: a player's ratings and their history, games played and won
per variant, averages over hands, recent matches with replay links; the best rated players
of each pool. A private profile is shown to its owner only (and leaves the leaderboards);
a private table's matches are listed only to the people who played them."""

from __future__ import annotations

from collections import defaultdict

from fastapi import APIRouter, HTTPException, Query, Request

from ...rules import Rules
from ..common.errors import errors
from ..store.access import iso_time, store_of
from ..store.account_models import MatchPlayerRow
from ..store.models import MatchRow
from .answers import (
    BotRatings,
    Figures,
    Leaderboard,
    MatchRatings,
    Profile,
    RatingPoint,
    RecentMatch,
    Ties,
)
from .profile_store import ProfileStore
from .ratings import ALL_POOLS, POOLS, START, pool_of, published, settled, shown
from .sessions import viewer
from .social_store import SocialStore

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
    me_id = None if me is None else me.id
    found = await ProfileStore(store_of(request)).player(name, me_id, STATS_SPAN,
                                                         HISTORY_POINTS)
    if found is None or not found.user.visible_to(me_id):
        raise HTTPException(404, "no public profile with this name")
    user, rows, history, shared = found.user, found.matches, found.history, found.shared
    own = me_id == user.id
    tie: Ties = {"following": False, "follows_you": False, "blocked": False}
    if me_id is not None and not own:
        tie = await SocialStore(store_of(request)).ties(me_id, user.id)
    # private tables' matches are listed only to those who played them
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
        "bot": ({"author": found.author, "variants": list(user.bot_variants or []),
                 "about": user.bot_about or ""} if user.is_bot else None),
        "provisional": found.provisional,
        **tie,
        "since": iso_time(user.created_at),
        "ratings": {r.pool: {"rating": shown(r.mu, r.sigma), "settled": settled(r.sigma),
                             "mu": round(r.mu, 3),
                             "sigma": round(r.sigma, 3), "games": r.games, "wins": r.wins}
                    for r in found.ratings},
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
    found = await ProfileStore(store_of(request)).rating_changes(match_id)
    if found is None:
        raise HTTPException(404, "no finished match with this id")
    m, rows = found
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
    if pool not in ALL_POOLS:
        raise HTTPException(404, f"no such pool: one of {', '.join(ALL_POOLS)}")
    least = request.app.state.settings.leaderboard_min_games
    found = await ProfileStore(store_of(request)).standing(
        pool, least, per_page, (page - 1) * per_page)
    total, rows, marked = found.total, found.rows, found.provisional
    first = (page - 1) * per_page
    return {
        "pool": pool, "page": page, "per_page": per_page, "total": total,
        "pages": max(1, -(-total // per_page)), "min_games": least,
        "entries": [{"rank": first + i + 1, "name": name, "rating": shown(r.mu, r.sigma),
                     "settled": settled(r.sigma),
                     "provisional": r.user_id in marked, "games": r.games, "wins": r.wins,
                     "bot": r.user_id in found.bots}
                    for i, (r, name) in enumerate(rows)],
        "bots": published(),
    }


@router.get("/ratings/bots")
def bot_ratings() -> BotRatings:
    """The fixed, published ratings of the bot levels (openskill's scale)."""
    return {"bots": published(), "pools": list(ALL_POOLS)}
