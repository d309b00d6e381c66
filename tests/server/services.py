"""The real services the server tests run against: a fresh PostgreSQL database per use
(made from ``SCOPA_TEST_DATABASE_URL``, dropped after) and Redis at
``SCOPA_TEST_BROKER_URL``. ``scripts/test.sh`` starts private instances when none answers;
a missing service fails the tests (nothing is skipped)."""

from __future__ import annotations

import asyncio
import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager

import asyncpg
from sqlalchemy.engine import make_url

DATABASE_URL = os.environ.get(
    "SCOPA_TEST_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/postgres"
)
BROKER_URL = os.environ.get("SCOPA_TEST_BROKER_URL", "redis://127.0.0.1:6379/0")
#: names of test databases and Redis keys start with this (one run's things are easy to
#: find and never collide with anything else on a shared server)
PREFIX = os.environ.get("SCOPA_TEST_PREFIX", "scopa_test_")

#: the stores every server scenario runs on
STORES = ("sqlite", "postgresql")


def dsn(url: str, database: str | None = None) -> str:
    """A plain libpq URL (asyncpg's own form) of ``url``, optionally for ``database``."""
    u = make_url(url).set(drivername="postgresql")
    if database is not None:
        u = u.set(database=database)
    return u.render_as_string(hide_password=False)


async def _admin(sql: str) -> None:
    try:
        conn = await asyncpg.connect(dsn(DATABASE_URL), timeout=10)
    except (OSError, asyncpg.PostgresError) as e:
        raise RuntimeError(
            f"PostgreSQL does not answer at {DATABASE_URL} ({e}): run the tests through "
            "scripts/test.sh (it starts one) or set SCOPA_TEST_DATABASE_URL"
        ) from e
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


@contextmanager
def fresh_database() -> Iterator[str]:
    """A new, empty PostgreSQL database for the duration; yields its URL."""
    name = PREFIX + secrets.token_hex(6)
    asyncio.run(_admin(f'CREATE DATABASE "{name}"'))
    try:
        yield dsn(DATABASE_URL, name)
    finally:
        asyncio.run(_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


def redis_prefix() -> str:
    """A key prefix of its own for one test."""
    return f"{PREFIX}{secrets.token_hex(4)}:"
