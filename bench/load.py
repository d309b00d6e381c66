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

With ``--workers N`` (N > 1) it runs the scaled deployment instead: N server processes on
one fresh PostgreSQL database (``SCOPA_BENCH_DATABASE_URL``, default the local one) and
one Redis (``SCOPA_BENCH_BROKER_URL``) under a key prefix of its own; each table is made
at one worker and its two people connect to two different workers (every move crosses
the broker). It then also prints per-move server CPU, bytes per match, and the longest GC
pause and event-loop stall over all workers.

With ``--rolling-restart`` (and ``--workers`` 2 or more) it restarts every worker once
during the measured time, one at a time, as a deploy would: SIGTERM, wait for it to exit,
start a fresh one on the same port. The clients reconnect as the page does (random back-off,
to the next worker while theirs is down). It then prints the moves lost (acknowledged to a
client but not in the log) and doubled (in the log but never sent at that state), from
``bench/rolling.py``'s books, and the move -> update delays inside the restart window.

Usage: .venv/bin/python bench/load.py [--matches 200] [--seconds 60] [--think 0.5 2.0]
       [--workers 2] [--rolling-restart] [--src ../other-checkout/src]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import secrets
import signal
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
sys.path.insert(0, str(Path(__file__).resolve().parent))

from rolling import Ledger, compare, logged_moves  # noqa: E402


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
        #: (monotonic time received, delay) of every delivery, for the restart window
        self.timed: list[tuple[float, float]] = []
        #: moves sent and acknowledged, per person (bench/rolling.py)
        self.ledgers: list[Ledger] = []
        #: close codes the clients' sockets saw (while the run was on)
        self.closes: dict[int | None, int] = {}
        self.moves = 0
        self.human_moves = 0
        self.errors: list[dict[str, Any]] = []
        #: bytes of frames the clients received
        self.bytes = 0
        self.matches_done = 0
        #: (table, state_id) -> send time of a person's move
        self.sent: dict[tuple[str, int], float] = {}


async def lag_monitor(lags: list[float], stop: asyncio.Event) -> None:
    """How late this process's event loop wakes up (its own share of the delays)."""
    while not stop.is_set():
        t = time.monotonic()
        await asyncio.sleep(0.01)
        lags.append(time.monotonic() - t - 0.01)


async def seated(url: str, token: str, read: Any, stop: asyncio.Event) -> int | None:
    """Open a socket on a seat, hand it to ``read`` until ``stop`` or until the socket
    closes; the close code (None: stopped)."""
    async with websockets.connect(url, max_size=2**22, open_timeout=60) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        reader = asyncio.create_task(read(ws))
        stopping = asyncio.create_task(stop.wait())
        await asyncio.wait({reader, stopping}, return_when=asyncio.FIRST_COMPLETED)
        for t in (reader, stopping):
            t.cancel()
        with contextlib.suppress(asyncio.CancelledError, websockets.ConnectionClosed):
            await reader
        return None if stop.is_set() else ws.close_code


def reconnect_delay(code: int | None, attempt: int, rng: random.Random) -> float:
    """The page's back-off (``reconnectDelay`` in web/js/socket.js), in seconds."""
    ceiling = min(5.0, 0.3 * 2.0 ** attempt)
    window = max(ceiling, 3.0) if code in (1012, 1001) else ceiling
    return 0.1 + rng.random() * (window - 0.1)


class Player:
    """A person at a table: thinks, plays a legal move, says next, asks for rematches."""

    def __init__(self, bases: list[str], first: int, table: str, token: str, observer: bool,
                 stats: Stats, think: tuple[float, float], rng: random.Random,
                 stop: asyncio.Event) -> None:
        #: the workers' ws:// addresses; this person's own is ``first``, the next ones are
        #: where a balancer would send it while its own is down
        self.bases, self.first = bases, first
        self.table, self.token, self.observer = table, token, observer
        self.stats, self.think, self.rng, self.stop = stats, think, rng, stop
        self.latest: dict[str, Any] | None = None
        self.turn_task: asyncio.Task[None] | None = None
        self.seat: int | None = None
        self.ledger = Ledger()
        stats.ledgers.append(self.ledger)

    async def run(self) -> None:
        """Seated until ``stop``; after a close, back (with the page's back-off)."""
        tries, code, at = 0, None, self.first
        while not self.stop.is_set():
            base = self.bases[at]
            try:
                code = await seated(f"{base}/ws/{self.table}", self.token, self.read,
                                    self.stop)
                tries = 0
                self.stats.closes[code] = self.stats.closes.get(code, 0) + 1
            except (OSError, TimeoutError, websockets.InvalidHandshake,
                    websockets.ConnectionClosed):
                tries += 1
            if self.stop.is_set():
                break
            # back through a balancer without sticky sessions: any worker, at random
            at = self.rng.randrange(len(self.bases))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.stop.wait(),
                                       reconnect_delay(code, tries, self.rng))
        if self.turn_task is not None:
            self.turn_task.cancel()

    async def read(self, ws: Any) -> None:
        async for raw in ws:
            now = time.monotonic()
            self.stats.bytes += len(raw)
            f = json.loads(raw)
            kind = f["type"]
            if kind == "welcome":
                self.seat = f["seat"]
            elif kind == "state":
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
        self.ledger.seen(f, self.seat)
        if ev.get("kind") == "move":
            sent = self.stats.sent.get((self.table, sid - 1))
            if sent is not None:
                self.stats.delays.append(now - sent)
                self.stats.timed.append((now, now - sent))
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
        move = self.rng.choice(f["legal_moves"])
        self.stats.sent[(self.table, sid)] = time.monotonic()
        self.stats.human_moves += 1
        self.ledger.sending(f, move)
        with contextlib.suppress(websockets.ConnectionClosed):  # reconnecting: sent or not
            await ws.send(json.dumps({"type": "move", "state_id": sid, "move": move}))


