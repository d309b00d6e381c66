"""The seats no person plays now: a bot's, an outside program's, or a stand-in's for a
person away. When one is to move it thinks in the bot pool (never on the event loop) and
submits its move like anyone; a bot that fails or answers wrong plays a random legal move,
so a broken bot never stalls a table."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Awaitable, Callable
from typing import Any

from ...moves import Move
from ...view import PlayerView
from ..common.refusal import Refusal
from ..common.settings import Settings
from . import flow
from .botpool import BotPool, external_bot
from .table import SeatState, Table
from .tasks import Tasks
from .workers import Workers

log = logging.getLogger("scopa.server")

#: the match side's way in: (table, seat, state id, move, by)
Submit = Callable[[Table, int, object, object, str], Awaitable[None]]


class BotSeats:
    def __init__(self, settings: Settings, pool: BotPool, cluster: Workers, tasks: Tasks,
                 rng: random.Random, submit: Submit) -> None:
        self.settings = settings
        self.pool = pool
        self.cluster = cluster
        self.tasks = tasks
        self.rng = rng
        self._submit = submit

    def drive(self, table: Table) -> None:
        """If a bot (or a stand-in) is to move, let it think (lock held)."""
        seat = flow.bot_to_move(table)
        if seat is None or not self.cluster.holds(table):
            return
        if table.bot_task is not None and not table.bot_task.done():
            return
        table.bot_task = self.tasks.spawn(self._move(table, seat, table.state_id))

    async def _move(self, table: Table, seat: int, sid: int) -> None:
        started = time.monotonic()
        game = table.game
        if game is None or table.state_id != sid:
            return
        s = table.seats[seat]
        view = PlayerView.of(game.hand, seat)
        by = "bot" if s.kind != "human" else "standin"
        try:
            if s.kind == "external":
                move = await self._external_move(s, view)
            else:
                level = s.level if s.kind == "bot" else self.settings.standin_level
                move = await self.pool.choose(
                    level or "random", view, self.settings.bot_seconds, self.rng.getrandbits(32)
                )
        except Exception:
            log.exception("bot at table %s seat %d failed; playing a random move", table.id, seat)
            move = self.rng.choice(view.legal_moves()).to_dict()
        wait = self.settings.bot_delay_seconds - (time.monotonic() - started)
        if wait > 0:
            await asyncio.sleep(wait)
        table.bot_task = None
        try:
            await self._submit(table, seat, sid, move, by)
        except Refusal as e:
            if e.code in ("illegal_move", "bad_message"):
                # a broken bot must not stall the table: play a random legal move instead
                log.warning("bot move refused at %s: %s", table.id, e.message)
                fallback = self.rng.choice(view.legal_moves()).to_dict()
                with contextlib.suppress(Refusal):
                    await self._submit(table, seat, sid, fallback, by)
        async with table.lock:
            self.drive(table)  # e.g. the stand-in's player came back mid-thought

    async def _external_move(self, s: SeatState, view: Any) -> dict[str, Any]:
        if s.external is None or not getattr(s.external, "alive", lambda: True)():
            command = self.settings.external_bots.get(s.level or "")
            if not command:
                raise RuntimeError(f"no external bot named {s.level!r} on this server")
            # starting the program waits for its greeting: not on the event loop
            bot = await asyncio.to_thread(external_bot, command, self.settings.external_timeout)
            if bot is None:
                raise RuntimeError("external bots are not available")
            s.external = bot
        move = await asyncio.to_thread(s.external.choose, view, None)
        return Move(move.card, move.capture).to_dict()
