"""Storage on both databases: the migrations build exactly the models, URLs with or
without the asyncio driver name work, and a waiting database call leaves the event loop
free."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from services import dsn, fresh_database
from sqlalchemy import inspect
from sqlalchemy.engine import Connection

from scopa.rules import Rules
from scopa.server.common.timing import PHASES
from scopa.server.store.database import Conflict, Store, async_url
from scopa.server.store.models import Base, MatchRow, SeatRow, TableRow


def schema_diff(conn: Connection) -> tuple[set[str], list[object]]:
    names = set(inspect(conn).get_table_names())
    return names, compare_metadata(MigrationContext.configure(conn), Base.metadata)


async def make_table(store: Store, seats: int) -> None:
    """A waiting private table ``t1`` (invite ``i1``) with ``seats`` human seats."""
    await store.create_table(
        TableRow(id="t1", invite="i1", public=False, rules=Rules().to_dict(),
                 grace_seconds=1.0, status="waiting"),
        [SeatRow(table_id="t1", seat=s, kind="human") for s in range(seats)],
    )


def test_migrations_build_the_models(url: str) -> None:
    async def run() -> None:
        store = Store(url)
        try:
            await store.migrate()
            await store.migrate()  # idempotent
            async with store.engine.connect() as conn:
                names, diff = await conn.run_sync(schema_diff)
            assert {"tables", "seats", "matches", "events", "meta", "alembic_version"} <= names
            assert diff == []
            assert await store.secret() == await store.secret()
        finally:
            await store.close()

    asyncio.run(run())


def test_urls_name_the_asyncio_driver() -> None:
    assert async_url("sqlite:///x.db").drivername == "sqlite+aiosqlite"
    assert async_url("sqlite+aiosqlite:///x.db").drivername == "sqlite+aiosqlite"
    assert async_url("postgresql://u@h/db").drivername == "postgresql+asyncpg"
    assert async_url("postgres://u@h/db").drivername == "postgresql+asyncpg"
    assert async_url("postgresql+asyncpg://u@h/db").drivername == "postgresql+asyncpg"
    assert async_url("postgresql://u:p@h:6/db").render_as_string(hide_password=False) == (
        "postgresql+asyncpg://u:p@h:6/db")


def test_a_waiting_database_call_leaves_the_loop_free() -> None:
    """An append that waits for a lock held by another session must not stop the event
    loop: this coroutine keeps running (and sees it wait) until the lock is released. A
    blocking store would hang the loop until PostgreSQL ends the holder's session (5 s),
    and the append would be done before anyone saw it wait."""

    async def run(url: str) -> None:
        store = Store(url.replace("postgresql://", "postgresql+asyncpg://"))
        await store.migrate()
        await make_table(store, 1)
        await store.start_match(
            MatchRow(id="m1", table_id="t1", number=1, rules={}, players=["a"], hands=0),
            {"number": 1, "seed": "s"},
        )
        holder = await asyncpg.connect(dsn(url))
        watcher = await asyncpg.connect(dsn(url))
        try:
            await holder.execute("SET idle_in_transaction_session_timeout = '5s'")
            tx = holder.transaction()
            await tx.start()
            await holder.execute("LOCK TABLE events IN ACCESS EXCLUSIVE MODE")
            append = asyncio.create_task(store.append("m1", 1, "move", {"seat": 0}))
            while not await watcher.fetchval(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                "AND wait_event_type = 'Lock'"
            ):
                assert not append.done(), "the append finished without waiting"
                await asyncio.sleep(0.01)
            assert not append.done()
            await tx.commit()
            await asyncio.wait_for(append, 10)
            assert [e.seq for e in await store.events("m1")] == [0, 1]
        finally:
            await holder.close()
            await watcher.close()
            await store.close()

    with fresh_database() as url:
        asyncio.run(run(url))


def test_the_second_writer_of_a_step_is_refused_and_changes_nothing(url: str) -> None:
    """The guards between workers: an event ``seq`` is written once, a seat is taken
    once, a match is started once; the loser gets ``Conflict`` and the rows stay."""

    async def run() -> None:
        store = Store(url)
        try:
            await store.migrate()
            await make_table(store, 2)
            await store.take_seat("t1", 1, "Bruno", "h-bruno")
            with pytest.raises(Conflict):
                await store.take_seat("t1", 1, "Carla", "h-carla")
            match = MatchRow(id="m1", table_id="t1", number=1, rules={}, players=["a", "b"],
                             hands=0)
            await store.start_match(match, {"number": 1, "seed": "s"})
            with pytest.raises(Conflict):  # a second start while the first is going
                await store.start_match(
                    MatchRow(id="m2", table_id="t1", number=1, rules={}, players=["a", "b"],
                             hands=0), {"number": 1, "seed": "other"})
            await store.append("m1", 1, "move", {"seat": 0, "card": "7d"})
            with pytest.raises(Conflict):
                await store.append("m1", 1, "move", {"seat": 0, "card": "1b"})
            with pytest.raises(Conflict):  # a finishing write is refused the same way
                await store.append("m1", 1, "move", {"seat": 0, "card": "1b"},
                                   finish=(0, [11, 3], 1))
            stored = await store.load_table("t1")
            assert stored is not None and stored.match is not None
            assert stored.match.id == "m1" and stored.match.finished_at is None
            assert [(s.name, s.token_hash) for s in stored.seats] == [
                (None, None), ("Bruno", "h-bruno")]
            assert [(e.seq, e.data.get("card")) for e in stored.events] == [(0, None), (1, "7d")]
            assert stored.table.status == "playing"
            assert await store.load_table(invite="i1") is not None
            assert [e.seq for e in await store.events("m1", 1)] == [1]
        finally:
            await store.close()

    asyncio.run(run())


def test_events_arriving_together_are_committed_together(url: str) -> None:
    """Group commit: appends made while a commit is on its way share the next one (fewer
    commits than events), each append returns once its own event is written, and a step
    already taken fails alone (``Conflict``) without failing the others in its group."""

    async def run() -> None:
        store = Store(url)
        try:
            await store.migrate()
            await make_table(store, 1)
            for m in ("m1", "m2"):
                await store.start_match(
                    MatchRow(id=m, table_id="t1", number=int(m[1]), rules={}, players=["a"],
                             hands=0), {"number": 1, "seed": "s"})
                await store.set_status("t1", "finished")
            PHASES.reset()
            writes = [store.append("m1", seq, "move", {"seat": 0, "n": seq})
                      for seq in range(1, 41)]
            writes.append(store.append("m2", 1, "move", {"seat": 0, "n": "first"}))
            writes.append(store.append("m2", 1, "move", {"seat": 0, "n": "second"}))
            done = await asyncio.gather(*writes, return_exceptions=True)
            assert done[:41] == [None] * 41
            assert isinstance(done[41], Conflict)
            assert PHASES.counts["db.events"] >= 42
            assert PHASES.counts["db.groups"] < 10, PHASES.counts
            assert PHASES.counts["db.statements"] < 10, PHASES.counts
            assert [e.data.get("n") for e in await store.events("m1")][1:] == list(range(1, 41))
            assert [e.data["n"] for e in await store.events("m2", 1)] == ["first"]
        finally:
            await store.close()

    asyncio.run(run())
