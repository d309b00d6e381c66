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


def refused(server: ServerProcess, *args: str) -> str:
    """``scopa admin`` refusing: exit status 1 and one line on stderr."""
    done = CliRunner().invoke(app, ["admin", *args, "--database-url", server.database_url])
    assert done.exit_code == 1, done.output
    return done.stderr.strip()


def test_reports_close_once_and_every_act_is_logged(server: ServerProcess) -> None:  # noqa: F811
    """Reports can be closed (a player's and a chat message's), once; every mute,
    suspension, lifting and closing goes to one log, with who and why; an act refused
    changes nothing."""
    me, _ = signed_up(server, "clo")
    rude, rude_name = signed_up(server, "lgd")
    assert me.post("/api/friends/report", {"name": rude_name, "reason": "cheats"}
                   ).status_code == 200
    line = next(x for x in admin(server, "reports").splitlines() if rude_name in x)
    report = line.split()[0].lstrip("#")

    table_id, _, rude_token, my_token = seated_pair(server, rude, me)

    async def chat_report() -> None:
        a = await chat_of(server, table_id, rude_token)
        b = await chat_of(server, table_id, my_token)
        await a.send({"type": "chat", "text": "something rude"})
        said = (await a.expect("chat"))["message"]
        await b.expect("chat", lambda f: f["message"]["id"] == said["id"])
        await b.send({"type": "report", "id": said["id"], "reason": "rude"})
        await b.expect("reported")
        for c in (a, b):
            await c.close()

    asyncio.run(chat_report())
    chat_line = next(x for x in admin(server, "reports").splitlines() if "something rude" in x)
    chat_report_id = chat_line.split()[0].lstrip("#")

    admin(server, "mute", rude_name, "--hours", "2", "--note", "insults", "--by", "anna")
    admin(server, "mute", rude_name, "--hours", "0", "--by", "anna")
    admin(server, "suspend", rude_name, "--days", "1", "--note", "again")
    admin(server, "suspend", rude_name, "--days", "0")
    assert admin(server, "close-report", report, "--note", "muted and suspended") == (
        f"player report #{report} closed\n")
    assert admin(server, "close-report", chat_report_id, "--chat") == (
        f"chat report #{chat_report_id} closed\n")
    listed = admin(server, "reports")
    assert rude_name not in listed and "something rude" not in listed
    everything = admin(server, "reports", "--all")
    assert " closed " in next(x for x in everything.splitlines() if rude_name in x)
    assert " closed " in next(x for x in everything.splitlines() if "something rude" in x)

    history = admin(server, "log", rude_name).splitlines()
    acts = [x.split()[2] for x in history]
    assert acts == ["close-report", "unsuspend", "suspend", "unmute", "mute"]
    assert history[0].endswith(f"#{report} {rude_name} by operator: muted and suspended")
    assert " until " in history[2] and history[2].endswith("by operator: again")
    assert history[3].endswith("by anna") and history[4].endswith("by anna: insults")
    assert any(f"close-chat-report #{chat_report_id}" in x
               for x in admin(server, "log").splitlines())

    # refused, and nothing changes: a report closed already or unknown, a note too long
    assert refused(server, "close-report", report) == (
        f"scopa admin: player report #{report} is closed already")
    assert refused(server, "close-report", chat_report_id, "--chat") == (
        f"scopa admin: chat report #{chat_report_id} is closed already")
    assert refused(server, "close-report", "999999") == (
        "scopa admin: no player report #999999")
    assert refused(server, "mute", rude_name, "--note", "x" * 201) == (
        "scopa admin: a note is at most 200 characters")
    assert admin(server, "log", rude_name).splitlines() == history
    assert "[active]" in next(x for x in admin(server, "reports", "--all").splitlines()
                              if rude_name in x)
