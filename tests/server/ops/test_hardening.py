"""What an outside attack found (issue 12), each as a test: forwarded headers, waiting
tables, one address locking others out, teach-me capacity, HTTP 500s on odd input, binary
frames, private tables, security headers, WebSocket origins, the operator's secret."""

from __future__ import annotations

import asyncio
import json
import re
import sqlite3
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from server_helpers import Client, ServerProcess

from scopa.match import Match
from scopa.view import PlayerView

OPERATOR = "operator-secret-for-tests-0123456789"


@pytest.fixture(scope="module")
def plain(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """Default trust (no proxies), a small creation burst, an operator secret."""
    db = tmp_path_factory.mktemp("plain") / "scopa.sqlite"
    proc = ServerProcess(db, SCOPA_CREATE_BURST="4", SCOPA_CREATE_PER_MINUTE="1",
                         SCOPA_OPERATOR_SECRET=OPERATOR).start()
    yield proc
    proc.stop()


def bots_only(**body: Any) -> dict[str, Any]:
    return {"name": "Anna", "seats": [{"kind": "bot", "level": "random"}] * 2, "target": 1,
            **body}


async def watch_to_the_end(server: ServerProcess, created: dict[str, Any]) -> None:
    c = await Client(server, created["table"]["id"], invite=created["invite"]).connect()
    await c.expect("match_end", timeout=60)
    await c.close()


# -- A1: forwarded headers, waiting tables, one address and the others ------------------
def test_forwarded_headers_are_not_believed_by_default(plain: ServerProcess) -> None:
    """Rotating X-Forwarded-For from one client gives no new creation allowance."""
    codes = []
    for i in range(6):
        r = httpx.post(plain.base + "/api/tables", json={"name": "A"},
                       headers={"X-Forwarded-For": f"203.0.113.{i}"}, timeout=10)
        codes.append(r.status_code)
    assert codes[:4] == [201] * 4 and codes[4:] == [429, 429], codes


def test_one_address_cannot_lock_the_others_out(tmp_path: Path) -> None:
    """Behind a trusted proxy each forwarded address has its own cap on waiting tables;
    the server's cap counts live tables only (finished ones do not hold a place)."""
    srv = ServerProcess(tmp_path / "cap.sqlite", SCOPA_TRUSTED_PROXIES="127.0.0.1",
                        SCOPA_MAX_WAITING_PER_ADDRESS="2", SCOPA_MAX_LIVE_TABLES="5").start()

    def create(address: str, **body: Any) -> httpx.Response:
        waits = {"name": "A", "seats": [{"kind": "human"}] * 2}
        return httpx.post(srv.base + "/api/tables", json=body or waits,
                          headers={"X-Forwarded-For": address}, timeout=10)

    try:
        assert [create("198.51.100.1").status_code for _ in range(4)] == [201, 201, 429, 429]
        r = create("198.51.100.1")
        assert r.status_code == 429 and "waiting" in r.json()["detail"]
        assert create("198.51.100.2").status_code == 201  # another address is not locked out
        finished = [create("198.51.100.3", **bots_only()).json() for _ in range(2)]

        async def run() -> None:
            await asyncio.gather(*(watch_to_the_end(srv, f) for f in finished))

        asyncio.run(run())
        # 3 waiting + 2 finished in memory: two more live tables fit, then the server is full
        assert create("198.51.100.4").status_code == 201
        assert create("198.51.100.5").status_code == 201
        r = create("198.51.100.6")
        assert r.status_code == 503 and "full" in r.json()["detail"]
    finally:
        srv.stop()


def test_expired_waiting_tables_do_not_come_back_after_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "expiry.sqlite"
    first = ServerProcess(db).start()
    try:
        old = first.create(seats=[{"kind": "human"}, {"kind": "human"}], public=True)
        fresh = first.create(seats=[{"kind": "human"}, {"kind": "human"}], public=True)
    finally:
        first.stop()
    # the first table was made two hours ago (the default limit is 30 minutes)
    with sqlite3.connect(db) as con:
        past = (datetime.now(UTC) - timedelta(hours=2)).strftime("%Y-%m-%d %H:%M:%S.%f")
        con.execute("UPDATE tables SET created_at = ? WHERE id = ?", (past, old["table"]["id"]))
    second = ServerProcess(db, port=first.port).start()
    try:
        assert second.get(f"/api/invites/{old['invite']}").status_code == 404
        r = second.post(f"/api/invites/{old['invite']}/join", {"name": "B"})
        assert r.status_code == 404
        listed = [t["id"] for t in second.get("/api/tables").json()["tables"]]
        assert listed == [fresh["table"]["id"]]
        assert second.join(fresh["invite"])["table"]["status"] == "playing"
    finally:
        second.stop()
    with sqlite3.connect(db) as con:
        status = dict(con.execute("SELECT id, status FROM tables").fetchall())
    assert status == {old["table"]["id"]: "expired", fresh["table"]["id"]: "playing"}


async def waiting_table(tmp_path: Path) -> tuple[Any, Any, Any]:
    """A master in this process (no bots) on a fresh SQLite store, and a two-person table
    where A sits waiting for a second player; tables expire after 5 minutes."""
    from scopa.rules import Rules
    from scopa.server.common.settings import Settings
    from scopa.server.play.master import Master
    from scopa.server.play.spec import TableSpec
    from scopa.server.store.database import Store

    store = Store(f"sqlite:///{tmp_path / 'm.sqlite'}")
    await store.migrate()
    master = Master(Settings(waiting_table_minutes=5), store, pool=None,  # type: ignore[arg-type]
                    secret="s")
    humans = [{"kind": "human"}, {"kind": "human"}]
    table, _, _ = await master.create_table(TableSpec(
        Rules.preset("scopa"), humans, 60, creator="A", creator_seat=0))
    return store, master, table


def test_a_waiting_table_expires_while_the_server_runs(tmp_path: Path) -> None:
    """The master closes a table that waited too long: stored as expired, its invite no
    longer works, its sockets are told why and closed."""
    from scopa.server.common.refusal import Refusal

    class Socket:
        seat: int | None = 0

        def __init__(self) -> None:
            self.sent: list[dict[str, Any]] = []
            self.closed: tuple[int, str] | None = None

        def send(self, text: str) -> None:
            self.sent.append(json.loads(text))

        def close_after_queue(self, code: int, reason: str) -> None:
            self.closed = (code, reason)

    async def run() -> None:
        store, master, table = await waiting_table(tmp_path)
        sock = Socket()
        await master.attach(table, sock)
        await master.sweep()
        assert table.id in master.tables  # young: stays
        table.created_at -= timedelta(minutes=6)
        await master.sweep()
        assert table.id not in master.tables and table.invite not in master.by_invite
        assert sock.sent[-1]["code"] == "table_expired" and sock.closed == (4004, "table expired")
        with pytest.raises(Refusal) as err:
            await master.join(table.invite, "B", None)
        assert err.value.code == "not_found"
        assert await store.load_active() == []
        await store.close()

    asyncio.run(run())


def test_a_join_in_progress_is_not_undone_by_expiry(tmp_path: Path) -> None:
    """The store is awaited, so a sweep can come while a join is seating its player: the
    join finishes first (the table lock), and the table it filled starts instead of
    expiring under the players."""

    async def run() -> None:
        store, master, table = await waiting_table(tmp_path)
        async with table.lock:  # a write of this table is in flight
            join = asyncio.create_task(master.join(table.invite, "B", None))
            await asyncio.sleep(0)  # the join runs up to the lock and queues for it
            table.created_at -= timedelta(minutes=6)
            sweep = asyncio.create_task(master.sweep())
            await asyncio.sleep(0)  # the expiry queues behind the join
        await join
        await sweep
        assert table.status == "playing" and table.id in master.tables
        assert [t.table.status for t in await store.load_active()] == ["playing"]
        await store.close()

    asyncio.run(run())


# -- A2: teach-me has capacity of its own, shared fairly, with a bound ------------------
def test_bots_never_wait_behind_analyses() -> None:
    import time

    from scopa.server.play.botpool import AnalysisBusy, BotPool

    async def run() -> None:
        pool = BotPool(1, analysis_workers=1, analysis_queue=1)
        try:
            await pool.warm()
            view = PlayerView.of(Match.new("scopa", seed=1).hand, 0)
            # the analysis worker is busy for a long while ...
            busy = asyncio.ensure_future(pool.analysis.run(time.sleep, 3))
            # ... and a bot still answers at once, before the analysis is done
            move = await pool.choose("random", view, None, 1)
            assert move in [m.to_dict() for m in view.legal_moves()]
            assert not busy.done()
            # one running and one waiting at most: a third analysis is refused at once
            results = await asyncio.gather(*(pool.analyse(view, 0.05) for _ in range(3)),
                                           return_exceptions=True)
            assert [isinstance(r, AnalysisBusy) for r in results] == [False, False, True]
            assert pool.analyses_in_flight == 0
            await busy
        finally:
            pool.close()

    asyncio.run(run())


@pytest.fixture(scope="module")
def teacher(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One analysis at a time on the whole server, each taking its time."""
    db = tmp_path_factory.mktemp("teach") / "scopa.sqlite"
    proc = ServerProcess(db, SCOPA_ANALYSIS_WORKERS="1", SCOPA_ANALYSIS_QUEUE="0",
                         SCOPA_BOT_SECONDS="2").start()
    yield proc
    proc.stop()


async def my_turn(server: ServerProcess, tabs: int = 1) -> tuple[list[Client], int]:
    """Sockets (``tabs`` of them) on the human seat of a new table, at the seat's turn."""
    while True:
        created = server.create(seats=[{"kind": "human"}, {"kind": "bot", "level": "random"}])
        tid, token = created["table"]["id"], created["token"]
        clients = [await Client(server, tid, token).connect() for _ in range(tabs)]
        state = await clients[0].expect("state", lambda f: f["view"] is not None)
        if not state["your_turn"]:  # the bot leads: wait for its move
            state = await clients[0].expect("state", lambda f: f["your_turn"])
        for c in clients[1:]:
            await c.expect("state", lambda f, sid=state["state_id"]: f["state_id"] == sid)
        return clients, state["state_id"]


async def teach_answer(client: Client) -> dict[str, Any]:
    """The next answer to a teach: an analysis or an error about it."""
    async def find() -> dict[str, Any]:
        while True:
            f = await client.queue.get()
            if f["type"] == "analysis" or (f["type"] == "error" and f.get("ref") == "teach"):
                return f
    return await asyncio.wait_for(find(), 60)


def test_a_full_analysis_queue_answers_busy(teacher: ServerProcess) -> None:
    async def run() -> None:
        (a,), sid_a = await my_turn(teacher)
        (b,), sid_b = await my_turn(teacher)
        await a.send({"type": "teach", "state_id": sid_a})
        await b.send({"type": "teach", "state_id": sid_b})
        got = {c: await teach_answer(c) for c in (a, b)}
        assert sorted(f["type"] for f in got.values()) == ["analysis", "error"], got
        (late, refused), = [(c, f) for c, f in got.items() if f["type"] == "error"]
        assert refused["code"] == "busy" and "try again" in refused["message"]
        # the first one done, asking again works
        await late.send({"type": "teach", "state_id": sid_a if late is a else sid_b})
        assert (await teach_answer(late))["type"] == "analysis"
        for c in (a, b):
            await c.close()

    asyncio.run(run())


def test_one_analysis_per_seat_even_from_two_tabs(teacher: ServerProcess) -> None:
    async def run() -> None:
        (a, a2), sid = await my_turn(teacher, tabs=2)
        await a.send({"type": "teach", "state_id": sid})
        await a2.send({"type": "teach", "state_id": sid})
        first = await teach_answer(a)
        refused = await teach_answer(a2)
        assert first["type"] == "analysis", first
        assert refused["code"] == "rate_limited", refused
        # asked again, the second tab gets the same answer (kept per state)
        await a2.send({"type": "teach", "state_id": sid})
        assert (await teach_answer(a2))["moves"] == first["moves"]
        for c in (a, a2):
            await c.close()

    asyncio.run(run())


# -- H1-H3: odd input gets a 4xx with a readable body, never a 500 ----------------------
def test_every_integer_parameter_is_bounded() -> None:
    from scopa.server import create_app

    schema = create_app().openapi()
    unbounded = []
    for path, ops in schema["paths"].items():
        for op in ops.values():
            for p in op.get("parameters", []):
                s = p.get("schema", {})
                if s.get("type") in ("integer", "number") and "maximum" not in s:
                    unbounded.append(f"{path} {p['name']}")
    # the bodies the server reads (its answers' schemas are components too: not inputs)
    components = schema["components"]["schemas"]
    inputs: set[str] = set()
    todo = [json.dumps(op.get("requestBody", {})) for ops in schema["paths"].values()
            for op in ops.values()]
    while todo:
        for ref in re.findall(r'"#/components/schemas/([^"]+)"', todo.pop()):
            if ref not in inputs:
                inputs.add(ref)
                todo.append(json.dumps(components[ref]))
    assert {"CreateTable", "JoinTable", "SeatSpec"} <= inputs
    for name in sorted(inputs):
        for field, s in components[name].get("properties", {}).items():
            for option in [s, *s.get("anyOf", [])]:
                if option.get("type") in ("integer", "number") and "maximum" not in option:
                    unbounded.append(f"{name}.{field}")
    assert unbounded == []


@pytest.mark.parametrize("query", ["offset=9223372036854775808", "offset=-1", "limit=10**9",
                                   "limit=99999999999999999999999"])
def test_huge_numbers_in_queries_are_refused(plain: ServerProcess, query: str) -> None:
    r = plain.get(f"/api/matches?{query}")
    assert r.status_code == 422 and r.json()["detail"]


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded",
                                          "multipart/form-data; boundary=x",
                                          "application/json"])
