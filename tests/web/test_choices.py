"""Choosing a capture, changing one's mind, sweeps on the piles, and a variant's score sheet.

The table page talks to a scripted WebSocket here (scripted.py), so the deal is known:
the page is the real one, served by the real server, and what it sends back is checked
frame by frame.
"""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect
from scripted import LEGAL, state, view
from web_helpers import open_settings, shot

pytestmark = pytest.mark.browser


def classes(page, card: str) -> str:  # type: ignore[no-untyped-def]
    return page.locator(f'.felt [data-card="{card}"]').get_attribute("class") or ""


def test_pick_a_capture_and_change_your_mind(scripted, artifacts):
    page, sent, _ = scripted
    assert sent[0] == {"type": "hello", "token": "secret-token"}
    # the piles: face-down stacks with their counts, the sweeps marked on them (the bot has
    # made two, whose cards this hand's plays do not show: turned blanks)
    expect(page.locator('.seat[data-seat="1"] .sweep-mark')).to_have_count(2)
    expect(page.locator('.seat[data-seat="1"] .sweep-mark.blank')).to_have_count(2)
    expect(page.locator('.seat[data-seat="0"] .sweep-mark')).to_have_count(0)
    expect(page.locator('.seat[data-seat="0"] .pile-count')).to_have_text("2")
    pile = page.locator('.seat[data-seat="0"] .pile-cards')
    expect(pile).to_have_attribute("aria-label", "2 taken")
    expect(page.locator('.seat[data-seat="1"] .pile-cards')).to_have_attribute(
        "aria-label", "1 taken, 2 scope")

    page.click('.hand [data-card="7d"]')
    options = page.locator(".chooser .option")
    expect(options).to_have_count(2)
    expect(options).to_have_text(
        ["Take the 3 of swords and the 4 of coins", "Take the 2 of cups and the 5 of clubs"]
    )
    expect(page.locator(".chooser .play")).to_be_disabled()
    for card in ("3s", "4d", "2c", "5b"):
        assert "maybe" in classes(page, card)
    options.nth(1).click()
    assert "taken" in classes(page, "2c") and "taken" in classes(page, "5b")
    assert "taken" not in classes(page, "3s")
    shot(page, artifacts, "choice-01-second-option")
    # change of mind: the other capture, then another card, then nothing
    options.nth(0).click()
    assert "taken" in classes(page, "3s") and "taken" not in classes(page, "2c")
    page.click('.hand [data-card="3c"]')
    expect(page.locator(".chooser .option")).to_have_count(0)
    expect(page.locator(".chooser")).to_contain_text("must take the 3 of swords")
    page.click(".chooser .ghost")
    expect(page.locator(".hand .card[aria-pressed=true]")).to_have_count(0)
    assert not [f for f in sent if f["type"] == "move"]

    # confirm: exactly the chosen move goes to the server, with the state id
    page.click('.hand [data-card="7d"]')
    page.locator(".chooser .option").nth(1).click()
    page.click(".chooser .play")
    page.wait_for_selector(".play-host.locked")
    moves = [f for f in sent if f["type"] == "move"]
    assert moves == [
        {"type": "move", "state_id": 5, "move": {"card": "7d", "capture": ["2c", "5b"]}}
    ]


