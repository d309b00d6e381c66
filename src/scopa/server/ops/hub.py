"""WebSocket connections: authenticate, parse and throttle client frames, and send each
socket its own messages through a queue (so a slow client never stalls a table)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from typing import Any

from fastapi import WebSocket, WebSocketDisconnect

from ..chat.room import CHAT_FRAMES, Chat
from ..common.buckets import TokenBucket
from ..common.refusal import Refusal
from ..common.security import origin_allowed
from ..common.settings import Settings
from ..common.timing import PHASES
from ..play.master import Master
from ..play.table import Table

#: the fields each client frame may carry
FRAMES: dict[str, tuple[set[str], set[str]]] = {
    # type: (required, optional)
    "hello": (set(), {"token", "spectate", "invite"}),
    "move": ({"state_id", "move"}, set()),
    "teach": ({"state_id"}, set()),
    "next": (set(), set()),
    "rematch": (set(), set()),
    "resign": (set(), set()),
    "ping": (set(), {"t"}),
    **CHAT_FRAMES,
}
#: messages queued for one socket beyond which it is too slow and is closed
MAX_QUEUE = 500


class Connection:
    """One socket: its seat (None for spectators) and its outgoing queue."""

    def __init__(self, ws: WebSocket) -> None:
        self.ws = ws
        self.seat: int | None = None
        #: (text, monotonic time queued); None: close
        self.queue: asyncio.Queue[tuple[str, float] | None] = asyncio.Queue()
        self.too_slow = False
        self.closing = (1008, "too slow")

    def send(self, text: str) -> None:
        if self.too_slow:
            return
        if self.queue.qsize() >= MAX_QUEUE:
            self.too_slow = True
            self.queue.put_nowait(None)
            return
        self.queue.put_nowait((text, time.perf_counter()))

    def error(self, code: str, message: str, ref: str | None, state_id: int | None = None) -> None:
        frame: dict[str, Any] = {"type": "error", "code": code, "message": message, "ref": ref}
        if state_id is not None:
            frame["state_id"] = state_id
        self.send(json.dumps(frame))

    def close_after_queue(self, code: int, reason: str) -> None:
        """Close once the frames already queued have gone out."""
        self.closing = (code, reason)
        self.too_slow = True
        self.queue.put_nowait(None)

    async def writer(self) -> None:
        while True:
            item = await self.queue.get()
            if item is None:
                await self.ws.close(code=self.closing[0], reason=self.closing[1])
                return
            text, queued = item
            start = time.perf_counter()
            PHASES.record("socket.queued", start - queued)
            await self.ws.send_text(text)
            PHASES.record("socket.send", time.perf_counter() - start)


BINARY = "frames are JSON text: binary frames are refused"


def frame_text(message: Any) -> str | None:
    """The text of a received WebSocket message; None for a binary frame (the protocol is
    JSON text, so a binary frame is refused the same way before and after hello)."""
    text = message.get("text")
    return text if isinstance(text, str) else None


def parse_frame(raw: str, limit: int) -> tuple[dict[str, Any] | None, str | None, str, str | None]:
    """(frame, None, "", type) for a good frame, else (None, code, message, type)."""
    if len(raw.encode()) > limit:
        return None, "too_large", f"frames are limited to {limit} bytes", None
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        return None, "bad_json", "the frame is not JSON", None
    if not isinstance(data, dict):
        return None, "bad_message", "a frame must be a JSON object with a type", None
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in FRAMES:
        return None, "bad_message", f"unknown type; use one of {', '.join(FRAMES)}", None
    required, optional = FRAMES[kind]
    keys = set(data) - {"type"}
    if required - keys:
        return None, "bad_message", f"{kind} needs {', '.join(sorted(required - keys))}", kind
    if keys - required - optional:
        extra = ", ".join(sorted(keys - required - optional))[:100]
        return None, "bad_message", f"{kind} does not take {extra}", kind
    if "state_id" in data and (not isinstance(data["state_id"], int)
                               or isinstance(data["state_id"], bool)):
        return None, "bad_message", "state_id must be an integer", kind
    return data, None, "", kind


class Hub:
    """Serves ``/ws/<table_id>``."""

    def __init__(self, master: Master, settings: Settings) -> None:
        self.master = master
        self.settings = settings
        #: teach-me answers being computed (kept so they are not collected mid-way)
        self._teaching: set[asyncio.Task[None]] = set()
        self.chat = Chat(master)

    async def serve(self, ws: WebSocket, table_id: str) -> None:
        if not origin_allowed(ws.headers.get("origin"), ws.headers.get("host"), self.settings):
            # refused before the handshake completes: the page gets HTTP 403
            await ws.close(code=1008, reason="origin not allowed")
            return
        await ws.accept()
        table = await self.master.find(table_id)
        if table is None:
            await ws.close(code=4004, reason="no such table")
            return
        conn = Connection(ws)
        writer = asyncio.get_running_loop().create_task(conn.writer())
        attached = False
        try:
            attached = await self._hello(conn, table)
            if attached:
                await self._loop(conn, table)
        except WebSocketDisconnect:
            pass
        finally:
            if attached:
                self.master.detach(table, conn)
                self.chat.detach(table, conn)
            # let queued frames (e.g. a last error) go out, then the close frame
            if not conn.too_slow:
                conn.close_after_queue(1000, "bye")
            if not writer.done():
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(writer, 2)
            writer.cancel()

    async def _hello(self, conn: Connection, table: Table) -> bool:
        try:
            received = await asyncio.wait_for(conn.ws.receive(), self.settings.hello_timeout)
        except TimeoutError:
            conn.error("not_authenticated", "send hello first", None)
            conn.close_after_queue(4001, "no hello")
            return False
        if received["type"] == "websocket.disconnect":
            return False
        raw = frame_text(received)
        if raw is None:
            conn.error("bad_message", BINARY, None)
            conn.close_after_queue(4001, "no hello")
            return False
        frame, code, message, kind = parse_frame(raw, self.settings.max_message_bytes)
        if frame is None or kind != "hello":
            conn.error(code or "not_authenticated",
                       message or "the first frame must be hello", kind)
            conn.close_after_queue(4001, "no hello")
            return False
        if frame.get("spectate") is True and "token" not in frame:
            if not self.master.may_watch(table, frame.get("invite")):
                conn.error("bad_token", "the tables of a duplicate round are not watched "
                           "while the round is played" if table.shared_deals else
                           "a private table is watched only with its invite code", "hello")
                conn.close_after_queue(4003, "private table")
                return False
            conn.seat = None
        else:
            seat = self.master.authenticate(table, frame.get("token"))
            if seat is None:
                conn.error("bad_token", "this token opens no seat at this table", "hello")
                conn.close_after_queue(4003, "bad token")
                return False
            conn.seat = seat
        await self.master.attach(table, conn)
        return True

    async def _loop(self, conn: Connection, table: Table) -> None:
        bucket = TokenBucket(self.settings.rate_per_second, self.settings.rate_burst)
        refused = 0
        while not conn.too_slow:
            message = await conn.ws.receive()
            if message["type"] == "websocket.disconnect":
                return
            received = time.perf_counter()
            raw = frame_text(message)
            if not bucket.take():
                refused += 1
                if refused >= self.settings.flood_close_after:
                    conn.close_after_queue(1008, "flooding")
                    return
                conn.error("rate_limited", "too many messages: slow down", None)
                continue
            refused = 0
            if raw is None:
                conn.error("bad_message", BINARY, None)
                continue
            frame, code, text, kind = parse_frame(raw, self.settings.max_message_bytes)
            if frame is None:
                conn.error(code or "bad_message", text, kind)
                continue
            try:
                await self._dispatch(conn, table, frame)
            except Refusal as e:
                conn.error(e.code, e.message, frame["type"], e.state_id)
            if kind == "move":  # received to committed, applied and queued to every socket
                PHASES.record("move.handled", time.perf_counter() - received)

    async def _dispatch(self, conn: Connection, table: Table, frame: dict[str, Any]) -> None:
        kind = frame["type"]
        if kind == "ping":
            conn.send(json.dumps({"type": "pong", "t": frame.get("t")}))
            return
        if kind == "hello":
            raise Refusal("already_authenticated", "this socket already said hello")
        if kind in CHAT_FRAMES:  # spectators chat too, in their own channel
            await self.chat.handle(table, conn, frame)
            return
        seat = conn.seat
        if seat is None:
            raise Refusal("spectator", "spectators watch; they cannot act")
        if kind == "move":
            await self.master.submit(table, seat, frame["state_id"], frame["move"])
        elif kind == "teach":
            # the analysis takes a while: answer later, keep reading this socket meanwhile
            # (the master allows one analysis per seat at a time)
            task = asyncio.get_running_loop().create_task(self._teach(conn, table, seat, frame))
            self._teaching.add(task)
            task.add_done_callback(self._teaching.discard)
        elif kind == "next":
            await self.master.next_vote(table, seat)
        elif kind == "rematch":
            await self.master.rematch(table, seat)
        elif kind == "resign":
            await self.master.resign(table, seat)

    async def _teach(
        self, conn: Connection, table: Table, seat: int, frame: dict[str, Any]
    ) -> None:
        try:
            answer = await self.master.teach(table, seat, frame["state_id"])
        except Refusal as e:
            conn.error(e.code, e.message, "teach", e.state_id)
            return
        except Exception:
            conn.error("internal", "the analysis failed", "teach")
            return
        conn.send(json.dumps(answer))
