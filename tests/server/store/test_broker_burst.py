"""A burst of Redis commands larger than the broker's connection pool: a rolling restart
brings the workers left hundreds of sockets at once, each attach taking a lease and
announcing. The commands must wait for a free connection, not fail with "Too many
connections" (announcements lost, lease heartbeats missed: bench/load.py
--rolling-restart logged thousands of these with 200 tables)."""

from __future__ import annotations

import asyncio

from services import BROKER_URL, redis_prefix

from scopa.server.store.broker import RedisBroker

#: more commands at once than the pool has connections
BURST = 400


def test_a_burst_of_commands_waits_for_connections_instead_of_failing() -> None:
    async def main() -> None:
        broker = RedisBroker(BROKER_URL, redis_prefix())
        try:
            taken = await asyncio.gather(*(broker.acquire(f"t{i}", "w1", 60)
                                           for i in range(BURST)))
            assert all(taken)
            await asyncio.gather(*(broker.publish(f"t{i}", {"kind": "ping"})
                                   for i in range(BURST)))
        finally:
            await broker.close()

    asyncio.run(main())
