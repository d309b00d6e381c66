"""A tiny SMTP server on a loopback port that keeps every message it is given, for tests
of the site's e-mail (Python's ``smtplib`` speaks to it like to any mail server). It
speaks just enough SMTP: EHLO/HELO, MAIL, RCPT, DATA, RSET, NOOP, QUIT."""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading
from email import message_from_bytes
from email.message import Message
from email.policy import default


class SmtpSink:
    """Start it, point the server's ``smtp_*`` settings at ``port``, then ``next()``."""

    def __init__(self) -> None:
        self.port = 0
        self.messages: queue.Queue[Message] = queue.Queue()
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._server: asyncio.Server | None = None
        self._thread = threading.Thread(target=self._run, daemon=True)

    def start(self) -> SmtpSink:
        self._thread.start()
        self._ready.wait(10)
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._loop.call_soon_threadsafe(self._server.close)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)

    def next(self, timeout: float = 30) -> Message:
        """The next message received (waits for it)."""
        return self.messages.get(timeout=timeout)

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        self._server = self._loop.run_until_complete(
            asyncio.start_server(self._talk, "127.0.0.1", 0))
        self.port = self._server.sockets[0].getsockname()[1]
        self._ready.set()
        self._loop.run_forever()

    async def _talk(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        def say(line: str) -> None:
            writer.write(line.encode() + b"\r\n")

        say("220 sink ESMTP")
        with contextlib.suppress(ConnectionError):
            while True:
                line = await reader.readline()
                if not line:
                    break
                verb = line.decode(errors="replace").strip().split(" ")[0].upper()
                if verb in ("EHLO", "HELO"):
                    say("250 sink")
                elif verb in ("MAIL", "RCPT", "RSET", "NOOP"):
                    say("250 OK")
                elif verb == "DATA":
                    say("354 go on")
                    await writer.drain()
                    body = b""
                    while True:
                        chunk = await reader.readline()
                        if chunk in (b".\r\n", b".\n", b""):
                            break
                        body += chunk[1:] if chunk.startswith(b"..") else chunk
                    self.messages.put(message_from_bytes(body, policy=default))
                    say("250 kept")
                elif verb == "QUIT":
                    say("221 bye")
                    await writer.drain()
                    break
                else:
                    say("502 not here")
                await writer.drain()
        writer.close()
