"""People who play on through restarts, for the rolling-restart and nginx tests: a socket
that comes back after it closes, with books of the moves sent and acknowledged
(``bench/rolling.py``'s ``Ledger``), and a wait for every table to make progress."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import random
import sys
import time
from typing import Any

import websockets
from server_helpers import ROOT

_spec = importlib.util.spec_from_file_location("rolling", ROOT / "bench" / "rolling.py")
assert _spec is not None and _spec.loader is not None
rolling = importlib.util.module_from_spec(_spec)
sys.modules["rolling"] = rolling
_spec.loader.exec_module(rolling)

#: the longest wait for every table to make its progress (a busy machine is slow, never
#: this slow)
WAIT = 90


class Person:
    """A player whose socket comes back after it closes: first at ``first`` (a ws:// base
    URL), after a close at each of ``again`` in turn, starting over with the first of them
    after every connection that worked (as a load balancer routes around a worker that is
    down)."""

    def __init__(self, first: str, again: list[str], table: str, token: str,
                 rng: random.Random, changed: asyncio.Event) -> None:
        self.first, self.again, self.table, self.token = first, again, table, token
        self.rng, self.changed = rng, changed
        self.ledger = rolling.Ledger()
        self.seat: int | None = None
        self.moved: set[int] = set()
        self.close_codes: list[int | None] = []
        #: the base URL of each connection that worked, in order
        self.served: list[str] = []

    async def run(self) -> None:
        base, tries = self.first, 0
        while True:
            try:
                async with websockets.connect(f"{base}/ws/{self.table}",
                                              open_timeout=10, max_size=2**22) as ws:
                    await ws.send(json.dumps({"type": "hello", "token": self.token}))
                    self.served.append(base)
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
            base = self.again[tries % len(self.again)]
            # the page's back-off, shortened: a random pause spreads the returns
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


def books(people: list[Person], logged: dict[Any, Any]) -> tuple[list[Any], list[Any]]:
    """(lost, doubled) of everyone's moves against the log."""
    lost, doubled = rolling.compare([p.ledger for p in people], logged)
    return lost, doubled
