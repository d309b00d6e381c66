"""Does a PostgreSQL or Redis answer at this URL? Exit 0 if so, 1 if not (used by
scripts/test_services.sh; ``--wait S`` keeps asking for up to S seconds)."""

from __future__ import annotations

import argparse
import asyncio
import sys
import time

import asyncpg
import redis.asyncio as aioredis
from sqlalchemy.engine import make_url


async def answers(kind: str, url: str) -> bool:
    try:
        if kind == "postgres":
            dsn = make_url(url).set(drivername="postgresql").render_as_string(
                hide_password=False)
            conn = await asyncpg.connect(dsn, timeout=3)
            try:
                return bool(await conn.fetchval("SELECT 1") == 1)
            finally:
                await conn.close()
        client = aioredis.Redis.from_url(url, socket_connect_timeout=3, socket_timeout=3)
        try:
            return bool(await client.ping())
        finally:
            await client.aclose()
    except (TimeoutError, OSError, asyncpg.PostgresError, aioredis.RedisError):
        return False


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("kind", choices=["postgres", "redis"])
    parser.add_argument("url")
    parser.add_argument("--wait", type=float, default=0.0)
    args = parser.parse_args()
    deadline = time.monotonic() + args.wait
    while True:
        if asyncio.run(answers(args.kind, args.url)):
            return 0
        if time.monotonic() >= deadline:
            return 1
        time.sleep(0.2)


if __name__ == "__main__":
    sys.exit(main())
