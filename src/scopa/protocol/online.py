"""``scopa bot online``: puts a local program that speaks the bot protocol online. The
bridge connects to a server's ``/api/bot/connect`` with the bot's API token, accepts the
challenges and seats it is offered (up to ``tables`` at once, in the variants it was told),
and for each table runs its own copy of the program (``ExternalBot``) to answer the
server's move requests. It reconnects when the server goes away (the server keeps the
bot's tables for it), restarts a program that crashed, and says each thing that happens
on one line. The server's side is ``scopa.server.bots``; the messages are in
docs/bot-protocol.md, "Online"."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable, Sequence
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from ..bots.base import Limit
from .client import ExternalBot
from .messages import BotProtocolError
from .views import view_from_dict

#: exit codes: the server refused the bot (a bad token, a suspended bot, bots off)
REFUSED = 2
#: the longest wait between two tries to reach the server
MAX_WAIT = 30.0


def clip(text: str, limit: int = 200) -> str:
    """One line of at most ``limit`` characters."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def connect_url(server: str) -> str:
    """``http(s)://host[:port]`` (or ``ws(s)://``) -> the bots' WebSocket address."""
    parts = urlsplit(server if "://" in server else f"http://{server}")
    scheme = {"http": "ws", "https": "wss", "ws": "ws", "wss": "wss"}.get(parts.scheme)
    if scheme is None or not parts.netloc:
        raise ValueError(f"not a server address: {server!r} (give http://host:port)")
    return urlunsplit((scheme, parts.netloc, parts.path.rstrip("/") + "/api/bot/connect",
                       "", ""))


