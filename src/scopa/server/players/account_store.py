"""Database work of accounts: users, sessions, failed sign-ins, claiming guest seats and
deleting an account (its matches stay, with the name replaced)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import delete, func, select, update
from sqlalchemy.exc import IntegrityError

from ..store.account_models import (
    AddressRow,
    BlockRow,
    BotTokenRow,
    FollowRow,
    InvitationRow,
    LoginFailureRow,
    MatchPlayerRow,
    ModerationActionRow,
    PlayerReportRow,
    RatingHistoryRow,
    RatingRow,
    ResetRow,
    SessionRow,
    UserRow,
)
from ..store.database import Store
from ..store.models import MatchRow, SeatRow, utcnow
from ..store.puzzle_models import PuzzleAttemptRow, PuzzleRatingRow
from ..store.tournament_models import NO_ORGANISER, EntrantRow, TournamentRow
from .resets import forget_password_links

#: what a deleted account's seats and matches show instead of its name
DELETED_NAME = "former player"


#: every column that points at an account, whose rows go with it (``delete_user``); a
#: test checks that each foreign key to ``users`` is here (or is a match seat, kept
#: anonymised)
OWN_ROWS = (SessionRow.user_id, ResetRow.user_id, AddressRow.user_id, RatingRow.user_id,
            RatingHistoryRow.user_id, FollowRow.follower_id, FollowRow.followee_id,
            InvitationRow.from_user, InvitationRow.to_user, BlockRow.blocker_id,
            BlockRow.blocked_id, PlayerReportRow.reporter_id, PlayerReportRow.reported_id,
            ModerationActionRow.user_id, BotTokenRow.user_id, PuzzleAttemptRow.user_id,
            PuzzleRatingRow.user_id)


class AccountStore:
    """Accounts on the server's one store (same engine, same transactions' rules)."""

    def __init__(self, store: Store) -> None:
        self.session = store.session

    # -- users --------------------------------------------------------------------------
    async def create_user(self, name: str, key: str, password_hash: str,
                          skeleton: str | None = None, **more: Any) -> UserRow | None:
        """The new account, or None when the name (case-folded), or its look
        (``skeleton``), is taken: the unique indexes decide, so two sign-ups at once
        cannot both have it. ``more``: other columns (a bot account's, ``server.bots``)."""
        row = UserRow(name=name, name_key=key, name_skeleton=skeleton,
                      password_hash=password_hash, private=False, created_at=utcnow(), **more)
        try:
            async with self.session.begin() as s:
                s.add(row)
        except IntegrityError:
            return None
        return row

    async def user_by_key(self, key: str) -> UserRow | None:
        async with self.session() as s:
            return (await s.scalars(select(UserRow).where(UserRow.name_key == key))).first()

    async def name_taken(self, key: str, skeleton: str) -> bool:
        """Is there an account of this name, or of a name that looks like it?"""
        async with self.session() as s:
            return (await s.scalars(select(UserRow.id).where(
                (UserRow.name_key == key) | (UserRow.name_skeleton == skeleton)))).first() \
                is not None

    async def user(self, user_id: int) -> UserRow | None:
        async with self.session() as s:
            return await s.get(UserRow, user_id)

    async def set_password(self, user_id: int, password_hash: str, keep: str) -> None:
        """A new password; every other session of the account ends (``keep`` stays), and
        every outstanding reset link."""
        async with self.session.begin() as s:
            await forget_password_links(s, user_id)
            await s.execute(update(UserRow).where(UserRow.id == user_id)
                            .values(password_hash=password_hash))
            await s.execute(delete(SessionRow).where(SessionRow.user_id == user_id,
                                                     SessionRow.token_hash != keep))

    async def set_email(self, user_id: int, address: str | None) -> None:
        """Set (or, None, remove) the account's address, not yet checked; a reset link
        mailed to the old address does not outlive it."""
        async with self.session.begin() as s:
            await s.execute(update(UserRow).where(UserRow.id == user_id)
                            .values(email=address, email_verified=False))
            await forget_password_links(s, user_id)

    async def set_private(self, user_id: int, private: bool) -> None:
        async with self.session.begin() as s:
            await s.execute(update(UserRow).where(UserRow.id == user_id)
                            .values(private=private))

    async def touch(self, user_id: int, now: datetime) -> None:
        async with self.session.begin() as s:
            await s.execute(update(UserRow).where(UserRow.id == user_id).values(last_seen=now))

    # -- sessions -----------------------------------------------------------------------
    async def add_session(self, user_id: int, token_hash: str, csrf: str,
                          expires_at: datetime) -> None:
        async with self.session.begin() as s:
            s.add(SessionRow(token_hash=token_hash, user_id=user_id, csrf=csrf,
                             created_at=utcnow(), expires_at=expires_at))

    async def session_of(self, token_hash: str) -> tuple[SessionRow, UserRow] | None:
        async with self.session() as s:
            found = (await s.execute(
                select(SessionRow, UserRow).join(UserRow, UserRow.id == SessionRow.user_id)
                .where(SessionRow.token_hash == token_hash)
            )).first()
            return None if found is None else (found[0], found[1])

    async def end_session(self, token_hash: str) -> None:
        async with self.session.begin() as s:
            await s.execute(delete(SessionRow).where(SessionRow.token_hash == token_hash))

    # -- throttling ---------------------------------------------------------------------
    async def failures(self, key: str, since: datetime) -> tuple[int, datetime | None]:
        """How many refused sign-ins ``key`` has had since ``since``, and the latest."""
        async with self.session() as s:
            count, last = (await s.execute(
                select(func.count(), func.max(LoginFailureRow.at))
                .where(LoginFailureRow.key == key, LoginFailureRow.at >= since)
            )).one()
            if isinstance(last, datetime) and last.tzinfo is None:  # SQLite keeps no zone
                last = last.replace(tzinfo=UTC)
            return int(count or 0), last

    async def add_failures(self, keys: list[str], forget_before: datetime,
                           now: datetime | None = None) -> None:
        """Record a refused sign-in under each key (and forget the old ones)."""
        at = now or utcnow()
        async with self.session.begin() as s:
            await s.execute(delete(LoginFailureRow).where(LoginFailureRow.at < forget_before))
            s.add_all(LoginFailureRow(key=k, at=at) for k in keys)

    async def clear_failures(self, key: str) -> None:
        async with self.session.begin() as s:
            await s.execute(delete(LoginFailureRow).where(LoginFailureRow.key == key))

    # -- addresses ----------------------------------------------------------------------
    async def try_signup(self, address: str, since: datetime, now: datetime) -> int:
        """Count a sign-up tried from ``address`` (written first, then counted, so sign-ups
        at once can over-count but never slip through together): the tries from there
        since ``since``, this one included."""
        async with self.session.begin() as s:
            row = AddressRow(address=address[:64], kind="signup", at=now)
            s.add(row)
            await s.flush()
            count = await s.scalar(select(func.count()).select_from(AddressRow).where(
                AddressRow.address == address[:64], AddressRow.kind == "signup",
                AddressRow.at >= since))
            return int(count or 0)

    async def note_address(self, user_id: int, address: str, now: datetime,
                           forget_before: datetime) -> None:
        """The account was used from ``address`` (a sign-up or sign-in); old notes go."""
        async with self.session.begin() as s:
            await s.execute(delete(AddressRow).where(AddressRow.at < forget_before))
            s.add(AddressRow(user_id=user_id, address=address[:64], kind="session", at=now))

    # -- guest seats --------------------------------------------------------------------
    async def seats_of_table(self, table_id: str) -> list[SeatRow]:
        async with self.session() as s:
            return list(await s.scalars(select(SeatRow).where(SeatRow.table_id == table_id)))

    async def claim_seat(self, table_id: str, seat: int, user_id: int) -> int:
        """The seat and the finished matches played from it become the account's (the
        seat keeps the nickname it had); returns how many finished matches came with it."""
        async with self.session.begin() as s:
            row = await s.get(SeatRow, (table_id, seat))
            if row is None:
                return 0
            if row.user_id is not None and row.user_id != user_id:
                raise PermissionError("this seat belongs to another account")
            row.user_id = user_id
            ids = list(await s.scalars(select(MatchRow.id).where(MatchRow.table_id == table_id)))
            claimed = 0
            for mp in await s.scalars(select(MatchPlayerRow).where(
                    MatchPlayerRow.match_id.in_(ids), MatchPlayerRow.seat == seat)):
                if mp.user_id is None:
                    mp.user_id = user_id
                    claimed += 1
            return claimed

    # -- deleting -----------------------------------------------------------------------
    async def delete_user(self, user_id: int) -> None:
        """Remove the account and every row that points at it (``OWN_ROWS``, both ways:
        sessions, resets, ratings, follows, invitations, blocks, reports; see
        docs/accounts.md for why each goes); its matches stay, the seats it held shown as
        ``DELETED_NAME``; an event it entered keeps the entrant's name with no account, an
        event it organised has none (``NO_ORGANISER``). Nothing another account did can
        keep it from going. The bots it made go with it (``server.bots``)."""
        async with self.session() as s:
            bots = list(await s.scalars(select(UserRow.id).where(
                UserRow.is_bot.is_(True), UserRow.bot_author_id == user_id)))
        for bot in bots:
            await self.delete_user(bot)
        async with self.session.begin() as s:
            seats = list(await s.scalars(select(MatchPlayerRow)
                                         .where(MatchPlayerRow.user_id == user_id)))
            for mp in seats:
                m = await s.get(MatchRow, mp.match_id)
                if m is not None and 0 <= mp.seat < len(m.players):
                    players = list(m.players)
                    players[mp.seat] = DELETED_NAME
                    m.players = players
                mp.user_id = None
            # the seats it holds: every match played from them (the one going on too, whose
            # seat leaves no match_players row until it ends) shows the seat renamed
            for seat in await s.scalars(select(SeatRow).where(SeatRow.user_id == user_id)):
                for m in await s.scalars(select(MatchRow).where(
                        MatchRow.table_id == seat.table_id)):
                    if 0 <= seat.seat < len(m.players) and m.players[seat.seat] != DELETED_NAME:
                        players = list(m.players)
                        players[seat.seat] = DELETED_NAME
                        m.players = players
            await s.execute(update(SeatRow).where(SeatRow.user_id == user_id)
                            .values(user_id=None, name=DELETED_NAME))
            for column in OWN_ROWS:
                await s.execute(delete(column.class_).where(column == user_id))
            # events hold account ids without a foreign key: an entrant keeps its name with
            # no account behind it, an event it organised has no organiser any more
            await s.execute(update(EntrantRow).where(EntrantRow.user_id == user_id)
                            .values(user_id=None))
            await s.execute(update(TournamentRow).where(TournamentRow.organiser_id == user_id)
                            .values(organiser_id=NO_ORGANISER))
            await s.execute(delete(UserRow).where(UserRow.id == user_id))
