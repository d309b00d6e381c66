"""Helpers for the server tests: a real server process on a free loopback port, and a
WebSocket client that records every frame it receives."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import pytest
import websockets
from services import BROKER_URL, dsn, fresh_database, redis_prefix

ROOT = Path(__file__).resolve().parents[2]
#: seconds a test server may take to answer (a busy 2-core machine needs a while to import
#: and warm its bot workers; a server that never answers still fails, after this)
START_TIMEOUT = 120

CARD_RE = re.compile(r"^(10|[1-9])[dcsb]$")
CARD_WORD = re.compile(r"\b(10|[1-9])[dcsb]\b")

#: settings for test servers: no pauses, fast bots, quick stand-ins
TEST_ENV = {
    "SCOPA_BOT_DELAY_SECONDS": "0",
    "SCOPA_HAND_PAUSE_SECONDS": "0.05",
    "SCOPA_BOT_WORKERS": "1",
    "SCOPA_BOT_SECONDS": "0.05",
    "SCOPA_STANDIN_LEVEL": "random",
    "SCOPA_GRACE_SECONDS": "30",
    # test clients play faster than people; the flood test uses its own server
    "SCOPA_RATE_PER_SECOND": "1000",
    "SCOPA_RATE_BURST": "1000",
    "SCOPA_CREATE_BURST": "10000",
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServerProcess:
    """``scopa serve`` in a subprocess (so it can really be killed), on the SQLite file
    ``db`` or on ``database_url`` (its log goes next to ``db`` either way)."""

    def __init__(self, db: Path, port: int | None = None, database_url: str | None = None,
                 **env: str) -> None:
        self.db = db
        self.database_url = database_url or f"sqlite:///{db}"
        self.port = port or free_port()
        self.env = {**os.environ, **TEST_ENV, **env, "PYTHONPATH": str(ROOT / "src")}
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = db.with_suffix(".log")

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_base(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> ServerProcess:
        cmd = [
            sys.executable, "-m", "scopa.server",
            "--port", str(self.port), "--database-url", self.database_url,
            "--log-level", os.environ.get("SCOPA_TEST_LOG", "warning"),
        ]
        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen(cmd, env=self.env, stdout=out, stderr=out)
        # a safety net only: start-up is over when the server answers (on a busy 2-core
        # machine that can take a while)
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("server died:\n" + self.log.read_text())
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(self.base + "/api/meta", timeout=1).status_code == 200:
                    return self
            time.sleep(0.1)
        # a server that did not answer in time must not live on (and load the machine
        # for every test after it, or against a database about to be dropped): stop it,
        # its bot workers with it
        self.stop()
        raise RuntimeError("server did not start:\n" + self.log.read_text())

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs. Its bot processes, orphaned, are ended after it
        (they would idle on, loading the machine, until the test run ends)."""
        if self.proc is not None and self.proc.poll() is None:
            found = subprocess.run(["pgrep", "-P", str(self.proc.pid)], capture_output=True,
                                   text=True, check=False)
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)
            for pid in found.stdout.split():
                with contextlib.suppress(OSError):
                    os.kill(int(pid), signal.SIGKILL)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

    # -- HTTP ---------------------------------------------------------------------------
    def post(self, path: str, body: Any) -> httpx.Response:
        return httpx.post(self.base + path, json=body, timeout=10)

    def get(self, path: str) -> httpx.Response:
        return httpx.get(self.base + path, timeout=10)

    def create(self, **body: Any) -> dict[str, Any]:
        r = self.post("/api/tables", {"name": "Anna", **body})
        assert r.status_code == 201, r.text
        data: dict[str, Any] = r.json()
        return data

    def join(self, invite: str, name: str = "Bruno", seat: int | None = None) -> dict[str, Any]:
        r = self.post(f"/api/invites/{invite}/join", {"name": name, "seat": seat})
        assert r.status_code == 200, r.text
        data: dict[str, Any] = r.json()
        return data


