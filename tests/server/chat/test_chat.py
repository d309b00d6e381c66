"""Table chat and fair play over a real server (SQLite and PostgreSQL): limits and refusals
that change nothing, mutes, reports for the operator, the players' and spectators'
channels kept apart, history on reconnection, and teach me refused when a table has it off.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_helpers import Client, ServerProcess

from scopa.server.chat.room import ChatLimits, clean_text, phrases
from scopa.server.common.refusal import Refusal
from scopa.server.play.fairplay import table_teach, teach_refusal

OPERATOR = "operator-secret-for-chat-tests"
LIMIT = ChatLimits().length


@pytest.fixture(scope="module")
def chat_server(database_url: str, tmp_path_factory: pytest.TempPathFactory
                ) -> Iterator[ServerProcess]:
    """A server with an operator secret (to read reports)."""
    proc = ServerProcess(tmp_path_factory.mktemp("chat") / "scopa.sqlite",
                         database_url=database_url, SCOPA_OPERATOR_SECRET=OPERATOR).start()
    yield proc
    proc.stop()


async def seated(server: ServerProcess, n: int = 2) -> tuple[str, str, list[Client]]:
    """A table of ``n`` people, each connected, each past its chat history."""
    created = server.create(players=n, seats=[{"kind": "human"}] * n)
    tokens = [created["token"]] + [
        server.join(created["invite"], name=f"P{i}")["token"] for i in range(1, n)]
    tid = created["table"]["id"]
    clients = [await opened(Client(server, tid, tok)) for tok in tokens]
    return tid, created["invite"], clients


async def opened(client: Client) -> Client:
    """Connect and open the chat (its history frame is then in ``client.frames``)."""
    await client.connect()
    await client.send({"type": "chat_open"})
    await client.expect("chat_history")
    return client


def chats(client: Client) -> list[dict[str, Any]]:
    return [f["message"] for f in client.frames if f["type"] == "chat"]


def you(client: Client) -> str:
    """The client's author id, from its last chat history."""
    return str([f for f in client.frames if f["type"] == "chat_history"][-1]["you"])


async def say(client: Client, **body: Any) -> dict[str, Any]:
    """Say something and wait for the echo (the server's confirmation)."""
    before = {m["id"] for m in chats(client)}
    await client.send({"type": "chat", **body})
    frame = await client.expect("chat", lambda f: f["message"]["author"] == you(client)
                                and f["message"]["id"] not in before)
    message: dict[str, Any] = frame["message"]
    return message


async def history_of(server: ServerProcess, tid: str, token: str | None = None,
                     invite: str | None = None) -> dict[str, Any]:
    c = await opened(Client(server, tid, token, invite=invite))
    frame = [f for f in c.frames if f["type"] == "chat_history"][-1]
    await c.close()
    return frame


def test_players_chat_and_reconnection_history(chat_server: ServerProcess) -> None:
    async def run() -> None:
        tid, _, (a, b) = await seated(chat_server)
        # a second tab of b that never opens the chat: it is sent none, and may not speak
        plain = await Client(chat_server, tid, b.token).connect()
        await plain.expect("state")
        await plain.send({"type": "chat", "text": "hello?"})
        assert (await plain.expect("error"))["code"] == "chat_closed"
        first = await say(a, text="  ciao   a tutti  ")
        assert first["text"] == "ciao a tutti" and first["author"] == "s0"
        assert first["name"] == "Anna"
        got = await b.expect("chat")
        assert got["channel"] == "players" and got["message"] == first
        second = await say(b, phrase="chat.phrase.gg")
        assert second["phrase"] == "chat.phrase.gg" and "text" not in second
        await a.expect("chat", lambda f: f["message"]["id"] == second["id"])
        # HTML is kept as the text it is (pages set it as text)
        html = await say(a, text="<b>bold</b><script>x</script>")
        assert html["text"] == "<b>bold</b><script>x</script>"
        await plain.send({"type": "ping", "t": 1})
        await plain.expect("pong")
        assert not [f for f in plain.frames if f["type"].startswith("chat")]
        await plain.close()
        await a.close()
        hist = await history_of(chat_server, tid, a.token)
        assert hist["channel"] == "players" and hist["you"] == "s0"
        assert [m["id"] for m in hist["messages"]] == [first["id"], second["id"], html["id"]]
        assert hist["phrases"] == phrases() and "chat.phrase.bella" in hist["phrases"]
        await b.close()
    asyncio.run(run())