@pytest.mark.parametrize("path", ["/api/tables", "/api/invites/abc/join"])
def test_bodies_that_are_not_utf8_are_refused(server: ServerProcess, path: str,
                                              content_type: str) -> None:
    r = httpx.post(server.base + path, content=b"\xff\xfe\x00{", timeout=10,
                   headers={"Content-Type": content_type})
    assert r.status_code in (400, 404, 422), r.text
    assert r.json()["detail"]


@pytest.mark.parametrize("body", [
    "1e999", "-1e999", "NaN", '{"name":"A","grace_seconds":NaN}',
    '{"name":"A","grace_seconds":Infinity}', '{"name":"A","players":1e999}',
    '{"name":"A","target":-Infinity}', '{"name":"A","options":{"x":NaN}}',
    '{"name":"A","seats":[{"kind":NaN}]}',
])
def test_numbers_json_cannot_carry_are_refused(server: ServerProcess, body: str) -> None:
    before = server.get("/api/tables").json()
    r = httpx.post(server.base + "/api/tables", content=body, timeout=10,
                   headers={"Content-Type": "application/json"})
    assert 400 <= r.status_code < 500, r.text
    assert r.json()["detail"]
    assert server.get("/api/tables").json() == before


@pytest.mark.parametrize("body", ['{"name":"B","seat":1e999}', '{"name":"B","seat":NaN}',
                                  '{"name":NaN}', "-Infinity"])
