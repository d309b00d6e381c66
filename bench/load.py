"""Load benchmark of the game server (not a test): many simultaneous matches over real
WebSockets on 127.0.0.1, bounded in count and time, stopping by itself.

It starts ``python -m scopa.server`` on a free loopback port with a fresh database in a
temporary folder, creates ``--matches`` tables (half of them two people, half a person
against an ``intermediate`` bot seat, unless --bot-share says otherwise), connects a
client per human seat and lets them play like people (a think time per move, "next" after
each hand, a rematch when a match ends) for ``--seconds``. Then it stops the server and
prints:

- moves per second (all moves, people and bots, from the observers' frames);
- the delay from a person's move to every client at that table getting the new state
  (median, p90, p99, max), measured on this machine's monotonic clock;
- the server's memory: resident size before the tables, at the end, and per match
  (main process; the bot workers are reported apart).

Usage: .venv/bin/python bench/load.py [--matches 200] [--seconds 60] [--think 0.5 2.0]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def rss_kib(pid: int) -> int:
    """Resident memory of a process in KiB (Linux /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def children(pid: int) -> list[int]:
    out = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True)
    return [int(p) for p in out.stdout.split()]


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))]


class Stats:
    def __init__(self) -> None:
        self.delays: list[float] = []  # seconds, one per (move, client)
        self.moves = 0
        self.human_moves = 0
        self.errors: list[dict[str, Any]] = []
        self.matches_done = 0
        #: (table, state_id) -> send time of a person's move
        self.sent: dict[tuple[str, int], float] = {}


async def lag_monitor(lags: list[float], stop: asyncio.Event) -> None:
    """How late this process's event loop wakes up (its own share of the delays)."""
    while not stop.is_set():
        t = time.monotonic()
        await asyncio.sleep(0.01)
        lags.append(time.monotonic() - t - 0.01)


async def seated(url: str, token: str, read: Any, stop: asyncio.Event) -> None:
    """Open a socket on a seat, hand it to ``read`` until ``stop``."""
    async with websockets.connect(url, max_size=2**22, open_timeout=60) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        reader = asyncio.create_task(read(ws))
        await stop.wait()
        reader.cancel()


class Player:
    """A person at a table: thinks, plays a legal move, says next, asks for rematches."""

    def __init__(self, base: str, table: str, token: str, observer: bool, stats: Stats,
                 think: tuple[float, float], rng: random.Random, stop: asyncio.Event) -> None:
        self.url = f"{base}/ws/{table}"
        self.table, self.token, self.observer = table, token, observer
        self.stats, self.think, self.rng, self.stop = stats, think, rng, stop
        self.latest: dict[str, Any] | None = None
        self.turn_task: asyncio.Task[None] | None = None

    async def run(self) -> None:
        await seated(self.url, self.token, self.read, self.stop)
        if self.turn_task is not None:
            self.turn_task.cancel()

    async def read(self, ws: Any) -> None:
        async for raw in ws:
            now = time.monotonic()
            f = json.loads(raw)
            kind = f["type"]
            if kind == "state":
                self.on_state(ws, f, now)
            elif kind == "hand_end":
                await ws.send(json.dumps({"type": "next"}))
            elif kind == "match_end":
                if self.observer:
                    self.stats.matches_done += 1
                await ws.send(json.dumps({"type": "rematch"}))
            elif kind == "error":
                self.stats.errors.append(f)

    def on_state(self, ws: Any, f: dict[str, Any], now: float) -> None:
        ev = f.get("event") or {}
        sid = f["state_id"]
        if ev.get("kind") == "move":
            sent = self.stats.sent.get((self.table, sid - 1))
            if sent is not None:
                self.stats.delays.append(now - sent)
            if self.observer:
                self.stats.moves += 1
        self.latest = f
        if f["your_turn"] and (self.turn_task is None or self.turn_task.done()):
            self.turn_task = asyncio.create_task(self.play(ws, f))

    async def play(self, ws: Any, f: dict[str, Any]) -> None:
        await asyncio.sleep(self.rng.uniform(*self.think))
        if self.latest is not f or self.stop.is_set():
            return
        sid = f["state_id"]
        self.stats.sent[(self.table, sid)] = time.monotonic()
        self.stats.human_moves += 1
        await ws.send(json.dumps({"type": "move", "state_id": sid,
                                  "move": self.rng.choice(f["legal_moves"])}))


