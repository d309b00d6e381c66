"""Keyboard and screen reader: focus stays in the hand, arrow keys move in the hand and in
the capture options, the score sheet keeps and gives back the focus, the shortcuts are
listed, plays are announced; axe-core finds no serious or critical violation."""

from __future__ import annotations

import json
import time
import urllib.request

import pytest
from playwright.sync_api import expect
from scripted import LEGAL, state, view
from web_helpers import (
    axe_violations,
    expect_played,
    hand_cards,
    open_settings,
    sit_at_new_table,
    wait_my_turn,
)

pytestmark = pytest.mark.browser

FOCUSED = "document.activeElement.dataset.card || document.activeElement.className"


def focused(page) -> str:  # type: ignore[no-untyped-def]
    return str(page.evaluate(FOCUSED))


def test_axe_on_the_lobby_rules_and_guide(server, page):
    for path in ("/", "/#rules", "/#guide"):
        page.goto(server + path)
        expect(page.locator("main > *").first).to_be_visible()
        assert axe_violations(page) == [], path


def test_keys_in_the_hand_and_the_capture_options_with_axe(scripted, artifacts):  # noqa: F811
    page, sent, sockets = scripted
    assert axe_violations(page) == []  # my turn
    # one tab stop in the hand; arrow keys move along it
    page.locator('.hand [data-card="3c"]').focus()
    assert page.eval_on_selector_all(".hand button.card", "els => els.map(e => e.tabIndex)") == [
        0, -1, -1]  # fmt: skip
    page.keyboard.press("ArrowRight")
    assert focused(page) == "7d"
    page.keyboard.press("End")
    assert focused(page) == "10b"
    page.keyboard.press("ArrowRight")  # round to the first
    assert focused(page) == "3c"
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    assert focused(page) == "7d"
    page.keyboard.press("Enter")
    # two ways to take: a radio group, the focus on its first option; arrows choose
    options = page.locator(".chooser .option")
    expect(options).to_have_count(2)
    assert page.evaluate("document.activeElement.matches('.chooser .option')")
    assert axe_violations(page) == []  # a card selected, a capture to choose
    page.keyboard.press("ArrowDown")
    expect(options.nth(1)).to_have_attribute("aria-checked", "true")
    expect(options.nth(1)).to_be_focused()
    assert options.evaluate_all("els => els.map(e => e.tabIndex)") == [-1, 0]
    page.keyboard.press("ArrowUp")
    expect(options.nth(0)).to_have_attribute("aria-checked", "true")
    expect(options.nth(0)).to_be_focused()
    assert "taken" in (page.locator('.felt [data-card="3s"]').get_attribute("class") or "")
    assert axe_violations(page) == []  # a capture chosen
    # the shortcuts: "?" lists them in a modal dialog, Escape closes it
    page.keyboard.press("?")
    dialog = page.get_by_role("dialog", name="Keyboard shortcuts")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("move between the cards of your hand")
    assert axe_violations(page) == []
    page.screenshot(path=str(artifacts / "keys-01-shortcuts.png"))
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    expect(options.nth(0)).to_be_focused()  # given back
    open_settings(page)  # the list is also a link among the table's settings
    page.click(".keys-link")
    expect(dialog).to_be_visible()
    dialog.get_by_role("button", name="Close").click()
    expect(dialog).to_be_hidden()

    # a bot's play is announced, and the focus, gone with my Play button, is in my hand
    options.nth(0).focus()
    page.keyboard.press("Enter")  # take this; the focus goes on to Play
    expect(page.locator(".chooser .play")).to_be_focused()
    page.keyboard.press("Enter")
    page.wait_for_function("document.querySelector('.play-host.locked')")
    ws = sockets[-1]
    mine = {"kind": "move", "seat": 0, "card": "7d", "capture": ["3s", "4d"], "scopa": False,
            "by": "human"}  # fmt: skip
    after = view(to_move=1, hand=["3c", "10b"], hand_sizes=[2, 3], table=["2c", "5b"],
                 history=[{"seat": 0, **{k: mine[k] for k in ("card", "capture", "scopa")}}])
    ws.send(state(6, after, [], mine))
    page.wait_for_selector('.play-host[data-shown="6"]', state="attached")
    assert page.evaluate("document.activeElement.matches('.hand')")
    bot = {"kind": "move", "seat": 1, "card": "9c", "capture": [], "scopa": False, "by": "bot"}
    after = view(hand=["3c", "10b"], hand_sizes=[2, 2], table=["2c", "5b", "9c"],
                 history=[{"seat": 1, "card": "9c", "capture": [], "scopa": False}])
    ws.send(state(7, after, [LEGAL[2]], bot))
    page.wait_for_selector('.play-host[data-shown="7"]', state="attached")
    expect(page.locator("#live")).to_contain_text("Bot (expert) laid the knight of cups")
    expect(page.locator("#live")).to_contain_text("Your turn")
    assert focused(page) == "3c"