def test_numbers_json_cannot_carry_are_refused_on_join(server: ServerProcess, body: str) -> None:
    invite = server.create(seats=[{"kind": "human"}] * 2)["invite"]
    r = httpx.post(f"{server.base}/api/invites/{invite}/join", content=body, timeout=10,
                   headers={"Content-Type": "application/json"})
    assert r.status_code == 422 and r.json()["detail"], r.text


def test_error_bodies_are_always_json() -> None:
    from scopa.server.common.errors import json_safe

    odd = {"a": float("nan"), "b": [float("inf"), b"\xff\xfe", ("x" * 1000)], 3: object()}
    text = json.dumps(json_safe(odd), allow_nan=False)
    assert "nan" in text and "inf" in text and len(text) < 1000


# -- W1: binary frames, before and after hello ------------------------------------------
def test_binary_frames_are_refused_before_and_after_hello(server: ServerProcess) -> None:
    async def run() -> None:
        created = server.create(seats=[{"kind": "human"}, {"kind": "human"}])
        tid = created["table"]["id"]
        hello = json.dumps({"type": "hello", "token": created["token"]}).encode()
        first = Client(server, tid)
        await first.connect(hello)  # type: ignore[arg-type]
        err = await first.expect("error")
        assert err["code"] == "bad_message" and "binary" in err["message"]
        await asyncio.wait_for(first.closed.wait(), 5)
        assert first.ws.close_code == 4001
        c = await Client(server, tid, created["token"]).connect()
        await c.expect("state")
        await c.send(json.dumps({"type": "ping", "t": 1}).encode())  # type: ignore[arg-type]
        err = await c.expect("error")
        assert err["code"] == "bad_message" and "binary" in err["message"]
        await c.send({"type": "ping", "t": 2})  # the socket is still open and answers
        assert (await c.expect("pong"))["t"] == 2
        assert not [f for f in c.frames if f["type"] == "pong" and f["t"] == 1]
        await c.close()

    asyncio.run(run())


