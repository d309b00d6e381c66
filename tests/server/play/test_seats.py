"""Reconnecting resumes a seat; an absent player is replaced by a bot after the grace
period and takes the seat back on return; two tabs share a seat; teach-me."""

from __future__ import annotations

import asyncio
import random
from typing import Any

from server_helpers import Client, ServerProcess

from scopa.messages import render, sentence


def test_reconnect_resumes_the_seat(server: ServerProcess) -> None:
    async def run() -> None:
        created = server.create(seats=[{"kind": "human"}, {"kind": "human"}])
        joined = server.join(created["invite"])
        tid = created["table"]["id"]
        a = await Client(server, tid, created["token"]).connect()
        b = await Client(server, tid, joined["token"]).connect()
        state = await a.expect("state", lambda f: f["your_turn"])
        await a.send({"type": "move", "state_id": state["state_id"],
                      "move": state["legal_moves"][0]})
        mine = await b.expect("state", lambda f: f["your_turn"])
        await b.close()
        seen_by_a = await a.expect("state", lambda f: not f["table"]["seats"][1]["connected"])
        assert seen_by_a["state_id"] == mine["state_id"]
        b2 = await Client(server, tid, joined["token"]).connect()
        welcome = await b2.expect("welcome")
        again = await b2.expect("state")
        assert welcome["seat"] == 1
        assert again["view"] == mine["view"] and again["state_id"] == mine["state_id"]
        assert again["legal_moves"] == mine["legal_moves"]
        # a second tab on the same seat gets the same frames; either may move
        tab = await Client(server, tid, joined["token"]).connect()
        await tab.expect("state")
        await b2.send({"type": "move", "state_id": again["state_id"],
                       "move": again["legal_moves"][0]})
        s1 = await b2.expect("state", lambda f: f["state_id"] == again["state_id"] + 1)
        s2 = await tab.expect("state", lambda f: f["state_id"] == again["state_id"] + 1)
        assert s1 == s2
        for c in (a, b2, tab):
            await c.close()

    asyncio.run(run())


def test_bot_stands_in_after_grace_and_player_returns(server: ServerProcess) -> None:
    async def run() -> None:
        created = server.create(
            seats=[{"kind": "human"}, {"kind": "bot", "level": "random"}], grace_seconds=1.0,
            target=200,  # the stand-in and the bot play fast: the match must not end
        )
        tid, token = created["table"]["id"], created["token"]
        spectator = await Client(server, tid, invite=created["invite"]).connect()
        a = await Client(server, tid, token).connect()
        first = await a.expect("state", lambda f: f["your_turn"])
        await a.close()
        # within the grace period nothing is played for the absent seat
        await asyncio.sleep(0.2)
        assert all(f["state_id"] == first["state_id"] for f in spectator.frames
                   if f["type"] == "state" and f["view"] is not None)
        standin = await spectator.expect(
            "state", lambda f: f["event"] and f["event"].get("by") == "standin", timeout=10)
        assert standin["table"]["seats"][0]["standin"] is True
        assert standin["event"]["seat"] == 0
        # the player comes back: the stand-in stops, the seat is theirs again
        await asyncio.sleep(0.1)
        a2 = await Client(server, tid, token).connect()
        back = await a2.expect("state")
        assert back["table"]["seats"][0]["standin"] is False
        assert back["table"]["seats"][0]["connected"] is True
        mine = back if back["your_turn"] else await a2.expect("state", lambda f: f["your_turn"])
        await asyncio.sleep(1.3)  # longer than the grace period: no stand-in move now
        latest = a2.latest_state()
        assert latest["state_id"] == mine["state_id"] and latest["your_turn"]
        await a2.send({"type": "move", "state_id": mine["state_id"],
                       "move": mine["legal_moves"][0]})
        moved = await a2.expect("state", lambda f: f["state_id"] == mine["state_id"] + 1)
        assert moved["event"]["by"] == "human"
        for c in (a2, spectator):
            await c.close()

    asyncio.run(run())


