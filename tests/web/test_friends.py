"""Two people at one table through an invite link, and a spectator."""

from __future__ import annotations

import contextlib
import json
import re
import time

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect
from web_helpers import (
    MY_TURN,
    hand_cards,
    open_custom_table,
    play_turn,
    shot,
    start_table,
    table_cards,
)

pytestmark = pytest.mark.browser


def whose_turn(a, b):  # type: ignore[no-untyped-def]
    """The page whose player is to move and takes input (waits until one of them is)."""
    # the one to move sees '.turn.mine' on its own page: wait on both pages at once
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        for p in (a, b):
            with contextlib.suppress(PlaywrightTimeout):
                p.wait_for_selector(MY_TURN, timeout=250)
                return p
    raise AssertionError("nobody's turn")


def test_two_players_through_an_invite_link(server, new_page, artifacts, page_errors):
    # a stranger opens a private table's address: as unknown as a wrong id, on purpose
    page_errors.allow(r"status of 404 .*/api/tables/")
    anna = new_page(
        viewport={"width": 1280, "height": 860}, permissions=["clipboard-read", "clipboard-write"]
    )
    start_table(anna, server, name="Anna", seat2="human")
    invite = anna.locator(".invite-url")
    expect(invite).to_have_value(re.compile(rf"^{re.escape(server)}/join/[^/]+$"))
    anna.click(".invite .copy")
    expect(anna.locator(".invite .copy")).to_have_text("Copied!")
    assert anna.evaluate("navigator.clipboard.readText()") == invite.input_value()
    expect(anna.locator(".turn.waiting")).to_be_visible()
    shot(anna, artifacts, "friends-01-waiting")

    invite_url = invite.input_value()
    bruno = new_page(viewport={"width": 1280, "height": 860})
    bruno.goto(invite_url)
    bruno.fill("#join-name", "<b>Bruno</b>")
    bruno.click("form button[type=submit]")
    bruno.wait_for_url("**/t/*")
    assert bruno.url == anna.url

    # both see the same table; the name is shown as text, never as markup
    for p in (anna, bruno):
        expect(p.locator(".felt .card")).to_have_count(4)
        expect(p.locator(".hand .card")).to_have_count(3)
        expect(p.locator(".scores")).to_contain_text("<b>Bruno</b>")
    assert table_cards(anna) == table_cards(bruno)
    assert set(hand_cards(anna)).isdisjoint(hand_cards(bruno))
    expect(anna.locator(".invite")).to_have_count(0)

    for _ in range(2):
        mover = whose_turn(anna, bruno)
        other = bruno if mover is anna else anna
        played = hand_cards(mover)[0]
        play_turn(mover)
        name = "Anna" if mover is anna else "<b>Bruno</b>"
        expect(other.locator(".last-play")).to_contain_text(name)
        expect(mover.locator(f'.hand [data-card="{played}"]')).to_have_count(0)
        expect(other.locator(".turn.mine")).to_be_visible()
        assert table_cards(anna) == table_cards(bruno)
    shot(anna, artifacts, "friends-02-anna")
    shot(bruno, artifacts, "friends-03-bruno")

    # play the hand out: both see the same score sheet
    for _ in range(34):
        play_turn(whose_turn(anna, bruno))
    for p in (anna, bruno):
        expect(p.locator(".dialog .sheet")).to_be_visible()
    assert (
        anna.locator(".sheet tr.match").inner_text()
        == bruno.locator(".sheet tr.match").inner_text()
    )
    shot(bruno, artifacts, "friends-04-sheet")
    # behind the sheet the score board already counts this hand
    totals = [int(x) for x in anna.locator(".sheet tr.match td.pt").all_inner_texts()]
    expect(anna.locator(".scores .pts")).to_have_text([str(n) for n in totals])
    # Anna presses Continue; the table waits for Bruno, and both see it
    anna.click(".dialog .next")
    expect(anna.locator(".dialog .waiting-for")).to_have_text(
        "Waiting for <b>Bruno</b> to press Continue…")
    expect(anna.locator(".dialog .next")).to_have_text("Ready ✓")
    # the 'waiting' frame came instead of a deal: no hand 2 while Bruno reads
    expect(bruno.locator(".dialog .waiting-for")).to_have_attribute("data-waiting", "1")
    for p in (anna, bruno):
        expect(p.locator(".dialog .sheet")).to_be_visible()
        expect(p.locator(".scoreboard .target")).to_contain_text("Hand 1")
    expect(anna.locator(".dialog .countdown")).to_contain_text("at the latest")
    shot(anna, artifacts, "friends-05-waiting-for-bruno")
    anna.set_viewport_size({"width": 390, "height": 844})
    anna.screenshot(path=str(artifacts / "friends-06-waiting-phone.png"))
    anna.set_viewport_size({"width": 1280, "height": 860})
    # Bruno too: the second hand is dealt at once
    bruno.click(".dialog .next")
    for p in (anna, bruno):
        expect(p.locator(".scoreboard .target")).to_contain_text("Hand 2")
        expect(p.locator(".overlay")).to_be_hidden()

    # a third person: the table's address alone shows nothing of a private table ...
    carla = new_page(viewport={"width": 1280, "height": 860})
    carla.goto(anna.url)
    expect(carla.locator(".play-area .turn[role=alert]")).to_be_visible()
    expect(carla.locator(".felt .card")).to_have_count(0)
    # ... with the invite she watches: public information only, no hand
    carla.goto(invite_url)
    carla.click(".join a.button")
    carla.wait_for_url("**/t/*")
    expect(carla.locator(".note")).to_be_visible()
    expect(carla.locator(".felt .card")).to_have_count(len(table_cards(anna)))
    expect(carla.locator(".hand")).to_have_count(0)

    # Bruno closes his page: the others see him away
    bruno.close()
    bruno_panel = anna.locator(".opponents .seat", has_text="<b>Bruno</b>")
    expect(bruno_panel.locator(".chips")).to_contain_text("away")


