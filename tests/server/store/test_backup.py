"""``scopa admin backup`` and ``scopa admin restore`` on both stores: a backup taken from a
running server mid-match, more moves played, the server stopped and the backup restored
puts the match exactly where the backup left it (the log up to the backup, nothing half
written), with the accounts and ratings; a restore is refused, changing nothing, while a
server has the database open, for a file that is not a backup, and for the wrong kind of
database."""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import asyncpg
import httpx
from server_helpers import ROOT, Client, ServerProcess, play_human, play_moves
from services import dsn, fresh_database

from scopa.server.store.backup import sqlite_in_use
from scopa.server.store.database import Store

PASSWORD = "correct horse battery"


def admin(url: str, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """``scopa admin ARGS --database-url URL`` as the operator runs it (its own process)."""
    return subprocess.run(
        [sys.executable, "-c", "from scopa.cli import main; main()", "admin", *args,
         "--database-url", url],
        env={**os.environ, "PYTHONPATH": str(ROOT / "src"), **env},
        capture_output=True, text=True, timeout=300, check=False)


def logs(url: str) -> dict[str, list[int]]:
    """Every match's event numbers as stored, read from the database itself."""
    if url.startswith("sqlite"):
        conn = sqlite3.connect(url.removeprefix("sqlite:///"))
        try:
            rows = conn.execute("SELECT match_id, seq FROM events ORDER BY match_id, seq")
            pairs = list(rows)
        finally:
            conn.close()
    else:
        async def read() -> list[Any]:
            c = await asyncpg.connect(dsn(url))
            try:
                return list(await c.fetch(
                    "SELECT match_id, seq FROM events ORDER BY match_id, seq"))
            finally:
                await c.close()
        pairs = [(r["match_id"], r["seq"]) for r in asyncio.run(read())]
    out: dict[str, list[int]] = {}
    for match, seq in pairs:
        out.setdefault(match, []).append(seq)
    return out


def test_a_backup_mid_match_restores_the_match_where_it_was(
        tmp_path: Path, database_url: str) -> None:
    saved = tmp_path / "scopa.backup"
    rng = random.Random(11)
    first = ServerProcess(tmp_path / "first.sqlite", database_url=database_url,
                          SCOPA_BOT_DELAY_SECONDS="0.02").start()
    try:
        http = httpx.Client(base_url=first.base, timeout=30)
        r = http.post("/api/account/signup", json={"name": "Rosa", "password": PASSWORD})
        assert r.status_code == 201, r.text
        r = http.post("/api/tables", headers={"X-CSRF-Token": r.json()["csrf"]}, json={
            "rated": True, "target": 1,
            "seats": [{"kind": "human"}, {"kind": "bot", "level": "beginner"}]})
        assert r.status_code == 201, r.text
        rated = r.json()
        live = first.create(seats=[{"kind": "human"}, {"kind": "bot", "level": "random"}],
                            target=11)
        # a table of bots writing all along, while the backup is taken
        first.create(seats=[{"kind": "bot", "level": "random"}] * 2, target=200)

        async def play() -> tuple[dict[str, Any], dict[str, Any], subprocess.CompletedProcess[str]]:
            c = await Client(first, rated["table"]["id"], rated["token"]).connect()
            await play_human(c, rng)  # a rated match to its end: Rosa has a rating
            await c.close()
            c = await Client(first, live["table"]["id"], live["token"]).connect()
            at_backup = await play_moves(c, rng, 6)  # my turn: nothing of this table moves
            made = await asyncio.to_thread(admin, database_url, "backup", str(saved))
            c.queue.put_nowait(at_backup)
            later = await play_moves(c, rng, 4)
            await c.close()
            return at_backup, later, made

        at_backup, later, made = asyncio.run(play())
        assert made.returncode == 0, made.stderr
        assert "backed up to" in made.stdout
        assert later["state_id"] > at_backup["state_id"]
        # a server still has the database open: refused, and it plays on untouched
        refused = admin(database_url, "restore", str(saved))
        assert refused.returncode == 1
        assert "stop" in refused.stderr and len(refused.stderr.strip().splitlines()) == 1

        async def still_later() -> dict[str, Any]:
            c = await Client(first, live["table"]["id"], live["token"]).connect()
            state = await c.expect("state")
            await c.close()
            return state

        assert asyncio.run(still_later())["state_id"] == later["state_id"]
    finally:
        first.stop()
    done = admin(database_url, "restore", str(saved))
    assert done.returncode == 0, done.stderr
    # the log as the backup had it: the live match up to the backup, every match whole
    match_id, sid = at_backup["match_id"], at_backup["state_id"]
    restored = logs(database_url)
    assert len(restored[match_id]) == sid % 1_000_000
    for seqs in restored.values():
        assert seqs == list(range(len(seqs)))

    second = ServerProcess(tmp_path / "second.sqlite", database_url=database_url).start()
    try:
        async def after() -> dict[str, Any]:
            c = await Client(second, live["table"]["id"], live["token"]).connect()
            state = await c.expect("state")
            c.queue.put_nowait(state)
            await play_moves(c, rng, 2)  # and the match goes on from there
            await c.close()
            return state

        state = asyncio.run(after())
        assert state["state_id"] == sid
        assert state["view"] == at_backup["view"]
        assert state["legal_moves"] == at_backup["legal_moves"]
        http = httpx.Client(base_url=second.base, timeout=30)
        r = http.post("/api/account/signin", json={"name": "Rosa", "password": PASSWORD})
        assert r.status_code == 200, r.text
        profile = http.get("/api/players/Rosa").json()
        assert profile["ratings"]["singles"]["games"] == 1, profile["ratings"]
    finally:
        second.stop()


def scopa_database(url: str) -> None:
    async def make() -> None:
        store = Store(url)
        try:
            await store.migrate()
            await store.secret()
        finally:
            await store.close()
    asyncio.run(make())


def fingerprint(url: str) -> str:
    """What the database holds, to see that a refused restore changed nothing."""
    return hashlib.sha256(json.dumps(sorted(logs(url).items())).encode()).hexdigest() + (
        hashlib.sha256(Path(url.removeprefix("sqlite:///")).read_bytes()).hexdigest()
        if url.startswith("sqlite") else "")


def test_bad_backups_and_databases_are_refused_changing_nothing(
        tmp_path: Path, url: str) -> None:
    scopa_database(url)
    other = "postgresql" if url.startswith("sqlite") else "sqlite"
    good = tmp_path / "good.backup"
    assert admin(url, "backup", str(good)).returncode == 0
    before = fingerprint(url)
    text = tmp_path / "notes.txt"
    text.write_text("not a backup\n")
    foreign = tmp_path / "foreign.sqlite"
    with sqlite3.connect(foreign) as conn:
        conn.execute("CREATE TABLE things (x)")
    with fresh_database() as pg:  # a backup of the other kind of database
        other_url = pg if other == "postgresql" else f"sqlite:///{tmp_path / 'other.sqlite'}"
        scopa_database(other_url)
        wrong_kind = tmp_path / "other.backup"
        made = admin(other_url, "backup", str(wrong_kind))
        assert made.returncode == 0, made.stderr
    for path, said in [(tmp_path / "missing.backup", "no such file"),
                       (text, "not a"), (foreign, "not a"), (wrong_kind, "not a"),
                       (tmp_path, "not a file")]:
        done = admin(url, "restore", str(path))
        assert done.returncode == 1, (path, done.stdout)
        assert said in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr
        assert fingerprint(url) == before
    # a backup of something that is not a scopa database, or into a folder that is not
    empty = f"sqlite:///{foreign}"
    done = admin(empty, "backup", str(tmp_path / "x.backup"))
    assert done.returncode == 1 and "not a scopa database" in done.stderr
    done = admin(url, "backup", str(tmp_path / "nowhere" / "x.backup"))
    assert done.returncode == 1 and "no such folder" in done.stderr
    assert not (tmp_path / "x.backup").exists()
    # and the good one restores
    done = admin(url, "restore", str(good))
    assert done.returncode == 0, done.stderr


def test_without_the_postgresql_client_tools_the_error_is_one_line(tmp_path: Path) -> None:
    with fresh_database() as url:
        scopa_database(url)
        bare = tmp_path / "bin"
        bare.mkdir()
        done = admin(url, "backup", str(tmp_path / "x.backup"), PATH=str(bare))
    assert done.returncode == 1
    assert done.stderr.strip() == ("scopa admin: pg_dump not found: install PostgreSQL's "
                                   "client tools (Debian: apt-get install postgresql-client)")


#: a process that opens a SQLite database in WAL mode, as the server does, says so and
#: keeps it open until its stdin closes
HOLD = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1])
conn.execute("PRAGMA journal_mode=WAL")
conn.execute("CREATE TABLE IF NOT EXISTS t (x)")
conn.commit()
conn.execute("SELECT * FROM t").fetchall()
print("open", flush=True)
sys.stdin.read()
"""


def test_the_lock_tells_whether_a_process_has_the_sqlite_database_open(
        tmp_path: Path) -> None:
    """What restore's refusal rests on: a live process's connection is seen, and a killed
    one's left-over ``-shm`` file is not mistaken for it."""
    db = tmp_path / "held.sqlite"
    assert not sqlite_in_use(db)  # no file at all
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(db)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "open"
        assert sqlite_in_use(db)
    finally:
        holder.kill()
        holder.wait(30)
    assert db.with_name(db.name + "-shm").exists()  # left behind by the killed process
    assert not sqlite_in_use(db)