def start_server(settings: dict[str, str], src: Path = ROOT / "src") -> tuple[
        subprocess.Popen[bytes], int]:
    """``python -m scopa.server`` from ``src`` on a free loopback port with a fresh
    database in a temporary folder, with SCOPA_* ``settings``; (process, port)."""
    port = free_port()
    tmp = tempfile.mkdtemp(prefix="scopa-bench-")
    env = {**os.environ, "PYTHONPATH": str(src), **settings}
    cmd = [sys.executable, "-m", "scopa.server", "--port", str(port),
           "--database-url", f"sqlite:///{tmp}/bench.sqlite", "--log-level", "warning"]
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    return proc, port


async def wait_ready(http: httpx.AsyncClient) -> None:
    """Until the server answers (a busy machine starts it slowly)."""
    for _ in range(600):
        try:
            if (await http.get("/api/meta")).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        await asyncio.sleep(0.1)


def stop_server(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(15)
    except subprocess.TimeoutExpired:
        proc.kill()


async def bench(args: argparse.Namespace) -> None:
    operator = secrets.token_urlsafe(24)  # resetting the health figures needs it
    server, port = start_server({
        "SCOPA_HAND_PAUSE_SECONDS": str(args.hand_pause),
        "SCOPA_BOT_DELAY_SECONDS": str(args.bot_delay),
        "SCOPA_BOT_WORKERS": str(args.workers),
        "SCOPA_RATE_PER_SECOND": "50",
        "SCOPA_RATE_BURST": "100",
        "SCOPA_CREATE_BURST": "100000",
        "SCOPA_OPERATOR_SECRET": operator,
    })
    base_http = f"http://127.0.0.1:{port}"
    base_ws = f"ws://127.0.0.1:{port}"
    stop = asyncio.Event()
    stats = Stats()
    try:
        async with httpx.AsyncClient(base_url=base_http, timeout=30) as http:
            await wait_ready(http)
            rss_idle = rss_kib(server.pid)
            rng = random.Random(args.seed)
            players: list[Player] = []
            n_bot = round(args.matches * args.bot_share)
            for i in range(args.matches):
                with_bot = i < n_bot
                seats = [{"kind": "human"},
                         {"kind": "bot", "level": args.level} if with_bot else {"kind": "human"}]
                r = await http.post("/api/tables", json={"name": f"p{i}", "seats": seats,
                                                         "target": args.target})
                r.raise_for_status()
                made = r.json()
                tid = made["table"]["id"]
                tokens = [made["token"]]
                if not with_bot:
                    j = await http.post(f"/api/invites/{made['invite']}/join",
                                        json={"name": f"q{i}"})
                    j.raise_for_status()
                    tokens.append(j.json()["token"])
                for k, tok in enumerate(tokens):
                    players.append(Player(base_ws, tid, tok, k == 0, stats, args.think,
                                          random.Random(rng.random()), stop))
            print(f"{args.matches} tables ({n_bot} with an {args.level} bot), "
                  f"{len(players)} sockets; playing {args.seconds:.0f} s ...", flush=True)
            tasks = [asyncio.create_task(p.run()) for p in players]
            lags: list[float] = []
            tasks.append(asyncio.create_task(lag_monitor(lags, stop)))
            await asyncio.sleep(args.warmup)
            lags.clear()
            # measure the steady state only
            stats.delays.clear()
            reset = await http.get("/api/health?reset=1",
                                   headers={"Authorization": f"Bearer {operator}"})
            reset.raise_for_status()
            moves0, t0 = stats.moves, time.monotonic()
            kids = children(server.pid)
            cpu0 = [cpu_seconds(server.pid), *(cpu_seconds(k) for k in kids)]
            me0 = time.process_time()
            load0 = os.getloadavg()[0]
            await asyncio.sleep(args.seconds)
            elapsed = time.monotonic() - t0
            cpu1 = [cpu_seconds(server.pid), *(cpu_seconds(k) for k in kids)]
            me = time.process_time() - me0
            load1 = os.getloadavg()[0]
            moves = stats.moves - moves0
            delays = list(stats.delays)
            rss_end = rss_kib(server.pid)
            health = (await http.get("/api/health")).json()
            workers = [rss_kib(c) for c in children(server.pid)]
            stop.set()
            await asyncio.gather(*tasks, return_exceptions=True)
    finally:
        stop_server(server)
    ms = [d * 1000 for d in delays]
    print(f"moves per second: {moves / elapsed:.1f} ({moves} moves in {elapsed:.1f} s; "
          f"{stats.matches_done} matches finished)")
    print(f"move -> every client's update, {len(ms)} deliveries: median {statistics.median(ms):.1f}"
          f" ms, p90 {pct(ms, 0.9):.1f} ms, p99 {pct(ms, 0.99):.1f} ms, max {max(ms):.1f} ms")
    per_match = (rss_end - rss_idle) / args.matches
    print(f"server memory: {rss_idle / 1024:.1f} MiB idle, {rss_end / 1024:.1f} MiB with "
          f"{args.matches} matches -> {per_match:.0f} KiB per match; "
          f"child processes (bot workers, resource tracker) "
          f"{', '.join(f'{w / 1024:.0f}' for w in workers)} MiB")
    lag = [x * 1000 for x in lags]
    print(f"the clients' own event-loop lag: median {statistics.median(lag):.1f} ms, "
          f"p99 {pct(lag, 0.99):.1f} ms, max {max(lag):.1f} ms")
    sl = health["loop_lag_ms"]
    print(f"the server's event-loop lag (last minute): median {sl['p50']} ms, "
          f"p99 {sl['p99']} ms, max {sl['max']} ms; garbage collection: longest pause "
          f"{sl['gc_max']} ms, {sl['gc_total']} ms in all; {health['sockets']} sockets")
    used = [b - a for a, b in zip(cpu0, cpu1, strict=True)]
    print(f"CPU over the measured time: server {100 * used[0] / elapsed:.0f}% of a core, "
          f"bot workers {100 * sum(used[1:]) / elapsed:.0f}%, these clients "
          f"{100 * me / elapsed:.0f}%; machine load average {load0:.1f} -> {load1:.1f} "
          f"on {os.cpu_count()} cores")
    if stats.errors:
        codes: dict[str, int] = {}
        for e in stats.errors:
            codes[e.get("code", "?")] = codes.get(e.get("code", "?"), 0) + 1
        print(f"errors from the server: {codes}")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--matches", type=int, default=200)
    p.add_argument("--seconds", type=float, default=60.0, help="measured time")
    p.add_argument("--warmup", type=float, default=5.0)
    p.add_argument("--think", type=float, nargs=2, default=(0.5, 2.0),
                   help="a person's think time per move, uniform in [a, b] seconds")
    p.add_argument("--bot-share", type=float, default=0.5,
                   help="share of tables with a bot seat")
    p.add_argument("--level", default="intermediate")
    p.add_argument("--target", type=int, default=11)
    p.add_argument("--bot-delay", type=float, default=0.6)
    p.add_argument("--hand-pause", type=float, default=1.0)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    if not 1 <= args.matches <= 2000 or not 0 < args.seconds <= 600:
        p.error("matches must be 1..2000 and seconds 0..600")
    asyncio.run(bench(args))


if __name__ == "__main__":
    main()
