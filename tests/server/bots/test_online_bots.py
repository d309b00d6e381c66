"""Issue 43: bots online. A person makes a bot account and a token; an outside program
(a small Python bot speaking the bot protocol) goes online through ``scopa bot online``'s
bridge; a person challenges it and plays a rated match to the end through a real server;
the bot is marked as one, rated in the bots' pool, and each failure (a bad token, an
illegal play, a timeout, a crash) has a clear outcome."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from account_helpers import Browser, admin, fresh_name, signed_up
from server_helpers import Client, ServerProcess, play_human

from scopa.protocol.online import REFUSED, Bridge

#: a bot that plays the first legal move; with BOT_MODE it misbehaves on purpose
PROGRAM = r'''
import json, os, sys
mode = os.environ.get("BOT_MODE", "")
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "hello":
        print(json.dumps({"type": "ready", "name": "first-legal", "protocol": 1}), flush=True)
    elif msg["type"] == "move_request":
        if mode == "crash":
            sys.exit(3)
        print(json.dumps({"type": "move", "id": msg["id"], "move": msg["legal"][0]}),
              flush=True)
    elif msg["type"] == "quit":
        break
'''


@pytest.fixture(scope="module")
def server(database_url: str, tmp_path_factory: pytest.TempPathFactory
           ) -> Iterator[ServerProcess]:
    """On SQLite and on PostgreSQL."""
    proc = ServerProcess(tmp_path_factory.mktemp("bots") / "scopa.sqlite",
                         database_url=database_url,
                         SCOPA_TRUSTED_PROXIES="127.0.0.1", SCOPA_BOT_MOVE_SECONDS="3",
                         SCOPA_LEADERBOARD_MIN_GAMES="1").start()
    yield proc
    proc.stop()


@pytest.fixture(scope="module")
def program(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    path = tmp_path_factory.mktemp("prog") / "first_legal.py"
    path.write_text(PROGRAM)
    return [sys.executable, str(path)]


def make_bot(server: ServerProcess, **body: Any) -> tuple[Browser, str, str]:
    """An author, its new bot and a token of it."""
    author, _ = signed_up(server, "author")
    name = fresh_name("bot")
    r = author.post("/api/bots", {"name": name, **body})
    assert r.status_code == 201, r.text
    r = author.post(f"/api/bots/{name}/tokens", {"label": "laptop"})
    assert r.status_code == 201, r.text
    return author, name, r.json()["token"]


class Online:
    """A bridge running in this test's loop, its lines kept; ``line(text)`` waits for one
    that contains ``text``."""

    def __init__(self, bridge: Bridge) -> None:
        self.bridge = bridge
        self.lines: list[str] = []
        self.new = asyncio.Condition()
        bridge.say = self._say
        self.task: asyncio.Task[int] | None = None

    def _say(self, line: str) -> None:
        self.lines.append(line)

        async def notify() -> None:
            async with self.new:
                self.new.notify_all()
        asyncio.get_running_loop().create_task(notify())

    async def line(self, text: str, timeout: float = 30, nth: int = 1) -> str:
        """The ``nth`` line that contains ``text`` (waited for)."""
        async def find() -> str:
            async with self.new:
                while True:
                    found = [x for x in self.lines if text in x]
                    if len(found) >= nth:
                        return found[nth - 1]
                    await self.new.wait()
        return await asyncio.wait_for(find(), timeout)


@contextlib.asynccontextmanager
async def online(server: ServerProcess, token: str, command: list[str],
                 **kw: Any) -> AsyncIterator[Online]:
    o = Online(Bridge(server.base, token, command, **kw))
    o.task = asyncio.get_running_loop().create_task(o.bridge.run())
    try:
        await o.line("online as")
        yield o
    finally:
        o.task.cancel()
        with contextlib.suppress(BaseException):
            await o.task


def challenge(person: Browser, bot: str, rated: bool = True, **body: Any) -> dict[str, Any]:
    r = person.post("/api/tables", {"variant": "scopa", "target": 1, "rated": rated,
                                    "seats": [{"kind": "human"}, {"kind": "online", "bot": bot}],
                                    **body})
    assert r.status_code == 201, r.text
    made: dict[str, Any] = r.json()
    return made


def test_a_person_plays_an_outside_program_to_the_end_of_a_rated_match(server, program):
    asyncio.run(_a_person_plays_an_outside_program_to_the_end_of_a_rated_match(server, program))


async def _a_person_plays_an_outside_program_to_the_end_of_a_rated_match(server, program):
    author, bot, token = make_bot(server, variants=["scopa"], about="plays the first move")
    person, me = signed_up(server, "anna")
    async with online(server, token, program) as o:
        listed = person.get("/api/bot/online").json()["bots"]
        line = next(b for b in listed if b["name"] == bot)
        assert line["variants"] == ["scopa"] and line["author"] is not None
        made = challenge(person, bot)
        await o.line("accepted")
        c = await Client(server, made["table"]["id"], made["token"]).connect()
        end = await play_human(c, random.Random(1))
        await c.close()
        assert end["winner"] in (0, 1)
        await o.line("match over")
    seats = c.latest_state()["table"]["seats"]
    assert [s["bot_account"] for s in seats] == [False, True] and seats[1]["name"] == bot
    # rated apart: both in the bots' pool, neither in people's
    for name in (me, bot):
        ratings = person.get(f"/api/players/{name}").json()["ratings"]
        assert set(ratings) == {"bots-singles"}, (name, ratings)
    card = person.get(f"/api/players/{bot}").json()["bot"]
    assert card["about"] == "plays the first move" and card["variants"] == ["scopa"]
    assert person.get(f"/api/players/{me}").json()["bot"] is None
    board = person.get("/api/leaderboard/bots-singles").json()["entries"]
    assert {e["name"]: e["bot"] for e in board}[bot] is True


def test_a_bad_token_is_refused_in_one_clear_line(server, program):
    asyncio.run(_a_bad_token_is_refused_in_one_clear_line(server, program))


async def _a_bad_token_is_refused_in_one_clear_line(server, program):
    bridge = Bridge(server.base, "scb_not-a-token", program, once=True)
    lines: list[str] = []
    bridge.say = lines.append
    assert await bridge.run() == REFUSED
    assert any("this token opens no bot" in x for x in lines), lines


def test_a_revoked_token_opens_nothing_and_a_token_is_no_session(server):
    asyncio.run(_a_revoked_token_opens_nothing_and_a_token_is_no_session(server))


async def _a_revoked_token_opens_nothing_and_a_token_is_no_session(server):
    author, bot, token = make_bot(server)
    # the token is not a session: the account's changes refuse it
    r = httpx.post(server.base + "/api/account/password", json={"old": "x", "new": "y"},
                   headers={"Authorization": f"Bearer {token}"})
    assert r.status_code in (401, 403)
    mine = author.get("/api/bots").json()["bots"][0]
    assert mine["name"] == bot and "token" not in mine["tokens"][0]
    r = author.http.delete(f"/api/bots/{bot}/tokens/{mine['tokens'][0]['id']}",
                           headers={"X-CSRF-Token": author.csrf or ""})
    assert r.status_code == 204
    async with websockets.connect(f"{server.ws_base}/api/bot/connect",
                                  additional_headers={"Authorization": f"Bearer {token}"}) as ws:
        first = json.loads(await ws.recv())
    assert first["code"] == "bad_token"


def test_a_bot_account_never_signs_in_with_a_password(server):
    asyncio.run(_a_bot_account_never_signs_in_with_a_password(server))


async def _a_bot_account_never_signs_in_with_a_password(server):
    _, bot, _ = make_bot(server)
    r = Browser(server).sign_in(bot, "anything at all 123")
    assert r.status_code == 401


async def raw_bot(server: ServerProcess, token: str) -> Any:
    ws = await websockets.connect(f"{server.ws_base}/api/bot/connect",
                                  additional_headers={"Authorization": f"Bearer {token}"})
    welcome = json.loads(await ws.recv())
    assert welcome["type"] == "welcome", welcome
    return ws


async def next_of(ws: Any, kind: str, timeout: float = 30) -> dict[str, Any]:
    async def find() -> dict[str, Any]:
        while True:
            msg: dict[str, Any] = json.loads(await ws.recv())
            if msg["type"] == kind:
                return msg
    return await asyncio.wait_for(find(), timeout)


@contextlib.asynccontextmanager
async def seated(server: ServerProcess, seed: int) -> AsyncIterator[tuple[Any, dict[str, Any],
                                                                        asyncio.Task[Any]]]:
    """A bot on a raw socket, challenged by a person and accepting; the person plays on
    (as a task, to the match's end) while the test speaks for the bot: (socket, the
    challenge, the person's task)."""
    _, bot, token = make_bot(server)
    person, _ = signed_up(server, "pers")
    ws = await raw_bot(server, token)
    c = None
    try:
        made = challenge(person, bot, rated=False)
        offer = await next_of(ws, "challenge")
        await ws.send(json.dumps({"type": "accept", "id": offer["id"]}))
        c = await Client(server, made["table"]["id"], made["token"]).connect()
        task = asyncio.get_running_loop().create_task(play_human(c, random.Random(seed)))
        yield ws, offer, task
        task.cancel()
    finally:
        if c is not None:
            await c.close()
        await ws.close()


def test_an_illegal_play_is_refused_and_the_bot_may_answer_again(server):
    asyncio.run(_an_illegal_play_is_refused_and_the_bot_may_answer_again(server))


async def _an_illegal_play_is_refused_and_the_bot_may_answer_again(server):
    async with seated(server, 2) as (ws, offer, _):
        assert offer["from"] and offer["rules"]["variant"] == "scopa"
        req = await next_of(ws, "move_request")
        assert set(req["view"]) >= {"hand", "table"} and req["legal"]
        held = set(req["view"]["hand"])
        bad = {"card": next(x for x in ("1d", "2d", "3d", "4d") if x not in held),
               "capture": []}
        await ws.send(json.dumps({"type": "move", "table": req["table"], "id": req["id"],
                                  "move": bad}))
        err = await next_of(ws, "error")
        assert err["code"] == "illegal_move" and "legal" in err["message"]
        await ws.send(json.dumps({"type": "move", "table": req["table"], "id": req["id"],
                                  "move": req["legal"][0]}))
        again = await next_of(ws, "move_request")
        assert again["id"] != req["id"]


def test_a_bot_that_lets_its_time_run_out_is_replaced_by_the_stand_in(server):
    asyncio.run(_a_bot_that_lets_its_time_run_out_is_replaced_by_the_stand_in(server))


async def _a_bot_that_lets_its_time_run_out_is_replaced_by_the_stand_in(server):
    async with seated(server, 3) as (ws, _, person):
        await next_of(ws, "move_request")  # and no answer
        replaced = await next_of(ws, "replaced", timeout=60)
        assert "stand-in" in replaced["message"]
        end = await asyncio.wait_for(person, 120)  # the stand-in plays it out
        assert end["type"] == "match_end"


def test_a_program_that_crashes_is_restarted_then_given_up(server, program, monkeypatch):
    asyncio.run(_a_program_that_crashes_is_restarted_then_given_up(server, program, monkeypatch))


async def _a_program_that_crashes_is_restarted_then_given_up(server, program, monkeypatch):
    monkeypatch.setenv("BOT_MODE", "crash")
    _, bot, token = make_bot(server)
    person, _ = signed_up(server, "dora")
    async with online(server, token, program) as o:
        made = challenge(person, bot, rated=False)
        await o.line("accepted")
        c = await Client(server, made["table"]["id"], made["token"]).connect()
        task = asyncio.get_running_loop().create_task(play_human(c, random.Random(4)))
        await o.line("restarting it")
        await o.line("the program failed again")
        end = await asyncio.wait_for(task, 120)  # the stand-in plays the bot's seat
        assert end["type"] == "match_end"
        await c.close()


def test_a_challenge_to_a_bot_offline_or_declined_is_clear(server):
    asyncio.run(_a_challenge_to_a_bot_offline_or_declined_is_clear(server))


async def _a_challenge_to_a_bot_offline_or_declined_is_clear(server):
    _, bot, token = make_bot(server, variants=["scopa"])
    person, _ = signed_up(server, "elsa")
    r = person.post("/api/tables", {"variant": "scopa", "seats": [
        {"kind": "human"}, {"kind": "online", "bot": bot}]})
    assert r.status_code == 409 and "not online" in r.json()["detail"]
    ws = await raw_bot(server, token)
    try:
        r = person.post("/api/tables", {"variant": "escoba", "seats": [
            {"kind": "human"}, {"kind": "online", "bot": bot}]})
        assert r.status_code == 400 and "plays only scopa" in r.json()["detail"]
        made = challenge(person, bot, rated=False)
        c = await Client(server, made["table"]["id"], made["token"]).connect()
        await c.expect("state")  # seated: the table's close reaches this socket
        offer = await next_of(ws, "challenge")
        await ws.send(json.dumps({"type": "decline", "id": offer["id"],
                                  "reason": "busy\u202e\n now"}))
        told = await c.expect("error")
        assert told["code"] == "challenge_declined" and told["message"].endswith(": busy now")
        await c.close()
    finally:
        await ws.close()


def test_the_bot_survives_a_restart_of_its_worker(tmp_path, program):
    proc = ServerProcess(tmp_path / "scopa.sqlite", SCOPA_TRUSTED_PROXIES="127.0.0.1",
                         SCOPA_BOT_MOVE_SECONDS="5").start()
    try:
        asyncio.run(_survives_a_restart(proc, program))
    finally:
        proc.stop()


async def _survives_a_restart(proc: ServerProcess, program: list[str]) -> None:
    _, bot, token = make_bot(proc)
    person, _ = signed_up(proc, "gina")
    async with online(proc, token, program) as o:
        made = challenge(person, bot, rated=False)
        await o.line("accepted")
        tid = made["table"]["id"]
        c = await Client(proc, tid, made["token"]).connect()
        await c.expect("state", lambda f: f["view"] is not None)
        await c.close()
        proc.stop()
        proc.start()
        await o.line("online as", nth=2, timeout=60)  # reconnected by itself
        c = await Client(proc, tid, made["token"]).connect()
        end = await play_human(c, random.Random(5))
        await c.close()
        assert end["type"] == "match_end"
        await o.line("match over")


def test_a_suspended_bot_is_refused_and_bots_can_be_switched_off(server, tmp_path):
    _, bot, token = make_bot(server)
    assert "suspended until" in admin(server, "suspend", bot, "--days", "3")
    asyncio.run(_suspended(server, tmp_path, token))


async def _suspended(server: ServerProcess, tmp_path: Path, token: str) -> None:
    async with websockets.connect(f"{server.ws_base}/api/bot/connect",
                                  additional_headers={"Authorization": f"Bearer {token}"}) as ws:
        first = json.loads(await ws.recv())
    assert first["code"] == "suspended"
    off = ServerProcess(tmp_path / "off.sqlite", SCOPA_BOTS_ONLINE="false").start()
    try:
        async with websockets.connect(f"{off.ws_base}/api/bot/connect") as ws:
            first = json.loads(await ws.recv())
        assert first["code"] == "bots_off"
        r = httpx.post(off.base + "/api/tables", json={"seats": [
            {"kind": "human"}, {"kind": "online"}]})
        assert r.status_code == 400 and "does not let bots" in r.text
    finally:
        off.stop()


def test_an_author_deletes_a_bot_and_the_authors_account_takes_its_bots(server):
    author, bot, token = make_bot(server)
    stranger, _ = signed_up(server, "stranger")
    r = stranger.http.delete(f"/api/bots/{bot}", headers={"X-CSRF-Token": stranger.csrf or ""})
    assert r.status_code == 404  # not theirs: nothing changes
    r = author.http.delete(f"/api/bots/{bot}", headers={"X-CSRF-Token": ""})
    assert r.status_code == 403  # no CSRF token
    assert author.get(f"/api/players/{bot}").status_code == 200
    r = author.http.delete(f"/api/bots/{bot}", headers={"X-CSRF-Token": author.csrf or ""})
    assert r.status_code == 204
    assert author.get(f"/api/players/{bot}").status_code == 404
    asyncio.run(_refused(server, token, "bad_token"))
    # an author's account, deleted, takes its bots with it
    second = fresh_name("bot")
    assert author.post("/api/bots", {"name": second}).status_code == 201
    from account_helpers import PASSWORD
    assert author.post("/api/account/delete", {"password": PASSWORD}).status_code == 204
    assert stranger.get(f"/api/players/{second}").status_code == 404


async def _refused(server: ServerProcess, token: str, code: str) -> None:
    async with websockets.connect(f"{server.ws_base}/api/bot/connect",
                                  additional_headers={"Authorization": f"Bearer {token}"}) as ws:
        first = json.loads(await ws.recv())
    assert first["code"] == code, first


def test_what_a_bot_is_made_with_is_checked_and_bounded(server):
    author, _ = signed_up(server, "maker")
    r = author.post("/api/bots", {"name": fresh_name("bot"), "about": "evil\u202eline"})
    assert r.status_code == 400 and "control character" in r.json()["detail"]
    r = author.post("/api/bots", {"name": fresh_name("bot"), "variants": ["chess"]})
    assert r.status_code == 400 and "unknown variant" in r.json()["detail"]
    name = fresh_name("bot")
    assert author.post("/api/bots", {"name": name}).status_code == 201
    assert author.post("/api/bots", {"name": name.upper()}).status_code == 409
    for _ in range(10):
        assert author.post(f"/api/bots/{name}/tokens", {"label": "t"}).status_code == 201
    r = author.post(f"/api/bots/{name}/tokens", {"label": "t"})
    assert r.status_code == 409 and "revoke one" in r.json()["detail"]
    made = [author.post("/api/bots", {"name": fresh_name("bot")}).status_code for _ in range(3)]
    assert made == [201, 201, 409]  # three bots a person (the default)
    # a bot account makes no bot and takes no seat meant for a person
    r = author.post("/api/tables", {"seats": [{"kind": "online"}, {"kind": "online"}]})
    assert r.status_code == 400 and "play each other only unrated" in r.json()["detail"]


def test_a_bot_never_sits_where_a_player_blocked_it(server):
    asyncio.run(_blocked(server))


async def _blocked(server: ServerProcess) -> None:
    _, bot, token = make_bot(server)
    person, _ = signed_up(server, "hana")
    assert person.post("/api/friends/block", {"name": bot}).status_code in (200, 204)
    ws = await raw_bot(server, token)
    try:
        r = person.post("/api/tables", {"variant": "scopa", "public": True, "seats": [
            {"kind": "human"}, {"kind": "online"}]})
        assert r.status_code == 201, r.text
        offer = await next_of(ws, "challenge")
        assert offer["challenge"] is False
        await ws.send(json.dumps({"type": "accept", "id": offer["id"]}))
        gone = await next_of(ws, "offer_gone")
        assert "blocked" in gone["message"]
        # the socket's own bad input: a clear error each, the link goes on
        await ws.send("[" * 3000 + "]" * 3000)
        assert (await next_of(ws, "error"))["code"] in ("bad_message", "too_big")
        await ws.send(json.dumps({"type": "dance"}))
        assert "unknown message type" in (await next_of(ws, "error"))["message"]
        await ws.send(json.dumps({"type": "ping"}))
        await next_of(ws, "pong")
    finally:
        await ws.close()


def test_two_bots_play_each_other_only_when_both_authors_let_them(server, program):
    asyncio.run(_bot_against_bot(server, program))


async def _bot_against_bot(server: ServerProcess, program: list[str]) -> None:
    first_author, one, one_token = make_bot(server, allows_bots=True)
    second_author, two, two_token = make_bot(server)
    person, _ = signed_up(server, "ivo")
    body = {"variant": "scopa", "target": 1, "seats": [{"kind": "online", "bot": one},
                                                      {"kind": "online", "bot": two}]}
    async with online(server, one_token, program) as o1, online(server, two_token, program) as o2:
        r = person.post("/api/tables", body)
        assert r.status_code == 403 and "does not let it play other bots" in r.text
        r = first_author.post(f"/api/bots/{two}", {"allows_bots": True})
        assert r.status_code == 404  # another author's bot: nothing changes
        r = person.post("/api/tables", {**body, "rated": True})
        assert r.status_code == 400 and "unrated" in r.text
        r = second_author.post(f"/api/bots/{two}", {"allows_bots": True})
        assert r.status_code == 200 and r.json()["allows_bots"] is True
        r = person.post("/api/tables", body)
        assert r.status_code == 201, r.text
        await o1.line("accepted")
        await o2.line("accepted")
        await o1.line("match over", timeout=120)
        await o2.line("match over", timeout=120)


def test_the_limits_hold_when_thirty_requests_come_at_once(server):
    """Bots an author may make and tokens a bot may hold: 30 requests at once leave
    exactly the limit, the first ones made."""
    from concurrent.futures import ThreadPoolExecutor

    author, _ = signed_up(server, "rush")
    with ThreadPoolExecutor(30) as pool:
        made = list(pool.map(lambda i: author.post("/api/bots", {"name": fresh_name("b")}
                                                   ).status_code, range(30)))
    assert made.count(201) == 3 and made.count(409) == 27, made
    name = author.get("/api/bots").json()["bots"][0]["name"]
    with ThreadPoolExecutor(30) as pool:
        tokens = list(pool.map(lambda i: author.post(f"/api/bots/{name}/tokens",
                                                     {"label": "t"}).status_code, range(30)))
    assert tokens.count(201) == 10, tokens
    assert len(author.get("/api/bots").json()["bots"][0]["tokens"]) == 10
