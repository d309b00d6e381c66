"""Deleting an account always works, whatever other players did to it or it did to them
(issue 37): every row that points at the account is handled as docs/accounts.md says,
on each store."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from account_helpers import PASSWORD, Browser, server, signed_up  # noqa: F401 - fixture
from server_helpers import ServerProcess
from sqlalchemy import func, select
from sqlalchemy.sql.schema import Column

from scopa.rules import Rules
from scopa.server.players.account_store import DELETED_NAME, OWN_ROWS, AccountStore
from scopa.server.store.account_models import (
    AddressRow,
    BlockRow,
    FollowRow,
    InvitationRow,
    MatchPlayerRow,
    PlayerReportRow,
    RatingHistoryRow,
    RatingRow,
    ResetRow,
    SessionRow,
)
from scopa.server.store.base import Base
from scopa.server.store.database import Store
from scopa.server.store.models import MatchRow, SeatRow, TableRow


def test_every_foreign_key_to_users_is_handled_by_delete() -> None:
    """A new table pointing at ``users`` must say what deleting an account does to it."""
    handled = {(c.class_.__tablename__, c.key) for c in OWN_ROWS}
    handled.add(("match_players", "user_id"))  # kept, anonymised
    pointing: set[tuple[str, str]] = set()
    for table in Base.metadata.tables.values():
        for fk in table.foreign_keys:
            if fk.column.table.name == "users":
                assert isinstance(fk.parent, Column)
                pointing.add((table.name, fk.parent.name))
    assert pointing - handled == set()


def test_deleting_an_account_with_every_kind_of_row(url: str) -> None:
    async def run() -> None:
        store = Store(url)
        try:
            await store.migrate()
            a = AccountStore(store)
            me = await a.create_user("gone", "gone", "x", "gone")
            other = await a.create_user("stays", "stays", "x", "stays")
            assert me is not None and other is not None
            now = datetime.now(UTC)
            await store.create_table(
                TableRow(id="t1", invite="i1", public=False, rules=Rules().to_dict(),
                         grace_seconds=1.0, status="finished"),
                [SeatRow(table_id="t1", seat=0, kind="human", name="gone", user_id=me.id),
                 SeatRow(table_id="t1", seat=1, kind="human", name="stays",
                         user_id=other.id)])
            async with store.session.begin() as s:
                s.add(MatchRow(id="m1", table_id="t1", number=1, rules=Rules().to_dict(),
                               players=["gone", "stays"]))
                await s.flush()
                facts = dict(side=0, won=True, points=11, hands=1, sweeps=0, settebello=0,
                             primiera=0, coins=0)
                s.add_all([
                    MatchPlayerRow(match_id="m1", seat=0, user_id=me.id, **facts),
                    MatchPlayerRow(match_id="m1", seat=1, user_id=other.id, **facts),
                    SessionRow(token_hash="s1", user_id=me.id, csrf="c",
                               expires_at=now + timedelta(days=1)),
                    ResetRow(token_hash="r1", user_id=me.id, expires_at=now),
                    AddressRow(user_id=me.id, address="1.2.3.4", kind="session"),
                    RatingRow(user_id=me.id, pool="p", mu=25, sigma=8, games=1, wins=1),
                    RatingHistoryRow(user_id=me.id, pool="p", match_id="m1", rating=1500),
                    FollowRow(follower_id=me.id, followee_id=other.id),
                    FollowRow(follower_id=other.id, followee_id=me.id),
                    InvitationRow(from_user=me.id, to_user=other.id, table_id="t1",
                                  invite="i1"),
                    InvitationRow(from_user=other.id, to_user=me.id, table_id="t1",
                                  invite="i1"),
                    BlockRow(blocker_id=me.id, blocked_id=other.id),
                    BlockRow(blocker_id=other.id, blocked_id=me.id),
                    PlayerReportRow(reporter_id=me.id, reported_id=other.id, reason="x"),
                    PlayerReportRow(reporter_id=other.id, reported_id=me.id, reason="y"),
                ])
            await a.delete_user(me.id)
            assert await a.user(me.id) is None and await a.user(other.id) is not None
            async with store.session() as s:
                for column in OWN_ROWS:
                    left = await s.scalar(select(func.count()).select_from(column.class_)
                                          .where(column == me.id))
                    assert left == 0, column
                seats = list(await s.scalars(select(MatchPlayerRow)
                                             .order_by(MatchPlayerRow.seat)))
                assert [mp.user_id for mp in seats] == [None, other.id]
                match = await s.get(MatchRow, "m1")
                assert match is not None and match.players == [DELETED_NAME, "stays"]
                seat = await s.get(SeatRow, ("t1", 0))
                assert seat is not None and seat.user_id is None
                # the other account's own rows about third parties would stay; its rows
                # about the deleted one are gone both ways
                assert await s.scalar(select(func.count()).select_from(BlockRow)) == 0
                assert await s.scalar(select(func.count()).select_from(PlayerReportRow)) == 0
        finally:
            await store.close()

    asyncio.run(run())


def test_an_account_blocked_and_reported_both_ways_can_be_deleted(
        server: ServerProcess) -> None:
    me, my_name = signed_up(server, "del")
    other, other_name = signed_up(server, "oth")
    assert me.post("/api/friends/block", {"name": other_name}).status_code == 204
    assert other.post("/api/friends/block", {"name": my_name}).status_code == 204
    assert me.post("/api/friends/report", {"name": other_name, "reason": "a"}
                   ).status_code == 200
    assert other.post("/api/friends/report", {"name": my_name, "reason": "b"}
                      ).status_code == 200
    assert other.post("/api/friends/follow", {"name": my_name}).status_code in (204, 403, 404)
    r = me.post("/api/account/delete", {"password": PASSWORD})
    assert r.status_code == 204, r.text
    assert server.get(f"/api/players/{my_name}").status_code == 404
    assert Browser(server).sign_in(other_name).status_code == 200
