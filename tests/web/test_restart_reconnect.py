"""The page through a server restart: the server drained with SIGTERM closes the table's
socket with 1012; the page says it is reconnecting, retries with its back-off while the
server is down, and once a new server answers on the same address it is back at the same
seat and hand, and play goes on."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect
from web_helpers import expect_played, hand_cards, play_turn, start_table, wait_my_turn

#: seconds a server may take to answer (a busy machine starts it slowly)
START_TIMEOUT = 120

ENV = {"SCOPA_BOT_DELAY_SECONDS": "0.05", "SCOPA_BOT_SECONDS": "0.2",
       "SCOPA_BOT_WORKERS": "1", "SCOPA_HAND_PAUSE_SECONDS": "600"}


class Served:
    """``scopa serve`` on a fixed port and SQLite file, started again at will."""

    def __init__(self, db: Path, port: int) -> None:
        self.db, self.port = db, port
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        scopa = Path(sys.executable).with_name("scopa")
        with open(self.db.with_suffix(".log"), "ab") as log:
            self.proc = subprocess.Popen(
                [str(scopa), "serve", "--port", str(self.port), "--database-url",
                 f"sqlite:///{self.db}", "--log-level", "warning"],
                stdout=log, stderr=log, env={**os.environ, **ENV})
        deadline = time.monotonic() + START_TIMEOUT
        while True:  # started when it answers
            with contextlib.suppress(OSError):
                urllib.request.urlopen(self.base + "/api/meta", timeout=1).read()
                return
            assert self.proc.poll() is None, self.db.with_suffix(".log").read_text()
            assert time.monotonic() < deadline, "scopa serve did not start"
            time.sleep(0.1)

    def drain(self) -> int:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGTERM)
        return self.proc.wait(60)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    s = Served(tmp_path / "scopa.sqlite", free_port())
    s.start()
    yield s
    s.stop()


# records the close codes the page's socket sees
CLOSES = """
window.scopaCloses = [];
const Native = window.WebSocket;
window.WebSocket = class extends Native {
  constructor(...args) {
    super(...args);
    this.addEventListener("close", (e) => window.scopaCloses.push(e.code));
  }
};
"""


def test_the_page_comes_back_after_a_server_restart(served: Served, page, page_errors) -> None:  # type: ignore[no-untyped-def]
    # while the server is down the browser reports the refused connections
    page_errors.allow(r"WebSocket connection to .* failed")
    page.add_init_script(CLOSES)
    start_table(page, served.base, seat2="bot:beginner")
    wait_my_turn(page)
    before = hand_cards(page)
    assert served.drain() in (0, -signal.SIGTERM)
    expect(page.locator(".banner")).to_be_visible()  # "Reconnecting"
    assert 1012 in page.evaluate("window.scopaCloses")
    served.start()
    wait_my_turn(page, timeout=30_000)  # back, by itself, at its seat
    expect(page.locator(".banner")).to_be_hidden()
    assert hand_cards(page) == before
    played = play_turn(page)
    expect_played(page, played, before)
