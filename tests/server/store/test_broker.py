"""The broker on both implementations (in-process, real Redis): a table's events reach
every subscriber of that table in order and nobody else; a lease has one holder, is
renewed and released only by it, and is taken over once it expires."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from services import BROKER_URL, redis_prefix

from scopa.server.store.broker import Broker, LocalBroker, RedisBroker, make_broker

KINDS = ("memory", "redis")


def brokers(kind: str, n: int) -> list[Broker]:
    """``n`` workers' brokers: with Redis each is its own connection (as in separate
    processes) under one fresh key prefix; in-process they are one and the same."""
    if kind == "memory":
        return [LocalBroker()] * n
    prefix = redis_prefix()
    return [RedisBroker(BROKER_URL, prefix) for _ in range(n)]


def run(kind: str, n: int, body: Callable[[list[Broker]], Awaitable[None]]) -> None:
    async def main() -> None:
        bs = brokers(kind, n)
        try:
            await asyncio.wait_for(body(bs), 30)
        finally:
            for b in set(bs):
                await b.close()

    asyncio.run(main())


@pytest.mark.parametrize("kind", KINDS)
def test_events_reach_every_subscriber_of_the_table_in_order(kind: str) -> None:
    async def body(bs: list[Broker]) -> None:
        a, b = bs
        async with a.subscribe("t1") as s1, b.subscribe("t1") as s2, b.subscribe("t2") as s3:
            for i in range(50):
                await a.publish("t1", {"seq": i})
            await b.publish("t2", {"other": True})
            got1 = [await s1.get() for _ in range(50)]
            got2 = [await s2.get() for _ in range(50)]
            assert got1 == got2 == [{"seq": i} for i in range(50)]
            # t2's subscriber saw none of t1's events: its first event is its own
            assert await s3.get() == {"other": True}
            assert s1.queue.empty() and s2.queue.empty() and s3.queue.empty()

    run(kind, 2, body)


@pytest.mark.parametrize("kind", KINDS)
def test_events_published_together_arrive_in_order_at_their_tables(kind: str) -> None:
    """``publish_many`` (a worker's queued announcements in one round trip) delivers as
    many single publishes would: each table's events, in order, to its subscribers only."""
    async def body(bs: list[Broker]) -> None:
        a, b = bs
        async with b.subscribe("t1") as s1, b.subscribe("t2") as s2:
            await a.publish_many([("t1" if i % 3 else "t2", {"n": i}) for i in range(30)])
            await a.publish_many([("t1", {"n": "alone"})])
            got1 = [await s1.get() for _ in range(21)]
            got2 = [await s2.get() for _ in range(10)]
            assert got1 == [{"n": i} for i in range(30) if i % 3] + [{"n": "alone"}]
            assert got2 == [{"n": i} for i in range(0, 30, 3)]
            assert s1.queue.empty() and s2.queue.empty()

    run(kind, 2, body)


@pytest.mark.parametrize("kind", KINDS)
def test_leaving_a_subscription_stops_delivery(kind: str) -> None:
    async def body(bs: list[Broker]) -> None:
        a, b = bs
        async with b.subscribe("t1") as keep:
            async with b.subscribe("t1") as gone:
                await a.publish("t1", {"n": 1})
                assert await gone.get() == {"n": 1}
            await a.publish("t1", {"n": 2})
            assert await keep.get() == {"n": 1}
            assert await keep.get() == {"n": 2}
            assert gone.queue.empty()

    run(kind, 2, body)


@pytest.mark.parametrize("kind", KINDS)
def test_a_lease_has_one_holder(kind: str) -> None:
    async def body(bs: list[Broker]) -> None:
        w1, w2 = bs
        assert await w1.acquire("t1", "w1", 60)
        assert not await w2.acquire("t1", "w2", 60)  # held
        assert not await w2.renew("t1", "w2", 60)  # a non-holder cannot renew ...
        assert not await w2.release("t1", "w2")  # ... nor release
        assert await w1.holder("t1") == await w2.holder("t1") == "w1"
        assert await w1.renew("t1", "w1", 60)
        assert await w2.acquire("t2", "w2", 60)  # leases are per table
        assert await w1.release("t1", "w1")
        assert await w2.holder("t1") is None
        assert await w2.acquire("t1", "w2", 60)

    run(kind, 2, body)


@pytest.mark.parametrize("kind", KINDS)
def test_an_expired_lease_is_taken_over(kind: str) -> None:
    """w1 stops renewing (as if it died): once the lease expires w2 gets it, and w1's late
    renew or release fails instead of stealing it back."""

    async def body(bs: list[Broker]) -> None:
        w1, w2 = bs
        assert await w1.acquire("t1", "w1", 60)
        assert await w1.renew("t1", "w1", 0.05)  # the last heartbeat, a short one
        while not await w2.acquire("t1", "w2", 60):  # bounded by the test's timeout
            await asyncio.sleep(0.01)
        assert await w1.holder("t1") == "w2"
        assert not await w1.renew("t1", "w1", 60)
        assert not await w1.release("t1", "w1")
        assert await w2.holder("t1") == "w2"

    run(kind, 2, body)


def test_redis_lease_expires_in_redis() -> None:
    """The lease is a Redis key with a time to live (not a promise kept in one process)."""

    async def body(bs: list[Broker]) -> None:
        (w1,) = bs
        assert isinstance(w1, RedisBroker)
        assert await w1.acquire("t1", "w1", 60)
        ttl: Any = await w1.redis.pttl(w1.lease_key("t1"))
        assert 0 < ttl <= 60_000

    run("redis", 1, body)


def test_broker_urls() -> None:
    assert isinstance(make_broker(None), LocalBroker)
    assert isinstance(make_broker("memory://"), LocalBroker)
    with pytest.raises(ValueError, match="unknown broker URL"):
        make_broker("kafka://x")

    async def redis_one() -> None:
        b = make_broker(BROKER_URL, redis_prefix())
        assert isinstance(b, RedisBroker)
        await b.close()

    asyncio.run(redis_one())


@pytest.mark.parametrize("kind", KINDS)
def test_one_heartbeat_keeps_many_leases(kind: str) -> None:
    """``keep`` renews and takes many leases in one call, with the semantics of ``renew``
    and ``acquire`` for each: a lease held by another is neither renewed nor taken, and a
    dead holder's leases are taken once they run out, never before."""

    async def body(bs: list[Broker]) -> None:
        w1, w2 = bs
        tables = [f"t{i}" for i in range(30)]
        mine = set(tables[1:])
        assert await w2.acquire("t0", "w2", 60)
        assert await w1.keep("w1", 60, [], tables) == (set(), mine)
        assert await w1.keep("w1", 60, tables, []) == (mine, set())  # t0 stays w2's
        assert await w2.keep("w2", 60, ["t0"], tables[1:]) == ({"t0"}, set())
        await w1.keep("w1", 0.05, tables[1:], [])  # w1's last heartbeat, a short one
        taken: set[str] = set()
        while taken != mine:  # bounded by the test's timeout
            taken |= (await w2.keep("w2", 60, [], sorted(mine - taken)))[1]
            await asyncio.sleep(0.01)
        assert await w1.keep("w1", 60, tables, []) == (set(), set())  # no stealing back
        assert await w1.holder("t5") == "w2"

    run(kind, 2, body)
