"""The rate limiter every worker shares through Redis: one token bucket per key, taken
from by one Lua script, so a take is atomic whatever the workers do at once, and the time
is Redis's own (workers' clocks may differ). A bucket's key expires once it would be full
again, so Redis keeps only the buckets in use.

Hand-written rather than the ``limits`` library: its asyncio Redis storage needs another
client (coredis) and its own connections beside the broker's redis-py pool, for what is
one short script."""

from __future__ import annotations

from typing import Any

#: KEYS[1] the bucket; ARGV: refill per second, burst. Returns 1 (taken) or 0.
TAKE = """
local now = redis.call('TIME')
local t = tonumber(now[1]) + tonumber(now[2]) / 1e6
local rate, burst = tonumber(ARGV[1]), tonumber(ARGV[2])
local got = redis.call('HMGET', KEYS[1], 'tokens', 'stamp')
local tokens = tonumber(got[1]) or burst
local stamp = tonumber(got[2]) or t
tokens = math.min(burst, tokens + math.max(0, t - stamp) * rate)
local ok = 0
if tokens >= 1 then
  tokens = tokens - 1
  ok = 1
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'stamp', tostring(t))
redis.call('EXPIRE', KEYS[1], math.ceil((burst - tokens) / rate) + 1)
return ok
"""


class RedisLimiter:
    """Token buckets in Redis under ``prefix`` (the broker's)."""

    def __init__(self, redis: Any, prefix: str) -> None:
        self.redis = redis
        self.prefix = prefix
        self.script = redis.register_script(TAKE)

    async def take(self, key: str, per_second: float, burst: int) -> bool:
        taken = await self.script(keys=[f"{self.prefix}rate:{key}"],
                                  args=[repr(float(per_second)), str(int(burst))])
        return bool(int(taken))
