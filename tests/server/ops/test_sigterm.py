"""A SIGTERM while bots are thinking: the server stops within a bound, exits cleanly (0 or
the re-raised SIGTERM), closes its bot workers (no "leaked semaphore" warning from
multiprocessing's resource tracker) and leaves no worker process behind."""

from __future__ import annotations

import asyncio
import random
import signal
import subprocess
import time
from pathlib import Path

import httpx
from prometheus_client.parser import text_string_to_metric_families
from server_helpers import Client, ServerProcess, play_human
from test_orphans import alive, children

#: safety bound of the whole stop (the event waited for is the process's exit)
STOP_BOUND = 60


def in_flight(server: ServerProcess) -> float:
    text = httpx.get(server.base + "/metrics", timeout=10).text
    for fam in text_string_to_metric_families(text):
        if fam.name == "scopa_bot_moves_in_flight":
            return float(fam.samples[0].value)
    return 0.0


def test_sigterm_with_bots_thinking_exits_cleanly(tmp_path: Path) -> None:
    # bots that use a long budget, so the signal finds them thinking
    server = ServerProcess(tmp_path / "scopa.sqlite", SCOPA_METRICS="open",
                           SCOPA_BOT_SECONDS="20", SCOPA_BOT_WORKERS="2").start()
    assert server.proc is not None
    try:
        workers = children(server.proc.pid)
        tables = [server.create(variant="scopone", players=4, target=11, seats=[
            {"kind": "human"}, *({"kind": "bot", "level": "expert"} for _ in range(3))])
            for _ in range(3)]

        async def play_until_stopped() -> int | None:
            clients = [await Client(server, t["table"]["id"], t["token"]).connect()
                       for t in tables]
            players = [asyncio.create_task(play_human(c, random.Random(i), timeout=STOP_BOUND))
                       for i, c in enumerate(clients)]
            deadline = time.monotonic() + STOP_BOUND
            while await asyncio.to_thread(in_flight, server) < 1:  # the event: bots think
                assert time.monotonic() < deadline, "no bot ever started thinking"
                await asyncio.sleep(0.05)
            assert server.proc is not None
            server.proc.send_signal(signal.SIGTERM)
            try:
                code = await asyncio.to_thread(server.proc.wait, STOP_BOUND)
            except subprocess.TimeoutExpired:
                raise AssertionError("the server did not stop after SIGTERM") from None
            for p in players:
                p.cancel()
            await asyncio.gather(*players, return_exceptions=True)
            return code

        code = asyncio.run(play_until_stopped())
        # the children (the resource tracker among them) end after the server: only then
        # has everything that will be written to the log been written
        end = time.monotonic() + STOP_BOUND
        while any(alive(p) for p in workers) and time.monotonic() < end:
            time.sleep(0.1)
        assert not [p for p in workers if alive(p)], "bot workers outlived the server"
        log = server.log.read_text()
        assert "leaked semaphore" not in log, log
        assert code in (0, -signal.SIGTERM), (code, log)
        assert "Traceback" not in log, log
    finally:
        server.kill()
