"""The password-hash gates: a few hashes at once, a few waiting, then "busy" at once;
sign-ins have a gate of their own, so a sign-up flood never makes them wait. Driven by
events, not by time."""

from __future__ import annotations

import asyncio
import threading
from types import SimpleNamespace

import pytest

from scopa.server.players.hashgate import Busy, Gates, HashGate


async def until(condition: object) -> None:
    """Yield to the loop until ``condition()`` holds (no waiting for time)."""
    for _ in range(1000):
        if condition():  # type: ignore[operator]
            return
        await asyncio.sleep(0)
    raise AssertionError("never happened")


def test_a_full_gate_answers_busy_at_once_and_the_queue_runs_in_turn() -> None:
    async def run() -> None:
        gate = HashGate(slots=1, queue=1)
        started, release = threading.Event(), threading.Event()

        def slow() -> str:
            started.set()
            assert release.wait(30)
            return "first"

        first = asyncio.create_task(gate.run(slow))
        await asyncio.get_running_loop().run_in_executor(None, started.wait, 30)
        second = asyncio.create_task(gate.run(lambda: "second"))
        await until(lambda: gate.waiting == 1)
        with pytest.raises(Busy):  # the slot is busy and the queue full: refused now
            await gate.run(lambda: "third")
        assert not second.done()
        release.set()
        assert await first == "first" and await second == "second"
        assert gate.waiting == 0 and await gate.run(lambda: "again") == "again"

    asyncio.run(run())


def test_sign_ins_do_not_wait_behind_sign_ups() -> None:
    async def run() -> None:
        gates = Gates(SimpleNamespace(signup_hashes_at_once=1, signup_hash_queue=0,
                                      signin_hashes_at_once=1, signin_hash_queue=0))
        started, release = threading.Event(), threading.Event()

        def hashing() -> None:
            started.set()
            assert release.wait(30)

        flood = asyncio.create_task(gates.new.run(hashing))
        await asyncio.get_running_loop().run_in_executor(None, started.wait, 30)
        with pytest.raises(Busy):
            await gates.new.run(lambda: None)
        assert await gates.check.run(lambda: "signed in") == "signed in"
        release.set()
        await flood

    asyncio.run(run())
