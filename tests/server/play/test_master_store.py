"""The master on an awaited store: while a move is being committed (the store has not
answered yet) the event loop runs on, and nobody is told about the table as it was before
the move once the move is on its way to the log."""

from __future__ import annotations

import asyncio
from typing import Any

from server_helpers import Conn

from scopa.rules import Rules
from scopa.server.common.settings import Settings
from scopa.server.play.master import Master
from scopa.server.play.spec import TableSpec


class GatedStore:
    """Storage that answers every append only when ``gate`` is set (a slow database)."""

    def __init__(self) -> None:
        self.gate = asyncio.Event()
        self.appending = asyncio.Event()
        self.events: list[tuple[str, int, str]] = []

    async def create_table(self, table: Any, seats: Any) -> None:
        pass

    async def take_seat(self, *args: Any) -> None:
        pass

    async def start_match(self, match: Any, first_hand: Any) -> None:
        self.events.append((match.id, 0, "hand"))

    async def append(self, match_id: str, seq: int, kind: str, data: Any,
                     finish: Any = None) -> None:
        self.appending.set()
        await self.gate.wait()
        self.events.append((match_id, seq, kind))


def test_a_socket_arriving_mid_commit_sees_the_state_after_the_move() -> None:
    async def run() -> None:
        store = GatedStore()
        master = Master(Settings(grace_seconds=600), store, None, "k" * 32)  # type: ignore[arg-type]
        try:
            table, _, _ = await master.create_table(TableSpec(
                Rules(), [{"kind": "human"}, {"kind": "human"}], 600.0, creator="Anna",
                creator_seat=0))
            await master.join(table.invite, "Bruno", None)
            game = table.game
            assert game is not None
            before = table.state_id
            mover = game.hand.to_move
            move = game.hand.legal_moves()[0].to_dict()
            submit = asyncio.create_task(master.submit(table, mover, before, move))
            await store.appending.wait()  # the move is on its way to the log
            late = Conn(1 - mover)
            attach = asyncio.create_task(master.attach(table, late))
            await asyncio.sleep(0)  # one turn of the loop: the attach runs as far as it can
            assert not submit.done()  # (and the loop runs while the store works)
            assert late.frames == []  # not told the table as it was before the move
            store.gate.set()
            await submit
            await attach
            states = [f for f in late.frames if f["type"] == "state"]
            assert states and states[0]["state_id"] == before + 1
            assert store.events[-1][1:] == (1, "move")
        finally:
            await master.shutdown()

    asyncio.run(asyncio.wait_for(run(), 30))
