"""Bot accounts and their API tokens in the server's store. A token is 32 random bytes
shown once; only its SHA-256 is kept (a random token needs no slow hash), so a leaked
database opens no bot."""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime

from sqlalchemy import delete, func, select, update

from ..play.table import Table
from ..players.account_store import AccountStore
from ..players.moderation import blockers_of
from ..store.account_models import BotTokenRow, UserRow
from ..store.base import aware, utcnow
from ..store.database import Store
from ..store.models import SeatRow, TableRow

#: what a bot token starts with (so a leaked one is recognised, as GitHub's are)
PREFIX = "scb_"
#: a bot account's stored password: no password opens it (``accounts.sign_in`` never
#: checks one against it)
NO_PASSWORD = "!bot"


#: a bot seen this recently is online (its connection notes it every ``link.HEARTBEAT_SECONDS``)
ONLINE_SECONDS = 60.0


def seen_lately(seen: datetime | None) -> bool:
    """Is a bot last seen at ``seen`` online now? (The one rule: the list, a challenge.)"""
    return seen is not None and (utcnow() - aware(seen)).total_seconds() <= ONLINE_SECONDS


def new_token() -> str:
    return PREFIX + secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class BotStore:
    def __init__(self, store: Store) -> None:
        self.session = store.session
        self.accounts = AccountStore(store)

    async def create_bot(self, name: str, key: str, skeleton: str, author: int,
                         variants: list[str], about: str,
                         allows_bots: bool = False) -> UserRow | None:
        """The new bot account, or None when its name (or its look) is taken."""
        return await self.accounts.create_user(
            name, key, NO_PASSWORD, skeleton, is_bot=True, bot_author_id=author,
            bot_variants=variants, bot_about=about, bot_allows_bots=allows_bots)

    async def bots_of(self, author: int) -> list[UserRow]:
        async with self.session() as s:
            return list(await s.scalars(select(UserRow).where(
                UserRow.is_bot.is_(True), UserRow.bot_author_id == author)
                .order_by(UserRow.id)))

    async def bot(self, key: str) -> UserRow | None:
        async with self.session() as s:
            return (await s.scalars(select(UserRow).where(
                UserRow.name_key == key, UserRow.is_bot.is_(True)))).first()

    async def rank_of(self, bot: UserRow) -> int:
        """How many of its author's bots were made up to this one (this one included)."""
        async with self.session() as s:
            return int(await s.scalar(select(func.count()).select_from(UserRow).where(
                UserRow.is_bot.is_(True), UserRow.bot_author_id == bot.bot_author_id,
                UserRow.id <= bot.id)) or 0)

    async def token_rank(self, token: BotTokenRow) -> int:
        """How many of the bot's tokens were made up to this one (this one included)."""
        async with self.session() as s:
            return int(await s.scalar(select(func.count()).select_from(BotTokenRow).where(
                BotTokenRow.user_id == token.user_id, BotTokenRow.id <= token.id)) or 0)

    async def count_of(self, author: int) -> int:
        async with self.session() as s:
            return int(await s.scalar(select(func.count()).select_from(UserRow).where(
                UserRow.is_bot.is_(True), UserRow.bot_author_id == author)) or 0)

    async def change(self, user_id: int, variants: list[str], about: str,
                     allows_bots: bool) -> None:
        async with self.session.begin() as s:
            await s.execute(update(UserRow).where(UserRow.id == user_id).values(
                bot_variants=variants, bot_about=about, bot_allows_bots=allows_bots))

    # -- tokens ----------------------------------------------------------------------------
    async def add_token(self, user_id: int, label: str) -> tuple[BotTokenRow, str]:
        token = new_token()
        row = BotTokenRow(user_id=user_id, token_hash=token_hash(token), label=label,
                          created_at=utcnow())
        async with self.session.begin() as s:
            s.add(row)
        return row, token

    async def tokens(self, user_id: int) -> list[BotTokenRow]:
        async with self.session() as s:
            return list(await s.scalars(select(BotTokenRow)
                                        .where(BotTokenRow.user_id == user_id)
                                        .order_by(BotTokenRow.id)))

    async def revoke(self, user_id: int, token_id: int) -> bool:
        async with self.session.begin() as s:
            done = await s.execute(delete(BotTokenRow).where(
                BotTokenRow.id == token_id, BotTokenRow.user_id == user_id))
        return bool(getattr(done, "rowcount", 0))

    async def account_of(self, token: str) -> UserRow | None:
        """The bot account a token opens (None: no such token, or not a bot's); its use
        is noted."""
        if not token.startswith(PREFIX) or len(token) > 200:
            return None
        h = token_hash(token)
        async with self.session.begin() as s:
            row = (await s.scalars(select(BotTokenRow).where(BotTokenRow.token_hash == h))
                   ).first()
            if row is None:
                return None
            row.last_used = utcnow()
            user = await s.get(UserRow, row.user_id)
            return user if user is not None and user.is_bot else None

    # -- online ----------------------------------------------------------------------------
    async def seen(self, user_id: int, now: datetime) -> None:
        async with self.session.begin() as s:
            await s.execute(update(UserRow).where(UserRow.id == user_id)
                            .values(bot_seen_at=now))

    async def gone(self, user_id: int) -> None:
        async with self.session.begin() as s:
            await s.execute(update(UserRow).where(UserRow.id == user_id)
                            .values(bot_seen_at=None))

    async def online(self, most: int = 100) -> list[tuple[UserRow, str | None]]:
        """The bot accounts online now (``seen_lately``; the ``most`` seen last), with their
        authors' names."""
        async with self.session() as s:
            bots = list(await s.scalars(select(UserRow).where(
                UserRow.is_bot.is_(True), UserRow.bot_seen_at.is_not(None))
                .order_by(UserRow.bot_seen_at.desc()).limit(most)))
            bots = [b for b in bots if seen_lately(b.bot_seen_at)]
            authors = {a.id: a.name for a in await s.scalars(select(UserRow).where(
                UserRow.id.in_([b.bot_author_id for b in bots if b.bot_author_id])))}
            bots.sort(key=lambda b: b.name_key)
            return [(b, authors.get(b.bot_author_id or 0)) for b in bots]

    async def blocked_at(self, user_id: int, table: Table) -> bool:
        """Has an account seated at ``table`` blocked this bot? (A blocked player does not
        sit at the blocker's table, a bot no more than a person.)"""
        seated = {s.user_id for s in table.seats if s.user_id is not None}
        if not seated:
            return False
        async with self.session() as s:
            return bool(seated & await blockers_of(s, user_id))

    async def live_seats(self, user_id: int) -> list[tuple[str, int]]:
        """The (table, seat) the bot holds at tables still waiting or playing: what a
        reconnecting bot picks up."""
        async with self.session() as s:
            return [(t, seat) for t, seat in (await s.execute(
                select(SeatRow.table_id, SeatRow.seat)
                .join(TableRow, TableRow.id == SeatRow.table_id)
                .where(SeatRow.user_id == user_id, SeatRow.token_hash.is_not(None),
                       TableRow.status.in_(("waiting", "playing"))))).all()]
