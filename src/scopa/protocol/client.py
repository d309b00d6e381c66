"""``ExternalBot``: a bot that is another program, spoken to over the bot protocol.

The program runs as a subprocess; lines from its stdout are read by a thread into a queue
so that every wait has a deadline. Any misbehaviour (exit, silence past the timeout,
malformed JSON, an unexpected message, a move that is not legal) kills the program and
raises ``BotProtocolError`` with what happened and the end of its stderr.
"""

from __future__ import annotations

import collections
import contextlib
import queue
import subprocess
import threading
import time
from typing import IO, Any, NoReturn

from ..bots.base import Bot, Limit
from ..moves import IllegalMoveError, Move
from ..rules import Rules
from ..view import PlayerView
from .messages import (
    PROTOCOL_VERSION,
    BotProtocolError,
    clean_name,
    decode,
    encode,
    shorten,
    version_of,
)


def _pump(stream: IO[str], sink: queue.Queue[str | None]) -> None:
    """Move the program's stdout lines into a queue; None marks the end."""
    with contextlib.suppress(OSError, ValueError):  # closed under us by close()
        for line in stream:
            sink.put(line)
    sink.put(None)


def _feed(stream: IO[str], outbox: queue.Queue[str | None]) -> None:
    """Write queued lines to the program's stdin: a program that stops reading can fill
    the pipe, and then only this thread waits, never the host (which times out)."""
    with contextlib.suppress(OSError, ValueError):
        while (line := outbox.get()) is not None:
            stream.write(line)
            stream.flush()


def _drain(stream: IO[str], tail: collections.deque[str]) -> None:
    """Keep the last lines of the program's stderr for error messages."""
    with contextlib.suppress(OSError, ValueError):
        for line in stream:
            tail.append(line.rstrip("\n"))