class Client:
    """One WebSocket connection; every frame it gets is kept in ``frames``."""

    def __init__(self, server: ServerProcess, table_id: str, token: str | None = None,
                 invite: str | None = None) -> None:
        self.url = f"{server.ws_base}/ws/{table_id}"
        self.token = token
        self.invite = invite
        self.frames: list[dict[str, Any]] = []
        self.queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.ws: Any = None
        self.reader: asyncio.Task[None] | None = None
        self.closed = asyncio.Event()

    async def connect(self, hello: dict[str, Any] | None = None) -> Client:
        self.ws = await websockets.connect(self.url, max_size=2**22)
        if hello is None:
            hello = {"type": "hello", "token": self.token} if self.token else {
                "type": "hello", "spectate": True}
            if self.invite and not self.token:
                hello["invite"] = self.invite
        with contextlib.suppress(websockets.ConnectionClosed):
            await self.send(hello)
        self.reader = asyncio.get_running_loop().create_task(self._read())
        return self

    async def _read(self) -> None:
        try:
            async for raw in self.ws:
                frame = json.loads(raw)
                self.frames.append(frame)
                self.queue.put_nowait(frame)
        except websockets.ConnectionClosed:
            pass
        finally:
            self.closed.set()

    async def send(self, frame: Any) -> None:
        await self.ws.send(frame if isinstance(frame, str | bytes) else json.dumps(frame))

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self.reader is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.reader, 5)

    async def expect(self, kind: str, pred: Any = None, timeout: float = 30) -> dict[str, Any]:
        """The next frame of type ``kind`` (matching ``pred``), skipping others."""
        async def find() -> dict[str, Any]:
            while True:
                f = await self.queue.get()
                if f["type"] == kind and (pred is None or pred(f)):
                    return f
        return await asyncio.wait_for(find(), timeout)

    def latest_state(self) -> dict[str, Any]:
        return [f for f in self.frames if f["type"] == "state"][-1]

    async def drain(self, quiet: float = 0.2) -> None:
        """Wait until no frame has come for ``quiet`` seconds, then empty the queue."""
        while True:
            try:
                await asyncio.wait_for(self.queue.get(), quiet)
            except TimeoutError:
                return


async def play_human(
    client: Client, rng: random.Random, until: str = "match_end", timeout: float = 120
) -> dict[str, Any]:
    """Play like a person: on my turn pick a legal move, after a hand say "next"; stop at
    the first frame of type ``until`` and return it."""
    acted: set[int] = set()

    async def loop() -> dict[str, Any]:
        while True:
            f = await client.queue.get()
            if f["type"] == until:
                return f
            if f["type"] == "error":
                raise AssertionError(f"server refused a legal-looking frame: {f}")
            if f["type"] == "hand_end":
                await client.send({"type": "next"})
            if f["type"] != "state" or not f["your_turn"] or not client.queue.empty():
                continue
            sid = f["state_id"]
            if sid in acted:
                continue
            acted.add(sid)
            move = rng.choice(f["legal_moves"])
            await client.send({"type": "move", "state_id": sid, "move": move})

    return await asyncio.wait_for(loop(), timeout)


# -- the secrecy check ------------------------------------------------------------------
def positions_by_seq(replay: dict[str, Any]) -> list[dict[str, Any]]:
    """Positions indexed by event count - 1 (state_id = match * 1e6 + event count)."""
    flat: list[dict[str, Any]] = []
    for hand in replay["hands"]:
        flat.extend(hand["positions"])
    return flat


def card_strings(obj: Any, out: list[str]) -> None:
    """Every card text in a frame: exact card strings, and card words inside prose."""
    if isinstance(obj, str):
        if CARD_RE.match(obj):
            out.append(obj)
        elif len(obj) > 3 and " " in obj:
            out.extend(m.group(0) for m in CARD_WORD.finditer(obj))
    elif isinstance(obj, dict):
        for v in obj.values():
            card_strings(v, out)
    elif isinstance(obj, list):
        for v in obj:
            card_strings(v, out)


