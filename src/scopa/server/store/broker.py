"""The broker between server workers: table events published to every worker that
subscribes to the table, and per-table leases (which worker drives a table's bots and
timers). Two implementations of one interface: in-process (the default, one worker, nothing
to install) and Redis (many workers: pub/sub for the events, ``SET NX PX`` plus Lua
compare-and-set scripts for the leases).

Events are JSON objects; a subscriber sees one table's events in the order they were
published from one worker (Redis keeps per-connection order; the event log in the database
stays the truth, the broker only says "look, something happened").
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator, Sequence
from typing import Any, Protocol

Event = dict[str, Any]

log = logging.getLogger("scopa.server")

#: what a subscription receives when events may have been lost (the broker reconnected):
#: re-read the log
RESYNC: Event = {"kind": "resync"}


class Subscription:
    """One table's events as they arrive; iterate, or ``await get()``."""

    def __init__(self, table_id: str) -> None:
        self.table_id = table_id
        self.queue: asyncio.Queue[Event] = asyncio.Queue()

    async def get(self) -> Event:
        return await self.queue.get()

    def __aiter__(self) -> AsyncIterator[Event]:
        return self

    async def __anext__(self) -> Event:
        return await self.queue.get()


class Broker(Protocol):
    """What a worker needs from the others."""

    async def publish(self, table_id: str, event: Event) -> None:
        """Send ``event`` to every subscriber of ``table_id`` (this worker's too)."""

    async def publish_many(self, events: Sequence[tuple[str, Event]]) -> None:
        """Publish each ``(table_id, event)`` in order, all in one round trip where the
        broker allows it (a worker's announcements of a busy moment go together)."""

    def subscribe(self, table_id: str) -> contextlib.AbstractAsyncContextManager[Subscription]:
        """Receive ``table_id``'s events from entering the block until leaving it; events
        published after the block is entered are all delivered."""

    async def acquire(self, table_id: str, holder: str, ttl: float) -> bool:
        """Take the table's lease for ``ttl`` seconds if nobody holds it (or it expired)."""

    async def renew(self, table_id: str, holder: str, ttl: float) -> bool:
        """Extend the lease by ``ttl`` seconds from now, only if ``holder`` still holds it."""

    async def release(self, table_id: str, holder: str) -> bool:
        """Give the lease back, only if ``holder`` holds it."""

    async def keep(self, holder: str, ttl: float, renew: Sequence[str],
                   acquire: Sequence[str]) -> tuple[set[str], set[str]]:
        """One heartbeat for many tables at once: ``renew`` the leases ``holder`` holds and
        try to ``acquire`` the others (as ``renew`` and ``acquire`` each would); returns
        the tables renewed and the tables acquired."""

    async def holder(self, table_id: str) -> str | None:
        """Who holds the table's lease now."""

    async def count(self, name: str) -> int:
        """The next number (1, 2, ...) of the counter ``name``, shared by every worker."""

    async def close(self) -> None: ...


class LocalBroker:
    """Everything in this process: the embedded default."""

    def __init__(self) -> None:
        self._subs: dict[str, set[Subscription]] = {}
        #: table -> (holder, monotonic expiry)
        self._leases: dict[str, tuple[str, float]] = {}
        self._counters: dict[str, int] = {}

    async def publish(self, table_id: str, event: Event) -> None:
        for sub in self._subs.get(table_id, ()):
            sub.queue.put_nowait(event)

    async def publish_many(self, events: Sequence[tuple[str, Event]]) -> None:
        for table_id, event in events:
            await self.publish(table_id, event)

    @contextlib.asynccontextmanager
    async def subscribe(self, table_id: str) -> AsyncIterator[Subscription]:
        sub = Subscription(table_id)
        self._subs.setdefault(table_id, set()).add(sub)
        try:
            yield sub
        finally:
            subs = self._subs.get(table_id)
            if subs is not None:
                subs.discard(sub)
                if not subs:
                    del self._subs[table_id]

    def _current(self, table_id: str) -> str | None:
        held = self._leases.get(table_id)
        if held is None or held[1] <= time.monotonic():
            return None
        return held[0]

    async def acquire(self, table_id: str, holder: str, ttl: float) -> bool:
        if self._current(table_id) is not None:
            return False
        self._leases[table_id] = (holder, time.monotonic() + ttl)
        return True

    async def renew(self, table_id: str, holder: str, ttl: float) -> bool:
        if self._current(table_id) != holder:
            return False
        self._leases[table_id] = (holder, time.monotonic() + ttl)
        return True

    async def release(self, table_id: str, holder: str) -> bool:
        if self._current(table_id) != holder:
            return False
        del self._leases[table_id]
        return True

    async def keep(self, holder: str, ttl: float, renew: Sequence[str],
                   acquire: Sequence[str]) -> tuple[set[str], set[str]]:
        return ({t for t in renew if await self.renew(t, holder, ttl)},
                {t for t in acquire if await self.acquire(t, holder, ttl)})

    async def holder(self, table_id: str) -> str | None:
        return self._current(table_id)

    async def count(self, name: str) -> int:
        self._counters[name] = self._counters.get(name, 0) + 1
        return self._counters[name]

    async def close(self) -> None:
        self._subs.clear()