def test_a_sweep_and_a_napola_score_sheet(scripted, artifacts):
    page, sent, sockets = scripted
    ws = sockets[-1]
    event = {"kind": "move", "seat": 0, "card": "10b", "capture": ["3s", "2c", "5b"],
             "scopa": True, "by": "human"}  # fmt: skip
    after = view(
        to_move=1, hand=["7d", "3c"], hand_sizes=[2, 3], table=["4d"],
        captured=[["1d", "2d", "3s", "2c", "5b", "10b"], ["6c"]], scope=[1, 2],
        history=[{"seat": 0, "card": "10b", "capture": ["3s", "2c", "5b"], "scopa": True}],
    )  # fmt: skip
    ws.send(state(6, after, [], event))
    # a scopa as players mark it: the sweeping card face up, turned across the pile
    expect(page.locator('.seat[data-seat="0"] .sweep-mark')).to_have_count(1)
    turned = page.locator('.seat[data-seat="0"] .sweep-mark .card.turned[data-card="10b"]')
    expect(turned).to_have_count(1)
    expect(page.locator(".moment")).to_be_hidden()  # the Scopa! banner has had its time
    shot(page, artifacts, "pile-scopa")
    expect(page.locator('.seat[data-seat="0"] .pile-count')).to_have_text("6")
    expect(page.locator(".last-play")).to_contain_text("Anna took the 3 of swords")
    expect(page.locator(".turn")).to_have_text("Bot (expert) is playing…")

    side = {"seats": [0], "cards": 22, "coins": 7, "settebello": True, "primiera": 78,
            "primiera_cards": ["7d", "7c", "5s", "7b"], "sevens": 3, "scope": 1,
            "napola_run": 4, "re_bello": False,
            "points": {"cards": 1, "coins": 1, "settebello": 1, "primiera": 1, "sevens": 0,
                       "scope": 1, "napola": 4, "re_bello": 0}, "total": 9}  # fmt: skip
    other = {"seats": [1], "cards": 18, "coins": 3, "settebello": False, "primiera": None,
             "primiera_cards": [], "sevens": 1, "scope": 2, "napola_run": 0, "re_bello": True,
             "points": {"cards": 0, "coins": 0, "settebello": 0, "primiera": 0, "sevens": 0,
                        "scope": 2, "napola": 0, "re_bello": 0}, "total": 2}  # fmt: skip
    # the sheet carries its own items (what the engine's score_hand lists for Napola)
    items = [
        {"key": "cards", "label": "item.cards", "values": [22, 18], "points": [1, 0]},
        {"key": "coins", "label": "item.coins", "values": [7, 3], "points": [1, 0]},
        {"key": "settebello", "label": "item.settebello", "values": [True, False],
         "points": [1, 0]},
        {"key": "primiera", "label": "item.primiera", "values": [78, None], "points": [1, 0],
         "cards": [["7d", "7c", "5s", "7b"], []]},
        {"key": "scope", "label": "item.scope", "values": [1, 2], "points": [1, 2]},
        {"key": "napola", "label": "item.napola", "values": [4, 0], "points": [4, 0]},
    ]  # fmt: skip
    ws.send(state(7, view(hand=[], hand_sizes=[0, 0], to_move=None, hand_over=True), []))
    ws.send(json.dumps({
        "type": "hand_end", "state_id": 7, "hand_number": 2,
        "result": {"sides": [side, other], "outright": None, "items": items}, "scores": [12, 7],
        "seed": "c0ffee", "redeals": 0, "commitment": "ab" * 32,
        "verify_url": "/api/verify?seed=c0ffee&commitment=" + "ab" * 32 + "&attempt=0",
        "next_hand_at": None,
    }))  # fmt: skip
    sheet = page.locator(".dialog .sheet")
    expect(sheet).to_be_visible()
    expect(sheet.locator("tr[data-item]")).to_have_count(6)  # no sevens, no re bello
    expect(sheet.locator('tr[data-item="napola"] td.pt')).to_have_text(["+4", "0"])
    # the item names come from the shared catalogue (item.<key>), as in the terminal
    expect(sheet.locator('tr[data-item="scope"] th')).to_have_text("Scope (sweeps)")
    expect(sheet.locator('tr[data-item="coins"] th')).to_have_text("Coins")
    expect(sheet.locator('tr[data-item="primiera"] .prim-cards .card')).to_have_count(4)
    expect(sheet.locator('tr[data-item="primiera"]')).to_contain_text("no card of every suit")
    expect(sheet.locator("tr.total td.pt")).to_have_text(["9", "2"])
    expect(sheet.locator("tr.match td.pt")).to_have_text(["12", "7"])
    expect(page.locator(".seed-box .hash")).to_have_text("c0ffee")
    shot(page, artifacts, "choice-02-napola-sheet")
    # on a phone the whole sheet fits the screen width, both sides included
    page.set_viewport_size({"width": 390, "height": 844})
    fits = page.evaluate(
        "(() => { const s = document.querySelector('.sheet-scroll');"
        " return s.scrollWidth <= s.clientWidth; })()"
    )
    assert fits, "the score sheet scrolls sideways on a phone"
    shot(page, artifacts, "choice-03-napola-sheet-phone")
    page.set_viewport_size({"width": 1280, "height": 860})
    # the seed does not match this made-up commitment: the page says so
    page.click(".seed-box button")
    expect(page.locator(".verify-result")).to_have_text("The seed does NOT match the commitment!")
    page.click(".dialog .next")
    assert {"type": "next"} in sent


