"""Every kind of bad message is refused with a clear error and changes nothing."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from server_helpers import Client, ServerProcess

from scopa.cards import card_text


async def two_humans(server: ServerProcess) -> tuple[Client, Client, dict[str, Any], str]:
    created = server.create(seats=[{"kind": "human"}, {"kind": "human"}], public=True)
    tid = created["table"]["id"]
    joined = server.join(created["invite"])
    a = await Client(server, tid, created["token"]).connect()
    b = await Client(server, tid, joined["token"]).connect()
    state = await a.expect("state", lambda f: f["view"] is not None and f["your_turn"])
    await asyncio.sleep(0.2)
    return a, b, state, tid


def wide(text: str, zero: int) -> str:
    """``text`` with its ASCII digits written in another script (``zero`` is its 0)."""
    return "".join(chr(zero + int(ch)) if ch in "0123456789" else ch for ch in text)


async def refused(client: Client, frame: Any, code: str) -> dict[str, Any]:
    await client.drain(0.05)
    await client.send(frame)
    err = await client.expect("error", timeout=5)
    assert err["code"] == code, err
    assert err["message"]
    return err


def test_bad_frames_change_nothing(server: ServerProcess) -> None:
    async def run() -> None:
        a, b, state, tid = await two_humans(server)
        sid = state["state_id"]
        legal = state["legal_moves"]
        hand = state["view"]["hand"]
        not_mine = next(card_text(c) for c in range(40)
                        if card_text(c) not in hand and card_text(c) not in state["view"]["table"])
        move = legal[0]
        cases: list[tuple[Any, str]] = [
            ("not json", "bad_json"),
            ("[1, 2]", "bad_message"),
            ({"type": "fly"}, "bad_message"),
            ({"type": "move"}, "bad_message"),
            ({"type": "move", "state_id": sid, "move": move, "extra": 1}, "bad_message"),
            ({"type": "move", "state_id": str(sid), "move": move}, "bad_message"),
            ({"type": "move", "state_id": True, "move": move}, "bad_message"),
            ({"type": "ping", "t": "x" * 5000}, "too_large"),
            ({"type": "move", "state_id": sid - 1, "move": move}, "stale_state"),
            ({"type": "move", "state_id": sid, "move": {"card": "11z"}}, "bad_message"),
            ({"type": "move", "state_id": sid, "move": "7d"}, "bad_message"),
            ({"type": "move", "state_id": sid, "move": {"card": not_mine, "capture": []}},
             "illegal_move"),
            ({"type": "move", "state_id": sid,
              "move": {"card": hand[0], "capture": [not_mine]}}, "illegal_move"),
            ({"type": "hello", "token": "whatever"}, "already_authenticated"),
            ({"type": "rematch"}, "match_not_over"),
            ({"type": "teach", "state_id": sid + 5}, "stale_state"),
        ]
        # a legal move's card in another spelling is not that card (W2): upper case,
        # full-width and Arabic-Indic digits, a space
        for other in (move["card"].upper(), wide(move["card"], 0xFF10),
                      wide(move["card"], 0x0660), f" {move['card']}"):
            cases.append(({"type": "move", "state_id": sid,
                           "move": {**move, "card": other}}, "bad_message"))
        if move["capture"]:
            cases.append(({"type": "move", "state_id": sid, "move": {
                **move, "capture": [c.upper() for c in move["capture"]]}}, "bad_message"))
        for frame, code in cases:
            await refused(a, frame, code)
        # a capture that is not legal for a card that is: the engine says why
        for m in legal:
            if not m["capture"]:
                table = state["view"]["table"]
                if table:
                    err = await refused(a, {"type": "move", "state_id": sid, "move": {
                        "card": m["card"], "capture": [table[0]]}}, "illegal_move")
                    assert m["card"] in err["message"]
                break
        # the other seat may not move out of turn, a spectator may not move at all
        await refused(b, {"type": "move", "state_id": sid, "move": move}, "not_your_turn")
        spec = await Client(server, tid).connect()
        await spec.expect("state")
        await refused(spec, {"type": "move", "state_id": sid, "move": move}, "spectator")
        # nothing changed: no new state was sent, and the same state id still plays
        assert all(f["state_id"] == sid for f in a.frames if f["type"] == "state"
                   and f["view"] is not None and f["your_turn"])
        await a.send({"type": "move", "state_id": sid, "move": move})
        after = await a.expect("state", lambda f: f["state_id"] == sid + 1)
        assert after["event"]["card"] == move["card"]
        assert move["card"] not in after["view"]["hand"]
        for c in (a, b, spec):
            await c.close()

    asyncio.run(run())


def test_unauthenticated(server: ServerProcess) -> None:
    async def run() -> None:
        created = server.create(seats=[{"kind": "human"}, {"kind": "human"}])
        tid = created["table"]["id"]
        c = Client(server, tid)
        await c.connect({"type": "move", "state_id": 1, "move": {"card": "7d"}})
        err = await c.expect("error")
        assert err["code"] == "not_authenticated"
        await asyncio.wait_for(c.closed.wait(), 5)
        assert c.ws.close_code == 4001
        for token in ("wrong-token-1234", 12, "", "x" * 1000):
            c = Client(server, tid)
            await c.connect({"type": "hello", "token": token})
            err = await c.expect("error")
            assert err["code"] == "bad_token"
            await asyncio.wait_for(c.closed.wait(), 5)
            assert c.ws.close_code == 4003
            assert not any(f["type"] in ("state", "welcome") for f in c.frames)
        # a token of another table opens nothing here
        other = server.create(seats=[{"kind": "human"}, {"kind": "human"}])
        c = Client(server, tid, other["token"])
        await c.connect()
        assert (await c.expect("error"))["code"] == "bad_token"
        # an unknown table closes the socket
        c = Client(server, "nope")
        await c.connect()
        await asyncio.wait_for(c.closed.wait(), 5)
        assert c.ws.close_code == 4004

    asyncio.run(run())


def test_flood_is_throttled(tmp_path: Any) -> None:
    srv = ServerProcess(tmp_path / "flood.sqlite", SCOPA_RATE_PER_SECOND="5",
                        SCOPA_RATE_BURST="10", SCOPA_FLOOD_CLOSE_AFTER="40").start()
    try:
        async def run() -> None:
            a, b, state, _ = await two_humans(srv)
            for i in range(100):
                await a.send({"type": "ping", "t": i})
            await asyncio.wait_for(a.closed.wait(), 10)
            pongs = [f for f in a.frames if f["type"] == "pong"]
            limited = [f for f in a.frames if f.get("code") == "rate_limited"]
            assert 10 <= len(pongs) < 60  # the burst, plus a refill if sending was slow
            assert len(limited) >= 30
            assert a.ws.close_code == 1008
            # the table is untouched: the other seat still sees the same state
            b2 = Client(srv, state["table"]["id"], b.token)
            await b2.connect()
            again = await b2.expect("state")
            assert again["state_id"] == state["state_id"]
            await b.close()
            await b2.close()

        asyncio.run(run())
    finally:
        srv.stop()


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        # a NUL is refused at the gate of every request (400, common/clean_input.py);
        # what the schema says of a nickname is checked before anything else (422: a bidi
        # override is in the schema's pattern, names.LABEL_PATTERN)
        ({"name": "A\u0000b"}, 400, "NUL"),
        ({"name": "Bad\u202eName"}, 422, "pattern"),
        ({"name": "x" * 25}, 422, "at most 24"),
        ({"name": "   "}, 422, "pattern"),
        ({"variant": "poker"}, 400, "unknown variant"),
        ({"players": 3, "seats": [{"kind": "human"}, {"kind": "human"}]}, 400, "3 seats"),
        ({"seats": []}, 422, "at least 2"),
        ({"seats": [{"kind": "human"}, {"kind": "bot", "level": "god"}]}, 400, "level"),
        ({"seats": [{"kind": "human"}, {"kind": "external", "bot": "x"}]}, 400, "external"),
        ({"creator_seat": 1}, 400, "not a human seat"),
        ({"options": {"players": 4}}, 400, "own field"),
        ({"options": {"no_such": 1}}, 400, "unknown rules option"),
        ({"variant": "scopone", "players": 2}, 400, "deal"),
        ({"players": 4, "teams": 3}, 400, "teams"),
        ({"surprise": 1}, 422, "extra"),
        ({"players": 9}, 422, "less than or equal"),
    ],
)
def test_bad_table_requests(server: ServerProcess, body: dict[str, Any], status: int,
                            words: str) -> None:
    def listed() -> set[str]:
        # the ids only: a table another test left may change meanwhile (its players gone,
        # stand-ins play it once the grace period ends)
        return {t["id"] for t in server.get("/api/tables").json()["tables"]}

    before = listed()
    r = server.post("/api/tables", {"name": "Anna", "public": True, **body})
    assert r.status_code == status, r.text
    assert words.lower() in json.dumps(r.json()["detail"]).lower()
    assert listed() == before  # no table was made


def test_bad_joins(server: ServerProcess) -> None:
    created = server.create(seats=[{"kind": "human"}, {"kind": "human"}])
    invite = created["invite"]
    assert server.post("/api/invites/nope/join", {"name": "B"}).status_code == 404
    r = server.post(f"/api/invites/{invite}/join", {"name": "\u0007"})
    assert r.status_code == 422 and "pattern" in str(r.json()["detail"])
    r = server.post(f"/api/invites/{invite}/join", {"name": "Bad\u202eName"})
    assert r.status_code == 422 and "pattern" in str(r.json()["detail"])
    r = server.post(f"/api/invites/{invite}/join", {"name": "B", "seat": 0})
    assert r.status_code == 409
    server.join(invite, "B")
    r = server.post(f"/api/invites/{invite}/join", {"name": "C"})
    assert r.status_code == 409 and "taken" in r.json()["detail"]
    table = server.get(f"/api/invites/{invite}").json()
    assert [s["name"] for s in table["seats"]] == ["Anna", "B"]


def test_new_tables_are_throttled(tmp_path: Any) -> None:
    srv = ServerProcess(tmp_path / "full.sqlite", SCOPA_MAX_LIVE_TABLES="2",
                        SCOPA_CREATE_BURST="3", SCOPA_CREATE_PER_MINUTE="1").start()
    try:
        srv.create(public=True)
        srv.create(public=True)
        r = srv.post("/api/tables", {"name": "C", "public": True})
        assert r.status_code == 503 and "full" in r.json()["detail"]
        r = srv.post("/api/tables", {"name": "C", "public": True})
        assert r.status_code == 429 and "too many" in r.json()["detail"]
        assert len(srv.get("/api/tables").json()["tables"]) == 2
    finally:
        srv.stop()