# -- P1: private tables stay private ----------------------------------------------------
def test_private_tables_are_not_listed_nor_watched_without_the_invite(
    server: ServerProcess,
) -> None:
    private = server.create(**bots_only(public=False))
    public = server.create(**bots_only(public=True))

    async def run() -> None:
        await asyncio.gather(watch_to_the_end(server, private), watch_to_the_end(server, public))
        for hello in ({"type": "hello", "spectate": True},
                      {"type": "hello", "spectate": True, "invite": "wrong-invite-code"},
                      {"type": "hello", "spectate": True, "invite": public["invite"]}):
            c = Client(server, private["table"]["id"])
            await c.connect(hello)
            assert (await c.expect("error"))["code"] == "bad_token"
            await asyncio.wait_for(c.closed.wait(), 5)
            assert c.ws.close_code == 4003
            assert not [f for f in c.frames if f["type"] in ("welcome", "state")]
        c = await Client(server, public["table"]["id"]).connect()  # public: anyone watches
        await c.expect("state")
        await c.close()

    asyncio.run(run())
    listed = server.get("/api/matches?limit=200").json()
    tables = {m["table_id"] for m in listed["matches"]}
    assert public["table"]["id"] in tables and private["table"]["id"] not in tables
    assert listed["total"] == len(listed["matches"])
    assert server.get(f"/api/tables/{private['table']['id']}").status_code == 404