#: extend the lease only if it is still ours (atomically: GET and PEXPIRE in one step)
_RENEW = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('pexpire', KEYS[1], ARGV[2])
end
return 0
"""
#: the heartbeat: the first ARGV[3] keys are renewed if still ours, the others taken if
#: free; one 0/1 per key
_KEEP = """
local out = {}
local renew = tonumber(ARGV[3])
for i, key in ipairs(KEYS) do
  if i <= renew then
    if redis.call('get', key) == ARGV[1] then
      out[i] = redis.call('pexpire', key, ARGV[2])
    else
      out[i] = 0
    end
  elseif redis.call('set', key, ARGV[1], 'NX', 'PX', ARGV[2]) then
    out[i] = 1
  else
    out[i] = 0
  end
end
return out
"""
#: leases kept per script call (a call runs alone in Redis: keep each one short)
KEEP_CHUNK = 1000
#: delete the lease only if it is still ours
_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('del', KEYS[1])
end
return 0
"""


#: counters (``count``) are forgotten this long after their last use
COUNTER_SECONDS = 7 * 24 * 3600


#: Redis connections of one worker at most (commands beyond wait for one), and how long a
#: command waits before it fails as if Redis were away
REDIS_CONNECTIONS = 100
REDIS_WAIT_SECONDS = 10.0


