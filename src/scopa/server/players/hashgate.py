"""Password hashing, bounded. Argon2id takes 64 MiB and a core's worth of time per hash
on purpose; unbounded, a flood of sign-ups grew the server by a gigabyte and made everyone
else's sign-in wait seconds. Each kind of work has its own gate: a few hashes run at once,
a few more wait their turn, and beyond that the request is answered 503 "busy" at once
(it changes nothing). Sign-ups (new hashes) and sign-ins (verifying one) never queue
behind each other, so a sign-up flood leaves the owners' sign-ins fast. Gates are per
worker process."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, TypeVar

from fastapi import HTTPException, Request
from starlette.concurrency import run_in_threadpool

T = TypeVar("T")


class Busy(Exception):
    """Every slot is taken and the queue is full."""


class HashGate:
    """At most ``slots`` calls run at once (in threads), ``queue`` more wait."""

    def __init__(self, slots: int, queue: int) -> None:
        self.slots = asyncio.Semaphore(slots)
        self.queue = queue
        self.waiting = 0

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        if self.slots.locked():
            if self.waiting >= self.queue:
                raise Busy
            self.waiting += 1
            try:
                await self.slots.acquire()
            finally:
                self.waiting -= 1
        else:
            await self.slots.acquire()
        try:
            return await run_in_threadpool(fn, *args)
        finally:
            self.slots.release()


class Gates:
    """The server's two gates: ``new`` hashes (sign-up, a new password) and ``check``
    (verifying a password: sign-in, confirming a change)."""

    def __init__(self, settings: Any) -> None:
        self.new = HashGate(settings.signup_hashes_at_once, settings.signup_hash_queue)
        self.check = HashGate(settings.signin_hashes_at_once, settings.signin_hash_queue)


def gates_of(request: Request) -> Gates:
    state = request.app.state
    gates: Gates | None = getattr(state, "hash_gates", None)
    if gates is None:
        gates = state.hash_gates = Gates(state.settings)
    return gates


async def hashing(gate: HashGate, fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)`` through ``gate``, or 503 busy (with Retry-After) when it is full."""
    try:
        return await gate.run(fn, *args)
    except Busy:
        raise HTTPException(503, "the server is busy: try again in a moment",
                            headers={"Retry-After": "5"}) from None
