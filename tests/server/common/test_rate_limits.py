"""Rate limits hold across workers (issue 40): two workers on one PostgreSQL and one
Redis let one client address make no more tables than one worker would, however its
requests are spread; the shared limiter is atomic under requests at once; alone, the
limits live in the process, and filling its memory forgets the oldest bucket only."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest
import redis.asyncio as aioredis
from server_helpers import ServerProcess
from services import BROKER_URL, fresh_database, redis_prefix

from scopa.server.common.ratelimit import MemoryLimiter
from scopa.server.store.ratelimit import RedisLimiter

BURST = 4


def test_two_workers_share_one_bucket_even_at_once() -> None:
    async def run() -> list[bool]:
        prefix = redis_prefix()
        clients = [aioredis.Redis.from_url(BROKER_URL, decode_responses=True) for _ in range(2)]
        try:
            limiters = [RedisLimiter(c, prefix) for c in clients]
            # 30 takes at once, spread over both "workers", refill negligible
            return await asyncio.gather(*(limiters[i % 2].take("create:10.0.0.1", 0.001, BURST)
                                          for i in range(30)))
        finally:
            for c in clients:
                await c.aclose()

    got = asyncio.run(run())
    assert sum(got) == BURST


def test_a_bucket_refills_and_another_key_is_its_own() -> None:
    async def run() -> tuple[list[bool], bool, bool]:
        client = aioredis.Redis.from_url(BROKER_URL, decode_responses=True)
        try:
            limiter = RedisLimiter(client, redis_prefix())
            first = [await limiter.take("k", 50.0, 1) for _ in range(2)]
            other = await limiter.take("other", 50.0, 1)
            await asyncio.sleep(0.1)  # 5 tokens' worth at 50 a second: full again (1)
            return first, other, await limiter.take("k", 50.0, 1)
        finally:
            await client.aclose()

    first, other, again = asyncio.run(run())
    assert first == [True, False] and other is True and again is True


def test_in_memory_the_oldest_bucket_goes_first() -> None:
    async def run() -> list[bool]:
        limiter = MemoryLimiter(keys=3)
        for key in ("a", "b", "c"):
            assert await limiter.take(key, 0.001, 1)
        assert not await limiter.take("a", 0.001, 1)  # a is used again: the newest now
        await limiter.take("d", 0.001, 1)  # b, the least recently used, is forgotten
        return [await limiter.take(k, 0.001, 1) for k in ("a", "d", "b")]

    assert asyncio.run(run()) == [False, False, True]  # b's bucket was new again


@pytest.fixture(scope="module")
def two_workers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[ServerProcess]]:
    tmp = tmp_path_factory.mktemp("limits")
    prefix = redis_prefix()
    with fresh_database() as url:
        procs = [ServerProcess(tmp / f"w{i}.sqlite", database_url=url,
                               SCOPA_BROKER_URL=BROKER_URL, SCOPA_BROKER_PREFIX=prefix,
                               SCOPA_CREATE_BURST=str(BURST), SCOPA_CREATE_PER_MINUTE="0.01",
                               SCOPA_TRUSTED_PROXIES="127.0.0.1")
                 for i in range(2)]
        procs[0].start()
        procs[1].start()
        try:
            yield procs
        finally:
            for p in procs:
                p.stop()


@pytest.mark.slow
def test_tables_per_address_hold_across_two_workers(two_workers: list[ServerProcess]) -> None:
    import httpx

    made = []
    for i in range(3 * BURST):
        worker = two_workers[i % 2]
        r = httpx.post(worker.base + "/api/tables", json={"name": "Anna"}, timeout=10,
                       headers={"X-Forwarded-For": "203.0.113.9"})
        made.append(r.status_code)
    assert made.count(201) == BURST and made.count(429) == 2 * BURST, made
    # another address is not held back by it
    r = httpx.post(two_workers[1].base + "/api/tables", json={"name": "Bea"}, timeout=10,
                   headers={"X-Forwarded-For": "203.0.113.10"})
    assert r.status_code == 201
