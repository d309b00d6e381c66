"""Bots at the table: they think in a process pool, off the event loop, and are given
only the seat's ``PlayerView``. Teach-me analysis runs in the same pool."""

from __future__ import annotations

import asyncio
import multiprocessing
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from ..bots import Limit, make_bot
from ..game import Move
from ..view import PlayerView

FALLBACK_LEVEL = "random"


def known_levels() -> list[str]:
    """The bots that may sit at a table (not the omniscient oracle)."""
    from ..bots import base

    return [name for name in base.bot_names() if base.seatable(name)]


def _limit(seconds: float | None) -> Limit | None:
    return None if seconds is None else Limit(seconds=seconds)


def _think(level: str, view: PlayerView, seconds: float | None, seed: int) -> dict[str, Any]:
    """Worker: one bot decision (within the level's own budget unless ``seconds`` is
    given). Unknown levels (not registered yet) fall back to random."""
    try:
        bot = make_bot(level, seed)
    except ValueError:
        bot = make_bot(FALLBACK_LEVEL, seed)
    move = bot.choose(view, _limit(seconds))
    return Move(move.card, move.capture).to_dict()


def _analyse(view: PlayerView, seconds: float | None) -> dict[str, Any] | None:
    """Worker: the teach-me analysis of the seat's legal moves, best first, with the words
    as structured messages (``scopa.messages``; None when the analysis module is not
    there)."""
    try:
        from ..bots.analysis import analyse, payload
    except ImportError:
        return None
    return payload(view, analyse(view, limit=_limit(seconds)))


def _warm() -> int:
    return 1


class BotPool:
    """A pool of worker processes (spawned: safe next to threads and the event loop)."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.executor = self._new_executor()

    def _new_executor(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(
            max_workers=self.workers, mp_context=multiprocessing.get_context("spawn")
        )

    async def _run(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Run in the pool; if a worker died (the pool is broken), start a new pool once."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self.executor, fn, *args)
        except BrokenProcessPool:
            self.executor.shutdown(wait=False, cancel_futures=True)
            self.executor = self._new_executor()
            return await loop.run_in_executor(self.executor, fn, *args)

    async def warm(self) -> None:
        loop = asyncio.get_running_loop()
        await asyncio.gather(
            *(loop.run_in_executor(self.executor, _warm) for _ in range(self.workers))
        )

    async def choose(
        self, level: str, view: PlayerView, seconds: float | None, seed: int
    ) -> dict[str, Any]:
        move: dict[str, Any] = await self._run(_think, level, view, seconds, seed)
        return move

    async def analyse(self, view: PlayerView, seconds: float | None) -> dict[str, Any] | None:
        analysis: dict[str, Any] | None = await self._run(_analyse, view, seconds)
        return analysis

    def close(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)


def external_bot(command: list[str], timeout: float) -> Any:
    """An external-program bot (``scopa.protocol.ExternalBot``), or None if that module
    is not available."""
    try:
        from ..protocol import ExternalBot
    except ImportError:
        return None
    return ExternalBot(command, timeout)
