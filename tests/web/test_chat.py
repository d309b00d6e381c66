"""Table chat in the browser: two players talk while a third, muted, is heard by one only;
a quick phrase reads in each reader's language; HTML in a message stays text; spectators
have their own chat; teach me off is a table setting everyone sees."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from web_helpers import axe_violations, open_custom_table, shot, switch_language, wait_my_turn

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
HTML = '<img src=x onerror="document.body.dataset.pwned=1"><b>hi</b>'


def open_seat(page: Page, base: str, table_id: str, token: str, seat: int,
              lang: str = "en") -> None:
    """Keep a seat token where the page looks for it, in ``lang``, and open the table."""
    page.goto(base + "/")
    page.evaluate("([k, v, l]) => { localStorage.setItem(k, v); "
                  "localStorage.setItem('scopa.lang', l); }",
                  [f"scopa.seat.{table_id}", json.dumps({"token": token, "seat": seat}), lang])
    page.goto(f"{base}/t/{table_id}")
    expect(page.locator(".chat-panel")).to_be_visible()


def three_seats(page: Page, base: str) -> dict[str, Any]:
    created = page.request.post(base + "/api/tables", data={
        "name": "Anna", "players": 3, "seats": [{"kind": "human"}] * 3}).json()
    invite = created["invite"]
    created["joined"] = [
        page.request.post(f"{base}/api/invites/{invite}/join", data={"name": n}).json()
        for n in ("Bruno", "Carla")]
    return created


def chat_lines(page: Page) -> list[str]:
    return page.locator(".chat-log .chat-message .chat-text").all_inner_texts()


def test_chat_two_players_and_a_muted_third(server, new_page, artifacts):
    anna = new_page(viewport=DESKTOP)
    made = three_seats(anna, server)
    tid = made["table"]["id"]
    bruno = new_page(viewport=PHONE)
    carla = new_page(viewport=DESKTOP)
    open_seat(anna, server, tid, made["token"], 0)
    open_seat(bruno, server, tid, made["joined"][0]["token"], 1, lang="it")
    open_seat(carla, server, tid, made["joined"][1]["token"], 2)
    expect(bruno.locator("#chat-title")).to_have_text("Chat del tavolo")

    # free text with markup in it is shown as the text it is, nowhere as HTML
    anna.fill("#chat-input", HTML)
    anna.press("#chat-input", "Enter")
    for p in (anna, bruno, carla):
        expect(p.locator(".chat-log .chat-text").last).to_have_text(HTML)
        expect(p.locator(".chat-log img, .chat-log b")).to_have_count(0)
        assert p.evaluate("document.body.dataset.pwned") is None
    expect(anna.locator("#chat-input")).to_have_value("")

    # a quick phrase reads in each reader's language
    anna.click('.chat-phrase[data-phrase="chat.phrase.gg"]')
    expect(anna.locator(".chat-log .chat-text").last).to_have_text("Good game")
    expect(bruno.locator(".chat-log .chat-text").last).to_have_text("Bella partita")
    expect(bruno.locator('.chat-phrase[data-phrase="chat.phrase.wp"]')).to_have_text("Ben giocato")

    # Anna mutes Carla: Bruno still reads her, Anna no longer does
    carla.fill("#chat-input", "first from Carla")
    carla.press("#chat-input", "Enter")
    expect(anna.locator(".chat-text", has_text="first from Carla")).to_have_count(1)
    anna.locator('.chat-message[data-author="s2"] .chat-mute').click()
    expect(anna.locator('.chat-message[data-author="s2"]')).to_have_count(0)
    expect(anna.locator(".chat-unmute")).to_have_count(1)
    carla.fill("#chat-input", "second from Carla")
    carla.press("#chat-input", "Enter")
    expect(bruno.locator(".chat-text", has_text="second from Carla")).to_have_count(1)
    bruno.fill("#chat-input", "ciao Anna")
    bruno.press("#chat-input", "Enter")
    expect(anna.locator(".chat-text", has_text="ciao Anna")).to_have_count(1)
    assert not [t for t in chat_lines(anna) if "Carla" in t]
    # a report is recorded for the operator (the button says so)
    bruno.locator('.chat-message[data-author="s0"] .chat-report').first.click()
    expect(bruno.locator('.chat-message[data-author="s0"] .chat-report').first).to_be_disabled()

    # axe, with the chat open and in use
    assert axe_violations(anna) == []
    assert axe_violations(bruno) == []
    shot(anna, artifacts, "chat-desktop")
    bruno.locator(".chat-panel").scroll_into_view_if_needed()
    shot(bruno, artifacts, "chat-phone-italian")

    # the mute stays for the session: a reload still leaves Carla out
    anna.reload()
    expect(anna.locator(".chat-text", has_text="ciao Anna")).to_have_count(1)
    assert not [t for t in chat_lines(anna) if "Carla" in t]
    expect(anna.locator(".chat-unmute")).to_have_count(1)

    # a spectator has a chat of their own: none of the players' messages
    watcher = new_page(viewport=DESKTOP)
    watcher.goto(f"{server}/join/{made['invite']}")
    watcher.click(".join a.button")
    watcher.wait_for_url("**/t/*")
    expect(watcher.locator("#chat-title")).to_have_text("Spectators' chat")
    expect(watcher.locator(".chat-none")).to_be_visible()
    watcher.fill("#chat-input", "from the rail")
    watcher.press("#chat-input", "Enter")
    expect(watcher.locator(".chat-text", has_text="from the rail")).to_have_count(1)
    anna.fill("#chat-input", "players only")
    anna.press("#chat-input", "Enter")
    expect(bruno.locator(".chat-text", has_text="players only")).to_have_count(1)
    assert "from the rail" not in chat_lines(bruno)
    assert "players only" not in chat_lines(watcher)


def test_teach_off_is_a_table_setting(server, new_page, artifacts):
    page = new_page(viewport=DESKTOP)
    page.goto(server + "/")
    open_custom_table(page)
    page.fill("#name", "Anna")
    page.uncheck("#table-teach")
    page.click("button.start")
    page.wait_for_url("**/t/*")
    wait_my_turn(page)
    expect(page.locator(".teach-setting.off")).to_have_text("Teach me: off")
    expect(page.locator("#teach")).to_have_count(0)
    expect(page.locator(".teach")).to_have_count(0)
    switch_language(page)
    expect(page.locator(".teach-setting.off")).to_have_text("Insegnami: disattivato")
    shot(page, artifacts, "teach-off-italian")
    switch_language(page)
    # the default table: on for everyone, and the switch is there
    page.goto(server + "/")
    open_custom_table(page)
    page.click("button.start")
    page.wait_for_url("**/t/*")
    expect(page.locator(".teach-setting.on")).to_have_text("Teach me: on for everyone")
    expect(page.locator("#teach")).to_have_count(1)


def test_join_page_tells_the_teach_setting(server, new_page):
    page = new_page(viewport=DESKTOP)
    page.goto(server + "/")
    made = page.request.post(server + "/api/tables", data={
        "name": "Anna", "teach": False, "seats": [{"kind": "human"}, {"kind": "human"}]}).json()
    friend = new_page(viewport=DESKTOP)
    friend.goto(f"{server}/join/{made['invite']}")
    expect(friend.locator(".join .teach-setting.off")).to_have_text("Teach me: off")
