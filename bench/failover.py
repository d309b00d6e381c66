"""How long a killed worker's tables wait for another (a benchmark, not a test).

Starts two workers on a fresh PostgreSQL database and Redis (as ``bench/load.py --workers
2`` does), makes ``--tables`` tables of a person and a bot at the first one (it holds their
leases and drives their bots), kills it with SIGKILL (no lease released, no goodbye) and
watches the leases in Redis until the survivor holds every one. Prints the time from the
kill to the first and to the last table taken over. Nothing else reads the leases, so the
watch (Redis ``MGET`` every 10 ms) adds at most 10 ms. ``--lease`` sets
``SCOPA_LEASE_SECONDS`` (default: the server's own default); ``--src`` runs another
checkout's server:

    .venv/bin/python bench/failover.py --tables 50 --runs 3
    .venv/bin/python bench/failover.py --tables 50 --runs 3 --lease 5
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import secrets
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import httpx

HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("load", HERE / "load.py")
assert _spec is not None and _spec.loader is not None
load: Any = importlib.util.module_from_spec(_spec)
sys.modules["load"] = load
_spec.loader.exec_module(load)


async def once(tables: int, lease: float | None, src: Path) -> tuple[float, float]:
    """One kill: seconds to the first and the last table taken over."""
    import redis.asyncio as aioredis

    database = f"scopa_bench_{secrets.token_hex(4)}"
    await load._pg_admin(f'CREATE DATABASE "{database}"')
    url = load.PG_URL.rsplit("/", 1)[0] + f"/{database}"
    prefix = f"{database}:"
    settings = {"SCOPA_BROKER_URL": load.REDIS_URL, "SCOPA_BROKER_PREFIX": prefix,
                "SCOPA_BOT_WORKERS": "1", "SCOPA_CREATE_BURST": "100000",
                "SCOPA_RATE_PER_SECOND": "50", "SCOPA_RATE_BURST": "100"}
    if lease is not None:
        settings["SCOPA_LEASE_SECONDS"] = str(lease)
    servers = [load.start_server(settings, src, database_url=url) for _ in range(2)]
    red = aioredis.Redis.from_url(load.REDIS_URL, decode_responses=True)
    try:
        ids = []
        for _, port in servers:
            async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=60) as h:
                await load.wait_ready(h)
        first = f"http://127.0.0.1:{servers[0][1]}"
        async with httpx.AsyncClient(base_url=first, timeout=60) as h:
            for i in range(tables):
                r = await h.post("/api/tables", json={
                    "name": f"p{i}", "seats": [{"kind": "human"},
                                              {"kind": "bot", "level": "random"}],
                    "target": 11})
                r.raise_for_status()
                ids.append(r.json()["table"]["id"])
        keys = [f"{prefix}lease:{t}" for t in ids]
        holders = await red.mget(keys)
        killed = holders[0]
        assert killed is not None and all(x == killed for x in holders), holders
        servers[0][0].kill()  # SIGKILL
        start = time.monotonic()
        taken: dict[str, float] = {}
        while len(taken) < len(keys):
            for key, holder in zip(keys, await red.mget(keys), strict=True):
                if holder not in (None, killed) and key not in taken:
                    taken[key] = time.monotonic() - start
            if time.monotonic() - start > 120:
                raise RuntimeError(f"{len(keys) - len(taken)} tables never taken over")
            await asyncio.sleep(0.01)
        return min(taken.values()), max(taken.values())
    finally:
        await red.aclose()
        for proc, _ in servers:
            if proc.poll() is None:
                load.stop_server(proc)
        await load._pg_admin(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tables", type=int, default=50)
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--lease", type=float, default=None,
                   help="SCOPA_LEASE_SECONDS (default: the server's default)")
    p.add_argument("--src", default=str(HERE.parent / "src"),
                   help="source tree of the server to run (another checkout's, to pair)")
    args = p.parse_args()
    if not 1 <= args.tables <= 1000 or not 1 <= args.runs <= 20:
        p.error("tables must be 1..1000 and runs 1..20")
    lasts = []
    for run in range(args.runs):
        a, b = asyncio.run(once(args.tables, args.lease, Path(args.src).resolve()))
        lasts.append(b)
        print(f"run {run + 1}: first table taken over {a:.2f} s after the kill, "
              f"the last ({args.tables} tables) {b:.2f} s", flush=True)
    print(f"the last table taken over: median {statistics.median(lasts):.2f} s, "
          f"max {max(lasts):.2f} s")


if __name__ == "__main__":
    main()