def test_teach_me_lists_the_legal_moves_for_that_seat_only(server: ServerProcess) -> None:
    async def run() -> None:
        created = server.create(seats=[{"kind": "human"}, {"kind": "human"}])
        joined = server.join(created["invite"])
        tid = created["table"]["id"]
        a = await Client(server, tid, created["token"]).connect()
        b = await Client(server, tid, joined["token"]).connect()
        state = await a.expect("state", lambda f: f["your_turn"])
        await a.send({"type": "teach", "state_id": state["state_id"]})
        answer = await a.expect("analysis", timeout=20)
        await b.send({"type": "teach", "state_id": state["state_id"]})
        refused = await b.expect("error")
        assert refused["code"] == "not_your_turn"
        assert answer["state_id"] == state["state_id"]
        moves = [m["move"] for m in answer["moves"]]
        key = sorted(str(m) for m in moves)
        assert key == sorted(str(m) for m in state["legal_moves"])
        assert answer["moves"][0]["best"] and not any(m["best"] for m in answer["moves"][1:])
        values = [m["value"] for m in answer["moves"]]
        assert values == sorted(values, reverse=True)
        # the words are structured messages, rendered from the shared catalogue
        for m in answer["moves"]:
            assert render(m["label"]).split(" ")[0] in ("Lay", "Take", "Sweep")
            assert m["reasons"] and all(sentence(r, "it") for r in m["reasons"] + m["margin"])
        assert answer["moves"][0]["margin"][0]["key"].startswith("compare.")
        assert all(sentence(c).startswith("Still unseen") for c in answer["context"])
        await a.send({"type": "teach", "state_id": state["state_id"]})
        again = await a.expect("analysis", timeout=20)
        assert again == answer  # kept: asking twice costs nothing
        await b.drain(0.3)
        assert not any(f["type"] == "analysis" for f in b.frames)
        for c in (a, b):
            await c.close()

    asyncio.run(run())


def test_rematch_and_history(server: ServerProcess) -> None:
    async def run() -> tuple[dict[str, Any], dict[str, Any]]:
        created = server.create(seats=[{"kind": "human"}, {"kind": "human"}], target=1,
                                public=True)
        joined = server.join(created["invite"], "Bruno <b>")
        tid = created["table"]["id"]
        a = await Client(server, tid, created["token"]).connect()
        b = await Client(server, tid, joined["token"]).connect()
        from server_helpers import play_human

        rng = random.Random(3)
        ends = await asyncio.gather(play_human(a, rng), play_human(b, rng))
        await a.send({"type": "rematch"})
        votes = await b.expect("rematch")
        assert votes["votes"] == [0] and votes["needed"] == [0, 1]
        await b.send({"type": "rematch"})
        new = await a.expect("state", lambda f: f["event"] and f["event"]["kind"] == "match_start")
        assert new["match_number"] == 2 and new["state_id"] == 2_000_001
        assert new["match_id"] != ends[0]["match_id"]
        for c in (a, b):
            await c.close()
        return ends[0], new

    end, _ = asyncio.run(run())
    listed = server.get("/api/matches").json()
    assert end["match_id"] in [m["id"] for m in listed["matches"]]
    m = server.get(f"/api/matches/{end['match_id']}").json()
    assert m["players"] == ["Anna", "Bruno <b>"]  # stored as given; pages escape
    for hand in m["replay"]["hands"]:
        assert len(hand["positions"]) == len(hand["moves"]) + 1
    r = server.get(f"/api/matches/{end['match_id']}/record")
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    from scopa.record import load_record, verify_record

    rec = load_record(r.json())
    assert verify_record(rec) == []
    assert rec["scores"] == end["scores"] and rec["winner"] == end["winner"]
    text = server.get(f"/api/matches/{end['match_id']}/record?format=text")
    assert text.status_code == 200 and verify_record(load_record(text.text)) == []
    # an unfinished match is not in the history
    playing = server.create(seats=[{"kind": "human"}, {"kind": "human"}])
    assert server.get(f"/api/matches/{playing['table']['match_id']}").status_code == 404
    # the seed check
    seed = m["replay"]["hands"][0]["seed"]
    good = server.get(f"/api/verify?seed={seed}&commitment={m['replay']['hands'][0]['commitment']}")
    assert good.json()["ok"] is True
    assert server.get(f"/api/verify?seed={seed}&commitment=00").json()["ok"] is False