def test_moves_are_animated_at_the_chosen_speed(scripted):
    page, _, sockets = scripted
    ws = sockets[-1]
    open_settings(page)
    page.select_option("#speed", "slow")
    event = {"kind": "move", "seat": 1, "card": "9c", "capture": [], "scopa": False, "by": "bot"}
    after = view(
        hand_sizes=[3, 2], table=["3s", "4d", "2c", "5b", "9c"],
        history=[{"seat": 1, "card": "9c", "capture": [], "scopa": False}],
    )  # fmt: skip
    ws.send(state(6, after, LEGAL, event))
    # the bot's card travels to the table, then the flying copy is gone
    expect(page.locator('.flyer[data-flying="9c"]')).to_have_count(1)
    expect(page.locator(".play-host.locked")).to_have_count(1)
    expect(page.locator(".flyer")).to_have_count(0)
    expect(page.locator('.felt [data-card="9c"]')).to_be_visible()
    expect(page.locator(".play-host.locked")).to_have_count(0)
    # a capture: the played card and the taken cards fly to the pile
    event = {"kind": "move", "seat": 1, "card": "7c", "capture": ["3s", "4d"], "scopa": False,
             "by": "bot"}  # fmt: skip
    after = view(
        hand_sizes=[3, 1], table=["2c", "5b", "9c"],
        captured=[["1d", "2d"], ["6c", "7c", "3s", "4d"]],
    )  # fmt: skip
    ws.send(state(7, after, LEGAL, event))
    expect(page.locator(".flyer")).to_have_count(3)
    for card in ("7c", "3s", "4d"):
        expect(page.locator(f'.flyer[data-flying="{card}"]')).to_have_count(1)
    expect(page.locator(".flyer")).to_have_count(0)
    # with animation off nothing flies
    page.select_option("#speed", "off")
    ws.send(state(8, view(), LEGAL, {**event, "card": "5c", "capture": ["5b"]}))
    page.wait_for_selector('.play-host[data-shown="8"]', state="attached")
    assert page.locator(".flyer").count() == 0


def test_declare_and_pass_buttons_send_the_declaration(scripted):
    """Cirulla: while the seat may declare, the chooser offers declare and pass, and each
    sends its move; a declared hand of another seat is shown face up at its seat."""
    page, sent, sockets = scripted
    ws = sockets[-1]
    decl = {"points": [0, 10], "shown": [[], ["5d", "5c", "5s"]], "pending": True}
    v = view(rules={"variant": "cirulla", "players": 2, "target": 51}, declarations=decl)
    ws.send(state(6, v, [{"declare": True}, {"declare": False}]))
    expect(page.locator(".chooser button.declare")).to_be_visible()
    expect(page.locator('.seat[data-seat="1"] .shown .card')).to_have_count(3)
    page.locator(".chooser button.pass").click()
    page.wait_for_selector(".play-host.locked", state="attached")  # sent: waiting
    moves = [f for f in sent if f["type"] == "move"]
    assert moves == [{"type": "move", "state_id": 6, "move": {"declare": False}}]