class Bridge:
    """One bot online: the server's messages in, the program's moves out."""

    def __init__(self, server: str, token: str, command: Sequence[str], *, tables: int = 4,
                 variants: Sequence[str] = (), say: Callable[[str], None] = print,
                 once: bool = False) -> None:
        self.url = connect_url(server)
        self.token = token
        self.command = list(command)
        self.tables = tables
        self.variants = set(variants)
        self.say = say
        #: stop when the connection ends instead of reconnecting (tests)
        self.once = once
        self.programs: dict[str, ExternalBot] = {}
        #: the tables accepted and not over
        self.playing: set[str] = set()
        self.locks: dict[str, asyncio.Lock] = {}
        self.timeout = 10.0
        self.ws: Any = None

    async def run(self) -> int:
        """Stay online until refused (returns ``REFUSED``) or stopped."""
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed, InvalidStatus, InvalidURI

        wait = 1.0
        try:
            while True:
                try:
                    async with connect(self.url, max_size=1 << 20, open_timeout=10,
                                       additional_headers={
                                           "Authorization": f"Bearer {self.token}"}) as ws:
                        self.ws = ws
                        wait = 1.0
                        refused = await self._session(ws)
                        if refused is not None:
                            return refused
                        self.say(f"the server closed the connection; connecting again in "
                                 f"{wait:g} s")
                except InvalidURI as e:
                    self.say(f"not a server address: {e}")
                    return REFUSED
                except (OSError, InvalidStatus, ConnectionClosed, TimeoutError) as e:
                    self.say(f"server away ({self.url}): {clip(str(e) or type(e).__name__)}"
                             f"; connecting again in {wait:g} s")
                if self.once:
                    return 1
                await asyncio.sleep(wait)
                wait = min(wait * 2, MAX_WAIT)
        finally:
            self._close_all()

    async def _session(self, ws: Any) -> int | None:
        tasks: set[asyncio.Task[None]] = set()
        try:
            async for raw in ws:
                msg = json.loads(raw)
                kind = msg.get("type")
                if kind == "error" and msg.get("code") in ("bad_token", "suspended", "bots_off"):
                    self.say(f"refused by the server: {msg.get('message')}")
                    return REFUSED
                if kind == "move_request":
                    task = asyncio.get_running_loop().create_task(self._move(msg))
                    tasks.add(task)
                    task.add_done_callback(tasks.discard)
                else:
                    await self._notice(msg)
        finally:
            for task in tasks:
                task.cancel()
        return None

    async def _send(self, message: dict[str, Any]) -> None:
        with contextlib.suppress(Exception):  # gone: the reconnect picks the table up
            await self.ws.send(json.dumps(message))

    async def _notice(self, msg: dict[str, Any]) -> None:
        kind = msg.get("type")
        table = msg.get("table")
        if kind == "welcome":
            self.timeout = max(1.0, float(msg.get("move_seconds") or 10) * 0.8)
            self.say(f"online as {msg.get('bot')} at {self.url} (up to "
                     f"{min(self.tables, int(msg.get('max_tables') or self.tables))} tables)")
        elif kind == "challenge":
            await self._offer(msg)
        elif kind == "offer_gone":
            self.say(f"offer {msg.get('id')} withdrawn: {msg.get('message')}")
        elif kind == "new_game":
            rules = msg.get("rules") or {}
            self.say(f"table {table}: a match of {rules.get('variant')} starts (seat "
                     f"{msg.get('seat')})")
        elif kind == "hand_end":
            program = self.programs.get(str(table))
            if program is not None:
                with contextlib.suppress(BotProtocolError, OSError):
                    program.hand_end(msg.get("result") or {}, list(msg.get("scores") or []))
        elif kind == "match_end":
            self.say(f"table {table}: match over, {msg.get('scores')} (side "
                     f"{msg.get('winner')} won)")
            program = self.programs.get(str(table))
            if program is not None:
                with contextlib.suppress(BotProtocolError, OSError):
                    program.match_end(msg.get("winner"), list(msg.get("scores") or []))
            self._done(str(table))
        elif kind in ("replaced", "table_closed"):
            self.say(f"table {table}: {msg.get('message')}")
            self._done(str(table))
        elif kind == "error":
            where = f"table {table}: " if table else ""
            self.say(f"{where}the server says: {msg.get('message')}")

    async def _offer(self, msg: dict[str, Any]) -> None:
        rules = msg.get("rules") or {}
        variant = rules.get("variant")
        who = msg.get("from") or "someone"
        busy = len(self.playing) >= self.tables
        if self.variants and variant not in self.variants:
            await self._send({"type": "decline", "id": msg.get("id"),
                              "reason": f"this bot plays {', '.join(sorted(self.variants))}"})
            self.say(f"declined {who}'s {variant} (not among the variants given)")
        elif busy:
            await self._send({"type": "decline", "id": msg.get("id"),
                              "reason": "this bot plays as many tables as it may"})
            self.say(f"declined {who}'s {variant} (playing {self.tables} tables already)")
        else:
            self.playing.add(str(msg.get("table")))
            await self._send({"type": "accept", "id": msg.get("id")})
            rated = "rated" if msg.get("rated") else "unrated"
            self.say(f"accepted {who}'s {variant} ({rated}), table {msg.get('table')}")

    async def _move(self, msg: dict[str, Any]) -> None:
        table = str(msg.get("table"))
        lock = self.locks.setdefault(table, asyncio.Lock())
        async with lock:
            try:
                view = view_from_dict(msg.get("view"))
            except ValueError as e:
                self.say(f"table {table}: cannot read the server's view: {e}")
                return
            for attempt in (1, 2):
                try:
                    program = self.programs.get(table)
                    if program is None or not program.alive:
                        program = await asyncio.to_thread(ExternalBot, self.command,
                                                          self.timeout)
                        self.programs[table] = program
                    move = await asyncio.to_thread(program.choose, view, Limit())
                except BotProtocolError as e:
                    self._close(table)
                    if attempt == 1:
                        self.say(f"table {table}: the program failed ({clip(str(e))}); "
                                 "restarting it")
                        continue
                    self.say(f"table {table}: the program failed again; the server's "
                             "stand-in plays this seat")
                    await self._send({"type": "error", "table": table,
                                      "message": clip(str(e))})
                    return
                await self._send({"type": "move", "table": table, "id": msg.get("id"),
                                  "move": move.to_dict()})
                return

    def _close(self, table: str) -> None:
        program = self.programs.pop(table, None)
        if program is not None:
            with contextlib.suppress(Exception):
                program.close()

    def _done(self, table: str) -> None:
        self.playing.discard(table)
        self.locks.pop(table, None)
        self._close(table)

    def _close_all(self) -> None:
        for table in list(self.programs):
            self._close(table)
