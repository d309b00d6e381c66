"""Teach-me against the bots (not a test): do analyses slow other people's bots?

Starts ``python -m scopa.server`` from ``--src`` (default: this checkout's ``src``; give
another checkout's to compare code) on a free loopback port with a fresh database, then
plays ``--normal`` tables of a person against an ``intermediate`` bot, each person moving
as soon as it is their turn, while ``--teachers`` other such tables ask for an analysis at
every one of their turns (and move once it is answered, or refused). For ``--seconds`` it
records each normal table's bot reply time: from the state after the person's move to the
state with the bot's move (the server's ``bot_delay`` is the floor). Prints the median,
p90 and max, the analyses answered and refused (``busy``).

Usage: .venv/bin/python bench/teach_load.py [--teachers 20] [--normal 5] [--seconds 40]
       [--src ../other-checkout/src]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load import ROOT, pct, seated, start_server, stop_server, wait_ready  # noqa: E402


class Table:
    """One person against a bot; with ``teach`` the person asks for an analysis first."""

    def __init__(self, ws_url: str, token: str, teach: bool, rng: random.Random,
                 stop: asyncio.Event, replies: list[float], counts: dict[str, int]) -> None:
        self.url, self.token, self.teach, self.rng = ws_url, token, teach, rng
        self.stop, self.replies, self.counts = stop, replies, counts
        self.waiting_since: float | None = None  # the bot is to move since then
        self.latest: dict[str, Any] | None = None

    async def run(self) -> None:
        await seated(self.url, self.token, self.read, self.stop)

    async def move(self, ws: Any, f: dict[str, Any]) -> None:
        if self.latest is f and not self.stop.is_set():
            await ws.send(json.dumps({"type": "move", "state_id": f["state_id"],
                                      "move": self.rng.choice(f["legal_moves"])}))

    async def read(self, ws: Any) -> None:
        async for raw in ws:
            await self.on_frame(ws, json.loads(raw), time.monotonic())

    async def on_frame(self, ws: Any, f: dict[str, Any], now: float) -> None:
        answers = {"hand_end": "next", "match_end": "rematch"}
        if f["type"] in answers:
            await ws.send(json.dumps({"type": answers[f["type"]]}))
        elif f["type"] == "analysis" or (f["type"] == "error" and f.get("ref") == "teach"):
            code = f.get("code", "analysis")
            self.counts[code] = self.counts.get(code, 0) + 1
            if self.latest is not None and self.latest["your_turn"]:
                await self.move(ws, self.latest)
        elif f["type"] == "state":
            self.latest = f
            ev = f.get("event") or {}
            if ev.get("kind") == "move" and ev.get("by") == "bot":
                if self.waiting_since is not None and not self.teach:
                    self.replies.append(now - self.waiting_since)
                self.waiting_since = None
            view = f.get("view") or {}
            if (ev.get("kind") == "move" and ev.get("by") == "human"
                    and not view.get("hand_over") and not f["your_turn"]):
                self.waiting_since = now
            if f["your_turn"] and self.teach:
                await ws.send(json.dumps({"type": "teach", "state_id": f["state_id"]}))
            elif f["your_turn"]:
                await self.move(ws, f)


async def bench(args: argparse.Namespace) -> None:
    server, port = start_server(
        {"SCOPA_BOT_DELAY_SECONDS": str(args.bot_delay), "SCOPA_HAND_PAUSE_SECONDS": "0.5",
         "SCOPA_BOT_WORKERS": str(args.workers), "SCOPA_CREATE_BURST": "100000"},
        Path(args.src).resolve())
    stop = asyncio.Event()
    replies: list[float] = []
    counts: dict[str, int] = {}
    rng = random.Random(args.seed)
    try:
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=30) as http:
            await wait_ready(http)
            tables = []
            for i in range(args.normal + args.teachers):
                r = await http.post("/api/tables", json={
                    "name": f"p{i}", "seats": [{"kind": "human"},
                                               {"kind": "bot", "level": "intermediate"}]})
                r.raise_for_status()
                made = r.json()
                tables.append(Table(f"ws://127.0.0.1:{port}/ws/{made['table']['id']}",
                                    made["token"], i >= args.normal,
                                    random.Random(rng.random()), stop, replies, counts))
            tasks = [asyncio.create_task(t.run()) for t in tables]
            await asyncio.sleep(args.warmup)
            replies.clear()
            counts.clear()
            load0 = os.getloadavg()[0]
            await asyncio.sleep(args.seconds)
            load1 = os.getloadavg()[0]
            end = time.monotonic()
            # bots still thinking at the end: how long they have kept their table waiting
            pending = [end - t.waiting_since for t in tables
                       if not t.teach and t.waiting_since is not None]
            got = list(replies)
            answered = dict(counts)
            stop.set()
            await asyncio.gather(*tasks, return_exceptions=True)
    finally:
        stop_server(server)
    ms = [x * 1000 for x in got]
    print(f"code: {Path(args.src).resolve()}; {args.normal} normal tables, {args.teachers} "
          f"asking teach-me at every turn, {args.seconds:.0f} s, bot delay {args.bot_delay} s, "
          f"{args.workers} bot workers; load average {load0:.1f} -> {load1:.1f}")
    if ms:
        print(f"bot reply at the normal tables, {len(ms)} replies: median "
              f"{statistics.median(ms):.0f} ms, p90 {pct(ms, 0.9):.0f} ms, max {max(ms):.0f} ms")
    else:
        print("no bot replies at the normal tables")
    if pending:
        print(f"still waiting for their bot at the end: {len(pending)} tables, for "
              f"{', '.join(f'{x:.1f}' for x in sorted(pending))} s")
    print(f"teach answers: {answered}")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--teachers", type=int, default=20)
    p.add_argument("--normal", type=int, default=5)
    p.add_argument("--seconds", type=float, default=40.0)
    p.add_argument("--warmup", type=float, default=5.0)
    p.add_argument("--bot-delay", type=float, default=0.6)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--src", default=str(ROOT / "src"), help="source tree of the server to run")
    asyncio.run(bench(p.parse_args()))


if __name__ == "__main__":
    main()