# -- S1: security headers ---------------------------------------------------------------
@pytest.mark.parametrize("path", ["/", "/t/abc", "/static/js/main.js", "/static/css/base.css",
                                  "/api/meta", "/api/tables/nope", "/api/matches?limit=x",
                                  "/openapi.json", "/no/such/page"])
def test_every_response_carries_the_security_headers(plain: ServerProcess, path: str) -> None:
    r = plain.get(path)
    csp = r.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    assert "frame-ancestors 'none'" in csp and "object-src 'none'" in csp
    assert r.headers["x-frame-options"] == "DENY"
    assert r.headers["x-content-type-options"] == "nosniff"
    assert r.headers["referrer-policy"] == "no-referrer"


def test_the_api_page_admits_only_its_own_inline_script(plain: ServerProcess) -> None:
    r = plain.get("/docs")
    assert r.status_code == 200
    csp = r.headers["content-security-policy"]
    script_src = next(d for d in csp.split(";") if d.strip().startswith("script-src"))
    assert "'sha256-" in script_src and "unsafe-inline" not in script_src
    assert r.headers["x-frame-options"] == "DENY"


def test_the_page_has_nothing_inline_a_strict_csp_would_block() -> None:
    import re

    web = Path(__file__).resolve().parents[3] / "src" / "scopa" / "web"
    bad = []
    for page in [web / "index.html", *sorted((web / "content").glob("*.html"))]:
        text = page.read_text()
        bad += [f"{page.name}: inline script" for _ in re.finditer(r"<script(?![^>]*\ssrc=)",
                                                                   text)]
        bad += [f"{page.name}: {m.group(0)}" for m in re.finditer(r"<style|\sstyle=|\son\w+=",
                                                                  text)]
    for js in sorted((web / "js").glob("*.js")):
        text = js.read_text()
        # an attribute object with a style key, innerHTML, eval: all blocked or unsafe
        bad += [f"{js.name}: {m.group(0)}" for m in re.finditer(
            r"[{,]\s*style\s*:|setAttribute\(\s*[\"']style|innerHTML\s*=|\beval\(|new Function",
            text)]
    assert bad == []


