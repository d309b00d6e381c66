"""Italian, a phone in portrait, and the keyboard alone."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect
from web_helpers import (
    expect_played,
    hand_cards,
    shot,
    start_table,
    switch_language,
    wait_my_turn,
)

pytestmark = pytest.mark.browser

ITALIAN_CARD = re.compile(
    r"^(10|[1-9]), (asso|due|tre|quattro|cinque|sei|sette|fante|cavallo|re)"
    r" di (denari|coppe|spade|bastoni)$"
)
ENGLISH_CARD = re.compile(
    r"^([2-7]|(1, ace|8, knave|9, knight|10, king)) of (coins|cups|swords|clubs)$")


def test_switch_to_italian(server, page, artifacts):
    start_table(page, server, seat2="bot:beginner")
    wait_my_turn(page)
    label = page.locator(".hand .card").first.get_attribute("aria-label")
    assert ENGLISH_CARD.match(label or ""), label
    switch_language(page, "it")
    expect(page.locator(".topbar nav")).to_contain_text("Regole")
    expect(page.locator(".turn.mine")).to_have_text("Tocca a te")
    labels = page.eval_on_selector_all(".card[aria-label]", "els => els.map(e => e.ariaLabel)")
    assert labels and all(ITALIAN_CARD.match(x) for x in labels), labels
    shot(page, artifacts, "italian-01-table")
    # the choice is remembered
    page.reload()
    expect(page.locator(".turn.mine")).to_have_text("Tocca a te")
    page.goto(server + "/#rules")
    expect(page.locator(".doc h1")).to_contain_text("Regole")


def test_phone_portrait_plays_a_card(server, new_page, artifacts):
    phone = new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    start_table(phone, server, seat2="bot:beginner")
    wait_my_turn(phone)
    shot(phone, artifacts, "phone-01-table")
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page scrolls sideways: {width}px"
    # every card in hand is fully on screen and big enough to read
    for box in phone.eval_on_selector_all(
        ".hand .card", "els => els.map(e => e.getBoundingClientRect().toJSON())"
    ):
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390
        assert box["width"] >= 60
    before = hand_cards(phone)
    played = str(phone.locator(".hand button.card").first.get_attribute("data-card"))
    phone.locator(".hand button.card").first.tap()
    shot(phone, artifacts, "phone-02-selected")
    if phone.locator(".chooser .option").count():
        phone.locator(".chooser .option").first.tap()
    phone.locator(".chooser .play").tap()
    expect_played(phone, played, before)
    shot(phone, artifacts, "phone-03-played")


def test_keyboard_alone(server, page):
    start_table(page, server, seat2="bot:beginner")
    wait_my_turn(page)
    before = hand_cards(page)
    # Tab from the top of the page to the first card of the hand
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.matches('.hand button.card')"):
            break
    else:
        raise AssertionError("the hand cannot be reached with Tab")
    card = page.evaluate("document.activeElement.dataset.card")
    page.keyboard.press("Enter")
    expect(page.locator(f'.hand [data-card="{card}"]')).to_have_attribute("aria-pressed", "true")
    if page.locator(".chooser .option").count():
        # several captures: focus is on the first option; Enter picks it, then Enter plays
        assert page.evaluate("document.activeElement.matches('.chooser .option')")
        page.keyboard.press("Enter")
        assert page.evaluate("document.activeElement.matches('.chooser .play')")
    # Enter again on the chosen card (or on Play) plays it
    page.keyboard.press("Enter")
    expect_played(page, card, before)
    # Escape lets the player change their mind
    wait_my_turn(page)
    page.keyboard.press("1")
    expect(page.locator(".hand .card[aria-pressed=true]")).to_have_count(1)
    page.keyboard.press("Escape")
    expect(page.locator(".hand .card[aria-pressed=true]")).to_have_count(0)
