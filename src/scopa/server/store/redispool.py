"""A Redis connection pool whose bound costs nothing until it is reached.

redis-py's default pool fails every command past its ``max_connections`` ("Too many
connections"); its ``BlockingConnectionPool`` waits instead, but every command pays for the
wait even when a connection is free: a condition and a lock taken on the way in and on the
way out, and a timeout armed and cancelled (about 90 Python calls and a timer more a
command, 458 against 368 for a ``PUBLISH``; issue 38 found it on the two-worker move path,
where every move publishes). Here a free connection is taken at once; only when all
``max_connections`` are in use does a command wait, at most ``wait_seconds``, then fail as
if Redis were away. Imported only with the Redis broker (redis is the server extra's)."""

from __future__ import annotations

import asyncio
from typing import Any

from redis.asyncio import ConnectionPool
from redis.exceptions import ConnectionError as RedisConnectionError


class BoundedPool(ConnectionPool):
    """At most ``max_connections`` connections; a command past them waits for one."""

    def __init__(self, *, wait_seconds: float, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.wait_seconds = wait_seconds
        self._room = asyncio.Semaphore(self.max_connections)

    async def get_connection(self, *args: Any, **kwargs: Any) -> Any:
        if self._room.locked():
            try:
                async with asyncio.timeout(self.wait_seconds):
                    await self._room.acquire()
            except TimeoutError as err:
                raise RedisConnectionError("No connection available.") from err
        else:
            await self._room.acquire()  # free: returns without suspending
        try:
            async with self._lock:
                connection = self.get_available_connection()  # type: ignore[no-untyped-call]
        except BaseException:
            self._room.release()
            raise
        try:
            await self.ensure_connection(connection)
        except BaseException:
            await self.release(connection)
            raise
        return connection

    async def release(self, connection: Any) -> None:
        try:
            await super().release(connection)
        finally:
            self._room.release()
