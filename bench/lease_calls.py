"""What the lease heartbeat costs Redis: commands and round trips per second for a worker
that follows ``--tables`` tables (a benchmark, not a test).

Starts a private ``redis-server`` on ``--port`` (nothing else talks to it), runs the
heartbeat of ``--workers`` clusters (each over its own connection, as separate processes
would be) for ``--seconds`` against stand-in tables, and reads Redis' own counters before
and after: ``total_commands_processed`` and the per-command ``calls`` of INFO commandstats
(both count what a script runs too); the round trips are counted at the client (every
command the workers' Redis clients send). The CPU
time the heartbeat costs the workers' process is measured too. ``--src`` runs another
checkout's ``scopa`` (e.g. the code before a change) for a paired comparison:

    .venv/bin/python bench/lease_calls.py --tables 1000 --src /work/main/src
    .venv/bin/python bench/lease_calls.py --tables 1000
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any


def redis_stats(client: Any) -> tuple[int, dict[str, int]]:
    processed = int(client.info("stats")["total_commands_processed"])
    calls = {k.removeprefix("cmdstat_"): int(v["calls"])
             for k, v in client.info("commandstats").items()}
    return processed, calls


async def heartbeat(url: str, tables: int, workers: int, seconds: float,
                    lease: float) -> tuple[float, int]:
    """Run the heartbeats; returns the process CPU seconds they took and the commands the
    clients sent."""
    broker_mod = importlib.import_module("scopa.server.store.broker")
    cluster_mod = importlib.import_module("scopa.server.play.cluster")
    table_mod = importlib.import_module("scopa.server.play.table")
    rules = importlib.import_module("scopa.rules").Rules()
    held = {}
    for i in range(tables):
        t = table_mod.Table(id=f"t{i}", invite=f"i{i}", public=True, rules=rules, grace=60,
                             created_at=datetime.now(UTC), seats=[])
        held[t.id] = t

    async def take_over(table: Any) -> None:
        return None

    host = SimpleNamespace(tables=held, take_over=take_over, let_go=lambda t: None)
    brokers = [broker_mod.RedisBroker(url, "bench:") for _ in range(workers)]
    sent = [0]
    for b in brokers:
        def counted(*a: Any, _send: Any = b.redis.execute_command, **kw: Any) -> Any:
            sent[0] += 1
            return _send(*a, **kw)
        b.redis.execute_command = counted
    clusters = [cluster_mod.Cluster(b, None, f"w{i}", lease) for i, b in enumerate(brokers)]
    for c in clusters:
        c.serve(host)
    cpu = time.process_time()
    tasks = [asyncio.create_task(c._heartbeat()) for c in clusters]  # noqa: SLF001
    await asyncio.sleep(seconds)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    cpu = time.process_time() - cpu
    for b in brokers:
        await b.close()
    return cpu, sent[0]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--tables", type=int, default=1000)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--seconds", type=float, default=15)
    p.add_argument("--lease", type=float, default=1.5, help="lease seconds (tick: a third)")
    p.add_argument("--port", type=int, default=18110)
    p.add_argument("--src", help="import scopa from this folder (another checkout's src)")
    args = p.parse_args(argv)
    if args.src:
        sys.path.insert(0, args.src)
    import redis

    with tempfile.TemporaryDirectory() as tmp:
        server = subprocess.Popen(
            ["redis-server", "--port", str(args.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", tmp],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        url = f"redis://127.0.0.1:{args.port}/0"
        client = redis.Redis.from_url(url)
        try:
            for _ in range(200):
                try:
                    client.ping()
                    break
                except redis.ConnectionError:
                    time.sleep(0.05)
            before = redis_stats(client)
            cpu, sent = asyncio.run(heartbeat(url, args.tables, args.workers, args.seconds,
                                        args.lease))
            after = redis_stats(client)
        finally:
            client.close()
            server.kill()
            server.wait(10)
    processed = after[0] - before[0] - 2  # less the INFO commands of the second reading
    calls = {k: v - before[1].get(k, 0) for k, v in after[1].items()
             if k != "info" and v - before[1].get(k, 0) > 0}
    s = args.seconds
    print(f"scopa from {importlib.import_module('scopa').__file__}")
    print(f"{args.workers} workers x {args.tables} tables, lease {args.lease} s, {s} s")
    print(f"commands the workers sent (round trips): {sent} = {sent / s:.1f}/s")
    print(f"commands Redis ran, scripts' included: {processed} = {processed / s:.1f}/s: "
          + ", ".join(
        f"{k} {v} ({v / s:.1f}/s)" for k, v in sorted(calls.items())))
    print(f"heartbeat CPU in the workers' process: {cpu:.2f} s = {100 * cpu / s:.1f}% of a core")
    return 0


if __name__ == "__main__":
    sys.exit(main())