#: the servers' logs (kept after the run, to read what they said)
LOGS = Path(tempfile.mkdtemp(prefix="scopa-bench-logs-"))


def start_server(settings: dict[str, str], src: Path = ROOT / "src",
                 database_url: str | None = None, port: int | None = None,
                 ) -> tuple[subprocess.Popen[bytes], int]:
    """``python -m scopa.server`` from ``src`` on a free loopback port (or ``port``) with a
    fresh database in a temporary folder (or ``database_url``), with SCOPA_* ``settings``;
    (process, port)."""
    port = port or free_port()
    if database_url is None:
        database_url = f"sqlite:///{tempfile.mkdtemp(prefix='scopa-bench-')}/bench.sqlite"
    env = {**os.environ, "PYTHONPATH": str(src), **settings}
    cmd = [sys.executable, "-m", "scopa.server", "--port", str(port),
           "--database-url", database_url, "--log-level", "warning"]
    # its log to a file: a pipe nobody reads fills up and the server blocks writing to it
    # (a restarted worker under load warns enough to fill one)
    with open(LOGS / f"server-{port}.log", "ab") as log:
        proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=log)
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


async def _pg_admin(sql: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(PG_URL)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


PG_URL = os.environ.get("SCOPA_BENCH_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
REDIS_URL = os.environ.get("SCOPA_BENCH_BROKER_URL", "redis://127.0.0.1:6379/0")


async def roll(servers: list[tuple[subprocess.Popen[bytes], int]], settings: dict[str, str],
               src: Path, url: str) -> tuple[float, float]:
    """A rolling restart: each worker in turn gets SIGTERM and, once it has exited, a fresh
    one starts on its port (the next waits until it answers). The window it took."""
    start = time.monotonic()
    for i, (proc, port) in enumerate(servers):
        proc.send_signal(signal.SIGTERM)
        code = await asyncio.to_thread(proc.wait, 120)
        print(f"worker {i + 1} on port {port} stopped (exit {code}) after SIGTERM at "
              f"{time.monotonic() - start:.1f} s", flush=True)
        servers[i] = start_server(settings, src, database_url=url, port=port)
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=30) as h:
            await wait_ready(h)
        print(f"worker {i + 1} answering again at {time.monotonic() - start:.1f} s",
              flush=True)
    return start, time.monotonic()


def rolled(stats: Stats, window: tuple[float, float], lost: list[Any],
           doubled: list[Any]) -> None:
    """What the rolling restart cost: moves lost or doubled, delays in its window."""
    start, end = window
    inside = [d * 1000 for t, d in stats.timed if start <= t <= end]
    acked = sum(len(ledger.acked) for ledger in stats.ledgers)
    print(f"rolling restart: every worker restarted in {end - start:.1f} s; "
          f"{len(lost)} acknowledged moves lost, {len(doubled)} doubled "
          f"(of {acked} acknowledged); sockets closed by code {stats.closes}")
    if inside:
        print(f"move -> update inside the restart window, {len(inside)} deliveries: median "
              f"{statistics.median(inside):.1f} ms, p99 {pct(inside, 0.99):.1f} ms, "
              f"max {max(inside):.1f} ms")
    if lost or doubled:
        print(f"lost: {lost[:10]}; doubled: {doubled[:10]}")


async def bench(args: argparse.Namespace) -> None:
    operator = secrets.token_urlsafe(24)  # resetting the health figures needs it
    settings = {
        "SCOPA_HAND_PAUSE_SECONDS": str(args.hand_pause),
        "SCOPA_BOT_DELAY_SECONDS": str(args.bot_delay),
        "SCOPA_BOT_WORKERS": str(args.bot_workers),
        "SCOPA_RATE_PER_SECOND": "50",
        "SCOPA_RATE_BURST": "100",
        "SCOPA_CREATE_BURST": "100000",
        "SCOPA_OPERATOR_SECRET": operator,
    }
    database = None
    window: tuple[float, float] | None = None
    url = ""
    src = Path(args.src).resolve()
    if args.workers > 1:  # the scaled deployment: PostgreSQL + Redis, N processes
        database = f"scopa_bench_{secrets.token_hex(4)}"
        await _pg_admin(f'CREATE DATABASE "{database}"')
        settings["SCOPA_BROKER_URL"] = REDIS_URL
        settings["SCOPA_BROKER_PREFIX"] = f"{database}:"
        url = PG_URL.rsplit("/", 1)[0] + f"/{database}"
        servers = [start_server(settings, src, database_url=url) for _ in range(args.workers)]
    else:
        servers = [start_server(settings, src)]
    server, port = servers[0]
    bases = [f"127.0.0.1:{p}" for _, p in servers]
    base_http = f"http://{bases[0]}"
    stop = asyncio.Event()
    stats = Stats()
    try:
        async with httpx.AsyncClient(base_url=base_http, timeout=180) as http:
            for b in bases:
                async with httpx.AsyncClient(base_url=f"http://{b}", timeout=30) as h:
                    await wait_ready(h)
            rss_idle = rss_kib(server.pid)
            rng = random.Random(args.seed)
            players: list[Player] = []
            n_bot = round(args.matches * args.bot_share)
            for i in range(args.matches):
                with_bot = i < n_bot
                seats = [{"kind": "human"},
                         {"kind": "bot", "level": args.level} if with_bot else {"kind": "human"}]
                # spread: made at worker i, the second person at the next worker
                at = [f"http://{bases[(i + k) % len(bases)]}" for k in range(2)]
                r = await http.post(f"{at[0]}/api/tables", json={
                    "name": f"p{i}", "seats": seats, "target": args.target})
                r.raise_for_status()
                made = r.json()
                tid = made["table"]["id"]
                tokens = [made["token"]]
                if not with_bot:
                    j = await http.post(f"{at[1]}/api/invites/{made['invite']}/join",
                                        json={"name": f"q{i}"})
                    j.raise_for_status()
                    tokens.append(j.json()["token"])
                ws_bases = ["ws://" + b for b in bases]
                for k, tok in enumerate(tokens):
                    players.append(Player(ws_bases, (i + k) % len(bases), tid, tok, k == 0,
                                          stats, args.think, random.Random(rng.random()),
                                          stop))
            print(f"{args.matches} tables ({n_bot} with an {args.level} bot), "
                  f"{len(players)} sockets; playing {args.seconds:.0f} s ...", flush=True)
            tasks = [asyncio.create_task(p.run()) for p in players]
            lags: list[float] = []
            tasks.append(asyncio.create_task(lag_monitor(lags, stop)))
            await asyncio.sleep(args.warmup)
            lags.clear()
            # measure the steady state only
            stats.delays.clear()
            for b in bases:
                reset = await http.get(f"http://{b}/api/health?reset=1",
                                       headers={"Authorization": f"Bearer {operator}"})
                reset.raise_for_status()
            moves0, t0 = stats.moves, time.monotonic()
            bytes0, done0 = stats.bytes, stats.matches_done
            mains = [s.pid for s, _ in servers]
            kids = [k for m in mains for k in children(m)]
            cpu0 = [sum(cpu_seconds(m) for m in mains), *(cpu_seconds(k) for k in kids)]
            me0 = time.process_time()
            load0 = os.getloadavg()[0]
            window = None
            if args.rolling_restart:
                window = await roll(servers, settings, src, url)
                server = servers[0][0]
            await asyncio.sleep(max(0.0, args.seconds - (time.monotonic() - t0)))
            elapsed = time.monotonic() - t0
            # the first processes are gone after a rolling restart: no CPU figures then
            cpu1 = cpu0 if window else [sum(cpu_seconds(m) for m in mains),
                                        *(cpu_seconds(k) for k in kids)]
            me = time.process_time() - me0
            load1 = os.getloadavg()[0]
            moves = stats.moves - moves0
            delays = list(stats.delays)
            rss_end = rss_kib(server.pid)
            received, finished = stats.bytes - bytes0, stats.matches_done - done0
            healths = [(await http.get(f"http://{b}/api/health")).json() for b in bases]
            workers = [rss_kib(c) for c in children(server.pid)]
            stop.set()
            await asyncio.gather(*tasks, return_exceptions=True)
    finally:
        for s, _ in servers:
            stop_server(s)
        if window is not None:  # every worker has stopped: the log is final
            lost, doubled = compare(stats.ledgers, await logged_moves(url))
        if database is not None:
            await _pg_admin(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
    print(f"the servers' logs: {LOGS}")
    if window is not None:
        rolled(stats, window, lost, doubled)
        print("(server CPU per move is not measured across a rolling restart: the first "
              "processes are gone)")
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
    used_main = cpu1[0] - cpu0[0]
    lag = [x * 1000 for x in lags]
    print(f"the clients' own event-loop lag: median {statistics.median(lag):.1f} ms, "
          f"p99 {pct(lag, 0.99):.1f} ms, max {max(lag):.1f} ms")
    for i, h in enumerate(healths):
        sl = h["loop_lag_ms"]
        print(f"server {i + 1}/{len(healths)} event-loop lag (last minute): median "
              f"{sl['p50']} ms, p99 {sl['p99']} ms, max {sl['max']} ms; garbage collection: "
              f"longest pause {sl['gc_max']} ms, {sl['gc_total']} ms in all "
              f"(per generation [longest ms, count]: {sl.get('gc_by_gen')}); "
              f"{h['sockets']} sockets")
    for i, h in enumerate(healths):
        phases = h.get("phases_ms", {})
        print(f"server {i + 1} phases (ms: n, median, p99, max): " + "; ".join(
            f"{k} {v['n']} {v['p50']}/{v['p99']}/{v['max']}" for k, v in phases.items()))
    counts: dict[str, int] = {}
    for h in healths:
        for k, v in h.get("counts", {}).items():
            counts[k] = counts.get(k, 0) + v
    if counts:
        trip_kinds = ("db.statements", "db.begins", "db.commits", "db.checkouts")
        trips = sum(counts.get(k, 0) for k in trip_kinds)
        print(f"database over all servers, per move: {trips / max(moves, 1):.2f} round trips ("
              + ", ".join(f"{k} {counts.get(k, 0) / max(moves, 1):.2f}" for k in trip_kinds)
              + f"); {counts.get('db.events', 0) / max(counts.get('db.groups', 1), 1):.1f} "
              f"events per group commit, {counts.get('db.conflicts', 0)} steps refused as taken")
    print(f"longest over all servers: event-loop stall "
          f"{max(h['loop_lag_ms']['max'] for h in healths)} ms, GC pause "
          f"{max(h['loop_lag_ms']['gc_max'] for h in healths)} ms")
    per_match = (f"{received / finished / 1024:.0f} KiB per finished match ({finished})"
                 if finished else "no match finished in the measured time")
    used = [b - a for a, b in zip(cpu0, cpu1, strict=True)]
    if window is None:
        print(f"per move: server CPU {1000 * used_main / max(moves, 1):.2f} ms (main "
              f"processes; bots apart); bytes to clients {received / max(moves, 1):.0f} B per "
              f"move, {received / args.matches / 1024:.0f} KiB per match over the run; "
              f"{per_match}")
        print(f"CPU over the measured time: server {100 * used[0] / elapsed:.0f}% of a core, "
              f"bot workers {100 * sum(used[1:]) / elapsed:.0f}%, these clients "
              f"{100 * me / elapsed:.0f}%; machine load average {load0:.1f} -> {load1:.1f} "
              f"on {os.cpu_count()} cores")
    else:
        print(f"machine load average {load0:.1f} -> {load1:.1f} on {os.cpu_count()} cores")
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
    p.add_argument("--workers", type=int, default=1,
                   help="server processes: 1 is the embedded default (SQLite, one process); "
                        "N > 1 run on PostgreSQL + Redis")
    p.add_argument("--bot-workers", type=int, default=2, help="bot processes per server")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--src", default=str(ROOT / "src"),
                   help="source tree of the server to run (e.g. another checkout's, to pair)")
    p.add_argument("--rolling-restart", action="store_true",
                   help="restart every worker once, one at a time, during the measured "
                        "time, and report moves lost or doubled (needs --workers 2 or more)")
    args = p.parse_args()
    if args.rolling_restart and args.workers < 2:
        p.error("--rolling-restart needs --workers 2 or more")
    if not 1 <= args.matches <= 2000 or not 0 < args.seconds <= 600:
        p.error("matches must be 1..2000 and seconds 0..600")
    asyncio.run(bench(args))


if __name__ == "__main__":
    main()
