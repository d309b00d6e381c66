"""Backups of the server's database and their restore (``scopa admin backup`` and
``scopa admin restore``).

SQLite: a backup is a plain SQLite file made with SQLite's online backup API, one read
transaction long, so it is a consistent snapshot even while the server writes (the event
log is append-only: a match in progress resumes from the last event the snapshot holds).
PostgreSQL: ``pg_dump --format=custom`` (one snapshot too), restored with ``pg_restore
--clean --if-exists --single-transaction`` (all or nothing). Both tools come with Debian's
``postgresql-client``.

A restore replaces what players see, so it refuses, changing nothing, a file that is not a
backup of this kind of database, and a database a server still has open (``force``
overrides that check): SQLite's own lock on the ``-shm`` file says whether any process has
the database open; PostgreSQL's ``pg_stat_activity`` lists the sessions connected to it.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import shutil
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path

from sqlalchemy.engine import URL, make_url

#: tables every scopa database has (from its first migrations): a file without them is not
#: a backup of one
REQUIRED = ("alembic_version", "meta", "tables", "seats", "matches", "events", "users")

SQLITE_MAGIC = b"SQLite format 3\x00"
PG_MAGIC = b"PGDMP"
#: byte of the ``-shm`` file every connection holds a shared lock on while it has the
#: database open (SQLite's "dead man switch", WALINDEX_LOCK_OFFSET 120 + 8)
SHM_DMS_BYTE = 128
#: seconds a SQLite backup or restore waits for a writer's lock
BUSY_MS = 30_000


class BackupError(Exception):
    """The backup or restore cannot be done; nothing was changed. The message says why."""


def backend(url: str | URL) -> str:
    """``sqlite`` or ``postgresql`` (refused otherwise)."""
    name = make_url(url).get_backend_name()
    if name in ("postgresql", "postgres"):
        return "postgresql"
    if name == "sqlite":
        return "sqlite"
    raise BackupError(f"cannot back up a {name} database (SQLite and PostgreSQL only)")


def sqlite_file(url: str | URL) -> Path:
    database = make_url(url).database
    if not database or database == ":memory:":
        raise BackupError("an in-memory SQLite database has nothing to back up")
    return Path(database)


def magic(path: Path) -> bytes:
    """The first bytes of ``path``; refused when it is not a readable file."""
    if not path.exists():
        raise BackupError(f"{path}: no such file")
    if not path.is_file():
        raise BackupError(f"{path}: not a file")
    with path.open("rb") as f:
        return f.read(16)


def missing_tables(found: set[str]) -> list[str]:
    return [t for t in REQUIRED if t not in found]


# -- SQLite -------------------------------------------------------------------------------
@contextlib.contextmanager
def sqlite_open(path: Path, mode: str) -> Iterator[sqlite3.Connection]:
    """A connection to an existing file (``mode`` ro or rw: never creates one)."""
    try:
        conn = sqlite3.connect(f"file:{path}?mode={mode}", uri=True)
    except sqlite3.Error as e:
        raise BackupError(f"{path}: cannot open ({e})") from None
    try:
        conn.execute(f"PRAGMA busy_timeout={BUSY_MS}")
        yield conn
    finally:
        conn.close()


def sqlite_tables(conn: sqlite3.Connection, path: Path) -> set[str]:
    try:
        rows = conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
    except sqlite3.DatabaseError as e:
        raise BackupError(f"{path}: not a SQLite database ({e})") from None
    return {r[0] for r in rows}


def sqlite_in_use(db: Path) -> bool:
    """Whether any process has the SQLite database ``db`` open. The server opens it in WAL
    mode, where every connection holds a shared lock on one byte of ``<db>-shm`` while it
    is open; a write lock on that byte is granted only when none does."""
    shm = db.with_name(db.name + "-shm")
    try:
        fd = os.open(shm, os.O_RDWR)
    except FileNotFoundError:
        return False  # no connection in WAL mode has it open
    try:
        try:
            fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, SHM_DMS_BYTE)
        except OSError:
            return True
        fcntl.lockf(fd, fcntl.LOCK_UN, 1, SHM_DMS_BYTE)
        return False
    finally:
        os.close(fd)


def sqlite_backup(db: Path, dest: Path) -> None:
    if not db.is_file():
        raise BackupError(f"{db}: no such database")
    partial = dest.with_name(dest.name + ".partial")
    with sqlite_open(db, "rw") as src:
        missing = missing_tables(sqlite_tables(src, db))
        if missing:
            raise BackupError(f"{db} is not a scopa database (no table {missing[0]})")
        partial.unlink(missing_ok=True)
        try:
            out = sqlite3.connect(partial)
            try:
                src.backup(out)  # all pages in one step: one read transaction, one snapshot
                out.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
                ok = out.execute("PRAGMA quick_check").fetchone()[0]
            finally:
                out.close()
            if ok != "ok":
                raise BackupError(f"the copy of {db} failed its check: {ok}")
            os.replace(partial, dest)
        finally:
            partial.unlink(missing_ok=True)


def sqlite_check_backup(path: Path) -> None:
    if magic(path) != SQLITE_MAGIC:
        raise BackupError(f"{path} is not a SQLite backup of a scopa database")
    with sqlite_open(path, "ro") as conn:
        missing = missing_tables(sqlite_tables(conn, path))
    if missing:
        raise BackupError(f"{path} is not a backup of a scopa database (no table {missing[0]})")


def sqlite_restore(db: Path, source: Path, force: bool) -> None:
    sqlite_check_backup(source)
    if not force and sqlite_in_use(db):
        raise BackupError(f"{db} is open in another process (a server running on it?): "
                          "stop it first, or use --force")
    if not db.parent.is_dir():
        raise BackupError(f"{db.parent}: no such folder")
    with sqlite_open(source, "ro") as src:
        out = sqlite3.connect(db)
        try:
            out.execute(f"PRAGMA busy_timeout={BUSY_MS}")
            # one write transaction on the destination: all pages or none
            src.backup(out)
        except sqlite3.Error as e:
            raise BackupError(f"restoring {db} failed, nothing changed ({e})") from None
        finally:
            out.close()


# -- PostgreSQL ---------------------------------------------------------------------------
def tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise BackupError(f"{name} not found: install PostgreSQL's client tools "
                          "(Debian: apt-get install postgresql-client)")
    return found


def libpq(url: str | URL) -> tuple[str, dict[str, str]]:
    """A libpq URL of ``url`` without its password, and the environment that carries the
    password (so it is not in the process list)."""
    u = make_url(url).set(drivername="postgresql")
    env = dict(os.environ)
    if u.password is not None:
        env["PGPASSWORD"] = str(u.password)
        u = u.set(password=None)
    return u.render_as_string(hide_password=False), env


def run(cmd: list[str], env: dict[str, str], what: str) -> str:
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        lines = (done.stderr or done.stdout).strip().splitlines()
        raise BackupError(f"{what} failed: {lines[-1] if lines else done.returncode}")
    return done.stdout


async def pg_facts(url: str | URL) -> tuple[set[str], int]:
    """The database's tables and how many other sessions are connected to it."""
    import asyncpg

    dsn, env = libpq(url)
    try:
        conn = await asyncpg.connect(dsn, password=env.get("PGPASSWORD"), timeout=10)
    except (OSError, asyncpg.PostgresError) as e:
        raise BackupError(f"cannot connect to the database ({e})") from None
    try:
        tables = {r[0] for r in await conn.fetch(
            "SELECT table_name FROM information_schema.tables "
            "WHERE table_schema = current_schema()")}
        others = await conn.fetchval(
            "SELECT count(*) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()")
    finally:
        await conn.close()
    return tables, int(others)


