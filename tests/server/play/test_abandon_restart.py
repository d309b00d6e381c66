"""The abandon mark of a rated match survives a server killed (SIGKILL) mid-match: the
player who left past the grace period and comes back after the restart still has the
match counted as a loss (the mark is kept with the seat, migration 0004)."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import httpx
from server_helpers import Client, ServerProcess, play_human

from scopa.server.players.ratings import START

PASSWORD = "correct horse battery"
#: long enough for the player to be back after the restart before a new grace runs out
#: (the first server's grace is waited for as an event, never slept)
GRACE = 4


def test_abandonment_survives_a_kill_and_restart(tmp_path: Path, database_url: str) -> None:
    db = tmp_path / "abandon.sqlite"
    first = ServerProcess(db, database_url=database_url).start()
    try:
        http = httpx.Client(base_url=first.base, timeout=30)
        r = http.post("/api/account/signup", json={"name": "Quitter", "password": PASSWORD})
        assert r.status_code == 201, r.text
        csrf = r.json()["csrf"]
        r = http.post("/api/tables", headers={"X-CSRF-Token": csrf}, json={
            "rated": True, "target": 16, "grace_seconds": GRACE,
            "seats": [{"kind": "human"}, {"kind": "bot", "level": "beginner"}]})
        assert r.status_code == 201, r.text
        made = r.json()
        table_id, token = made["table"]["id"], made["token"]

        async def leave() -> None:
            # the player never connects: a spectator sees the stand-in take the seat (the
            # mark is stored before anyone is told)
            c = await Client(first, table_id, invite=made["invite"]).connect()
            try:
                await c.expect("state", lambda f: (f.get("table") or {}).get(
                    "seats", [{}])[0].get("standin") is True, timeout=60)
            finally:
                await c.close()

        asyncio.run(leave())
    finally:
        first.kill()
    second = ServerProcess(db, database_url=database_url).start()
    try:
        async def back() -> dict[str, Any]:
            c = await Client(second, table_id, token).connect()
            try:
                state = await c.expect("state")
                c.queue.put_nowait(state)
                return await play_human(c, random.Random(3), timeout=240)
            finally:
                await c.close()

        end = asyncio.run(back())
        http = httpx.Client(base_url=second.base, timeout=30)
        assert http.post("/api/account/signin",
                         json={"name": "Quitter", "password": PASSWORD}).status_code == 200
        prof = http.get("/api/players/Quitter").json()
        entry = prof["recent"][0]
        assert entry["match_id"] == end["match_id"]
        # played to the end by the player, yet a loss: the seat was abandoned before
        assert entry["abandoned"] is True and entry["won"] is False
        assert prof["ratings"]["singles"]["mu"] < START[0]  # the model's estimate fell
        # the shown rating moves with it, from the newcomer's 1500, down
        assert entry["rating_before"] == 1500 > entry["rating_after"]
    finally:
        second.stop()