def test_public_table_is_listed_and_joined_from_the_lobby(server, new_page):
    anna = new_page(viewport={"width": 1280, "height": 860})
    anna.goto(server + "/")
    open_custom_table(anna)
    anna.fill("#name", "Public Anna")
    anna.select_option("#seat-1", "human")
    anna.check("#public")
    anna.click("button.start")
    anna.wait_for_url("**/t/*")

    bruno = new_page(viewport={"width": 1280, "height": 860})
    bruno.goto(server + "/")
    row = bruno.locator(".open-tables li", has_text="Public Anna")
    expect(row).to_contain_text("waiting for players")
    row.get_by_role("link", name="Join").click()
    bruno.fill("#join-name", "Bruno")
    bruno.click("form button[type=submit]")
    bruno.wait_for_url(anna.url)
    expect(bruno.locator(".hand .card")).to_have_count(3)
    expect(anna.locator(".hand .card")).to_have_count(3)


def test_a_stale_seat_token_falls_back_to_watching(server, new_page):
    anna = new_page(viewport={"width": 1280, "height": 860})
    start_table(anna, server, seat2="bot:beginner")
    table_id = anna.url.rsplit("/", 1)[-1]
    other = new_page(viewport={"width": 1280, "height": 860})
    other.goto(server + "/")
    # the seat this browser once had (saved with the table's invite) is no longer valid
    invite = anna.evaluate(f"JSON.parse(localStorage.getItem('scopa.seat.{table_id}')).invite")
    other.evaluate(
        "([k, v]) => localStorage.setItem(k, v)",
        [f"scopa.seat.{table_id}",
         json.dumps({"token": "not-a-real-token", "seat": 0, "invite": invite})],
    )
    other.goto(anna.url)
    expect(other.locator(".banner")).to_have_text(
        "Your seat here is no longer valid: you are watching."
    )
    expect(other.locator(".note")).to_have_text("You are watching this table.")
    expect(other.locator(".hand")).to_have_count(0)
    assert other.evaluate(f"localStorage.getItem('scopa.seat.{table_id}')") is None


def test_an_unknown_table_says_so(server, page, page_errors):
    page_errors.allow(r"status of 404 .*/api/tables/no-such-table")
    page.goto(server + "/t/no-such-table")
    expect(page.get_by_role("alert")).to_have_text("There is no such table.")
    page.get_by_role("link", name="Back to the lobby").click()
    expect(page.locator("button.play-now-button")).to_be_visible()
