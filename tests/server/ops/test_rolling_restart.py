"""A rolling restart of two workers on PostgreSQL and Redis while people play: each worker
in turn gets SIGTERM (its sockets close with 1012, "service restart"), its people
reconnect (to the other worker while it is down, as a balancer would send them), and a
fresh worker starts on its port. Every move a person was told about is in the log, and
none is there twice or unsent (``bench/rolling.py`` keeps the books)."""

from __future__ import annotations

import asyncio
import random
import signal
from pathlib import Path

import pytest
from reconnecting import Person, progress, rolling
from server_helpers import ServerProcess
from services import BROKER_URL, dsn, fresh_database, redis_prefix

pytestmark = pytest.mark.slow

TABLES = 2
#: acknowledged moves at every table before the restart, and after each worker's
MOVES_BETWEEN = 4
#: the longest wait for a worker to stop
WAIT = 90


def test_a_rolling_restart_loses_and_doubles_no_acknowledged_move(tmp_path: Path) -> None:
    with fresh_database() as url:
        env = {"SCOPA_BROKER_URL": BROKER_URL, "SCOPA_BROKER_PREFIX": redis_prefix(),
               "SCOPA_LEASE_SECONDS": "1.5"}
        servers = [ServerProcess(tmp_path / f"w{i}.sqlite", database_url=url, **env).start()
                   for i in range(2)]
        ports = [s.port for s in servers]
        try:
            people: list[Person] = []

            async def main() -> None:
                changed = asyncio.Event()
                rng = random.Random(30)
                for i in range(TABLES):
                    made = servers[i % 2].create(
                        seats=[{"kind": "human"}, {"kind": "human"}], target=11)
                    joined = servers[(i + 1) % 2].join(made["invite"])
                    tid = made["table"]["id"]
                    for k, token in enumerate((made["token"], joined["token"])):
                        # at its own worker, and back there first after a close, else at
                        # the other one
                        own = [f"ws://127.0.0.1:{ports[(i + k + j) % 2]}" for j in range(2)]
                        people.append(Person(own[0], own, tid, token,
                                             random.Random(rng.random()), changed))
                tasks = [asyncio.create_task(p.run()) for p in people]
                try:
                    await progress(people, changed, MOVES_BETWEEN)
                    for i in range(2):  # one worker at a time
                        old = servers[i]
                        assert old.proc is not None
                        old.proc.send_signal(signal.SIGTERM)
                        code = await asyncio.to_thread(old.proc.wait, WAIT)
                        assert code in (0, -signal.SIGTERM), old.log.read_text()
                        servers[i] = await asyncio.to_thread(ServerProcess(
                            tmp_path / f"w{i}-again.sqlite", port=ports[i], database_url=url,
                            **env).start)
                        await progress(people, changed, MOVES_BETWEEN)
                finally:
                    for t in tasks:
                        t.cancel()
                    await asyncio.gather(*tasks, return_exceptions=True)

            asyncio.run(main())
        finally:
            for s in servers:
                s.stop()
        logged = asyncio.run(rolling.logged_moves(dsn(url)))
    lost, doubled = rolling.compare([p.ledger for p in people], logged)
    assert lost == [] and doubled == []
    assert sum(len(p.ledger.acked) for p in people) >= TABLES * 3 * MOVES_BETWEEN
    # the drained workers closed their sockets as a restart (1012), so the page comes back
    codes = {c for p in people for c in p.close_codes}
    assert 1012 in codes, codes


def test_the_ledger_catches_a_lost_and_a_doubled_move() -> None:
    """The books can fail: an acknowledged move missing from the log is lost, a person's
    move in the log that nobody sent is doubled; two cards sent at one step (the second
    after reconnecting) are both the person's, and the one acknowledged must be logged."""
    ledger = rolling.Ledger()
    state = {"match_id": "m", "state_id": 1_000_004}
    ledger.sending(state, {"card": "7d"})
    ledger.seen({"match_id": "m", "state_id": 1_000_005, "event": {
        "kind": "move", "seat": 0, "card": "7d"}}, 0)
    assert ledger.acked == {("m", 4): "7d"}
    assert rolling.compare([ledger], {}) == ([("m", 4)], [])
    assert rolling.compare([ledger], {("m", 4): ("human", "7d"),
                                      ("m", 6): ("human", "3c")}) == ([], [("m", 6)])
    assert rolling.compare([ledger], {("m", 4): ("human", "7d"),
                                      ("m", 5): ("bot", "1b")}) == ([], [])
    # the log holds another card at that step: lost and doubled at once
    assert rolling.compare([ledger], {("m", 4): ("human", "1c")}) == ([("m", 4)], [("m", 4)])
    # a second card sent at the same step (after a reconnect) is the person's too; the
    # acknowledgement named the first, which the log holds
    ledger.sending(state, {"card": "2s"})
    assert rolling.compare([ledger], {("m", 4): ("human", "7d")}) == ([], [])
    assert rolling.compare([ledger], {("m", 4): ("human", "2s")}) == ([("m", 4)], [])
