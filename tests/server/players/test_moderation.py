"""Blocking and reporting a player, and the operator acting on reports (``scopa admin``),
on each store: a blocked player's chat and invitations never reach the blocker; a report
is kept once and listed for the operator; a muted account's chat is refused, a suspended
one is signed out and cannot sign in, until the operator lifts it."""

from __future__ import annotations

import asyncio
from typing import Any

from account_helpers import Browser, server, signed_up  # noqa: F401 - fixture
from server_helpers import Client, ServerProcess
from typer.testing import CliRunner

from scopa.cli import app


def admin(server: ServerProcess, *args: str) -> str:
    done = CliRunner().invoke(app, ["admin", *args, "--database-url", server.database_url])
    assert done.exit_code == 0, done.output
    return done.stdout


def seated_pair(server: ServerProcess, host: Browser, guest: Browser
                ) -> tuple[str, str, str, str]:
    """A table for two people, ``host`` on seat 0 and ``guest`` on seat 1."""
    r = host.post("/api/tables", {"target": 11, "seats": [{"kind": "human"},
                                                           {"kind": "human"}]})
    assert r.status_code == 201, r.text
    made = r.json()
    joined = guest.post(f"/api/invites/{made['invite']}/join", {"name": "x"})
    assert joined.status_code == 200, joined.text
    return made["table"]["id"], made["invite"], made["token"], joined.json()["token"]


async def chat_of(server: ServerProcess, table_id: str, token: str) -> Client:
    c = await Client(server, table_id, token).connect()
    await c.send({"type": "chat_open"})
    await c.expect("chat_history")
    return c


def test_a_blocked_player_s_chat_and_invitations_never_arrive(
        server: ServerProcess) -> None:
    me, my_name = signed_up(server, "blk")
    pest, pest_name = signed_up(server, "pst")
    table_id, invite, pest_token, my_token = seated_pair(server, pest, me)
    assert pest.post("/api/friends/follow", {"name": my_name}).status_code == 204
    assert pest.post("/api/friends/invite", {"name": my_name, "invite": invite}
                     ).status_code == 204
    assert len(me.get("/api/friends").json()["invitations"]) == 1  # before the block
    assert me.post("/api/friends/block", {"name": pest_name}).status_code == 204
    assert me.post("/api/friends/block", {"name": pest_name}).status_code == 204  # twice
    assert me.post("/api/friends/block", {"name": my_name}).status_code == 400
    assert me.get("/api/friends").json()["invitations"] == []  # sent before: hidden now
    # the block ended the pest's follow, and invitations go only to players one follows
    assert pest.post("/api/friends/invite", {"name": my_name, "invite": invite}
                     ).status_code == 403
    assert me.get("/api/friends").json()["invitations"] == []
    assert me.get(f"/api/players/{pest_name}").json()["blocked"] is True

    async def talk() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        mine = await chat_of(server, table_id, my_token)
        theirs = await chat_of(server, table_id, pest_token)
        await theirs.send({"type": "chat", "text": "you are bad"})
        await theirs.expect("chat", lambda f: f["message"].get("text") == "you are bad")
        await mine.send({"type": "chat", "text": "hello"})
        await mine.expect("chat", lambda f: f["message"].get("text") == "hello")
        await theirs.expect("chat", lambda f: f["message"].get("text") == "hello")
        for c in (mine, theirs):
            await c.close()
        return mine.frames, theirs.frames

    mine, _ = asyncio.run(talk())
    said = [f["message"].get("text") for f in mine if f["type"] == "chat"]
    assert said == ["hello"]  # the pest's message came before mine and never reached me
    assert me.post("/api/friends/unblock", {"name": pest_name}).status_code == 204
    assert me.get(f"/api/players/{pest_name}").json()["blocked"] is False


def test_a_report_reaches_the_operator_who_mutes_and_suspends(
        server: ServerProcess) -> None:
    me, my_name = signed_up(server, "rep")
    rude, rude_name = signed_up(server, "rud")
    r = me.post("/api/friends/report", {"name": rude_name, "reason": "insults at table"})
    assert r.status_code == 200 and r.json() == {"already": False}
    assert me.post("/api/friends/report", {"name": rude_name}).json() == {"already": True}
    assert me.post("/api/friends/report", {"name": my_name}).status_code == 400
    assert me.post("/api/friends/report", {"name": "nobody-at-all"}).status_code == 404
    assert Browser(server).post("/api/friends/report", {"name": rude_name}).status_code in (
        401, 403)
    listed = admin(server, "reports")
    line = next(x for x in listed.splitlines() if rude_name in x)
    assert f"by {my_name}" in line and "insults at table" in line and "[active]" in line

    table_id, _, rude_token, _ = seated_pair(server, rude, me)
    assert "chat muted until" in admin(server, "mute", rude_name, "--hours", "2")
    assert "[muted]" in next(x for x in admin(server, "reports").splitlines()
                             if rude_name in x)

    async def say(text: str) -> dict[str, Any]:
        c = await chat_of(server, table_id, rude_token)
        await c.send({"type": "chat", "text": text})
        answer = await c.expect("chat" if text == "sorry" else "error")
        await c.close()
        return answer

    refused = asyncio.run(say("again"))
    assert refused["code"] == "chat_muted" and "until" in refused["message"]
    assert "no longer muted" in admin(server, "mute", rude_name, "--hours", "0")
    assert asyncio.run(say("sorry"))["message"]["text"] == "sorry"

    assert "suspended until" in admin(server, "suspend", rude_name, "--days", "1")
    assert rude.me() is None  # signed out at once
    r = rude.sign_in(rude_name)
    assert r.status_code == 403 and "suspended" in r.json()["detail"]
    assert "no longer suspended" in admin(server, "suspend", rude_name, "--days", "0")
    assert rude.sign_in(rude_name).status_code == 200


def test_acting_on_an_unknown_name_is_one_line(server: ServerProcess) -> None:
    for args in (["mute", "Nobody"], ["suspend", "Nobody"]):
        done = CliRunner().invoke(app, ["admin", *args, "--database-url", server.database_url])
        assert done.exit_code == 1 and done.stderr.strip() == (
            "scopa admin: no account is named 'Nobody'")
