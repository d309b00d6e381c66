"""Table chat over the table's WebSocket: free text and quick phrases (catalogue keys,
shown in each reader's own language), with a length limit and a rate limit, muting a
speaker for yourself, and reports of a message for the operator.

Two channels per table that never meet: the players' (every seat) and the spectators'.
Players never read the spectators' comments on their play and spectators never read what
players tell each other (docs/server-protocol.md). A refused message is stored nowhere and
sent to nobody. History is kept (stored), so a socket that (re)connects gets its channel's
recent messages, without the speakers it muted.

Chat is opt-in per socket: a socket that sends ``chat_open`` (after ``hello``, again after
each reconnection) gets the history and from then on every message of its channel; a
socket that never does (a program playing the game) is sent no chat at all.

Several workers (the scaled deployment): a message is stored, then announced through the
cluster, and every worker (the speaker's too) hands it to its own sockets of that channel
when the broker delivers it, so every socket everywhere reads the messages once and in the
broker's one order. Mutes stay with each reader, at its worker. Spectators' ids (``w<n>``)
come from a counter all workers share. A worker that missed announcements (the broker
restarted) reads the missing messages from the database."""

from __future__ import annotations

import asyncio
import json
import logging
import re
import unicodedata
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from ...messages import catalogue
from ..common.buckets import TokenBucket
from ..common.refusal import Refusal
from ..play.master import Master
from ..play.table import LIVE, Conn, Table
from ..players.moderation import Moderation, blocked_by
from ..store.broker import Event
from .chatstore import ChatStore, Said

log = logging.getLogger("scopa.server")

#: the frames a client sends for chat: type -> (required, optional) fields
CHAT_FRAMES: dict[str, tuple[set[str], set[str]]] = {
    "chat_open": (set(), set()),
    "chat": (set(), {"text", "phrase"}),
    "mute": ({"author", "muted"}, set()),
    "report": ({"id"}, {"reason"}),
}
PLAYERS, SPECTATORS = "players", "spectators"
PHRASE_PREFIX = "chat.phrase."
AUTHOR = re.compile(r"^[sw][0-9]{1,6}$")
#: characters kept although they are formatting (emoji sequences need the joiner)
KEEP = {"\u200d"}


@dataclass(frozen=True)
class ChatLimits:
    """How much one may say: characters per message, and a token bucket per speaker."""

    length: int = 200
    burst: int = 5
    per_second: float = 0.5
    history: int = 100
    reason_length: int = 200
    context: int = 10


def phrases() -> list[str]:
    """The quick phrases: every ``chat.phrase.*`` key of the message catalogue, in its order."""
    return [k for k in catalogue()["en"] if k.startswith(PHRASE_PREFIX)]


def clean_text(raw: object, limit: int) -> str:
    """The text as shown: white space folded to single spaces, control and invisible
    formatting characters dropped; refused when empty or longer than ``limit``."""
    if not isinstance(raw, str):
        raise Refusal("bad_message", "chat text must be a string")
    folded = " ".join(raw.split())
    text = "".join(ch for ch in folded
                   if ch in KEEP or unicodedata.category(ch) not in ("Cc", "Cf", "Co", "Cs"))
    if not text:
        raise Refusal("chat_empty", "say something: the message is empty")
    if len(text) > limit:
        raise Refusal("chat_too_long",
                          f"chat messages are limited to {limit} characters (this has "
                          f"{len(text)})")
    return text


@dataclass
class Room:
    """One table's chat in memory: recent history per channel, who muted whom, buckets."""

    history: dict[str, deque[Said]]
    #: mutes of each seat, kept while the table lives (a reload keeps them)
    seat_mutes: dict[int, set[str]] = field(default_factory=dict)
    #: the sockets that opened the chat, and their channel
    members: dict[Any, str] = field(default_factory=dict)
    #: spectators: their author id and their mutes, per socket
    watchers: dict[Any, str] = field(default_factory=dict)
    watcher_mutes: dict[Any, set[str]] = field(default_factory=dict)
    #: the accounts each seated reader's account blocked (``moderation``), read at
    #: chat_open: their seats' messages never reach it
    blocks: dict[Any, set[int]] = field(default_factory=dict)
    next_watcher: int = 1
    buckets: dict[str, TokenBucket] = field(default_factory=dict)