class RedisBroker:
    """Redis pub/sub and leases, shared by every worker pointed at the same Redis. One
    pub/sub connection per worker carries all its tables' channels; a reader task hands
    each message to the subscriptions of its table."""

    def __init__(self, url: str, prefix: str = "scopa:") -> None:
        import redis.asyncio as aioredis

        from scopa.server.store.redispool import BoundedPool

        # a bounded pool: a burst of more commands than connections (a restart sending
        # hundreds of sockets here at once) waits for a free one instead of failing with
        # "Too many connections" (redis-py's default pool), and a command that finds a free
        # one pays nothing for the bound (redis-py's BlockingConnectionPool did: issue 38)
        self.redis = aioredis.Redis.from_pool(BoundedPool.from_url(
            url, decode_responses=True, max_connections=REDIS_CONNECTIONS,
            wait_seconds=REDIS_WAIT_SECONDS))
        self.prefix = prefix
        self._pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        # one subscribe, unsubscribe or reconnection of the pub/sub at a time: redis-py's
        # PubSub takes a pool connection whenever it has none, and a burst of subscribes
        # (a restarted worker's first seconds) each took one while the first connected,
        # kept only the last and never gave the others back, until the pool was dry and
        # every command failed with "No connection available" (issue 40). Each holds the
        # lock for one write, so the burst costs a queue, not connections.
        self._pubsub_lock = asyncio.Lock()
        self._subs: dict[str, set[Subscription]] = {}
        self._reader: asyncio.Task[None] | None = None
        self._renew = self.redis.register_script(_RENEW)
        self._release = self.redis.register_script(_RELEASE)
        self._keep = self.redis.register_script(_KEEP)

    def channel(self, table_id: str) -> str:
        return f"{self.prefix}table:{table_id}"

    def lease_key(self, table_id: str) -> str:
        return f"{self.prefix}lease:{table_id}"

    async def publish(self, table_id: str, event: Event) -> None:
        await self.redis.publish(self.channel(table_id), json.dumps(event))

    async def publish_many(self, events: Sequence[tuple[str, Event]]) -> None:
        if len(events) == 1:
            await self.publish(*events[0])
            return
        async with self.redis.pipeline(transaction=False) as pipe:
            for table_id, event in events:
                pipe.publish(self.channel(table_id), json.dumps(event))
            await pipe.execute()

    @contextlib.asynccontextmanager
    async def subscribe(self, table_id: str) -> AsyncIterator[Subscription]:
        channel = self.channel(table_id)
        sub = Subscription(table_id)
        subs = self._subs.setdefault(channel, set())
        first = not subs
        subs.add(sub)
        try:
            if first:
                try:
                    async with self._pubsub_lock:
                        await self._pubsub.subscribe(channel)
                except Exception as e:
                    # Redis is away: the reader subscribes every channel when it is back
                    log.warning("subscribing to %s failed (%s): the reader retries", channel, e)
                    sub.queue.put_nowait(dict(RESYNC))
            if self._reader is None or self._reader.done():
                self._reader = asyncio.get_running_loop().create_task(self._read())
            yield sub
        finally:
            subs.discard(sub)
            if not subs:
                self._subs.pop(channel, None)
                with contextlib.suppress(Exception):
                    async with self._pubsub_lock:
                        await self._pubsub.unsubscribe(channel)

    async def _read(self) -> None:
        """Hand each message to its table's subscriptions. When Redis goes away (a restart)
        keep trying to subscribe again; once back, every subscription gets ``RESYNC``:
        whatever was published meanwhile is lost, so each reader re-reads the log."""
        while True:
            if self._pubsub.connection is None:  # nothing subscribed since a reconnect
                await asyncio.sleep(0.1)
                continue
            try:
                msg = await self._pubsub.get_message(ignore_subscribe_messages=True,
                                                     timeout=1.0)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("lost Redis pub/sub; reconnecting")
                await self._resubscribe()
                continue
            if msg is None or msg.get("type") != "message":
                continue
            event = json.loads(msg["data"])
            for sub in self._subs.get(msg["channel"], ()):
                sub.queue.put_nowait(event)

    async def _resubscribe(self) -> None:
        delay = 0.05
        while True:
            try:
                async with self._pubsub_lock:
                    with contextlib.suppress(Exception):
                        await self._pubsub.aclose()
                    self._pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
                    channels = list(self._subs)
                    if channels:
                        await self._pubsub.subscribe(*channels)
                    else:
                        await self.redis.ping()
            except asyncio.CancelledError:
                raise
            except Exception:
                await asyncio.sleep(delay)
                delay = min(1.0, delay * 2)
                continue
            log.warning("Redis pub/sub back: %d tables told to re-read the log", len(channels))
            for subs in self._subs.values():
                for sub in subs:
                    sub.queue.put_nowait(dict(RESYNC))
            return

    async def acquire(self, table_id: str, holder: str, ttl: float) -> bool:
        ms = max(1, int(ttl * 1000))
        return bool(await self.redis.set(self.lease_key(table_id), holder, nx=True, px=ms))

    async def renew(self, table_id: str, holder: str, ttl: float) -> bool:
        ms = max(1, int(ttl * 1000))
        return bool(await self._renew(keys=[self.lease_key(table_id)], args=[holder, ms]))

    async def release(self, table_id: str, holder: str) -> bool:
        return bool(await self._release(keys=[self.lease_key(table_id)], args=[holder]))

    async def keep(self, holder: str, ttl: float, renew: Sequence[str],
                   acquire: Sequence[str]) -> tuple[set[str], set[str]]:
        ms = max(1, int(ttl * 1000))
        renewed: set[str] = set()
        acquired: set[str] = set()
        items = [(t, True) for t in renew] + [(t, False) for t in acquire]
        for i in range(0, len(items), KEEP_CHUNK):
            chunk = items[i:i + KEEP_CHUNK]
            n_renew = sum(1 for _, r in chunk if r)  # renewals come first in each chunk
            done = await self._keep(keys=[self.lease_key(t) for t, _ in chunk],
                                    args=[holder, ms, n_renew])
            for (t, r), ok in zip(chunk, done, strict=True):
                if ok:
                    (renewed if r else acquired).add(t)
        return renewed, acquired

    async def holder(self, table_id: str) -> str | None:
        value = await self.redis.get(self.lease_key(table_id))
        return None if value is None else str(value)

    async def count(self, name: str) -> int:
        key = f"{self.prefix}count:{name}"
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.incr(key)
            pipe.expire(key, COUNTER_SECONDS)  # a table's counters outlive any table
            number, _ = await pipe.execute()
        return int(number)

    async def close(self) -> None:
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reader
        await self._pubsub.aclose()
        await self.redis.aclose()


#: URL schemes of the Redis broker (``memory://`` or nothing: the in-process one)
REDIS_SCHEMES = ("redis://", "rediss://", "unix://")


def make_broker(url: str | None, prefix: str = "scopa:") -> Broker:
    """The broker a URL names: ``memory://`` (or empty) in-process, ``redis://...`` Redis."""
    if not url or url == "memory://":
        return LocalBroker()
    if url.startswith(REDIS_SCHEMES):
        return RedisBroker(url, prefix)
    raise ValueError(f"unknown broker URL {url!r}: use memory:// or redis://host:port/db")
