"""Stopping the server (SIGTERM) finishes the writes in flight: closing the store waits
for the group writer, so the moves queued for it are committed before the event loop
ends (which would cancel the writer half way), not lost with the closing engine."""

from __future__ import annotations

import asyncio

from scopa.rules import Rules
from scopa.server.store.database import Store
from scopa.server.store.models import MatchRow, SeatRow, TableRow


def test_close_finishes_the_queued_writes(url: str) -> None:
    async def run() -> None:
        store = Store(url)
        await store.migrate()
        await store.create_table(
            TableRow(id="t1", invite="i1", public=False, rules=Rules().to_dict(),
                     grace_seconds=1.0, status="waiting"),
            [SeatRow(table_id="t1", seat=0, kind="human")])
        await store.start_match(MatchRow(id="m1", table_id="t1", number=1, rules={},
                                         players=["a"], hands=0), {"number": 1, "seed": "s"})
        waiters = [asyncio.create_task(store.append("m1", seq, "move", {"seat": 0, "n": seq}))
                   for seq in range(1, 21)]
        await asyncio.sleep(0)  # every append queued; the writer not yet done
        await store.close()
        assert all(w.done() for w in waiters), "close returned with writes in flight"
        assert [w.exception() for w in waiters] == [None] * 20

        again = Store(url)
        try:
            written = [e.data.get("n") for e in await again.events("m1")][1:]
        finally:
            await again.close()
        assert written == list(range(1, 21))

    asyncio.run(run())
