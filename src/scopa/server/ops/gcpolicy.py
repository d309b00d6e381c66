"""The garbage collector under load. A full (generation 2) collection walks every tracked
object, so with a thousand tables in memory each one stopped the event loop for 100-300 ms
several times a minute, and that, not the work of the moves, set the slowest deliveries.

The objects that survive two young collections (a second or two under load) are mostly
long-lived (tables, games, sockets): right after each generation-1 or full collection this
process moves everything to the permanent generation (``gc.freeze``, which costs nothing),
so full collections look only at what is newer, and the first one after a thousand tables
were made is as short as the others. Frozen objects are still freed by reference counting;
only garbage *cycles* among them (e.g. a closed socket's tasks) wait, for one collection of
everything every ``full_every`` seconds: one pause per period instead of several a
minute, and at most that period's cycles kept meanwhile."""

from __future__ import annotations

import asyncio
import gc
from typing import Any

#: seconds between collections of everything (frozen objects too)
FULL_EVERY = 600.0


class Collector:
    """Freezes the survivors of older-generation collections; collects everything now and
    then."""

    def __init__(self, full_every: float = FULL_EVERY) -> None:
        self.full_every = full_every
        self.freezes = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._scheduled = False
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        gc.callbacks.append(self._after)
        self._task = self._loop.create_task(self._every())

    def _after(self, phase: str, info: dict[str, Any]) -> None:
        # not inside the collector's callback: on the loop, right after it
        if phase == "stop" and info.get("generation", 0) >= 1 and not self._scheduled \
                and self._loop is not None and not self._loop.is_closed():
            self._scheduled = True
            self._loop.call_soon_threadsafe(self.freeze)

    def freeze(self) -> None:
        """Move every object tracked now out of the collections to come."""
        self._scheduled = False
        gc.freeze()
        self.freezes += 1

    def collect_all(self) -> None:
        """One collection of everything (frozen garbage cycles too), then freeze again."""
        gc.unfreeze()
        gc.collect()
        self.freeze()

    async def _every(self) -> None:
        while True:
            await asyncio.sleep(self.full_every)
            self.collect_all()

    def stop(self) -> None:
        if self._after in gc.callbacks:
            gc.callbacks.remove(self._after)
        if self._task is not None:
            self._task.cancel()
