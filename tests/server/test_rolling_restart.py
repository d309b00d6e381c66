"""A rolling restart of two workers on PostgreSQL and Redis while people play: each worker
in turn gets SIGTERM (its sockets close with 1012, "service restart"), its people
reconnect (to the other worker while it is down, as a balancer would send them), and a
fresh worker starts on its port. Every move a person was told about is in the log, and
none is there twice or unsent (``bench/rolling.py`` keeps the books)."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import random
import signal
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import websockets
from server_helpers import ROOT, ServerProcess
from services import BROKER_URL, dsn, fresh_database, redis_prefix

pytestmark = pytest.mark.slow

_spec = importlib.util.spec_from_file_location("rolling", ROOT / "bench" / "rolling.py")
assert _spec is not None and _spec.loader is not None
rolling = importlib.util.module_from_spec(_spec)
sys.modules["rolling"] = rolling
_spec.loader.exec_module(rolling)

TABLES = 2
#: acknowledged moves at every table before the restart, and after each worker's
MOVES_BETWEEN = 4
#: the longest wait for any one event (a busy machine is slow, never this slow)
WAIT = 90


class Person:
    """A player whose socket comes back after it closes: at its own worker first, then at
    the next one (as a load balancer would route around a worker that is down)."""

    def __init__(self, ports: list[int], first: int, table: str, token: str,
                 rng: random.Random, changed: asyncio.Event) -> None:
        self.ports, self.first, self.table, self.token = ports, first, table, token
        self.rng, self.changed = rng, changed
        self.ledger = rolling.Ledger()
        self.seat: int | None = None
        self.moved: set[int] = set()
        self.close_codes: list[int | None] = []

    async def run(self) -> None:
        tries = 0
        while True:
            port = self.ports[(self.first + tries) % len(self.ports)]
            try:
                async with websockets.connect(f"ws://127.0.0.1:{port}/ws/{self.table}",
                                              open_timeout=10, max_size=2**22) as ws:
                    await ws.send(json.dumps({"type": "hello", "token": self.token}))
                    tries = -1
                    try:
                        async for raw in ws:
                            await self.on(ws, json.loads(raw))
                    finally:
                        self.close_codes.append(ws.close_code)
            except (OSError, TimeoutError, websockets.InvalidHandshake,
                    websockets.ConnectionClosed):
                pass
            tries += 1
            # the browser's back-off, shortened: a random pause spreads the returns
            await asyncio.sleep(self.rng.uniform(0.02, 0.2))

    async def on(self, ws: Any, f: dict[str, Any]) -> None:
        kind = f["type"]
        if kind == "welcome":
            self.seat = f["seat"]
            # a move sent as the last socket closed may be lost: at the same state again,
            # it is sent again
            self.moved.clear()
        elif kind == "hand_end":
            await ws.send(json.dumps({"type": "next"}))
        elif kind == "match_end":
            await ws.send(json.dumps({"type": "rematch"}))
        elif kind == "state":
            before = len(self.ledger.acked)
            self.ledger.seen(f, self.seat)
            if len(self.ledger.acked) > before:
                self.changed.set()
            if f["your_turn"] and f["state_id"] not in self.moved:
                self.moved.add(f["state_id"])
                move = self.rng.choice(f["legal_moves"])
                self.ledger.sending(f, move)
                await ws.send(json.dumps({"type": "move", "state_id": f["state_id"],
                                          "move": move}))


def acked_at(people: list[Person], table: str) -> int:
    return sum(len(p.ledger.acked) for p in people if p.table == table)


async def progress(people: list[Person], changed: asyncio.Event, more: int) -> None:
    """Until every table has ``more`` acknowledged moves beyond what it has now."""
    tables = {p.table for p in people}
    goal = {t: acked_at(people, t) + more for t in tables}
    # one table stuck while another plays on must fail too, not wait for ever
    deadline = time.monotonic() + WAIT
    while any(acked_at(people, t) < goal[t] for t in tables):
        changed.clear()
        left = deadline - time.monotonic()
        assert left > 0, {t: (acked_at(people, t), goal[t]) for t in tables}
        await asyncio.wait_for(changed.wait(), left)


def test_a_rolling_restart_loses_and_doubles_no_acknowledged_move(tmp_path: Path) -> None:
    with fresh_database() as url:
        env = {"SCOPA_BROKER_URL": BROKER_URL, "SCOPA_BROKER_PREFIX": redis_prefix(),
               "SCOPA_LEASE_SECONDS": "1.5"}
        servers = [ServerProcess(tmp_path / f"w{i}.sqlite", database_url=url, **env).start()
                   for i in range(2)]
        ports = [s.port for s in servers]
        try:
            people: list[Person] = []

            async def main() -> None:
                changed = asyncio.Event()
                rng = random.Random(30)
                for i in range(TABLES):
                    made = servers[i % 2].create(
                        seats=[{"kind": "human"}, {"kind": "human"}], target=11)
                    joined = servers[(i + 1) % 2].join(made["invite"])
                    tid = made["table"]["id"]
                    for k, token in enumerate((made["token"], joined["token"])):
                        people.append(Person(ports, (i + k) % 2, tid, token,
                                             random.Random(rng.random()), changed))
                tasks = [asyncio.create_task(p.run()) for p in people]
                try:
                    await progress(people, changed, MOVES_BETWEEN)
                    for i in range(2):  # one worker at a time
                        old = servers[i]
                        assert old.proc is not None
                        old.proc.send_signal(signal.SIGTERM)
                        code = await asyncio.to_thread(old.proc.wait, WAIT)
                        assert code in (0, -signal.SIGTERM), old.log.read_text()
                        servers[i] = await asyncio.to_thread(ServerProcess(
                            tmp_path / f"w{i}-again.sqlite", port=ports[i], database_url=url,
                            **env).start)
                        await progress(people, changed, MOVES_BETWEEN)
                finally:
                    for t in tasks:
                        t.cancel()
                    await asyncio.gather(*tasks, return_exceptions=True)

            asyncio.run(main())
        finally:
            for s in servers:
                s.stop()
        logged = asyncio.run(rolling.logged_moves(dsn(url)))
    lost, doubled = rolling.compare([p.ledger for p in people], logged)
    assert lost == [] and doubled == []
    assert sum(len(p.ledger.acked) for p in people) >= TABLES * 3 * MOVES_BETWEEN
    # the drained workers closed their sockets as a restart (1012), so the page comes back
    codes = {c for p in people for c in p.close_codes}
    assert 1012 in codes, codes


def test_the_ledger_catches_a_lost_and_a_doubled_move() -> None:
    """The books can fail: an acknowledged move missing from the log is lost, a person's
    move in the log that nobody sent is doubled."""
    ledger = rolling.Ledger()
    state = {"match_id": "m", "state_id": 1_000_004}
    ledger.sending(state, {"card": "7d"})
    ledger.seen({"match_id": "m", "state_id": 1_000_005, "event": {
        "kind": "move", "seat": 0, "card": "7d"}}, 0)
    assert ledger.acked == {("m", 4)}
    assert rolling.compare([ledger], {}) == ([("m", 4)], [])
    assert rolling.compare([ledger], {("m", 4): ("human", "7d"),
                                      ("m", 6): ("human", "3c")}) == ([], [("m", 6)])
    assert rolling.compare([ledger], {("m", 4): ("human", "7d"),
                                      ("m", 5): ("bot", "1b")}) == ([], [])
    # the log holds another card at that step: lost and doubled at once
    assert rolling.compare([ledger], {("m", 4): ("human", "1c")}) == ([("m", 4)], [("m", 4)])
