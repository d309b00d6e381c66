"""Resigning from the table page: the button asks first in a modal dialog (Keep playing
changes nothing; Escape too), the keyboard alone can do it, the dialog passes axe, and
confirming ends a match against a bot with the usual match-end box. In Italian too."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect
from web_helpers import (
    axe_violations,
    record_frames,
    shot,
    sit_at_short_match,
    switch_language,
    wait_my_turn,
)

pytestmark = pytest.mark.browser


def test_resign_asks_first_then_ends_the_match(server, page, artifacts):
    frames = record_frames(page)
    sit_at_short_match(page, server)
    wait_my_turn(page)
    button = page.locator(".side-panel button.resign")
    expect(button).to_have_text("Resign")
    button.click()
    dialog = page.locator("dialog.resign-dialog[open]")
    expect(dialog).to_be_visible()
    expect(dialog.locator("h2")).to_have_text("Resign this match?")
    # the safe choice has the focus
    expect(dialog.locator(".keep-playing")).to_be_focused()
    shot(page, artifacts, "resign-01-confirm")
    assert axe_violations(page) == []
    dialog.locator(".keep-playing").click()
    expect(page.locator("dialog.resign-dialog[open]")).to_have_count(0)
    # the keyboard alone: focus the button, Enter opens, Escape cancels
    button.focus()
    page.keyboard.press("Enter")
    expect(dialog).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator("dialog.resign-dialog[open]")).to_have_count(0)
    assert not [f for f in frames if f.get("type") in ("resign", "resigned")]
    expect(page.locator(".match-end")).to_have_count(0)
    # now for real: Tab to the confirm button and press it
    button.focus()
    page.keyboard.press("Enter")
    expect(dialog.locator(".keep-playing")).to_be_focused()
    page.keyboard.press("Tab")
    expect(dialog.locator(".confirm-resign")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator(".match-end .result")).to_have_text(re.compile(r"^You lost the match"))
    expect(page.locator(".banner")).to_have_text("You resigned: the match is over.")
    expect(page.locator(".side-panel button.resign")).to_have_count(0)
    expect(page.locator(".seat.to-move")).to_have_count(0)  # ended mid-hand: nobody to play
    shot(page, artifacts, "resign-02-ended")
    assert axe_violations(page) == []
    told = [f for f in frames if f.get("type") == "resigned"]
    assert len(told) == 1 and told[0]["seat"] == 0 and told[0]["ends"] is True
    # the replay ends mid-hand, saying who resigned (no score sheet for that hand)
    page.click(".match-end a[href^='/replay/']")
    page.wait_for_url("**/replay/*")
    # (a bot may have led: then one card to step to; if Anna led, nothing was played, and
    # the replay says so with its controls off)
    expect(page.locator(".replay .counter")).to_be_visible()
    if page.locator(".replay .last").is_enabled():
        page.click(".replay .last")
        expect(page.locator(".replay-resigned")).to_have_text(
            "Anna resigned: the match ended here.")
    else:
        expect(page.locator(".replay-resigned")).to_have_text(
            "Anna resigned before a card was played: there is nothing to replay.")
    shot(page, artifacts, "resign-04-replay")


def test_resign_in_italian(server, page, artifacts):
    sit_at_short_match(page, server)
    wait_my_turn(page)
    switch_language(page)
    button = page.locator(".side-panel button.resign")
    expect(button).to_have_text("Abbandona")
    button.click()
    dialog = page.locator("dialog.resign-dialog[open]")
    expect(dialog.locator("h2")).to_have_text("Abbandonare la partita?")
    expect(dialog.locator(".keep-playing")).to_have_text("Continua a giocare")
    shot(page, artifacts, "resign-03-italian")
    dialog.locator(".confirm-resign").click()
    expect(page.locator(".match-end")).to_be_visible()
    switch_language(page)  # back to English for the tests after this one