def pg_backup(url: str | URL, dest: Path) -> None:
    pg_dump = tool("pg_dump")
    tables, _ = asyncio.run(pg_facts(url))
    missing = missing_tables(tables)
    if missing:
        raise BackupError(f"the database is not a scopa database (no table {missing[0]})")
    dsn, env = libpq(url)
    partial = dest.with_name(dest.name + ".partial")
    try:
        run([pg_dump, "--format=custom", "--no-owner", "--no-privileges",
             f"--file={partial}", f"--dbname={dsn}"], env, "pg_dump")
        os.replace(partial, dest)
    finally:
        partial.unlink(missing_ok=True)


def pg_check_backup(path: Path, pg_restore: str) -> None:
    if magic(path)[:5] != PG_MAGIC:
        raise BackupError(f"{path} is not a pg_dump backup (custom format) of a scopa "
                          "database")
    listing = run([pg_restore, "--list", str(path)], dict(os.environ), "pg_restore --list")
    # "215; 1259 16390 TABLE public events postgres": an entry creating a table
    tables = {parts[5] for line in listing.splitlines()
              if len(parts := line.split()) >= 6 and parts[3] == "TABLE"}
    missing = missing_tables(tables)
    if missing:
        raise BackupError(f"{path} is not a backup of a scopa database (no table {missing[0]})")


def pg_restore(url: str | URL, source: Path, force: bool) -> None:
    restore_tool = tool("pg_restore")
    pg_check_backup(source, restore_tool)
    _, others = asyncio.run(pg_facts(url))
    if others and not force:
        raise BackupError(f"{others} other session(s) are connected to the database (a "
                          "server running on it?): stop them first, or use --force")
    dsn, env = libpq(url)
    run([restore_tool, "--clean", "--if-exists", "--no-owner", "--no-privileges",
         "--single-transaction", "--exit-on-error", f"--dbname={dsn}", str(source)],
        env, "pg_restore (nothing changed)")


# -- the two operations -------------------------------------------------------------------
def backup(url: str | URL, dest: Path) -> None:
    """Write a consistent snapshot of the database at ``url`` to ``dest`` (replaced only
    once the snapshot is complete)."""
    if dest.is_dir():
        raise BackupError(f"{dest} is a folder: name the backup file")
    if not dest.parent.is_dir():
        raise BackupError(f"{dest.parent}: no such folder")
    if backend(url) == "sqlite":
        sqlite_backup(sqlite_file(url), dest)
    else:
        pg_backup(url, dest)


def restore(url: str | URL, source: Path, force: bool = False) -> None:
    """Replace the database at ``url`` with the backup ``source``, or refuse and change
    nothing."""
    if backend(url) == "sqlite":
        sqlite_restore(sqlite_file(url), source, force)
    else:
        pg_restore(url, source, force)
