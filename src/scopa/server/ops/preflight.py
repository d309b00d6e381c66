"""Checks before ``scopa serve`` starts: the settings, the database URL, its driver and
its folder, one connection to it and to the broker. Each way these fail becomes one line
an operator can act on (``StartupError``), instead of a traceback from deep inside
uvicorn's start-up after the address was already printed."""

from __future__ import annotations

import asyncio
import errno
import socket
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from sqlalchemy import text
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError

from ..common.settings import Settings
from ..store.broker import RedisBroker, make_broker
from ..store.database import ASYNC_DRIVERS, make_engine

#: seconds a database or broker may take to answer the first connection
CONNECT_SECONDS = 10.0


class StartupError(Exception):
    """Why the server cannot start, in one line."""


def settings_from(overrides: dict[str, Any]) -> Settings:
    """The settings, or one line naming the first bad one (flag or SCOPA_* variable)."""
    try:
        return Settings(**overrides)
    except ValidationError as e:
        first = e.errors()[0]
        name = ".".join(str(p) for p in first["loc"])
        raise StartupError(f"setting {name} (--{name.replace('_', '-')} or "
                           f"SCOPA_{name.upper()}): {first['msg']}") from None


def database_url(url: str) -> URL:
    """The parsed URL of a database the server can run on; SQLite's folder must exist
    (SQLite makes the file, never its folder)."""
    try:
        parsed = make_url(url)
    except ArgumentError:
        raise StartupError(f"{url!r} is not a database URL: use sqlite:///FILE or "
                           "postgresql://user@host/db") from None
    backend = parsed.get_backend_name()
    if backend not in ASYNC_DRIVERS:
        raise StartupError(f"unsupported database {backend!r} in {url!r}: the server runs "
                           "on sqlite:///FILE or postgresql://user@host/db")
    if backend == "sqlite" and parsed.database not in (None, "", ":memory:"):
        folder = Path(str(parsed.database)).expanduser().resolve().parent
        if not folder.is_dir():
            raise StartupError(f"the folder {folder} of the SQLite database does not exist")
    return parsed


def _where(url: URL) -> str:
    """The database as an operator names it (no password)."""
    if url.get_backend_name() == "sqlite":
        return f"SQLite database {url.database}"
    return f"database {url.database or '(default)'} at {url.host or 'localhost'}:{url.port or 5432}"


def _reason(error: BaseException) -> str:
    """The driver's own words, one line, without SQLAlchemy's wrapping."""
    inner = error.orig if isinstance(error, DBAPIError) and error.orig is not None else error
    words = str(inner).strip().splitlines()
    reason = words[0] if words else type(inner).__name__
    # asyncpg's errors reach here as "<class 'asyncpg...Error'>: database "x" ..."
    return reason.split(">: ", 1)[-1]


async def check_database(url: str) -> None:
    """Connect once and ask one question: the database is there and answers."""
    parsed = database_url(url)
    engine = make_engine(parsed)
    try:
        async with asyncio.timeout(CONNECT_SECONDS), engine.connect() as conn:
            await conn.execute(text("SELECT 1"))
    except TimeoutError:
        raise StartupError(f"{_where(parsed)}: no answer in {CONNECT_SECONDS:g} s") from None
    except (OSError, DBAPIError) as e:
        raise StartupError(f"cannot open the {_where(parsed)}: {_reason(e)}") from None
    finally:
        await engine.dispose()


async def check_broker(url: str, prefix: str) -> None:
    """The broker URL is one we know, and a Redis there answers a ping."""
    try:
        broker = make_broker(url, prefix)
    except ValueError as e:
        raise StartupError(str(e)) from None
    if not isinstance(broker, RedisBroker):
        return
    from redis.exceptions import RedisError  # its connection errors are not OSErrors

    try:
        async with asyncio.timeout(CONNECT_SECONDS):
            await broker.redis.ping()
    except TimeoutError:
        raise StartupError(f"the broker {url}: no answer in {CONNECT_SECONDS:g} s") from None
    except (OSError, RedisError) as e:
        raise StartupError(f"cannot reach the broker {url}: {_reason(e)}") from None
    finally:
        await broker.close()


def check_port(host: str, port: int) -> None:
    """The address is free to listen on, asked before anything touches the database (a
    busy port used to start the whole app, create or migrate the database, then stop)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        # as uvicorn binds: a port whose last server is gone (TIME_WAIT) is free
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as e:
            if e.errno == errno.EADDRINUSE:
                raise StartupError(f"port {port} on {host} is in use (another server?): "
                                   "stop it or choose another with --port") from None
            raise StartupError(f"cannot listen on {host}:{port}: {e.strerror}") from None


async def check(settings: Settings) -> None:
    """Everything the server needs from outside before it may listen: the address first,
    then the database and the broker."""
    check_port(settings.host, settings.port)
    await check_database(settings.database_url)
    await check_broker(settings.broker_url, settings.broker_prefix)
