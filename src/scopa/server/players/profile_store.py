"""The queries behind profiles and leaderboards: a player's matches, ratings and rating
history, a match's rating changes, a pool's best players. ``profiles`` (the routes)
decides what a viewer is shown; this store only reads, each call in one session."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import func, select

from ..store.account_models import MatchPlayerRow, RatingHistoryRow, RatingRow, UserRow
from ..store.database import Store
from ..store.models import MatchRow, TableRow
from . import farming
from .passwords import name_key


@dataclass
class PlayerRows:
    """A player's stored side: the account, its newest matches (with whether the table was
    public), its ratings and newest rating points, whether it is provisional now, and
    which of its private matches the viewer played too."""

    user: UserRow
    matches: list[tuple[MatchPlayerRow, MatchRow, bool]]
    ratings: list[RatingRow]
    history: list[RatingHistoryRow]
    provisional: bool
    shared: set[str]
    #: a bot account's author's name (None: a person, or the author's account is gone)
    author: str | None = None


@dataclass
class Standing:
    """A pool's page of players: how many qualify, the page's ratings with their names,
    and which of them are provisional."""

    total: int
    rows: list[tuple[RatingRow, str]]
    provisional: set[int]
    #: which of them are bot accounts (marked as bots on the board)
    bots: set[int]


class ProfileStore:
    """Profiles' and leaderboards' reads on the server's one store."""

    def __init__(self, store: Store) -> None:
        self.session = store.session

    async def player(self, name: str, viewer_id: int | None, matches: int,
                     points: int) -> PlayerRows | None:
        """The rows of ``name``'s profile (its ``matches`` newest matches and ``points``
        newest rating points), or None if no account has this name."""
        async with self.session() as s:
            user = (await s.scalars(select(UserRow).where(UserRow.name_key == name_key(name))
                                    )).first()
            if user is None:
                return None
            rows = [(mp, m, bool(public)) for mp, m, public in (await s.execute(
                select(MatchPlayerRow, MatchRow, TableRow.public)
                .join(MatchRow, MatchRow.id == MatchPlayerRow.match_id)
                .join(TableRow, TableRow.id == MatchRow.table_id)
                .where(MatchPlayerRow.user_id == user.id)
                .order_by(MatchRow.finished_at.desc())
                .limit(matches))).all()]
            ratings = list(await s.scalars(select(RatingRow).where(RatingRow.user_id == user.id)))
            provisional = user.id in await farming.provisional(s, [user.id])
            history = list(await s.scalars(
                select(RatingHistoryRow).where(RatingHistoryRow.user_id == user.id)
                .order_by(RatingHistoryRow.at.desc(), RatingHistoryRow.id.desc())
                .limit(points)))
            shared: set[str] = set()
            private_ids = [m.id for _, m, public in rows if not public]
            if viewer_id is not None and viewer_id != user.id and private_ids:
                shared = set(await s.scalars(select(MatchPlayerRow.match_id).where(
                    MatchPlayerRow.match_id.in_(private_ids),
                    MatchPlayerRow.user_id == viewer_id)))
            author = None
            if user.is_bot and user.bot_author_id is not None:
                author = await s.scalar(select(UserRow.name)
                                        .where(UserRow.id == user.bot_author_id))
            return PlayerRows(user, rows, ratings, history, provisional, shared, author)

    async def rating_changes(
        self, match_id: str,
    ) -> tuple[MatchRow, list[tuple[MatchPlayerRow, str, bool]]] | None:
        """A finished match and each rated seat's row with its account's name and
        privacy, by seat; None if no match with this id is finished."""
        async with self.session() as s:
            m = await s.get(MatchRow, match_id)
            if m is None or m.finished_at is None:
                return None
            rows = [(mp, name, bool(private)) for mp, name, private in (await s.execute(
                select(MatchPlayerRow, UserRow.name, UserRow.private)
                .join(UserRow, UserRow.id == MatchPlayerRow.user_id)
                .where(MatchPlayerRow.match_id == match_id,
                       MatchPlayerRow.rating_after.is_not(None))
                .order_by(MatchPlayerRow.seat))).all()]
            return m, rows

    async def standing(self, pool: str, least: int, limit: int, offset: int) -> Standing:
        """The public players of ``pool`` with at least ``least`` rated matches, best
        first: ``limit`` of them from ``offset``."""
        where = (RatingRow.pool == pool, RatingRow.games >= least, UserRow.private.is_(False))
        async with self.session() as s:
            total = int(await s.scalar(
                select(func.count()).select_from(RatingRow)
                .join(UserRow, UserRow.id == RatingRow.user_id).where(*where)) or 0)
            rows = [(r, name) for r, name in (await s.execute(
                select(RatingRow, UserRow.name).join(UserRow, UserRow.id == RatingRow.user_id)
                .where(*where)
                .order_by(RatingRow.mu.desc(), UserRow.name_key)
                .limit(limit).offset(offset))).all()]
            ids = [r.user_id for r, _ in rows]
            marked = await farming.provisional(s, ids)
            bots = set(await s.scalars(select(UserRow.id).where(UserRow.id.in_(ids),
                                                                UserRow.is_bot.is_(True))))
            return Standing(total, rows, set(marked), bots)