class Chat:
    """Every table's chat; the hub hands it the chat frames and tells it of sockets."""

    def __init__(self, master: Master, store: ChatStore | None = None,
                 limits: ChatLimits | None = None) -> None:
        self.master = master
        self.store = store or ChatStore(master.store)
        self.limits = limits or ChatLimits()
        self.rooms: dict[str, Room] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self.phrase_list = phrases()
        self.phrases = frozenset(self.phrase_list)
        self.cluster = master.cluster
        self.cluster.on("chat", self._heard)
        self.cluster.on("resync", self._resync)

    # -- rooms --------------------------------------------------------------------------
    async def room(self, table: Table) -> Room:
        """The table's room, its history loaded from storage the first time."""
        room = self.rooms.get(table.id)
        if room is not None:
            return room
        lock = self._loading.setdefault(table.id, asyncio.Lock())
        async with lock:
            room = self.rooms.get(table.id)
            if room is None:
                n = self.limits.history
                room = Room(history={
                    ch: deque(await self.store.recent(table.id, ch, n), maxlen=n)
                    for ch in (PLAYERS, SPECTATORS)
                })
                self._prune()
                self.rooms[table.id] = room
        self._loading.pop(table.id, None)
        return room

    def _prune(self) -> None:
        """Forget rooms of tables the master no longer holds."""
        if len(self.rooms) > 2 * len(self.master.tables) + 100:
            for tid in [t for t in self.rooms if t not in self.master.tables]:
                del self.rooms[tid]

    @staticmethod
    def channel(conn: Conn) -> str:
        return SPECTATORS if conn.seat is None else PLAYERS

    def author(self, room: Room, conn: Conn) -> str:
        return f"s{conn.seat}" if conn.seat is not None else room.watchers[conn]

    @staticmethod
    def hidden(room: Room, table: Table, conn: Conn, muted: set[str]) -> set[str]:
        """The authors ``conn`` never gets: those it muted, and the seats of accounts
        its account blocked."""
        shut = room.blocks.get(conn)
        if not shut:
            return muted
        return muted | {f"s{s.seat}" for s in table.seats if s.user_id in shut}

    def mutes(self, room: Room, conn: Conn) -> set[str]:
        if conn.seat is None:
            return room.watcher_mutes.setdefault(conn, set())
        return room.seat_mutes.setdefault(conn.seat, set())

    @staticmethod
    def readers(room: Room, channel: str) -> list[Any]:
        return [c for c, ch in room.members.items() if ch == channel]

    # -- sockets ------------------------------------------------------------------------
    async def open(self, table: Table, conn: Conn) -> None:
        """A socket opens the chat: give it an id (spectators) and its channel's history,
        without the speakers it muted; from now on it reads its channel."""
        room = await self.room(table)
        user = table.seats[conn.seat].user_id if conn.seat is not None else None
        if user is not None:
            async with self.master.store.session() as s:
                room.blocks[conn] = await blocked_by(s, user)
        number = None
        if conn.seat is None and conn not in room.watchers:
            try:  # unique among every worker's spectators of the table
                number = await self.cluster.count(table, "watchers")
            except Exception as e:  # the broker is away: this worker's own numbering
                log.warning("numbering a spectator of table %s failed: %s", table.id, e)
        # no await from here on: the history and the live messages meet without a gap
        room.members[conn] = self.channel(conn)
        if conn.seat is None and conn not in room.watchers:
            room.watchers[conn] = f"w{number or room.next_watcher}"
            room.next_watcher += 1
        channel = self.channel(conn)
        muted = self.mutes(room, conn)
        hidden = self.hidden(room, table, conn, muted)
        conn.send(json.dumps({
            "type": "chat_history", "channel": channel, "you": self.author(room, conn),
            "muted": sorted(muted), "limits": {"length": self.limits.length},
            "phrases": self.phrase_list,
            # in id order (two messages stored at once may be appended either way)
            "messages": [m.frame() for m in sorted(room.history[channel], key=lambda m: m.id)
                         if m.author not in hidden],
        }))

    def detach(self, table: Table, conn: Conn) -> None:
        room = self.rooms.get(table.id)
        if room is None:
            return
        room.members.pop(conn, None)
        room.watchers.pop(conn, None)
        room.watcher_mutes.pop(conn, None)
        room.blocks.pop(conn, None)
        nobody = not table.spectators and not any(s.conns for s in table.seats)
        if nobody and (table.id not in self.master.tables or table.status not in LIVE):
            self.rooms.pop(table.id, None)

    # -- frames -------------------------------------------------------------------------
    async def handle(self, table: Table, conn: Conn, frame: dict[str, Any]) -> None:
        """One chat frame; a refusal raises ``Refusal`` having changed nothing."""
        kind = frame["type"]
        if kind == "chat_open":
            await self.open(table, conn)
            return
        room = await self.room(table)
        if conn not in room.members:
            raise Refusal("chat_closed", "open the chat first: send chat_open")
        if kind == "chat":
            await self.say(table, room, conn, frame)
        elif kind == "mute":
            self.mute(room, conn, frame)
        else:
            await self.report(table, room, conn, frame)

    async def say(self, table: Table, room: Room, conn: Conn, frame: dict[str, Any]) -> None:
        has_text, has_phrase = "text" in frame, "phrase" in frame
        if has_text == has_phrase:
            raise Refusal("bad_message", "a chat frame carries either text or phrase")
        text = phrase = None
        if has_phrase:
            phrase = frame["phrase"]
            if not isinstance(phrase, str) or phrase not in self.phrases:
                raise Refusal("bad_phrase",
                                  f"unknown quick phrase; one of {', '.join(sorted(self.phrases))}")
        else:
            text = clean_text(frame["text"], self.limits.length)
        user = table.seats[conn.seat].user_id if conn.seat is not None else None
        if user is not None:
            until = await Moderation(self.master.store).is_muted(user)
            if until is not None:
                raise Refusal("chat_muted", "the operator muted your chat until "
                                  f"{until:%Y-%m-%d %H:%M} UTC")
        author = self.author(room, conn)
        bucket = room.buckets.get(author)
        if bucket is None:
            bucket = room.buckets[author] = TokenBucket(self.limits.per_second,
                                                        self.limits.burst)
        if not bucket.take():
            raise Refusal("chat_rate_limited",
                              "you are chatting too fast: wait a few seconds")
        channel = self.channel(conn)
        name = table.seats[conn.seat].name if conn.seat is not None else None
        message = await self.store.add(table.id, channel, author, name, text, phrase)
        try:  # every worker, this one too, passes it on as the broker delivers it
            await self.cluster.tell(table, "chat", message=message.frame(), channel=channel)
            return
        except Exception as e:  # the others read it from the database later
            log.warning("announcing chat of table %s failed: %s", table.id, e)
        self.deliver(room, message, table)

    def deliver(self, room: Room, message: Said, table: Table) -> None:
        """A stored message to the room's history and its channel's readers here (once:
        a message already in the history is not sent again); a reader never gets the
        speakers it muted (the speaker cannot mute itself, so it gets its echo)."""
        history = room.history[message.channel]
        if any(m.id == message.id for m in history):
            return
        history.append(message)
        out = json.dumps({"type": "chat", "channel": message.channel,
                          "message": message.frame()})
        for reader in self.readers(room, message.channel):
            if message.author not in self.hidden(room, table, reader,
                                                 self.mutes(room, reader)):
                reader.send(out)

    # -- other workers ------------------------------------------------------------------
    async def _heard(self, table: Table, event: Event) -> None:
        """A message announced by a worker (this one too)."""
        if table.id not in self.rooms and table.id not in self._loading:
            return  # nobody here opened this chat: a later load reads it from the database
        m, channel = event.get("message"), event.get("channel")
        if not isinstance(m, dict) or channel not in (PLAYERS, SPECTATORS):
            log.warning("malformed chat announcement for table %s", table.id)
            return
        message = Said(int(m["id"]), str(channel), str(m["author"]), m.get("name"),
                       m.get("text"), m.get("phrase"), str(m["at"]))
        self.deliver(await self.room(table), message, table)

    async def _resync(self, table: Table, event: Event) -> None:
        """Announcements may have been lost: pass on what the database has and we lack."""
        room = self.rooms.get(table.id)
        if room is None:
            return
        for channel in (PLAYERS, SPECTATORS):
            for message in await self.store.recent(table.id, channel, self.limits.history):
                self.deliver(room, message, table)

    def mute(self, room: Room, conn: Conn, frame: dict[str, Any]) -> None:
        author, muted = frame["author"], frame["muted"]
        if not isinstance(author, str) or not AUTHOR.match(author):
            raise Refusal("bad_message", 'author is "s<seat>" or "w<n>", as chat frames '
                                             "give it")
        if not isinstance(muted, bool):
            raise Refusal("bad_message", "muted is true or false")
        if author == self.author(room, conn):
            raise Refusal("bad_message", "you cannot mute yourself")
        mine = self.mutes(room, conn)
        if muted:
            mine.add(author)
        else:
            mine.discard(author)
        conn.send(json.dumps({"type": "muted", "muted": sorted(mine)}))

    async def report(self, table: Table, room: Room, conn: Conn,
                     frame: dict[str, Any]) -> None:
        ident, reason = frame["id"], frame.get("reason")
        if not isinstance(ident, int) or isinstance(ident, bool):
            raise Refusal("bad_message", "id is the number of a chat message")
        if reason is not None:
            if not isinstance(reason, str) or len(reason) > self.limits.reason_length:
                raise Refusal("bad_message", "reason is a text of at most "
                                  f"{self.limits.reason_length} characters")
            reason = " ".join(reason.split()) or None
        shown = list(room.history[self.channel(conn)])
        at = next((i for i, m in enumerate(shown) if m.id == ident), None)
        if at is None:
            raise Refusal("not_found", "no recent message with this id in your chat")
        message = shown[at]
        me = self.author(room, conn)
        if message.author == me:
            raise Refusal("bad_message", "you cannot report your own message")
        context = [m.frame() for m in shown[max(0, at - self.limits.context): at + 1]]
        name = table.seats[conn.seat].name if conn.seat is not None else None
        fresh = await self.store.report(message, table.id, me, name, reason, context)
        conn.send(json.dumps({"type": "reported", "id": ident, "already": not fresh}))