class ExternalBot(Bot):
    """A Bot whose moves come from ``command`` (argv list) speaking the bot protocol.

    ``timeout`` is the most seconds the program may take for any answer; the program is
    started and greeted at once (allowing ``startup_timeout``, default ``max(timeout, 10)``).
    """

    name = "external"

    def __init__(
        self,
        command: list[str],
        timeout: float = 10.0,
        seed: int | str | None = None,
        startup_timeout: float | None = None,
    ) -> None:
        super().__init__(seed)
        if not command or not all(isinstance(a, str) for a in command):
            raise ValueError("command must be a non-empty list of strings")
        if timeout <= 0:
            raise ValueError("timeout must be positive")
        self.command = list(command)
        self.timeout = timeout
        self.seed: int | str | None = seed
        self.label = " ".join(command)
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._stderr: collections.deque[str] = collections.deque(maxlen=20)
        self._request = 0
        self._game_key: tuple[Any, ...] | None = None
        self._failed: str | None = None
        try:
            self._proc = subprocess.Popen(
                self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, text=True, encoding="utf-8", bufsize=1,
            )
        except OSError as e:
            raise BotProtocolError(f"cannot start bot {self.label!r}: {e}") from None
        assert self._proc.stdout is not None and self._proc.stderr is not None
        assert self._proc.stdin is not None
        self._outbox: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=_feed, args=(self._proc.stdin, self._outbox), daemon=True).start()
        threading.Thread(target=_pump, args=(self._proc.stdout, self._lines), daemon=True).start()
        threading.Thread(target=_drain, args=(self._proc.stderr, self._stderr), daemon=True).start()
        self._send({"type": "hello", "protocol": PROTOCOL_VERSION})
        ready = self._receive("ready", startup_timeout or max(timeout, 10.0), "hello")
        if version_of(ready) != PROTOCOL_VERSION:
            self._fail(f"speaks protocol {ready.get('protocol')!r}, not {PROTOCOL_VERSION}")
        #: the name the program gave in ``ready`` (cleaned), None if it gave none
        self.ready_name = clean_name(ready.get("name"))
        self.name = self.ready_name or self.label

    # -- the Bot interface --------------------------------------------------------------
    def choose(self, view: PlayerView, limit: Limit | None = None) -> Move:
        """Send the seat's view and legal moves; return the program's (checked) move."""
        legal = view.legal_moves()
        if not legal:
            raise ValueError("it is not this seat's turn")
        key = (view.rules, view.seat)
        old = self._game_key
        if old is None or old[:2] != key or view.hand_number < old[2]:
            self.new_game(view.rules, view.seat)
        self._game_key = (*key, view.hand_number)
        self._request += 1
        time_limit = None  # the host sets no budget: the program uses its own
        if limit is not None and limit.seconds is not None:
            time_limit = min(limit.seconds, self.timeout)
        self._send({
            "type": "move_request",
            "id": self._request,
            "view": view.to_dict(),
            "legal": [m.to_dict() for m in legal],
            "time_limit": time_limit,
            "timeout": self.timeout,
        })
        answer = self._receive("move", self.timeout, f"move_request {self._request}")
        if answer.get("id", self._request) != self._request:
            self._fail(f"answered move_request {answer.get('id')!r}, expected {self._request}")
        try:
            move = Move.from_dict(answer.get("move"))
        except IllegalMoveError as e:
            self._fail(f"sent a malformed move: {e}")
        if move not in legal:
            self._fail(
                f"played {move}, which is not legal here; legal moves: "
                + ", ".join(str(m) for m in legal)
            )
        return move

    # -- notices ------------------------------------------------------------------------
    def new_game(self, rules: Rules, seat: int, seed: int | str | None = None) -> None:
        """Tell the program a new match starts (sent automatically by ``choose``)."""
        if seed is not None:
            self.seed = seed
        msg: dict[str, Any] = {"type": "new_game", "rules": rules.to_dict(), "seat": seat}
        if self.seed is not None:
            msg["seed"] = self.seed
        self._send(msg)
        self._game_key = (rules, seat, 0)

    def reset(self, seed: int | str | None = None) -> None:
        """Forget the current match: the next ``choose`` starts a new one."""
        self.seed = seed
        self._game_key = None

    def hand_end(self, result: dict[str, Any], scores: list[int]) -> None:
        self._send({"type": "hand_end", "result": result, "scores": scores})

    def match_end(self, winner: int | None, scores: list[int]) -> None:
        self._send({"type": "match_end", "winner": winner, "scores": scores})

    @property
    def alive(self) -> bool:
        return self._failed is None and self._proc.poll() is None

    def close(self) -> None:
        """Say quit, give the program a moment to exit, then kill it."""
        if self._proc.poll() is None:
            self._outbox.put(encode({"type": "quit"}))
            try:
                self._proc.wait(timeout=1.0)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait()
        self._outbox.put(None)
        for stream in (self._proc.stdin, self._proc.stdout, self._proc.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()

    def __enter__(self) -> ExternalBot:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- plumbing -----------------------------------------------------------------------
    def _send(self, message: dict[str, Any]) -> None:
        """Queue a message; a program that died shows up as end of output on receive."""
        if self._failed is not None:
            raise BotProtocolError(f"bot {self.label!r} failed earlier: {self._failed}")
        self._outbox.put(encode(message))

    def _receive(self, expected: str, timeout: float, context: str) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            try:
                line = self._lines.get(timeout=max(left, 0.0))
            except queue.Empty:
                self._fail(f"did not answer {context} within {timeout:g} s")
            if line is None:
                self._fail_exited(f"before answering {context}")
            try:
                msg = decode(line)
            except ValueError as e:
                self._fail(f"answered {context} with a bad line: {e}")
            kind = msg["type"]
            if kind == "log":
                continue
            if kind == "error":
                self._fail(f"reported an error: {shorten(str(msg.get('message', '')), 300)}")
            if kind != expected:
                self._fail(f"answered {context} with {kind!r}, expected {expected!r}")
            return msg

    def _fail_exited(self, when: str) -> NoReturn:
        try:
            code = self._proc.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            code = None
        self._fail(f"exited (code {code}) {when}" if code is not None else f"closed stdout {when}")

    def _fail(self, what: str) -> NoReturn:
        """Kill the program and raise; never returns."""
        self._failed = what
        if self._proc.poll() is None:
            self._proc.kill()
            self._proc.wait()
        time.sleep(0.05)  # let the stderr thread catch the last lines
        tail = "\n".join(self._stderr)
        detail = f"\n--- its stderr ends with:\n{tail}" if tail else ""
        raise BotProtocolError(f"bot {self.label!r} {what}{detail}")
