"""Resigning through real sockets, on each store: the ``resign`` frame ends a match for
the other side (one person alone on a side) or hands the seat to a stand-in (a partner
plays on); everyone at the table is told; the log keeps it (the history, a rated
player's record); bad resignations get a clear error and change nothing."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
from server_helpers import Client, ServerProcess

PASSWORD = "correct horse battery"


def resigned_frame(f: dict[str, Any]) -> bool:
    return f["type"] == "resigned"


def test_alone_on_a_side_resigning_ends_the_match(server: ServerProcess) -> None:
    made = server.create(variant="scopa", players=2, target=11,
                         seats=[{"kind": "human"}, {"kind": "bot", "level": "random"}])
    table_id = made["table"]["id"]

    async def go() -> tuple[dict[str, Any], dict[str, Any], list[dict[str, Any]]]:
        me = await Client(server, table_id, made["token"]).connect()
        watcher = await Client(server, table_id, invite=made["invite"]).connect()
        await me.expect("state", lambda f: f["view"] is not None)
        await watcher.send({"type": "resign"})  # a spectator: refused
        refused = [await watcher.expect("error")]
        await me.send({"type": "resign"})
        told = await watcher.expect("resigned")
        end = await me.expect("match_end")
        await watcher.expect("match_end")
        for bad in ({"type": "resign"}, {"type": "resign", "seat": 1}):
            await me.send(bad)
            refused.append(await me.expect("error"))
        await me.close()
        await watcher.close()
        return told, end, refused

    told, end, refused = asyncio.run(go())
    assert told["seat"] == 0 and told["ends"] is True and told["name"] == made["table"][
        "seats"][0]["name"]
    assert end["winner"] == 1
    assert [(e["code"], e["ref"]) for e in refused] == [
        ("spectator", "resign"), ("match_over", "resign"), ("bad_message", "resign")]
    match = server.get(f"/api/matches/{end['match_id']}").json()
    assert match["winner"] == 1 and match["resigned"] == [0]
    record = server.get(f"/api/matches/{end['match_id']}/record")
    assert record.status_code == 200


def test_resigning_before_the_match_starts_is_refused(server: ServerProcess) -> None:
    made = server.create(variant="scopa", players=2, target=11,
                         seats=[{"kind": "human"}, {"kind": "human"}])

    async def go() -> dict[str, Any]:
        me = await Client(server, made["table"]["id"], made["token"]).connect()
        await me.expect("welcome")
        await me.send({"type": "resign"})
        error = await me.expect("error")
        await me.close()
        return error

    assert asyncio.run(go())["code"] == "not_started"


def test_a_partner_plays_on_until_the_whole_side_resigns(server: ServerProcess) -> None:
    made = server.create(variant="scopone", players=4, target=11, seats=[
        {"kind": "human"}, {"kind": "bot", "level": "random"},
        {"kind": "human"}, {"kind": "bot", "level": "random"}])
    table_id = made["table"]["id"]
    joined = server.join(made["invite"], name="Bruno", seat=2)

    async def go() -> tuple[list[dict[str, Any]], dict[str, Any], dict[str, Any]]:
        anna = await Client(server, table_id, made["token"]).connect()
        bruno = await Client(server, table_id, joined["token"]).connect()
        await bruno.expect("state", lambda f: f["view"] is not None)
        await anna.send({"type": "resign"})
        told = [await bruno.expect("resigned"), await anna.expect("resigned")]
        # the match goes on: Anna's seat is marked and its turns are the stand-in's
        state = await bruno.expect("state", lambda f: f["event"] and f["event"]["kind"] == "resign")
        await anna.send({"type": "resign"})
        again = await anna.expect("error")
        await bruno.send({"type": "resign"})
        end = await anna.expect("match_end")
        told.append(end)
        await anna.close()
        await bruno.close()
        return told, state, again

    told, state, again = asyncio.run(go())
    assert [t.get("ends") for t in told[:2]] == [False, False]
    assert state["table"]["seats"][0]["resigned"] is True and not state["match_over"]
    assert again["code"] == "resigned"
    assert told[2]["winner"] == 1


def test_a_rated_resignation_is_a_loss_on_the_record(server: ServerProcess) -> None:
    http = httpx.Client(base_url=server.base, timeout=30)
    r = http.post("/api/account/signup", json={"name": "Resigner", "password": PASSWORD})
    assert r.status_code == 201, r.text
    r = http.post("/api/tables", headers={"X-CSRF-Token": r.json()["csrf"]}, json={
        "rated": True, "target": 11,
        "seats": [{"kind": "human"}, {"kind": "bot", "level": "beginner"}]})
    assert r.status_code == 201, r.text
    made = r.json()

    async def go() -> dict[str, Any]:
        me = await Client(server, made["table"]["id"], made["token"]).connect()
        await me.expect("state", lambda f: f["view"] is not None)
        await me.send({"type": "resign"})
        end = await me.expect("match_end")
        await me.close()
        return end

    end = asyncio.run(go())
    entry = http.get("/api/players/Resigner").json()["recent"][0]
    assert entry["match_id"] == end["match_id"] and entry["won"] is False


def test_a_resignation_survives_a_kill_and_restart(tmp_path: Path, database_url: str) -> None:
    db = tmp_path / "resign.sqlite"
    first = ServerProcess(db, database_url=database_url).start()
    try:
        made = first.create(variant="scopone", players=4, target=11, seats=[
            {"kind": "human"}, {"kind": "bot", "level": "random"},
            {"kind": "human"}, {"kind": "bot", "level": "random"}])
        table_id = made["table"]["id"]
        joined = first.join(made["invite"], name="Bruno", seat=2)

        async def resign() -> None:
            anna = await Client(first, table_id, made["token"]).connect()
            await anna.expect("state", lambda f: f["view"] is not None)
            await anna.send({"type": "resign"})
            await anna.expect("resigned")  # written before anyone is told
            await anna.close()

        asyncio.run(resign())
    finally:
        first.kill()
    second = ServerProcess(db, database_url=database_url).start()
    try:
        async def back() -> tuple[dict[str, Any], dict[str, Any]]:
            anna = await Client(second, table_id, made["token"]).connect()
            state = await anna.expect("state")
            await anna.send({"type": "resign"})
            error = await anna.expect("error")
            await anna.close()
            return state, error

        state, error = asyncio.run(back())
        assert state["table"]["seats"][0]["resigned"] is True
        assert state["legal_moves"] == [] and not state["match_over"]
        assert error["code"] == "resigned"
        assert joined["seat"] == 2
    finally:
        second.stop()