# -- S2: WebSocket origins --------------------------------------------------------------
def test_websockets_from_a_foreign_origin_are_refused(server: ServerProcess) -> None:
    created = server.create(seats=[{"kind": "human"}, {"kind": "human"}], public=True)
    url = f"{server.ws_base}/ws/{created['table']['id']}"

    async def run() -> None:
        for origin in ("http://evil.example", "null", f"http://127.0.0.1:{server.port}.evil",
                       "http://localhost:1"):
            with pytest.raises(websockets.InvalidStatus) as err:
                await websockets.connect(url, origin=origin)  # type: ignore[arg-type]
            assert err.value.response.status_code == 403
        # the page's own origin (the same host as the request) is let in
        ws = await websockets.connect(url, origin=f"http://127.0.0.1:{server.port}")  # type: ignore[arg-type]
        await ws.send(json.dumps({"type": "hello", "spectate": True}))
        assert json.loads(await ws.recv())["type"] == "welcome"
        await ws.close()

    asyncio.run(run())


def test_configured_public_origins_are_the_only_ones() -> None:
    from scopa.server.common.security import origin_allowed
    from scopa.server.common.settings import Settings

    default = Settings()
    assert origin_allowed(None, "a.example", default)  # a program, not a browser page
    assert origin_allowed("https://a.example", "a.example", default)
    assert origin_allowed("HTTP://A.example:8000/", "a.example:8000", default)
    assert not origin_allowed("https://b.example", "a.example", default)
    assert not origin_allowed("https://a.example", None, default)
    assert not origin_allowed("file://", "a.example", default)
    configured = Settings(public_origins="https://scopa.example, https://www.scopa.example/")
    assert origin_allowed("https://www.scopa.example", "internal:8000", configured)
    assert not origin_allowed("https://internal:8000", "internal:8000", configured)


# -- S3: the operator's secret ----------------------------------------------------------
def test_operator_actions_need_the_operator_secret(plain: ServerProcess) -> None:
    url = plain.base + "/api/health?reset=true"
    for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": OPERATOR},
                    {"Authorization": f"Basic {OPERATOR}"}):
        r = httpx.get(url, headers=headers, timeout=10)
        assert r.status_code == 401, (headers, r.text)
    r = httpx.get(url, headers={"Authorization": f"Bearer {OPERATOR}"}, timeout=10)
    assert r.status_code == 200 and r.json()["ok"] is True


def test_uvicorn_believes_forwarded_headers_only_from_trusted_proxies() -> None:
    from scopa.server.common.settings import Settings

    assert Settings().proxy_options() == {"proxy_headers": False, "forwarded_allow_ips": []}
    assert Settings(trusted_proxies="10.0.0.1, 10.1.0.0/16").proxy_options() == {
        "proxy_headers": True, "forwarded_allow_ips": ["10.0.0.1", "10.1.0.0/16"]}
