"""SQLite busy: a write that finds the database locked by another writer waits up to
``sqlite_busy_seconds``, then the request is answered 503 "busy" and nothing is half
written (before, the driver's 5 s ran out into a 500 "database is locked")."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from server_helpers import ServerProcess

PASSWORD = "correct horse battery"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    proc = ServerProcess(tmp_path / "scopa.sqlite", SCOPA_SQLITE_BUSY_SECONDS="0.2").start()
    yield proc
    proc.stop()


def sign_up(server: ServerProcess, name: str) -> httpx.Response:
    return httpx.post(server.base + "/api/account/signup",
                      json={"name": name, "password": PASSWORD}, timeout=30)


def test_a_write_finding_the_database_locked_is_answered_busy_and_writes_nothing(
        server: ServerProcess) -> None:
    other = sqlite3.connect(server.db, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")  # another writer holds the lock
        r = sign_up(server, "Busybody")
        assert r.status_code == 503, r.text
        assert "busy" in r.json()["detail"] and "Retry-After" in r.headers
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert server.get("/api/players/Busybody").status_code == 404  # nothing half made
    assert sign_up(server, "Busybody").status_code == 201  # the retry goes through
    assert server.get("/api/players/Busybody").status_code == 200
