"""One worker is a cluster of one: the master's code is the same with ``LocalCluster`` as
with ``Cluster``, and a conflict in the log goes through one path (``Matches.commit``):
alone it is a bug and raises; among several, the loser re-reads the log and the move is
refused as stale, having changed nothing."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from scopa.rules import Rules
from scopa.server.common.refusal import Refusal
from scopa.server.common.settings import Settings
from scopa.server.play.master import Master
from scopa.server.play.spec import TableSpec
from scopa.server.play.table import Table
from scopa.server.play.workers import LocalCluster
from scopa.server.store.database import Conflict


class Store:
    """Storage whose appends can be told to refuse (another writer took the step)."""

    def __init__(self) -> None:
        self.refuse = False
        self.appended: list[tuple[int, str]] = []

    async def create_table(self, table: Any, seats: Any) -> None:
        pass

    async def take_seat(self, *args: Any) -> None:
        pass

    async def start_match(self, match: Any, first_hand: Any) -> None:
        pass

    async def append(self, match_id: str, seq: int, kind: str, data: Any,
                     finish: Any = None) -> None:
        if self.refuse:
            raise Conflict(f"{match_id} {seq}")
        self.appended.append((seq, kind))


class Rereading(LocalCluster):
    """The cluster of one, except that another worker writes the log too: a conflict is
    read back (recorded here) instead of raised."""

    def __init__(self) -> None:
        super().__init__()
        self.reread_calls: list[tuple[str, bool]] = []

    async def reread(self, table: Table, full: bool, error: Exception) -> None:
        self.reread_calls.append((table.id, full))


async def two_people(master: Master) -> Table:
    table, _, _ = await master.create_table(TableSpec(
        Rules(), [{"kind": "human"}, {"kind": "human"}], 600.0, creator="Anna", creator_seat=0))
    await master.join(table.invite, "Bruno", None)
    assert table.game is not None
    return table


def master_on(store: Store, cluster: LocalCluster) -> Master:
    return Master(Settings(grace_seconds=600), store, None, "k" * 32,  # type: ignore[arg-type]
                  cluster=cluster)


def test_alone_a_conflict_in_the_log_is_a_bug_and_raises() -> None:
    async def run() -> None:
        store = Store()
        master = master_on(store, LocalCluster())
        table = await two_people(master)
        game = table.game
        assert game is not None
        store.refuse = True
        with pytest.raises(Conflict):
            await master.submit(table, game.hand.to_move, table.state_id,
                                game.hand.legal_moves()[0].to_dict())
        await master.shutdown()

    asyncio.run(run())


def test_among_several_the_loser_rereads_and_the_move_is_stale_changing_nothing() -> None:
    async def run() -> None:
        store = Store()
        cluster = Rereading()
        master = master_on(store, cluster)
        table = await two_people(master)
        game = table.game
        assert game is not None
        before, hand = table.state_id, game.hand.hands[game.hand.to_move]
        store.refuse = True
        with pytest.raises(Refusal) as refused:
            await master.submit(table, game.hand.to_move, before,
                                game.hand.legal_moves()[0].to_dict())
        assert refused.value.code == "stale_state"
        assert cluster.reread_calls == [(table.id, False)]
        assert table.state_id == before and game.hand.hands[game.hand.to_move] == hand
        store.refuse = False  # the same move, once the log is read, goes in
        await master.submit(table, game.hand.to_move, before, game.hand.legal_moves()[0].to_dict())
        assert table.state_id == before + 1 and store.appended == [(table.seq - 1, "move")]
        await master.shutdown()

    asyncio.run(run())


def test_the_cluster_of_one_holds_every_table_and_hands_its_news_to_its_listeners() -> None:
    async def run() -> None:
        cluster = LocalCluster()
        master = master_on(Store(), cluster)
        table = await two_people(master)
        assert cluster.holds(table)
        assert await cluster.stored(table_id="nope") is None  # nobody else writes the log
        heard: list[dict[str, Any]] = []

        async def listener(t: Table, event: dict[str, Any]) -> None:
            heard.append({"table": t.id, **event})

        cluster.on("chat", listener)
        await cluster.tell(table, "chat", text="ciao")
        assert heard == [{"table": table.id, "kind": "chat", "origin": "local", "text": "ciao"}]
        assert [await cluster.count(table, "w"), await cluster.count(table, "w"),
                await cluster.count(table, "x")] == [1, 2, 1]
        cluster.unwatch(table.id)  # forgotten with the table
        assert await cluster.count(table, "w") == 1
        await master.shutdown()

    asyncio.run(run())


def test_a_cluster_of_one_must_be_served_before_it_starts() -> None:
    with pytest.raises(AssertionError, match="serve"):
        LocalCluster().start()