def test_refused_messages_change_nothing(chat_server: ServerProcess) -> None:
    async def run() -> None:
        tid, _, (a, b) = await seated(chat_server)
        bad: list[tuple[dict[str, Any], str]] = [
            ({"type": "chat", "text": "x" * (LIMIT + 1)}, "chat_too_long"),
            ({"type": "chat", "text": " \n\t "}, "chat_empty"),
            ({"type": "chat", "text": "\u0000\u200b"}, "chat_empty"),
            ({"type": "chat", "text": 7}, "bad_message"),
            ({"type": "chat"}, "bad_message"),
            ({"type": "chat", "text": "hi", "phrase": "chat.phrase.gg"}, "bad_message"),
            ({"type": "chat", "phrase": "why.risk"}, "bad_phrase"),
            ({"type": "chat", "text": "hi", "html": True}, "bad_message"),
            ({"type": "mute", "author": "everyone", "muted": True}, "bad_message"),
            ({"type": "mute", "author": "s0", "muted": True}, "bad_message"),
            ({"type": "mute", "author": "s1", "muted": "yes"}, "bad_message"),
            ({"type": "report", "id": 10**9}, "not_found"),
            ({"type": "report", "id": "1"}, "bad_message"),
        ]
        for frame, code in bad:
            await a.send(frame)
            err = await a.expect("error")
            assert err["code"] == code, (frame, err)
            assert err["ref"] == frame["type"]
        exact = await say(a, text="y" * LIMIT)  # the limit itself is allowed
        # b was told nothing before the good message; nothing refused was stored
        assert (await b.expect("chat"))["message"] == exact
        assert chats(b) == [exact]
        assert not any(f["type"] == "muted" for f in a.frames)
        hist = await history_of(chat_server, tid, b.token)
        assert [m["id"] for m in hist["messages"]] == [exact["id"]]
        for c in (a, b):
            await c.close()
    asyncio.run(run())


def test_rate_limit(chat_server: ServerProcess) -> None:
    async def run() -> None:
        tid, _, (a, b) = await seated(chat_server)
        sent = ChatLimits().burst + 4
        for i in range(sent):
            await a.send({"type": "chat", "text": f"m{i}"})
        await a.send({"type": "ping", "t": "done"})
        await a.expect("pong")
        accepted = chats(a)
        refused = [f for f in a.frames if f["type"] == "error"]
        assert refused and all(f["code"] == "chat_rate_limited" for f in refused)
        assert len(accepted) + len(refused) == sent
        assert len(accepted) >= ChatLimits().burst
        hist = await history_of(chat_server, tid, b.token)
        assert [m["id"] for m in hist["messages"]] == [m["id"] for m in accepted]
        for c in (a, b):
            await c.close()
    asyncio.run(run())


def test_mute_is_for_yourself_and_kept(chat_server: ServerProcess) -> None:
    async def run() -> None:
        tid, _, (a, b, c) = await seated(chat_server, 3)
        await a.send({"type": "mute", "author": "s2", "muted": True})
        assert (await a.expect("muted"))["muted"] == ["s2"]
        from_c = await say(c, text="you will not read this, Anna")
        await b.expect("chat", lambda f: f["message"]["id"] == from_c["id"])
        # a barrier: b's later message reaches a, so c's earlier one would have too
        from_b = await say(b, text="but this you will")
        await a.expect("chat", lambda f: f["message"]["id"] == from_b["id"])
        assert from_c["id"] not in [m["id"] for m in chats(a)]
        # kept for the seat: a reconnection's history leaves c out and says so
        await a.close()
        a2 = await opened(Client(chat_server, tid, a.token))
        hist = [f for f in a2.frames if f["type"] == "chat_history"][-1]
        assert hist["muted"] == ["s2"]
        assert [m["id"] for m in hist["messages"]] == [from_b["id"]]
        await a2.send({"type": "mute", "author": "s2", "muted": False})
        assert (await a2.expect("muted"))["muted"] == []
        again = await say(c, text="hello again")
        await a2.expect("chat", lambda f: f["message"]["id"] == again["id"])
        for x in (a2, b, c):
            await x.close()
    asyncio.run(run())


def test_spectators_have_their_own_channel(chat_server: ServerProcess) -> None:
    async def run() -> None:
        tid, invite, (a, b) = await seated(chat_server)
        said_by_player = await say(a, text="players only")
        w1 = await opened(Client(chat_server, tid, invite=invite))
        w2 = await opened(Client(chat_server, tid, invite=invite))
        h1 = [f for f in w1.frames if f["type"] == "chat_history"][-1]
        assert h1["channel"] == "spectators" and h1["messages"] == []
        assert h1["you"].startswith("w")
        from_w1 = await say(w1, text="spectators only")
        await w2.expect("chat", lambda f: f["message"]["id"] == from_w1["id"])
        assert from_w1["author"] == h1["you"] and from_w1["name"] is None
        # players never see it: b's later message reaches a after it would have
        later = await say(b, text="after the spectator spoke")
        await a.expect("chat", lambda f: f["message"]["id"] == later["id"])
        assert {m["text"] for m in chats(a)} == {"players only", "after the spectator spoke"}
        # spectators never see the players' (barrier: w2's own echo comes after)
        await say(w2, text="barrier")
        assert all(m["author"].startswith("w") for m in chats(w1) + chats(w2))
        # a spectator cannot report a players' message (not in its chat); may mute another
        await w1.send({"type": "report", "id": said_by_player["id"]})
        assert (await w1.expect("error"))["code"] == "not_found"
        await w1.send({"type": "mute", "author": "w99", "muted": True})
        await w1.expect("muted")
        for x in (a, b, w1, w2):
            await x.close()
        assert [m["text"] for m in (await history_of(chat_server, tid, invite=invite))[
            "messages"]] == ["spectators only", "barrier"]
    asyncio.run(run())


