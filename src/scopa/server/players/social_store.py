"""The queries of the ties between accounts: follows, blocks, invitations to tables and
reports, and finding an account by name. ``friends`` (the routes) decides what may be
done; this store only reads and writes, each call in one transaction of its own."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError

from ..store.account_models import (
    BlockRow,
    FollowRow,
    InvitationRow,
    MatchPlayerRow,
    PlayerReportRow,
    UserRow,
)
from ..store.database import Store
from ..store.models import MatchRow, utcnow
from .answers import Ties
from .moderation import blocked_by, blockers_of, blocks
from .passwords import name_key


@dataclass
class Circle:
    """What the friends page is made of, as stored: whom the viewer follows, the
    invitations sent to it lately (with their sender's name), the accounts met in its
    recent matches (newest first, with when), whom it blocked and who blocked it."""

    following: list[UserRow]
    invitations: list[tuple[InvitationRow, str]]
    met: list[tuple[UserRow, datetime | None]]
    blocked: set[int]
    blockers: set[int]


class SocialStore:
    """Follows, blocks, invitations and reports on the server's one store."""

    def __init__(self, store: Store) -> None:
        self.session = store.session

    async def by_name(self, name: str) -> UserRow | None:
        """The account of ``name`` (case and look-alike letters folded), if any."""
        async with self.session() as s:
            found: UserRow | None = (await s.scalars(
                select(UserRow).where(UserRow.name_key == name_key(name)))).first()
            return found

    async def circle(self, me: int, invited_since: datetime, invitations: int,
                     matches: int) -> Circle:
        """The friends page's rows for ``me``: at most ``invitations`` invitations sent
        since ``invited_since``, and the players of its last ``matches`` matches."""
        async with self.session() as s:
            following = list(await s.scalars(
                select(UserRow).join(FollowRow, FollowRow.followee_id == UserRow.id)
                .where(FollowRow.follower_id == me).order_by(UserRow.name_key)))
            invites = [(i, n) for i, n in (await s.execute(
                select(InvitationRow, UserRow.name)
                .join(UserRow, UserRow.id == InvitationRow.from_user)
                .where(InvitationRow.to_user == me, InvitationRow.created_at >= invited_since)
                .order_by(InvitationRow.created_at.desc()).limit(invitations))).all()]
            mine = list(await s.scalars(
                select(MatchPlayerRow.match_id)
                .join(MatchRow, MatchRow.id == MatchPlayerRow.match_id)
                .where(MatchPlayerRow.user_id == me)
                .order_by(MatchRow.finished_at.desc()).limit(matches)))
            met = [(u, at) for u, at in (await s.execute(
                select(UserRow, MatchRow.finished_at)
                .join(MatchPlayerRow, MatchPlayerRow.user_id == UserRow.id)
                .join(MatchRow, MatchRow.id == MatchPlayerRow.match_id)
                .where(MatchPlayerRow.match_id.in_(mine), UserRow.id != me)
                .order_by(MatchRow.finished_at.desc()))).all()]
            return Circle(following, invites, met, await blocked_by(s, me),
                          await blockers_of(s, me))

    async def ties(self, me: int, other: int) -> Ties:
        """How the viewer ``me`` and ``other`` follow each other, as a profile shows it:
        ``following`` (I follow them) and ``follows_you`` (they follow me: the followed
        person's only notice of a follow) and ``blocked`` (I blocked them)."""
        async with self.session() as s:
            return {"following": await s.get(FollowRow, (me, other)) is not None,
                    "follows_you": await s.get(FollowRow, (other, me)) is not None,
                    "blocked": await blocks(s, me, other)}

    async def follows(self, follower: int, followee: int) -> bool:
        async with self.session() as s:
            return await s.get(FollowRow, (follower, followee)) is not None

    async def blocks(self, blocker: int, blocked: int) -> bool:
        async with self.session() as s:
            return await blocks(s, blocker, blocked)

    async def following_count(self, follower: int) -> int:
        async with self.session() as s:
            return len(list(await s.scalars(
                select(FollowRow.followee_id).where(FollowRow.follower_id == follower))))

    async def blocked_count(self, blocker: int) -> int:
        async with self.session() as s:
            return len(await blocked_by(s, blocker))

    async def _add_once(self, row: FollowRow | BlockRow) -> None:
        """Keep a tie between two accounts; one kept already is the same outcome."""
        try:
            async with self.session.begin() as s:
                s.add(row)
        except IntegrityError:
            pass

    async def follow(self, follower: int, followee: int) -> None:
        await self._add_once(FollowRow(follower_id=follower, followee_id=followee,
                                       created_at=utcnow()))

    async def unfollow(self, follower: int, followee: int) -> None:
        async with self.session.begin() as s:
            await s.execute(delete(FollowRow).where(FollowRow.follower_id == follower,
                                                    FollowRow.followee_id == followee))

    async def block(self, blocker: int, blocked: int) -> None:
        """Keep the block, then end the follows between the two either way."""
        await self._add_once(BlockRow(blocker_id=blocker, blocked_id=blocked,
                                      created_at=utcnow()))
        async with self.session.begin() as s:
            await s.execute(delete(FollowRow).where(
                ((FollowRow.follower_id == blocker) & (FollowRow.followee_id == blocked))
                | ((FollowRow.follower_id == blocked) & (FollowRow.followee_id == blocker))))

    async def unblock(self, blocker: int, blocked: int) -> None:
        async with self.session.begin() as s:
            await s.execute(delete(BlockRow).where(BlockRow.blocker_id == blocker,
                                                   BlockRow.blocked_id == blocked))

    async def invite(self, sender: int, to: int, table_id: str, invite: str) -> None:
        """Keep an invitation, unless ``to`` blocked ``sender`` (then it never reaches
        them, and the sender is not told)."""
        async with self.session.begin() as s:
            if await blocks(s, to, sender):
                return
            s.add(InvitationRow(from_user=sender, to_user=to, table_id=table_id,
                                invite=invite, created_at=utcnow()))

    async def report(self, reporter: int, reported: int, reason: str | None) -> bool:
        """Keep ``reporter``'s report of ``reported`` once; True if it was kept before."""
        async with self.session.begin() as s:
            already = (await s.scalars(select(PlayerReportRow.id).where(
                PlayerReportRow.reporter_id == reporter,
                PlayerReportRow.reported_id == reported).limit(1))).first() is not None
            if not already:
                s.add(PlayerReportRow(reporter_id=reporter, reported_id=reported,
                                      reason=reason, created_at=utcnow()))
            return already
