"""Play against a bot: a full hand to the score sheet, reload mid hand, the seed check."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect
from web_helpers import (
    expect_played,
    hand_cards,
    open_custom_table,
    play_turn,
    record_frames,
    shot,
    start_table,
    table_cards,
    wait_my_turn,
)

pytestmark = pytest.mark.browser


def test_full_hand_against_bot_to_score_sheet(server, page, artifacts):
    frames = record_frames(page)
    start_table(page, server)
    wait_my_turn(page)
    expect(page.locator(".hand .card")).to_have_count(3)
    expect(page.locator(".felt .card")).to_have_count(4)
    bot = page.locator(".opponents .seat")
    expect(bot.locator(".chip.level")).to_have_text("intermediate")
    expect(bot.locator(".name")).not_to_contain_text("Bot")
    expect(page.locator(".fairness .hash")).to_have_text(re.compile(r"^[0-9a-f]{64}$"))
    shot(page, artifacts, "play-01-start")
    for turn in range(18):
        play_turn(page)
        if turn == 8:
            shot(page, artifacts, "play-02-mid-hand")
    sheet = page.locator(".dialog .sheet")
    expect(sheet).to_be_visible(timeout=30_000)
    shot(page, artifacts, "play-03-score-sheet")
    end = [f for f in frames if f.get("type") == "hand_end"][-1]
    rows = page.locator(".sheet tbody tr")
    for item in ("cards", "coins", "settebello", "primiera", "scope"):
        expect(page.locator(f'.sheet tr[data-item="{item}"]')).to_have_count(1)
    # the counts on the sheet are the server's
    cards_row = page.locator('.sheet tr[data-item="cards"] td.detail')
    expect(cards_row).to_have_text([str(s["cards"]) for s in end["result"]["sides"]])
    match_row = page.locator(".sheet tr.match td.pt")
    expect(match_row).to_have_text([str(s) for s in end["scores"]])
    assert rows.count() >= 7
    # the revealed seed is shown and checks against the commitment
    expect(page.locator(".seed-box .hash")).to_have_text(end["seed"])
    page.click(".seed-box button")
    expect(page.locator(".verify-result")).to_have_class(re.compile(r"\bok\b"))
    # next hand: the sheet closes and hand 2 is dealt
    page.click(".dialog .next")
    expect(page.locator(".scoreboard .target")).to_contain_text("Hand 2", timeout=20_000)
    expect(page.locator(".overlay")).to_be_hidden()
    # the last sheet can be opened again from the side panel, and closed
    page.get_by_role("button", name="Hand 1: score sheet").click()
    expect(page.locator(".dialog .sheet h2")).to_have_text("Hand 1: score sheet")
    page.click(".dialog .close")
    expect(page.locator(".overlay")).to_be_hidden()


def test_reload_mid_hand_keeps_the_seat(server, page, artifacts):
    start_table(page, server, seat2="bot:beginner")
    play_turn(page)
    play_turn(page)
    wait_my_turn(page)
    before_hand, before_table = hand_cards(page), table_cards(page)
    url = page.url
    page.reload()
    wait_my_turn(page)
    assert page.url == url
    assert hand_cards(page) == before_hand
    assert table_cards(page) == before_table
    shot(page, artifacts, "reload-01-after")
    # and the game goes on from there
    played = play_turn(page)
    expect_played(page, played, before_hand)


def test_connection_loss_reconnects(server, page):
    start_table(page, server, seat2="bot:beginner")
    wait_my_turn(page)
    before = hand_cards(page)
    page.evaluate("window.scopaSocket.drop()")
    expect(page.locator(".banner")).to_be_visible()
    wait_my_turn(page)
    expect(page.locator(".banner")).to_be_hidden()
    assert hand_cards(page) == before
    played = play_turn(page)
    expect_played(page, played, before)


def test_one_click_play_and_the_custom_tables_defaults(server, new_page):
    page = new_page(viewport={"width": 1280, "height": 860})
    page.goto(server + "/")
    # the first screen: a level, a variant, Play; the custom table folded below
    expect(page.locator("#quick-level")).to_have_value("intermediate")
    expect(page.locator("#quick-variant")).to_have_value("scopa")
    expect(page.locator("details#custom-table")).not_to_have_attribute("open", "")
    page.select_option("#quick-level", "beginner")
    page.click("button.play-now-button")
    page.wait_for_url("**/t/*")
    expect(page.locator(".opponents .chip.level")).to_have_text("beginner")
    expect(page.locator(".hand .card")).to_have_count(3)
    page.goto(server + "/")
    expect(page.locator("#quick-level")).to_have_value("beginner")  # remembered
    open_custom_table(page)
    expect(page.locator("#variant")).to_have_value("scopa")
    expect(page.locator("#variant-desc")).to_contain_text("Classic Scopa")
    expect(page.locator("#players")).to_have_value("2")
    expect(page.locator("#target")).to_have_value("11")
    expect(page.locator("#seat-1")).to_have_value("bot:intermediate")
    page.click("button.start")
    page.wait_for_url("**/t/*")
    expect(page.locator(".scores")).to_contain_text("Player")
    expect(page.locator(".opponents .chip.level")).to_have_text("intermediate")
    expect(page.locator(".hand .card")).to_have_count(3)
