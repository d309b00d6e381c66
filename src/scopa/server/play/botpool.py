"""Bots at the table: they think in a process pool, off the event loop, and are given
only the seat's ``PlayerView``. Teach-me analyses and reviews run in workers of their own (a
review's play carries the true position too, for its hindsight only: ``bots.review``)."""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING, Any

from ...bots import Limit, make_bot
from ...moves import Move
from ...view import PlayerView
from ..common.timing import PHASES

if TYPE_CHECKING:
    from ...bots.review import Decision

FALLBACK_LEVEL = "random"
#: seconds a bot move still being thought may take to finish when the server stops
CLOSE_GRACE = 2.0


def known_levels() -> list[str]:
    """The bots that may sit at a table (not the omniscient oracle)."""
    from ...bots import base

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
        from ...bots.analysis import analyse, payload
    except ImportError:
        return None
    return payload(view, analyse(view, limit=_limit(seconds)))


def _judge(decision: Decision, simulations: int, seed: str) -> dict[str, Any] | None:
    """Worker: one play of a review judged from its mover's view, then in hindsight on the
    true position (``bots.review.judge``); None when it was no decision (an engine mark)."""
    from ...bots.review import judge

    judged = judge(decision, simulations, seed)
    return None if judged is None else judged.to_dict()


def _warm() -> int:
    return 1


def _yield_cpu() -> None:
    """Worker start of the analysis pool: a lower CPU priority, so that on a busy machine
    the bots' processes (and the server) run first."""
    with contextlib.suppress(OSError, AttributeError):
        os.nice(10)


def _exit_when_orphaned(parent: int) -> None:
    """Watcher thread of a worker: once the server is gone (killed with SIGKILL, its
    shutdown never ran), the worker ends too instead of idling on for ever."""
    while os.getppid() == parent:
        time.sleep(1.0)
    os._exit(0)


def _start_worker(parent: int, then: Callable[[], None] | None) -> None:
    """Every worker's start: watch the server process, then the pool's own start."""
    threading.Thread(target=_exit_when_orphaned, args=(parent,), daemon=True,
                     name="orphan-watch").start()
    if then is not None:
        then()


class Workers:
    """Worker processes (spawned: safe next to threads and the event loop); if a worker
    died (the pool is broken), a new pool is started and the call retried once."""

    def __init__(self, workers: int, initializer: Callable[[], None] | None = None) -> None:
        self.workers = workers
        self.initializer = initializer
        self.executor = self._new_executor()

    def _new_executor(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(
            max_workers=self.workers, mp_context=multiprocessing.get_context("spawn"),
            initializer=_start_worker, initargs=(os.getpid(), self.initializer),
        )

    async def run(self, fn: Callable[..., Any], *args: Any) -> Any:
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

    def close(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)

    async def aclose(self, grace: float) -> None:
        """Stop for good, cleanly: waiting calls are cancelled, a running one has
        ``grace`` seconds to finish (then its process is terminated), and the pool's
        manager thread is joined, which closes its queues. Without this a server ended by
        SIGTERM (re-raised after shutdown, so no exit handlers run) left the queues'
        semaphores to the resource tracker: "leaked semaphore objects"."""
        executor = self.executor
        # shutdown() forgets its manager thread: keep it to join
        manager: threading.Thread | None = getattr(executor, "_executor_manager_thread", None)
        processes = list((executor._processes or {}).values())
        executor.shutdown(wait=False, cancel_futures=True)
        await asyncio.to_thread(_join, processes, grace)
        for proc in processes:
            if proc.is_alive():
                proc.terminate()
        await asyncio.to_thread(_join, processes, grace)
        for proc in processes:
            if proc.is_alive():
                proc.kill()
        if manager is not None:
            await asyncio.to_thread(manager.join, grace)


def _join(processes: list[Any], seconds: float) -> None:
    """Wait for these processes to end, ``seconds`` at most in all."""
    end = time.monotonic() + seconds
    for proc in processes:
        proc.join(max(0.0, end - time.monotonic()))


class AnalysisBusy(Exception):
    """Every analysis slot (running and waiting) is taken: ask again later."""


class BotPool:
    """Bots and stand-ins think in their own workers; teach-me analyses in others (started
    on first use, at a lower priority), so a bot never queues behind an analysis. At most
    ``analysis_workers + analysis_queue`` analyses are in flight; more raise
    ``AnalysisBusy``."""

    def __init__(self, workers: int, analysis_workers: int = 1, analysis_queue: int = 4) -> None:
        self.bots = Workers(workers)
        self.analysis = Workers(analysis_workers, _yield_cpu)
        self.analysis_slots = analysis_workers + analysis_queue
        self.analyses_in_flight = 0
        #: bot moves asked and not answered (beyond ``bots.workers`` they queue)
        self.bots_in_flight = 0

    async def warm(self) -> None:
        await self.bots.warm()

    async def choose(
        self, level: str, view: PlayerView, seconds: float | None, seed: int
    ) -> dict[str, Any]:
        self.bots_in_flight += 1
        try:
            # "bot.think": asked to answered, a wait for a free worker included
            with PHASES.timed("bot.think"):
                move: dict[str, Any] = await self.bots.run(_think, level, view, seconds, seed)
        finally:
            self.bots_in_flight -= 1
        return move

    async def analyse(self, view: PlayerView, seconds: float | None) -> dict[str, Any] | None:
        if self.analyses_in_flight >= self.analysis_slots:
            raise AnalysisBusy
        self.analyses_in_flight += 1
        try:
            analysis: dict[str, Any] | None = await self.analysis.run(_analyse, view, seconds)
        finally:
            self.analyses_in_flight -= 1
        return analysis

    async def judge(self, decision: Decision, simulations: int,
                    seed: str) -> dict[str, Any] | None:
        """One play of a review, in the analysis workers (below the bots' priority). Not
        counted against the teach-me slots: the review queue bounds itself, and it asks one
        play at a time, so a teach-me analysis waits for one play at most."""
        judged: dict[str, Any] | None = await self.analysis.run(
            _judge, decision, simulations, seed)
        return judged

    def close(self) -> None:
        self.bots.close()
        self.analysis.close()

    async def aclose(self, grace: float = CLOSE_GRACE) -> None:
        """Close both pools cleanly within about ``3 * grace`` seconds each, at once."""
        await asyncio.gather(self.bots.aclose(grace), self.analysis.aclose(grace))


def external_bot(command: list[str], timeout: float) -> Any:
    """An external-program bot (``scopa.protocol.ExternalBot``), or None if that module
    is not available."""
    try:
        from ...protocol import ExternalBot
    except ImportError:
        return None
    return ExternalBot(command, timeout)
