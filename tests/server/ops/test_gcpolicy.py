"""The collector policy (``server.gcpolicy``): the survivors of a generation-1 or full
collection are frozen, so the next full collections leave them out; a collection of everything frees
garbage cycles among frozen objects."""

from __future__ import annotations

import asyncio
import gc
import weakref

from scopa.server.common.timing import Phases
from scopa.server.ops.gcpolicy import Collector


class Node:
    """A cyclic object (only the cycle collector frees it)."""

    def __init__(self) -> None:
        self.me = self


def test_the_survivors_of_older_collections_are_frozen_then_collected_all_at_once() -> None:
    async def run() -> None:
        collector = Collector(full_every=3600)
        collector.start()
        try:
            frozen = gc.get_freeze_count()
            kept = [Node() for _ in range(1000)]
            gc.collect(1)  # a generation-1 collection: the freeze follows on the loop
            while collector.freezes == 0:
                await asyncio.sleep(0)
            assert gc.get_freeze_count() >= frozen + len(kept)
            young = collector.freezes
            gc.collect(0)  # a young collection alone freezes nothing
            await asyncio.sleep(0)
            await asyncio.sleep(0)
            assert collector.freezes == young
            # a cycle frozen then dropped is garbage a full collection cannot see ...
            cycle = Node()
            collector.freeze()
            gone = weakref.ref(cycle)
            del cycle
            gc.collect()
            assert gone() is not None
            # ... until everything is collected
            collector.collect_all()
            assert gone() is None
            assert gc.get_freeze_count() > 0  # and the survivors are frozen again
        finally:
            collector.stop()
            gc.unfreeze()

    asyncio.run(run())


def test_phases_summarise_and_reset() -> None:
    phases = Phases()
    for ms in range(1, 101):
        phases.record("db.append", ms / 1000)
    phases.count("db.statements", 3)
    summary = phases.summary()
    assert summary["phases_ms"] == {"db.append": {"n": 100, "p50": 51.0, "p99": 100.0,
                                                  "max": 100.0}}
    assert summary["counts"] == {"db.statements": 3}
    phases.reset()
    assert phases.summary() == {"phases_ms": {}, "counts": {}}