def secrecy_violations(
    frames: list[dict[str, Any]], seat: int | None, replay: dict[str, Any], match_number: int
) -> list[str]:
    """Frames that hold a card the seat could not see at that moment, or a seed before its
    hand ended. Ground truth comes from the finished match's replay (all revealed)."""
    flat = positions_by_seq(replay)
    seeds = [(h["seed"], h) for h in replay["hands"]]
    # the event count at which each hand ends (its last position)
    ends = []
    count = 0
    for hand in replay["hands"]:
        count += len(hand["positions"])
        ends.append(count)
    bad = []
    current = None
    for f in frames:
        sid = f.get("state_id")
        if isinstance(sid, int):
            current = sid % 1_000_000 if sid // 1_000_000 == match_number else None
        if current is None:
            continue
        pos = flat[current - 1]
        hidden = set(pos["stock"])
        for s, hand in enumerate(pos["hands"]):
            if s != seat:
                hidden |= set(hand)
        # a declared hand (Cirulla) is public while its cards are held
        hidden -= {c for shown in pos.get("declarations", {}).get("shown", []) for c in shown}
        found: list[str] = []
        card_strings(f, found)
        leaked = sorted(set(found) & hidden)
        if leaked:
            bad.append(f"seat {seat} got {leaked} in {f['type']} at event {current}")
        text = json.dumps(f)
        for (seed, _), end in zip(seeds, ends, strict=True):
            if current < end and seed in text:
                bad.append(f"seat {seat} got an unrevealed seed in {f['type']}")
    return bad


class Conn:
    """A socket as the master sees it (in-process tests): it keeps every frame."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.frames: list[dict[str, Any]] = []

    def send(self, text: str) -> None:
        self.frames.append(json.loads(text))

    def of(self, kind: str) -> list[dict[str, Any]]:
        return [f for f in self.frames if f["type"] == kind]


async def play_moves(client: Client, rng: random.Random, moves: int) -> dict[str, Any]:
    """Play ``moves`` of my moves (saying "next" between hands); return the state on
    which it is my turn again afterwards."""
    done = 0
    acted: set[int] = set()
    while True:
        f = await asyncio.wait_for(client.queue.get(), 60)
        if f["type"] == "hand_end":
            await client.send({"type": "next"})
        if f["type"] != "state" or not f["your_turn"] or not client.queue.empty():
            continue
        if f["state_id"] in acted:
            continue
        if done == moves:
            return f
        acted.add(f["state_id"])
        await client.send({"type": "move", "state_id": f["state_id"],
                           "move": rng.choice(f["legal_moves"])})
        done += 1


def children(pid: int) -> list[int]:
    found = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True,
                           check=False)
    return [int(p) for p in found.stdout.split()]


def alive(pid: int) -> bool:
    """Running (a zombie waiting to be reaped has ended)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, IndexError):
        return False
    return state != "Z"


#: short leases: a dead worker's tables are taken over within about this long
LEASE = "1.5"


def workers(tmp: Path, database_url: str, broker_url: str, n: int = 2,
            **env: str) -> list[ServerProcess]:
    prefix = redis_prefix()
    out = []
    for i in range(n):
        out.append(ServerProcess(
            tmp / f"w{i}.sqlite", database_url=database_url, SCOPA_BROKER_URL=broker_url,
            SCOPA_BROKER_PREFIX=prefix, SCOPA_LEASE_SECONDS=LEASE, **env).start())
    return out


def logged(database_url: str, match_id: str) -> list[dict[str, Any]]:
    """The match's events as written (seq, kind, data), from the database itself."""
    async def read() -> list[dict[str, Any]]:
        conn = await asyncpg.connect(dsn(database_url))
        try:
            rows = await conn.fetch(
                "SELECT seq, kind, data FROM events WHERE match_id = $1 ORDER BY seq", match_id)
        finally:
            await conn.close()
        return [{"seq": r["seq"], "kind": r["kind"], "data": json.loads(r["data"])}
                for r in rows]
    return asyncio.run(read())


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[ServerProcess]]:
    with fresh_database() as url:
        procs = workers(tmp_path_factory.mktemp("pair"), url, BROKER_URL)
        try:
            yield procs
        finally:
            for p in procs:
                p.stop()
