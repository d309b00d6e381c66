"""One online bot's WebSocket (``/api/bot/connect``): it signs in with its API token,
gets the offers of seats made for it (challenges) and for any bot, accepts or declines
them, and plays each table it sits at through a ``SeatLink``. A bot that reconnects picks
up every table it holds. The messages are the bot protocol's, each with its ``table``
(docs/bot-protocol.md, "Online")."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import unicodedata
from datetime import UTC, datetime
from typing import Any

from fastapi import WebSocket, WebSocketDisconnect

from ...protocol.messages import PROTOCOL_VERSION
from ..common.buckets import TokenBucket
from ..common.refusal import Refusal
from ..common.settings import Settings
from ..play import offers
from ..play.master import Master
from ..play.table import Table
from ..players.moderation import suspended
from ..store.account_models import UserRow
from ..store.broker import Broker, Subscription
from .bot_store import BotStore
from .seat_link import CLOSED, SeatLink

log = logging.getLogger("scopa.server")

#: seconds between two notes that the bot is still connected (the lobby lists the bots
#: seen within ``bot_store.ONLINE_SECONDS``)
HEARTBEAT_SECONDS = 20.0


def shown_text(raw: object, limit: int) -> str:
    """A bot's words shown to people (a decline's reason): one line, no control or format
    character (bidi overrides), at most ``limit`` characters."""
    text = "".join(ch for ch in str(raw or "") if not unicodedata.category(ch).startswith("C"))
    return " ".join(text.split())[:limit]


class BotLink:
    """One connection of the bot account ``bot``."""

    def __init__(self, ws: WebSocket, bot: UserRow, master: Master, broker: Broker,
                 store: BotStore, settings: Settings) -> None:
        self.ws = ws
        self.bot = bot
        self.master = master
        self.broker = broker
        self.store = store
        self.settings = settings
        self.out: asyncio.Queue[str | None] = asyncio.Queue()
        self.seats: dict[str, SeatLink] = {}
        #: offers told to the bot and not answered yet: table id -> the offer
        self.offers: dict[str, dict[str, Any]] = {}
        self.tasks: list[asyncio.Task[Any]] = []
        #: the bot's messages, limited like a person's socket's frames
        self.bucket = TokenBucket(settings.rate_per_second, settings.rate_burst)

    def tell(self, message: dict[str, Any]) -> None:
        self.out.put_nowait(json.dumps(message))

    async def run(self) -> None:
        # listed online before it is told it is: a challenge right after the welcome finds it
        await self.store.seen(self.bot.id, datetime.now(UTC))
        self.tell({"type": "welcome", "protocol": PROTOCOL_VERSION, "bot": self.bot.name,
                   "max_tables": self.settings.bot_tables,
                   "move_seconds": self.settings.bot_move_seconds})
        loop = asyncio.get_running_loop()
        self.tasks = [loop.create_task(self._writer()), loop.create_task(self._heartbeat())]
        try:
            async with contextlib.AsyncExitStack() as stack:
                # listening before looking: no offer falls between the two
                for channel in (offers.bot_channel(self.bot.id), offers.ANY_BOT):
                    sub = await stack.enter_async_context(self.broker.subscribe(channel))
                    self.tasks.append(loop.create_task(self._listen(sub)))
                await self._resume()
                await self._read()
        finally:
            for task in self.tasks:
                task.cancel()
            for seat in list(self.seats.values()):
                seat.stop()
            with contextlib.suppress(Exception):
                await self.store.gone(self.bot.id)

    # -- the bot's messages ----------------------------------------------------------------
    async def _read(self) -> None:
        limit = self.settings.max_message_bytes
        while True:
            try:
                raw = await self.ws.receive_text()
            except (WebSocketDisconnect, RuntimeError):
                return
            if len(raw.encode()) > limit:
                self.tell({"type": "error", "code": "too_big",
                           "message": f"a message may be {limit} bytes at most"})
                continue
            if not self.bucket.take():
                self.tell({"type": "error", "code": "rate_limited",
                           "message": "too many messages: slow down"})
                continue
            try:
                msg = json.loads(raw)
            except (ValueError, RecursionError):  # (JSON nested too deeply)
                msg = None
            if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
                self.tell({"type": "error", "code": "bad_message",
                           "message": "send one JSON object with a \"type\""})
                continue
            await self._dispatch(msg)

    async def _dispatch(self, msg: dict[str, Any]) -> None:
        kind = msg["type"]
        tid = msg.get("table") if isinstance(msg.get("table"), str) else None
        if kind == "ping":
            self.tell({"type": "pong"})
        elif kind == "move":
            seat = self.seats.get(tid or "")
            if seat is None:
                self.tell({"type": "error", "code": "not_seated", "table": tid,
                           "message": "this bot plays no table with this id now"})
            else:
                await seat.answer(msg)
        elif kind in ("accept", "decline"):
            oid = msg.get("id")
            offer = self.offers.pop(oid, None) if isinstance(oid, str) else None
            if offer is None:
                self.tell({"type": "offer_gone", "id": oid,
                           "message": "no offer with this id is open"})
            elif kind == "accept":
                await self._accept(offer)
            else:
                await self._decline(offer, shown_text(msg.get("reason"), 200))
        elif kind == "error" and tid in self.seats:
            # the bot's program failed at this table: the stand-in takes the seat now
            seat = self.seats[tid]
            seat.tell({"type": "replaced", "table": tid,
                       "message": "the bot gave up: the stand-in plays this seat"})
            await self._give_up(seat)
        elif kind in ("ready", "log", "error"):
            pass
        else:
            self.tell({"type": "error", "code": "bad_message",
                       "message": f"unknown message type {kind!r}"})

    async def _give_up(self, seat: SeatLink) -> None:
        seat.stop()
        seat.frames.put_nowait(CLOSED)  # its loop ends too
        assert seat.seat is not None
        self.master.stand_in_now(seat.table, seat.seat)

    # -- offers ------------------------------------------------------------------------------
    async def _listen(self, sub: Subscription) -> None:
        async for event in sub:
            if event.get("kind") == "offer":
                self._offered(event)
            elif (event.get("kind") == "offer_gone"
                  and self.offers.pop(str(event.get("table")), None) is not None):
                self.tell({"type": "offer_gone", "id": event.get("table"),
                           "message": str(event.get("message") or "taken")})

    def _offered(self, offer: dict[str, Any]) -> None:
        tid = str(offer.get("table"))
        if tid in self.offers or tid in self.seats:
            return
        variants = self.bot.bot_variants or []
        variant = (offer.get("rules") or {}).get("variant")
        challenge = offer.get("for") == self.bot.id
        busy = len(self.seats) >= self.settings.bot_tables
        if busy or (variants and variant not in variants):
            if challenge:  # answered for the bot: it cannot take it
                why = ("the bot plays as many tables as it may" if busy
                       else f"the bot does not play {variant}")
                self.tasks.append(asyncio.get_running_loop().create_task(
                    self._decline(offer, why)))
            return
        self.offers[tid] = offer
        self.tell({"type": "challenge", "id": tid, "table": tid, "from": offer.get("from"),
                   "rules": offer.get("rules"), "rated": offer.get("rated"),
                   "seat": offer.get("seat"), "challenge": challenge})
        self.tasks.append(asyncio.get_running_loop().create_task(self._expire_offer(tid)))

    async def _expire_offer(self, tid: str) -> None:
        await asyncio.sleep(self.settings.bot_offer_seconds)
        offer = self.offers.pop(tid, None)
        if offer is not None:
            self.tell({"type": "offer_gone", "id": tid, "message": "not answered in time"})
            await self._decline(offer, "the bot did not answer")

    async def _accept(self, offer: dict[str, Any]) -> None:
        tid = str(offer["table"])
        if len(self.seats) >= self.settings.bot_tables:
            self.tell({"type": "offer_gone", "id": tid,
                       "message": "the bot plays as many tables as it may"})
            return
        found = await self.master.find(tid)
        if found is not None and await self.store.blocked_at(self.bot.id, found):
            self.tell({"type": "offer_gone", "id": tid,
                       "message": "a player at this table blocked this bot"})
            return
        try:
            table, seat, _ = await self.master.join(str(offer["invite"]), self.bot.name,
                                                    int(offer["seat"]), self.bot.id, bot=True)
        except Refusal as e:
            self.tell({"type": "offer_gone", "id": tid, "message": e.message})
            return
        with contextlib.suppress(Exception):  # the other bots: this seat is taken
            await self.broker.publish(offers.channel_of(table, seat),
                                      {"kind": "offer_gone", "table": tid, "message": "taken"})
        self._play(table, seat)

    async def _decline(self, offer: dict[str, Any], reason: str) -> None:
        if offer.get("for") != self.bot.id:
            return  # a seat for any bot: another may take it
        table = await self.master.find(str(offer["table"]))
        if table is not None and table.status == "waiting":
            words = f"{self.bot.name} declined the challenge"
            await self.master.decline(table, f"{words}: {reason}" if reason else words)

    # -- tables --------------------------------------------------------------------------------
    def _play(self, table: Table, seat: int) -> None:
        link = SeatLink(self.master, table, seat, self.tell, self.settings.bot_move_seconds,
                        self._left)
        self.seats[table.id] = link
        self.tasks.append(asyncio.get_running_loop().create_task(link.run()))

    def _left(self, seat: SeatLink) -> None:
        if self.seats.get(seat.table.id) is seat:
            del self.seats[seat.table.id]

    async def _resume(self) -> None:
        """The tables this bot holds (it reconnected): played again from where they are;
        then the offers made to it while it was away, and the open seats for any bot."""
        for tid, seat in await self.store.live_seats(self.bot.id):
            table = await self.master.find(tid)
            if (table is not None and table.status in ("waiting", "playing")
                    and table.seats[seat].user_id == self.bot.id and tid not in self.seats):
                self._play(table, seat)
        for table in list(self.master.tables.values()):
            for seat in offers.open_seats(table):
                if table.seats[seat].user_id in (None, self.bot.id):
                    self._offered(offers.offer(table, seat))

    # -- the socket ------------------------------------------------------------------------------
    async def _writer(self) -> None:
        while True:
            text = await self.out.get()
            if text is None:
                with contextlib.suppress(Exception):
                    await self.ws.close(4403)
                return
            try:
                await self.ws.send_text(text)
            except Exception:
                return

    async def _heartbeat(self) -> None:
        """Listed online while connected; cut off once the operator suspends the bot."""
        while True:
            await asyncio.sleep(HEARTBEAT_SECONDS)
            with contextlib.suppress(Exception):
                await self.store.seen(self.bot.id, datetime.now(UTC))
                fresh = await self.store.bot(self.bot.name_key)
                if fresh is None or suspended(fresh):
                    self.tell({"type": "error", "code": "suspended",
                               "message": "the operator suspended this bot"})
                    self.out.put_nowait(None)  # the writer sends it, then closes
                    return


async def serve(ws: WebSocket) -> None:
    """``/api/bot/connect``: the token (``Authorization: Bearer``) opens a bot account
    that is not suspended, on a server that allows bots; else one clear ``error`` and the
    socket closes (4401 a bad token, 4403 refused)."""
    state = ws.app.state
    settings: Settings = state.settings
    await ws.accept()
    auth = ws.headers.get("authorization", "")
    token = auth[7:].strip() if auth.lower().startswith("bearer ") else ""
    store = BotStore(state.store)
    bot = await store.account_of(token) if token else None
    refusal = None
    if not settings.bots_online:
        refusal = (4403, "bots_off", "this server does not let bots play online")
    elif bot is None:
        refusal = (4401, "bad_token", "this token opens no bot: make one on your bot's "
                                      "page (tokens may be revoked)")
    elif suspended(bot):
        refusal = (4403, "suspended", "the operator suspended this bot")
    if refusal is not None or bot is None:
        code, what, words = refusal or (4401, "bad_token", "")
        await ws.send_text(json.dumps({"type": "error", "code": what, "message": words}))
        await ws.close(code)
        return
    link = BotLink(ws, bot, state.master, state.broker, store, settings)
    try:
        await link.run()
    finally:
        with contextlib.suppress(Exception):
            await ws.close()
