"""Kill the server (SIGKILL) mid-match, start it again on the same database, and finish
the match: nothing anyone was told about is lost, and the same tokens still work."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

from server_helpers import Client, ServerProcess, play_human, play_moves, secrecy_violations


def test_kill_and_restart_mid_match(tmp_path: Path, database_url: str) -> None:
    db = tmp_path / "restart.sqlite"
    first = ServerProcess(db, database_url=database_url).start()
    rng = random.Random(7)
    try:
        created = first.create(seats=[{"kind": "human"}, {"kind": "bot", "level": "random"}],
                               target=11)
        tid, token = created["table"]["id"], created["token"]
        bots_only = first.create(seats=[{"kind": "bot", "level": "random"}] * 2, target=200)
        waiting = first.create(seats=[{"kind": "human"}, {"kind": "human"}])

        frames: list[dict[str, Any]] = []

        async def before() -> dict[str, Any]:
            c = await Client(first, tid, token).connect()
            state = await play_moves(c, rng, 25)  # into the second hand of six rounds
            await c.close()
            frames.extend(c.frames)
            return state

        seen = asyncio.run(before())
        assert seen["view"]["hand_number"] == 2
    finally:
        first.kill()
    second = ServerProcess(db, database_url=database_url).start()
    try:
        async def after() -> dict[str, Any]:
            c = await Client(second, tid, token).connect()
            welcome = await c.expect("welcome")
            assert welcome["seat"] == 0
            state = await c.expect("state")
            # exactly where we were: same state id, same view
            assert state["state_id"] == seen["state_id"]
            assert state["view"] == seen["view"]
            assert state["legal_moves"] == seen["legal_moves"]
            assert state["commitment"] == seen["commitment"]
            c.queue.put_nowait(state)
            end = await play_human(c, rng)
            await c.close()
            frames.extend(c.frames)
            return end

        end = asyncio.run(after())
        match = second.get(f"/api/matches/{end['match_id']}").json()
        assert match["winner"] == end["winner"] and max(match["scores"]) >= 11
        # the seat saw nothing hidden, before or after the restart
        assert secrecy_violations(frames, 0, match["replay"], 1) == []
        # a table that waited for a player still does, and its invite still works
        assert second.get(f"/api/invites/{waiting['invite']}").json()["status"] == "waiting"
        joined = second.join(waiting["invite"])
        assert joined["table"]["status"] == "playing"

        async def creator_back() -> None:
            c = await Client(second, waiting["table"]["id"], waiting["token"]).connect()
            state = await c.expect("state")
            assert state["view"]["seat"] == 0 and len(state["view"]["hand"]) == 3
            await c.close()

        asyncio.run(creator_back())
        # the bots-only table carried on by itself after the restart
        table = second.get(f"/api/invites/{bots_only['invite']}").json()
        assert table["status"] == "playing"
        assert table["match_id"] == bots_only["table"]["match_id"] or table["match_id"]
    finally:
        second.stop()
