"""Health: counts and the event loop's lag, so an operator (and the load bench) can tell
the server's own delays from the machine's."""

from __future__ import annotations

import asyncio
import collections
import gc
import time
from typing import Any

from fastapi import APIRouter, Request

from ..common.errors import errors
from ..common.security import require_operator
from ..common.timing import PHASES, spread_ms
from .answers import Health, LoopLag
from .metrics import open_sockets

router = APIRouter(prefix="/api", tags=["health"])

TICK = 0.01


class LagMonitor:
    """Wakes every 10 ms and keeps how late each wake-up was (the last ~60 s)."""

    def __init__(self) -> None:
        self.lags: collections.deque[float] = collections.deque(maxlen=int(60 / TICK))
        self.task: asyncio.Task[None] | None = None
        self.gc_max = 0.0
        self.gc_total = 0.0
        self._gc_start = 0.0
        #: per generation: longest pause and how many collections
        self.gc_by_gen = [[0.0, 0] for _ in range(3)]

    def _gc(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._gc_start = time.perf_counter()
        else:
            took = time.perf_counter() - self._gc_start
            self.gc_total += took
            self.gc_max = max(self.gc_max, took)
            gen = self.gc_by_gen[min(2, int(info.get("generation", 2)))]
            gen[0] = max(gen[0], took)
            gen[1] += 1

    def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self._run())
        gc.callbacks.append(self._gc)

    async def _run(self) -> None:
        while True:
            t = time.monotonic()
            await asyncio.sleep(TICK)
            self.lags.append(time.monotonic() - t - TICK)

    def summary(self) -> LoopLag:
        lag = spread_ms(self.lags) if self.lags else {}
        return {
            "p50": lag.get("p50"), "p99": lag.get("p99"), "max": lag.get("max"),
            "gc_max": round(self.gc_max * 1000, 2), "gc_total": round(self.gc_total * 1000, 1),
            # [longest pause ms, collections] of generations 0, 1, 2
            "gc_by_gen": [[round(m * 1000, 2), n] for m, n in self.gc_by_gen]}

    def reset(self) -> None:
        self.lags.clear()
        self.gc_max = self.gc_total = 0.0
        self.gc_by_gen = [[0.0, 0] for _ in range(3)]

    def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
        if self._gc in gc.callbacks:
            gc.callbacks.remove(self._gc)


@router.get("/health", responses=errors(401, 403))
def health(request: Request, reset: bool = False) -> Health:
    """Live tables, open sockets, and the event loop's lag over the last minute (ms) and
    garbage-collection pauses; ``reset=true`` starts the figures afresh (an operator
    action: it needs ``Authorization: Bearer <operator secret>``)."""
    master = request.app.state.master
    if reset:
        require_operator(request, request.app.state.settings)
        request.app.state.lag.reset()
        PHASES.reset()
    tables = list(master.tables.values())
    sockets = open_sockets(tables)
    phases = PHASES.summary()
    return {
        "ok": True,
        "tables": len(master.tables),
        "playing": sum(1 for t in tables if t.status == "playing"),
        "sockets": sockets,
        "loop_lag_ms": request.app.state.lag.summary(),
        # where moves spend their time here, and the database round trips (timing.py)
        "phases_ms": phases["phases_ms"], "counts": phases["counts"],
    }
