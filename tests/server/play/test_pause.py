"""The pause between hands, with a fake clock: the score sheet stays up until every person
seated presses Continue, however long they read; the long timeout deals for an absent
player; each Continue tells every seat who is still reading. The master runs in this
process (no sockets), time only moves when a test moves it."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from server_helpers import Conn

from scopa.rules import Rules
from scopa.server.common.clock import Clock
from scopa.server.common.settings import Settings
from scopa.server.play import flow, frames
from scopa.server.play.master import Master
from scopa.server.play.spec import TableSpec
from scopa.server.play.table import Table
from scopa.server.store.database import Store

PAUSE = 120.0


class TrackedStore(Store):
    """The real store, counting its calls in flight: the database answers from another
    thread, so ``settle`` waits for it (an event) instead of a number of loop turns."""

    WRITES = ("create_table", "take_seat", "set_status", "start_match", "append")

    def __init__(self, url: str) -> None:
        super().__init__(url)
        self.pending = 0
        self.idle = asyncio.Event()
        for name in self.WRITES:
            setattr(self, name, self._tracked(getattr(self, name)))

    def _tracked(self, method: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        async def call(*args: Any, **kwargs: Any) -> Any:
            self.pending += 1
            self.idle.clear()
            try:
                return await method(*args, **kwargs)
            finally:
                self.pending -= 1
                if not self.pending:
                    self.idle.set()
        return call


class FakeClock(Clock):
    """Time stands still until ``advance``; sleepers wake when their hour has come."""

    def __init__(self, store: TrackedStore) -> None:
        self.t = 1_000_000.0
        self.store = store
        self.sleepers: list[tuple[float, asyncio.Future[None]]] = []

    def now(self) -> float:
        return self.t

    async def sleep(self, seconds: float) -> None:
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.sleepers.append((self.t + seconds, fut))
        await fut

    async def advance(self, seconds: float) -> None:
        self.t += seconds
        due = [(at, f) for at, f in self.sleepers if at <= self.t]
        self.sleepers = [(at, f) for at, f in self.sleepers if at > self.t]
        for _, fut in due:
            if not fut.done():
                fut.set_result(None)
        await settle(self.store)


async def settle(store: TrackedStore) -> None:
    """Let every task that can run, run, until all wait on the fake clock or a lock (none
    on the database)."""
    while True:
        for _ in range(20):
            await asyncio.sleep(0)
        if not store.pending:
            return
        await store.idle.wait()




async def two_people_at_hand_end(tmp: Path) -> tuple[Master, Table, Conn, Conn, FakeClock]:
    """Anna and Bruno (both people) play hand 1 to its end; both sockets open."""
    settings = Settings(hand_pause_seconds=PAUSE, grace_seconds=30)
    store = TrackedStore(f"sqlite:///{tmp / 'pause.sqlite'}")
    await store.migrate()
    clock = FakeClock(store)
    master = Master(settings, store, pool=None, secret="s" * 32, clock=clock)  # type: ignore[arg-type]
    rules = Rules.preset("scopa", players=2, target=21)
    table, _, _ = await master.create_table(TableSpec(
        rules, [{"kind": "human"}, {"kind": "human"}], 30.0, creator="Anna", creator_seat=0))
    await master.join(table.invite, "Bruno", None)
    a, b = Conn(0), Conn(1)
    await master.attach(table, a)
    await master.attach(table, b)
    game = table.game
    assert game is not None
    while not game.hand.hand_over:
        move = game.hand.legal_moves()[0]
        await master.submit(table, game.hand.to_move, table.state_id, move.to_dict())
    await settle(store)
    return master, table, a, b, clock


def hand_number(table: Table) -> int:
    assert table.game is not None
    return table.game.hand_number


Scene = Callable[[Master, Table, Conn, Conn, FakeClock], Awaitable[None]]


def at_hand_end(tmp: Path, scene: Scene) -> None:
    """Run ``scene`` on a fresh two-person table whose first hand has just ended."""

    async def run() -> None:
        master, table, a, b, clock = await two_people_at_hand_end(tmp)
        try:
            await scene(master, table, a, b, clock)
        finally:
            await master.store.close()

    asyncio.run(run())


def test_the_sheet_waits_for_everyone_however_long(tmp_path: Path) -> None:
    async def scene(master: Master, table: Table, a: Conn, b: Conn, clock: FakeClock) -> None:
        end = a.of("hand_end")[-1]
        assert end["waiting_for"] == [0, 1] and end["next_hand_at"] == clock.t + PAUSE
        await master.next_vote(table, 0)
        # Anna pressed Continue: both seats are told Bruno is still reading
        for c in (a, b):
            assert c.of("waiting")[-1]["waiting_for"] == [1]
            assert c.of("waiting")[-1]["ready"] == [0]
        await clock.advance(30)  # the old 10 s pause is long gone
        await clock.advance(PAUSE - 31)
        assert hand_number(table) == 1 and table.game is not None and table.game.hand.hand_over
        await master.next_vote(table, 1)
        assert hand_number(table) == 2
        assert a.of("state")[-1]["event"]["kind"] == "deal"

    at_hand_end(tmp_path, scene)


def test_the_long_pause_deals_for_someone_who_never_presses(tmp_path: Path) -> None:
    async def scene(master: Master, table: Table, a: Conn, b: Conn, clock: FakeClock) -> None:
        await master.next_vote(table, 0)
        await clock.advance(PAUSE - 1)
        assert hand_number(table) == 1
        await clock.advance(1)
        assert hand_number(table) == 2

    at_hand_end(tmp_path, scene)


def test_a_reload_is_waited_for_a_player_gone_for_good_is_not(tmp_path: Path) -> None:
    async def scene(master: Master, table: Table, a: Conn, b: Conn, clock: FakeClock) -> None:
        await master.next_vote(table, 0)
        master.detach(table, b)  # Bruno's page reloads (or his connection drops)
        await settle(clock.store)
        assert hand_number(table) == 1 and flow.waiting_for(table) == [1]
        await clock.advance(30)  # the grace ends: a stand-in takes his seat
        assert table.seats[1].standin
        assert hand_number(table) == 2

    at_hand_end(tmp_path, scene)


def test_the_totals_count_the_finished_hand(tmp_path: Path) -> None:
    """Behind the sheet the score board reads the totals with this hand counted."""

    async def scene(master: Master, table: Table, a: Conn, b: Conn, clock: FakeClock) -> None:
        end = a.of("hand_end")[-1]
        assert a.of("state")[-1]["table"]["scores"] == end["scores"]
        assert frames.totals(table) == end["scores"]

    at_hand_end(tmp_path, scene)


@pytest.mark.parametrize("pause", [0.0, 600.0])
def test_the_pause_is_a_setting(pause: float) -> None:
    assert Settings(hand_pause_seconds=pause).hand_pause_seconds == pause
    assert Settings.model_fields["hand_pause_seconds"].default == PAUSE