def test_reports_reach_the_operator(chat_server: ServerProcess) -> None:
    async def run() -> tuple[str, dict[str, Any], dict[str, Any]]:
        tid, _, (a, b) = await seated(chat_server)
        before = await say(b, text="hello")
        rude = await say(a, text="something rude")
        await b.expect("chat", lambda f: f["message"]["id"] == rude["id"])
        await a.send({"type": "report", "id": rude["id"]})
        assert (await a.expect("error"))["code"] == "bad_message"  # not your own
        await b.send({"type": "report", "id": rude["id"], "reason": "rude  words"})
        assert await b.expect("reported") == {"type": "reported", "id": rude["id"],
                                              "already": False}
        await b.send({"type": "report", "id": rude["id"]})
        assert (await b.expect("reported"))["already"] is True
        for c in (a, b):
            await c.close()
        return tid, before, rude

    tid, before, rude = asyncio.run(run())
    url = chat_server.base + "/api/operator/reports"
    assert httpx.get(url, timeout=10).status_code == 401
    assert httpx.get(url, headers={"Authorization": "Bearer wrong"}, timeout=10).status_code == 401
    r = httpx.get(url, headers={"Authorization": f"Bearer {OPERATOR}"}, timeout=10)
    assert r.status_code == 200, r.text
    mine = [x for x in r.json()["reports"] if x["table_id"] == tid]
    assert len(mine) == 1  # reported twice, stored once
    report = mine[0]
    assert report["reporter"] == "s1" and report["reporter_name"] == "P1"
    assert report["reason"] == "rude words"
    assert report["message"]["text"] == "something rude"
    assert report["message"]["channel"] == "players"
    assert [m["id"] for m in report["context"]] == [before["id"], rude["id"]]
    bad = httpx.get(url + "?limit=0", headers={"Authorization": f"Bearer {OPERATOR}"},
                    timeout=10)
    assert bad.status_code == 422


def test_teach_off_is_refused_and_shown(chat_server: ServerProcess) -> None:
    async def run() -> None:
        off = chat_server.create(teach=False)
        on = chat_server.create()
        assert off["table"]["teach"] is False and on["table"]["teach"] is True
        c = await Client(chat_server, off["table"]["id"], off["token"]).connect()
        state = await c.expect("state", lambda f: f["your_turn"])
        assert state["table"]["teach"] is False
        await c.send({"type": "teach", "state_id": state["state_id"]})
        err = await c.expect("error")
        assert err["code"] == "teach_off" and err["ref"] == "teach"
        # nothing changed: the move still goes through on the same state
        await c.send({"type": "move", "state_id": state["state_id"],
                      "move": state["legal_moves"][0]})
        await c.expect("state", lambda f: f["state_id"] == state["state_id"] + 1)
        await c.close()
        spectator = await Client(chat_server, off["table"]["id"], invite=off["invite"]).connect()
        assert (await spectator.expect("welcome"))["table"]["teach"] is False
        await spectator.close()
    asyncio.run(run())


def test_bad_teach_setting_is_refused(chat_server: ServerProcess) -> None:
    r = chat_server.post("/api/tables", {"name": "Anna", "teach": "sometimes"})
    assert r.status_code == 422


def test_fair_play_rules() -> None:
    assert table_teach(True, rated=False) and not table_teach(True, rated=True)
    assert not table_teach(False, rated=False)
    assert teach_refusal(True, False) is None
    assert "rated" in (teach_refusal(True, True) or "")
    assert "off" in (teach_refusal(False, False) or "")


def test_clean_text() -> None:
    assert clean_text(" a \n b\t", 10) == "a b"
    assert clean_text("a\u202eb\u0007c", 10) == "abc"  # bidi override, bell dropped
    assert clean_text("👩\u200d👩", 10) == "👩\u200d👩"  # an emoji sequence stays whole
    for raw, code in (("", "chat_empty"), ("\u200b", "chat_empty"), ("x" * 11, "chat_too_long"),
                      (None, "bad_message")):
        with pytest.raises(Refusal) as e:
            clean_text(raw, 10)
        assert e.value.code == code


def test_history_survives_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "chat-restart.sqlite"
    first = ServerProcess(db).start()
    try:
        async def before() -> tuple[str, str, list[int]]:
            tid, _, (a, b) = await seated(first)
            ids = [(await say(a, text="before the restart"))["id"],
                   (await say(b, phrase="chat.phrase.thanks"))["id"]]
            await a.send({"type": "mute", "author": "s1", "muted": True})
            await a.expect("muted")
            for c in (a, b):
                await c.close()
            return tid, str(b.token), ids

        tid, token, ids = asyncio.run(before())
    finally:
        first.kill()
    second = ServerProcess(db).start()
    try:
        hist = asyncio.run(history_of(second, tid, token))
        assert [m["id"] for m in hist["messages"]] == ids
        assert hist["messages"][1]["phrase"] == "chat.phrase.thanks"
    finally:
        second.stop()
