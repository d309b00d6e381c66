"""One seat of an online bot at one table: a ``Conn`` the master sends the seat's frames
to, like a person's socket, turned here into the bot protocol's messages (docs/bot-
protocol.md, "Online"): ``new_game`` when a match starts, ``move_request`` when it is the
seat's turn (the seat's view and legal moves, exactly what a person's page gets),
``hand_end`` and ``match_end``. The bot's ``move`` goes to the master like a person's; a
refused one is told to the bot, which may answer again while its time lasts; when the time
runs out the stand-in plays the seat for the rest of the match, as for a person away."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable
from typing import Any

from ..common.refusal import Refusal
from ..play.master import Master
from ..play.table import Table

#: what ``close_after_queue`` puts in the queue: the table closed this seat
CLOSED = "\x00closed"


class SeatLink:
    """The seat ``seat`` of ``table``, played by the bot behind ``tell``."""

    def __init__(self, master: Master, table: Table, seat: int,
                 tell: Callable[[dict[str, Any]], None], seconds: float,
                 done: Callable[[SeatLink], None]) -> None:
        self.master = master
        self.table = table
        self.seat: int | None = seat
        self.tell = tell
        self.seconds = seconds
        self.done = done
        self.frames: asyncio.Queue[str] = asyncio.Queue()
        #: the state id of the move request the bot has not answered yet
        self.asked: int | None = None
        self.match_told: str | None = None
        self.timer: asyncio.Task[None] | None = None
        self.attached = False

    # -- the Conn interface (called under the table's lock: only queue) ------------------
    def send(self, text: str) -> None:
        self.frames.put_nowait(text)

    def close_after_queue(self, code: int, reason: str) -> None:
        self.frames.put_nowait(CLOSED)

    # -- the seat's life -----------------------------------------------------------------
    async def run(self) -> None:
        await self.master.attach(self.table, self)
        self.attached = True
        try:
            while True:
                text = await self.frames.get()
                if text == CLOSED or not await self._frame(json.loads(text)):
                    return
        finally:
            self.stop()

    def stop(self) -> None:
        """Leave the table (the bot's connection closed, or the match is over)."""
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        if self.attached:
            self.attached = False
            self.master.detach(self.table, self)
        self.done(self)

    async def _frame(self, f: dict[str, Any]) -> bool:
        """Tell the bot what the frame means for it; False once the seat is done."""
        kind = f.get("type")
        tid = self.table.id
        if kind == "state":
            match = f.get("match_id")
            if match and f.get("view") is not None and match != self.match_told:
                self.match_told = match
                self.tell({"type": "new_game", "table": tid, "rules": f["table"]["rules"],
                           "seat": self.seat, "match": match})
            if f.get("your_turn") and f["state_id"] != self.asked:
                self.asked = f["state_id"]
                self.tell({"type": "move_request", "table": tid, "id": f["state_id"],
                           "time_limit": None, "timeout": self.seconds,
                           "view": f["view"], "legal": f["legal_moves"]})
                self._start_timer(f["state_id"])
            elif not f.get("your_turn"):
                self._stop_timer()
        elif kind == "hand_end":
            self.tell({"type": "hand_end", "table": tid, "result": f["result"],
                       "scores": f["scores"]})
            if f.get("waiting_for"):  # the bot has read the score sheet
                with contextlib.suppress(Refusal):
                    assert self.seat is not None
                    await self.master.next_vote(self.table, self.seat)
        elif kind == "match_end":
            self.tell({"type": "match_end", "table": tid, "winner": f["winner"],
                       "scores": f["scores"]})
            return False
        elif kind == "error" and f.get("code") in ("table_expired", "challenge_declined"):
            self.tell({"type": "table_closed", "table": tid, "message": f.get("message")})
            return False
        return True

    # -- the bot's answers -----------------------------------------------------------------
    async def answer(self, msg: dict[str, Any]) -> None:
        """The bot's ``move`` for this table: submitted like a person's; refused ones are
        told back (the bot may answer again while its time lasts)."""
        sid = msg.get("id")
        if self.asked is None or sid != self.asked:
            self.tell({"type": "error", "table": self.table.id, "id": sid, "code": "stale",
                       "message": f"no move is asked with id {sid!r} at this table now"})
            return
        try:
            assert self.seat is not None
            await self.master.submit(self.table, self.seat, sid, msg.get("move"))
        except Refusal as e:
            self.tell({"type": "error", "table": self.table.id, "id": sid, "code": e.code,
                       "message": e.message + "; answer again with one of the legal moves"})
            return
        self._stop_timer()

    def _start_timer(self, sid: int) -> None:
        self._stop_timer()
        self.timer = asyncio.get_running_loop().create_task(self._time_out(sid))

    def _stop_timer(self) -> None:
        if self.timer is not None and self.timer is not asyncio.current_task():
            self.timer.cancel()
        self.timer = None

    async def _time_out(self, sid: int) -> None:
        await asyncio.sleep(self.seconds)
        if self.asked != sid or not self.attached:
            return
        self.timer = None
        self.tell({"type": "replaced", "table": self.table.id,
                   "message": f"no move within {self.seconds:g} s: the stand-in plays this "
                              "seat to the end of the match"})
        self.attached = False
        self.master.detach(self.table, self)
        assert self.seat is not None
        self.master.stand_in_now(self.table, self.seat)
        self.frames.put_nowait(CLOSED)
