"""Issue 43 in Chromium: a person meets an outside program online. Its author makes the
bot and a token on the account page; the program (a small Python bot speaking the bot
protocol) goes online through ``scopa bot online``; the person finds it in the lobby's
"Bots online", marked as a bot, challenges it, and plays a rated match against it to the
end; the bot is marked on the table, on its profile and on the bots'
leaderboard."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from web_helpers import axe_violations, play_until_match_end, shot

PASSWORD = "correct horse 9"
PROGRAM = r'''
import json, sys
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "hello":
        print(json.dumps({"type": "ready", "name": "first-legal", "protocol": 1}), flush=True)
    elif msg["type"] == "move_request":
        print(json.dumps({"type": "move", "id": msg["id"], "move": msg["legal"][0]}),
              flush=True)
    elif msg["type"] == "quit":
        break
'''


def sign_up(page: Page, base: str, name: str) -> str:
    page.goto(base + "/")
    r = page.request.post(base + "/api/account/signup", data={"name": name, "password": PASSWORD})
    assert r.status == 201, r.text()
    csrf: str = r.json()["csrf"]
    return csrf


class Bridge:
    """``scopa bot online`` in a subprocess; its lines on stderr, waited for one by one."""

    def __init__(self, base: str, token: str, program: Path) -> None:
        scopa = Path(sys.executable).with_name("scopa")
        self.lines: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        self.proc = subprocess.Popen(
            [str(scopa), "bot", "online", "--server", base, "--token", token,
             f"cmd:{sys.executable} {program}"],
            stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True, env=os.environ.copy())
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.lines.put(line.rstrip("\n"))

    def wait_for(self, text: str, timeout: float = 60) -> str:
        while True:
            if any(text in x for x in self.seen):
                return next(x for x in self.seen if text in x)
            self.seen.append(self.lines.get(timeout=timeout))

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(10)


@pytest.fixture
def program(tmp_path: Path) -> Path:
    path = tmp_path / "first_legal.py"
    path.write_text(PROGRAM)
    return path


@pytest.fixture
def bridge_of() -> Iterator[list[Bridge]]:
    made: list[Bridge] = []
    yield made
    for b in made:
        b.stop()


def test_a_person_plays_an_outside_program_online(server, new_page, artifacts, program,
                                                  bridge_of):
    base = server
    # the author makes the bot and a token on the account page
    author = new_page(viewport={"width": 1280, "height": 900})
    sign_up(author, base, "Author")
    author.goto(base + "/account")
    author.fill("#bot-name", "FirstLegal")
    author.fill("#bot-about", "plays the first legal move")
    author.click(".new-bot button[type=submit]")
    expect(author.locator(".my-bot-list .bot")).to_contain_text("FirstLegal")
    author.click(".my-bot-list .new-token")
    token = author.locator(".token-once code").inner_text()
    assert token.startswith("scb_")
    shot(author, artifacts, "bots-account")
    assert axe_violations(author) == []
    bridge = Bridge(base, token, program)
    bridge_of.append(bridge)
    bridge.wait_for("online as FirstLegal")
    # a person finds it in the lobby, marked as a bot, and challenges it
    anna = new_page(viewport={"width": 390, "height": 844})
    csrf = sign_up(anna, base, "Annabot")
    anna.goto(base + "/")
    line = anna.locator(".bots-online .bot-line", has_text="FirstLegal")
    expect(line.locator(".bot-badge")).to_have_text("BOT")
    expect(line).to_contain_text("by Author")
    shot(anna, artifacts, "bots-lobby-phone")
    assert axe_violations(anna) == []
    line.locator("button.challenge").click()
    anna.wait_for_url("**/t/*")
    bridge.wait_for("accepted Annabot's scopa (rated)")
    expect(anna.locator(".seat .chip.bot")).to_have_text("BOT")
    # ... and plays a rated match to the end (a short one: one point)
    r = anna.request.post(base + "/api/tables", headers={"X-CSRF-Token": csrf}, data={
        "variant": "scopa", "target": 1, "rated": True,
        "seats": [{"kind": "human"}, {"kind": "online", "bot": "FirstLegal"}]})
    assert r.status == 201, r.text()
    made = r.json()
    table = made["table"]["id"]
    seat = json.dumps({"token": made["token"], "seat": made["seat"], "invite": made["invite"]})
    anna.evaluate("([k, v]) => localStorage.setItem(k, v)", [f"scopa.seat.{table}", seat])
    anna.goto(f"{base}/t/{table}")
    expect(anna.locator(".seat .chip.bot")).to_have_text("BOT")
    play_until_match_end(anna)
    expect(anna.locator(".match-end")).to_be_visible()
    bridge.wait_for("match over")
    shot(anna, artifacts, "bots-match-end-phone")
    # marked everywhere its name appears: profile, the bots' leaderboard
    anna.goto(f"{base}/players/FirstLegal")
    expect(anna.locator("h1 .bot-badge")).to_have_text("BOT")
    expect(anna.locator(".bot-card")).to_contain_text("by Author")
    expect(anna.locator(".ratings")).to_contain_text("With bots: one against one")
    anna.goto(f"{base}/leaderboard")
    anna.click("text=With bots: one against one")
    row = anna.locator(".board tr", has_text="FirstLegal")
    expect(row.locator(".bot-badge")).to_have_text("BOT")
    shot(anna, artifacts, "bots-leaderboard-phone")
    assert axe_violations(anna) == []
