"""The Redis broker's connection pool: bounded (a burst waits, test_broker_burst.py) and
cheap when a connection is free. Issue 38: redis-py's BlockingConnectionPool added about 90
Python calls and a timer to every command (458 calls a PUBLISH against 368 for the
default pool), and the two-worker move path publishes on every move. Counts, not times."""

from __future__ import annotations

import asyncio
import cProfile
import pstats

import pytest
from redis.exceptions import ConnectionError as RedisConnectionError
from services import BROKER_URL, redis_prefix

from scopa.server.store.broker import RedisBroker
from scopa.server.store.redispool import BoundedPool

#: Python calls a ``RedisBroker.publish`` with a free connection: measured 362 with
#: redis 8.2.0 (the lock's version), plus a tenth; BlockingConnectionPool measured 458
CALLS_A_PUBLISH = 400


def test_a_publish_pays_nothing_for_the_bound() -> None:
    async def main() -> float:
        broker = RedisBroker(BROKER_URL, redis_prefix())
        try:
            await broker.publish("t", {"kind": "ping"})  # the connection made
            profile = cProfile.Profile()
            profile.enable()
            for _ in range(200):
                await broker.publish("t", {"kind": "ping"})
            profile.disable()
            return pstats.Stats(profile).total_calls / 200  # type: ignore[attr-defined, no-any-return]
        finally:
            await broker.close()

    calls = asyncio.run(main())
    assert calls <= CALLS_A_PUBLISH, f"{calls:.1f} calls a publish, budget {CALLS_A_PUBLISH}"


def test_a_command_past_the_bound_waits_then_fails_as_if_redis_were_away() -> None:
    async def main() -> None:
        short = BoundedPool.from_url(BROKER_URL, max_connections=1, wait_seconds=0.05)
        pool = BoundedPool.from_url(BROKER_URL, max_connections=1, wait_seconds=30)
        try:
            held = await short.get_connection()
            with pytest.raises(RedisConnectionError, match="No connection available"):
                await short.get_connection()
            await short.release(held)
            held = await pool.get_connection()
            waiting = asyncio.ensure_future(pool.get_connection())
            await asyncio.sleep(0)
            assert not waiting.done()
            await pool.release(held)  # the waiting command gets it
            await pool.release(await waiting)
            again = await pool.get_connection()  # the room came back each time
            await pool.release(again)
        finally:
            await short.aclose()
            await pool.aclose()

    asyncio.run(main())


def test_a_burst_of_subscriptions_shares_one_pub_sub_connection() -> None:
    # Issue 40: a restarted worker's first seconds subscribe hundreds of tables at once.
    # redis-py's PubSub takes a pool connection whenever it has none, and each subscribe
    # that found none while the first was still connecting took its own, overwrote the
    # last and never gave it back: the pool (100) ran dry for good, and every command of
    # the worker waited 10 s, then failed with "No connection available".
    async def main() -> tuple[int, int]:
        broker = RedisBroker(BROKER_URL, redis_prefix())
        entered = asyncio.Event()
        leave = asyncio.Event()
        count = 0

        async def seated(table: str) -> None:
            nonlocal count
            async with broker.subscribe(table):
                count += 1
                if count == 300:
                    entered.set()
                await leave.wait()

        tasks = [asyncio.create_task(seated(f"t{i}")) for i in range(300)]
        try:
            await asyncio.wait_for(entered.wait(), 60)
            pool = broker.redis.connection_pool
            in_use = len(pool._in_use_connections)  # type: ignore[attr-defined]
            await broker.publish("t7", {"kind": "ping"})  # a command is not starved
            leave.set()
            await asyncio.gather(*tasks)
            return in_use, len(pool._in_use_connections)  # type: ignore[attr-defined]
        finally:
            leave.set()
            for t in tasks:
                t.cancel()
            await broker.close()

    during, after = asyncio.run(main())
    assert during == 1, f"{during} connections held by 300 subscriptions"
    assert after == 1  # the pub/sub connection, kept for the next subscription