def test_the_sheet_keeps_the_focus_and_gives_it_back(scripted):  # noqa: F811
    page, sent, sockets = scripted
    ws = sockets[-1]
    page.locator('.hand [data-card="10b"]').focus()
    side = {"seats": [0], "cards": 22, "coins": 7, "settebello": True, "primiera": 78,
            "primiera_cards": ["7d", "7c", "5s", "7b"], "sevens": 3, "scope": 1,
            "napola_run": 0, "re_bello": False,
            "points": {"cards": 1, "coins": 1, "settebello": 1, "primiera": 1, "sevens": 0,
                       "scope": 1, "napola": 0, "re_bello": 0}, "total": 5}  # fmt: skip
    other = {**side, "seats": [1], "cards": 18, "settebello": False, "primiera": None,
             "primiera_cards": [], "total": 0,
             "points": {k: 0 for k in side["points"]}}  # fmt: skip
    ws.send(state(6, view(hand=[], hand_sizes=[0, 0], to_move=None, hand_over=True), []))
    ws.send(json.dumps({
        "type": "hand_end", "state_id": 6, "hand_number": 2,
        "result": {"sides": [side, other], "outright": None}, "scores": [8, 5],
        "seed": "c0ffee", "redeals": 0, "commitment": "ab" * 32, "verify_url": "/api/verify",
        "next_hand_at": None, "waiting_for": [0],
    }))  # fmt: skip
    dialog = page.locator(".dialog")
    expect(dialog.locator(".next")).to_be_focused()
    assert axe_violations(page) == []  # the sheet
    # Tab goes round inside the dialog, never out to the page behind it
    for _ in range(8):
        page.keyboard.press("Tab")
        assert page.evaluate("!!document.activeElement.closest('.dialog')")
    page.keyboard.press("Shift+Tab")
    assert page.evaluate("!!document.activeElement.closest('.dialog')")
    page.locator(".dialog .next").click()
    assert {"type": "next"} in sent
    # the next hand: the dialog closes and the focus is back in the hand
    deal = {"kind": "deal", "hand_number": 3, "dealer": 0}
    ws.send(state(7, view(hand_number=3, hand=["1c", "2c", "4s"], table=["6d", "6s", "8b", "9b"],
                          history=[]), [{"card": "1c", "capture": []}], deal))
    expect(page.locator(".overlay")).to_be_hidden()
    page.wait_for_selector('.play-host[data-shown="7"]', state="attached")
    assert focused(page) == "1c"


def test_axe_on_a_real_table_and_the_replay(server, page):
    sit_at_new_table(page, server, {
        "target": 1, "seats": [{"kind": "human"}, {"kind": "bot", "level": "beginner"}]})
    wait_my_turn(page)
    assert axe_violations(page) == []
    before = hand_cards(page)
    page.locator(".hand button.card").first.press("Enter")
    if page.locator(".chooser .option").count():
        page.keyboard.press("Enter")
    page.locator(".chooser .play").press("Enter")
    expect_played(page, before[0], before)
    # a finished match of two bots, replayed
    body = {"variant": "scopa", "players": 2, "target": 1, "public": True,
            "seats": [{"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}]}
    req = urllib.request.Request(server + "/api/tables", json.dumps(body).encode(),
                                 {"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as res:
        table_id = json.loads(res.read())["table"]["id"]
    deadline = time.monotonic() + 60
    while True:  # wait for the event: the match is in the history
        with urllib.request.urlopen(f"{server}/api/tables/{table_id}", timeout=10) as res:
            table = json.loads(res.read())
        if table["status"] == "finished":
            break
        assert time.monotonic() < deadline, "the bots' match did not finish"
        time.sleep(0.3)
    page.goto(f"{server}/replay/{table['match_id']}")
    expect(page.locator(".replay .counter")).to_be_visible()
    assert axe_violations(page) == []
    page.click(".replay .last")
    expect(page.locator(".replay .sheet")).to_be_visible()
    assert axe_violations(page) == []
