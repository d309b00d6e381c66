"""The bot side of the protocol: serve one of our bots over stdin/stdout.

``scopa bot LEVEL`` calls ``serve``. A bad message gets an ``error`` line (the host
decides what to do) and the loop goes on; ``quit`` or the end of input ends it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TextIO

from ..bots.base import Bot, Limit
from ..rules import Rules
from .messages import PROTOCOL_VERSION, decode, encode, version_of
from .views import view_from_dict

#: builds the served bot for a new match from the match seed (None: unseeded)
BotMaker = Callable[[int | str | None], Bot]


class _Session:
    def __init__(self, make: BotMaker, name: str, seed: int | str | None, out: TextIO) -> None:
        self.make = make
        self.name = name
        self.default_seed = seed
        self.out = out
        self.bot = make(seed)

    def send(self, message: dict[str, Any]) -> None:
        self.out.write(encode(message))
        self.out.flush()

    def error(self, message: str, request: Any = None) -> None:
        msg: dict[str, Any] = {"type": "error", "message": message}
        if request is not None:
            msg["id"] = request
        self.send(msg)

    def handle(self, msg: dict[str, Any]) -> bool:
        """Answer one message; False when the session is over."""
        kind = msg["type"]
        if kind == "hello":
            if version_of(msg) != PROTOCOL_VERSION:
                self.error(f"this bot speaks protocol {PROTOCOL_VERSION}")
            else:
                self.send({"type": "ready", "name": self.name, "protocol": PROTOCOL_VERSION})
        elif kind == "new_game":
            Rules.from_dict(msg.get("rules"))
            seed = msg.get("seed", self.default_seed)
            if seed is not None and not isinstance(seed, int | str):
                raise ValueError("new_game.seed must be an integer or a string")
            self.bot = self.make(seed)
        elif kind == "move_request":
            self.move(msg)
        elif kind == "quit":
            return False
        elif kind not in ("hand_end", "match_end"):
            self.error(f"unknown message type {kind!r}")
        return True

    def move(self, msg: dict[str, Any]) -> None:
        request = msg.get("id")
        view = view_from_dict(msg.get("view"))
        if not view.my_turn:
            self.error("move_request for a view where it is not this seat's turn", request)
            return
        seconds = msg.get("time_limit")
        if seconds is not None and (not isinstance(seconds, int | float) or seconds <= 0):
            self.error("time_limit must be a positive number of seconds", request)
            return
        move = self.bot.choose(view, Limit(seconds=seconds) if seconds else None)
        self.send({"type": "move", "id": request, "move": move.to_dict()})


def serve(
    make: BotMaker, name: str, stdin: TextIO, stdout: TextIO, seed: int | str | None = None
) -> int:
    """Run the protocol loop until ``quit`` or end of input; return the exit status."""
    session = _Session(make, name, seed, stdout)
    for line in stdin:
        if not line.strip():
            continue
        try:
            msg = decode(line)
        except ValueError as e:
            session.error(str(e))
            continue
        try:
            if not session.handle(msg):
                break
        except ValueError as e:
            session.error(f"{msg['type']}: {e}", msg.get("id"))
    return 0


def serve_named(
    name: str, stdin: TextIO, stdout: TextIO, seed: int | str | None = None
) -> int:
    """Serve a registered bot; ``ValueError`` for an unknown or omniscient one (an
    omniscient bot needs the full state, which the protocol never sends)."""
    from ..bots.base import make_bot

    probe = make_bot(name, 0)
    if getattr(probe, "omniscient", False):
        raise ValueError(f"{name!r} sees every card; it cannot play from a seat's view")
    return serve(lambda s: make_bot(name, s), name, stdin, stdout, seed)
