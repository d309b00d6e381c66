"""Rate limits that hold across workers: the protocol the routes ask (``take``), and the
one-process limiter (token buckets in memory). With Redis configured, every worker asks
the same buckets (``store.ratelimit.RedisLimiter``), so N workers do not allow N times a
limit and a restart forgets nothing."""

from __future__ import annotations

from collections import OrderedDict
from typing import Protocol

from .buckets import TokenBucket

#: buckets kept in memory at most: past it the least recently used one is forgotten (never
#: all at once: filling the table must not reset everyone else's limit)
MEMORY_KEYS = 20_000


class RateLimiter(Protocol):
    async def take(self, key: str, per_second: float, burst: int) -> bool:
        """One token from ``key``'s bucket (``burst`` at most, refilled at ``per_second``):
        False when it is empty."""
        ...


class MemoryLimiter:
    """Token buckets in this process (one worker: the memory:// broker)."""

    def __init__(self, keys: int = MEMORY_KEYS) -> None:
        self.keys = keys
        self.buckets: OrderedDict[str, TokenBucket] = OrderedDict()

    async def take(self, key: str, per_second: float, burst: int) -> bool:
        bucket = self.buckets.get(key)
        if bucket is None:
            bucket = self.buckets[key] = TokenBucket(per_second, burst)
            while len(self.buckets) > self.keys:
                self.buckets.popitem(last=False)
        else:
            self.buckets.move_to_end(key)
        return bucket.take()