def test_public_list_and_invites(server: ServerProcess) -> None:
    public = server.create(public=True, seats=[{"kind": "human"}, {"kind": "human"}])
    private = server.create(public=False, seats=[{"kind": "human"}, {"kind": "human"}])
    listed = {t["id"]: t for t in server.get("/api/tables").json()["tables"]}
    assert public["table"]["id"] in listed
    assert private["table"]["id"] not in listed
    assert listed[public["table"]["id"]]["invite"] == public["invite"]
    assert listed[public["table"]["id"]]["status"] == "waiting"
    # a private table's invite is only in its creator's answer; its id alone shows nothing
    assert server.get(f"/api/tables/{private['table']['id']}").status_code == 404
    assert server.get(f"/api/tables/{public['table']['id']}").json()["invite"] == public["invite"]
    looked = server.get(f"/api/invites/{private['invite']}").json()
    assert looked["id"] == private["table"]["id"]
    joined = server.join(private["invite"])
    assert joined["seat"] == 1 and joined["table"]["status"] == "playing"
    meta = server.get("/api/meta").json()
    assert {"scopa", "scopone", "escoba"} <= {v["name"] for v in meta["variants"]}
    assert "intermediate" in meta["bot_levels"]
    scopone = next(v for v in meta["variants"] if v["name"] == "scopone")
    assert scopone["players"] == [4]
    # the conflicting option values are sent, and a table asking for them is refused
    conflict = scopone["conflicts"][0]
    assert conflict["message"].startswith("conflict.")
    (a, va), (b, vb) = conflict["options"]
    refused = server.post("/api/tables", {"name": "Anna", "options": {a: va, b: vb}})
    assert refused.status_code in (400, 422) and a in refused.text and b in refused.text
    assert server.get("/docs").status_code == 200
    assert server.get("/openapi.json").json()["paths"]["/api/tables"]
    page = server.get("/")
    assert page.status_code == 200 and "<html" in page.text.lower()


def test_external_bot_seat(tmp_path: Any) -> None:
    import json
    import sys

    from server_helpers import play_human

    bots = {"greedy-cmd": [sys.executable, "-m", "scopa.protocol", "greedy"]}
    srv = ServerProcess(tmp_path / "ext.sqlite", SCOPA_EXTERNAL_BOTS=json.dumps(bots)).start()
    try:
        meta = srv.get("/api/meta").json()
        assert meta["external_bots"] and meta["external_bot_names"] == ["greedy-cmd"]
        created = srv.create(target=3, seats=[{"kind": "human"},
                                              {"kind": "external", "bot": "greedy-cmd"}])
        assert created["table"]["seats"][1]["name"] == "greedy-cmd (external)"

        async def run() -> dict[str, Any]:
            c = await Client(srv, created["table"]["id"], created["token"]).connect()
            end = await play_human(c, random.Random(5))
            bot_moves = [f for f in c.frames if f["type"] == "state" and f["event"]
                         and f["event"].get("seat") == 1 and f["event"]["kind"] == "move"]
            assert bot_moves and all(f["event"]["by"] == "bot" for f in bot_moves)
            await c.close()
            return end

        end = asyncio.run(run())
        assert max(end["scores"]) >= 3
    finally:
        srv.stop()


def test_static_page(server: ServerProcess) -> None:
    from scopa.server.ops.app import WEB

    for path in ("/", "/t/abc", "/join/xyz", "/replay/m1"):
        page = server.get(path)
        assert page.status_code == 200 and "<html" in page.text.lower()
    if (WEB / "index.html").is_file():
        assert server.get("/").text == (WEB / "index.html").read_text()
        some = next(p for p in sorted(WEB.rglob("*")) if p.is_file() and p.name != "index.html")
        r = server.get("/static/" + some.relative_to(WEB).as_posix())
        assert r.status_code == 200 and r.content == some.read_bytes()
    else:
        assert "/docs" in server.get("/").text
    assert server.get("/static/../../server/common/settings.py").status_code == 404


def test_every_seat_at_a_six_seat_table_has_its_own_name(server: ServerProcess) -> None:
    """Bots get distinct Italian names (their level is a separate field); a person who
    joins with a name already at the table is told apart too."""
    seats = [{"kind": "human"}, {"kind": "human"}] + [
        {"kind": "bot", "level": "intermediate"} for _ in range(4)]
    created = server.create(players=6, seats=seats, name="Giulia")
    joined = server.join(created["invite"], name="giulia")
    table = server.get(f"/api/invites/{created['invite']}").json()
    names = [s["name"] for s in table["seats"]]
    assert names[0] == "Giulia" and names[1] == "giulia (2)"
    assert len({n.casefold() for n in names}) == 6, names
    assert all("Bot" not in n for n in names)
    assert [s["level"] for s in table["seats"][2:]] == ["intermediate"] * 4
    assert joined["seat"] == 1
