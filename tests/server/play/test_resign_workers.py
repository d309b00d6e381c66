"""Resigning in the scaled deployment: two workers on one PostgreSQL and one Redis. A
resignation made at one worker is written once to the log and reaches the other worker's
sockets (its copy of the table replays the event); the partner's resignation made at the
other worker then ends the match for everyone."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from server_helpers import Client, ServerProcess, logged, pair, workers  # noqa: F401 - fixture

pytestmark = pytest.mark.slow




def test_a_resignation_at_one_worker_reaches_the_other(pair: list[ServerProcess]) -> None:
    w1, w2 = pair
    made = w1.create(variant="scopone", players=4, target=11, seats=[
        {"kind": "human"}, {"kind": "bot", "level": "random"},
        {"kind": "human"}, {"kind": "bot", "level": "random"}])
    table_id = made["table"]["id"]
    joined = w2.join(made["invite"], name="Bruno", seat=2)

    async def go() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any], dict[str, Any]]:
        anna = await Client(w1, table_id, made["token"]).connect()
        bruno = await Client(w2, table_id, joined["token"]).connect()
        for c in (anna, bruno):
            await c.expect("state", lambda f: f["view"] is not None)
        await anna.send({"type": "resign"})
        heard = await bruno.expect("resigned")
        state = await bruno.expect("state", lambda f: (f["event"] or {}).get("kind") == "resign")
        await bruno.send({"type": "resign"})
        told = await anna.expect("resigned", lambda f: f["seat"] == 2)
        end = await anna.expect("match_end")
        await bruno.expect("match_end")
        await anna.close()
        await bruno.close()
        return heard, state, told, end

    heard, state, told, end = asyncio.run(go())
    assert heard["seat"] == 0 and heard["ends"] is False
    assert state["table"]["seats"][0]["resigned"] is True and not state["match_over"]
    assert told["ends"] is True and end["winner"] == 1
    resigns = [e for e in logged(w1.database_url, end["match_id"]) if e["kind"] == "resign"]
    assert [e["data"] for e in resigns] == [{"seat": 0, "ends": False},
                                            {"seat": 2, "ends": True}]
