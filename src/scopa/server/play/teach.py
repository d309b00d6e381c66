"""Teach me: the move analysis a seat may ask for on its turn (where the table allows it),
computed in the analysis pool, one in flight per seat, each answer kept for the state it
was asked in (asking again costs nothing)."""

from __future__ import annotations

from typing import Any

from ...view import PlayerView
from ..common.refusal import Refusal
from ..common.settings import Settings
from . import fairplay
from .botpool import AnalysisBusy, BotPool
from .table import Table

#: answers kept at most (then forgotten together)
KEPT = 1000


class Teacher:
    def __init__(self, settings: Settings, pool: BotPool) -> None:
        self.settings = settings
        self.pool = pool
        #: teach-me answers by (table, state id, seat)
        self._analyses: dict[tuple[str, int, int], dict[str, Any] | None] = {}
        #: seats (table, seat) with an analysis being computed
        self._teaching: set[tuple[str, int]] = set()

    async def teach(self, table: Table, seat: int, state_id: object) -> dict[str, Any]:
        refused = fairplay.teach_refusal(table.teach, table.rated)
        if refused is not None:
            raise Refusal("teach_off", refused)
        game = table.game
        if game is None:
            raise Refusal("not_started", "the match has not started")
        if state_id != table.state_id:
            raise Refusal("stale_state", f"the state changed (now {table.state_id})",
                              table.state_id)
        if game.hand.hand_over or game.hand.to_move != seat or table.match_over:
            raise Refusal("not_your_turn", "analysis is given on your turn",
                              table.state_id)
        key = (table.id, table.state_id, seat)
        analysis = self._analyses.get(key)
        if analysis is None:
            asker = (table.id, seat)
            if asker in self._teaching:  # fairness: one analysis in flight per seat
                raise Refusal("rate_limited", "one analysis at a time: wait for it",
                                  table.state_id)
            self._teaching.add(asker)
            try:
                analysis = await self.pool.analyse(
                    PlayerView.of(game.hand, seat), self.settings.bot_seconds)
            except AnalysisBusy:
                raise Refusal("busy", "the analysis is busy: try again in a moment",
                                  table.state_id) from None
            finally:
                self._teaching.discard(asker)
            if len(self._analyses) > KEPT:
                self._analyses.clear()
            self._analyses[key] = analysis
        if analysis is None:
            raise Refusal("unavailable", "move analysis is not available on this server")
        return {"type": "analysis", "state_id": state_id, **analysis}
