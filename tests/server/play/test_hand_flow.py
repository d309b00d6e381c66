"""Between hands: the next hand waits for the pause, or for every connected person's
"next"; the pause's end is published."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from server_helpers import Client, ServerProcess


@pytest.fixture(scope="module")
def slow(database_url: str, tmp_path_factory: pytest.TempPathFactory
         ) -> Iterator[ServerProcess]:
    db: Path = tmp_path_factory.mktemp("slow") / "slow.sqlite"
    proc = ServerProcess(db, database_url=database_url, SCOPA_HAND_PAUSE_SECONDS="60").start()
    yield proc
    proc.stop()


async def to_hand_end(c: Client, rng: random.Random) -> dict[str, Any]:
    acted: set[int] = set()
    while True:
        f = await asyncio.wait_for(c.queue.get(), 60)
        if f["type"] == "hand_end":
            return f
        mine = f["type"] == "state" and f["your_turn"] and c.queue.empty()
        if mine and f["state_id"] not in acted:
            acted.add(f["state_id"])
            await c.send({"type": "move", "state_id": f["state_id"],
                          "move": rng.choice(f["legal_moves"])})


def test_next_from_everyone_deals_at_once(slow: ServerProcess) -> None:
    async def run() -> None:
        created = slow.create(seats=[{"kind": "human"}, {"kind": "human"}], target=30)
        joined = slow.join(created["invite"])
        tid = created["table"]["id"]
        a = await Client(slow, tid, created["token"]).connect()
        b = await Client(slow, tid, joined["token"]).connect()
        rng = random.Random(2)
        ends = await asyncio.gather(to_hand_end(a, rng), to_hand_end(b, rng))
        end = ends[0]
        assert end["next_hand_at"] > time.time() + 50
        # refused meanwhile: moves (the hand is over)
        await a.send({"type": "move", "state_id": end["state_id"],
                      "move": {"card": "7d", "capture": []}})
        assert (await a.expect("error"))["code"] == "hand_over"
        await a.send({"type": "next"})
        await asyncio.sleep(0.5)
        assert a.latest_state()["view"]["hand_number"] == 1  # still waiting for b
        await b.send({"type": "next"})
        dealt = await a.expect("state", lambda f: f["event"] and f["event"]["kind"] == "deal")
        assert dealt["view"]["hand_number"] == 2 and dealt["next_hand_at"] is None
        assert dealt["state_id"] == end["state_id"] + 1
        assert dealt["commitment"]["hand_number"] == 2
        assert dealt["commitment"]["commitment"] != end["commitment"]
        for c in (a, b):
            await c.close()

    asyncio.run(run())


def test_a_table_of_bots_moves_on_without_the_long_pause(slow: ServerProcess) -> None:
    """Nobody is there to say "next" at a bots-only table: the next hand comes after a
    short look at the sheet, not after the table's 60 s pause."""

    async def run() -> None:
        created = slow.create(
            seats=[{"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}],
            target=31,
        )
        watcher = await Client(slow, created["table"]["id"], invite=created["invite"]).connect()
        first = await watcher.expect("hand_end", timeout=60)
        assert first["next_hand_at"] - time.time() < 5
        second = await watcher.expect(
            "state", lambda f: f["view"]["hand_number"] == first["hand_number"] + 1, timeout=30
        )
        assert not second["view"]["hand_over"]
        await watcher.close()

    asyncio.run(run())


def test_a_reload_between_hands_gets_the_score_sheet_again(slow: ServerProcess) -> None:
    """Same state after a reload: a socket that arrives while the sheet is up is sent the
    hand's result too (a spectator as well); before the hand ends nobody gets one."""

    async def run() -> None:
        created = slow.create(seats=[{"kind": "human"}, {"kind": "bot", "level": "random"}],
                              target=30)
        tid = created["table"]["id"]
        early = await Client(slow, tid, invite=created["invite"]).connect()
        await early.expect("state")
        await early.drain()
        assert not [f for f in early.frames if f["type"] == "hand_end"]
        await early.close()
        a = await Client(slow, tid, created["token"]).connect()
        end = await to_hand_end(a, random.Random(5))
        await a.close()
        again = await Client(slow, tid, created["token"]).connect()
        sheet = await again.expect("hand_end")
        assert sheet["result"] == end["result"] and sheet["seed"] == end["seed"]
        watcher = await Client(slow, tid, invite=created["invite"]).connect()
        assert (await watcher.expect("hand_end"))["hand_number"] == end["hand_number"]
        for c in (again, watcher):
            await c.close()

    asyncio.run(run())
