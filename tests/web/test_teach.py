"""Teach me lists exactly the legal moves, marks the strongest, and can pick one."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from web_helpers import last_state, play_turn, record_frames, shot, start_table, wait_my_turn

pytestmark = pytest.mark.browser


def listed_moves(page):  # type: ignore[no-untyped-def]
    items = page.locator(".teach-list li")
    return {
        (items.nth(i).get_attribute("data-card"), items.nth(i).get_attribute("data-capture"))
        for i in range(items.count())
    }


def legal_moves(frames):  # type: ignore[no-untyped-def]
    return {(m["card"], "+".join(m["capture"])) for m in last_state(frames)["legal_moves"]}


def test_teach_me_lists_exactly_the_legal_moves(server, page, artifacts):
    frames = record_frames(page)
    start_table(page, server, seat2="bot:beginner")
    wait_my_turn(page)
    page.check("#teach")
    for turn in range(3):
        wait_my_turn(page)
        expect(page.locator(".teach-list li").first).to_be_visible(timeout=30_000)
        expected = legal_moves(frames)
        expect(page.locator(".teach-list li")).to_have_count(len(expected))
        assert listed_moves(page) == expected
        expect(page.locator(".teach-list li.best")).to_have_count(1)
        expect(page.locator(".teach-list li.best .badge")).to_be_visible()
        if turn == 0:
            shot(page, artifacts, "teach-01-list")
            # picking the strongest move from the list selects it for Play
            page.click(".teach-list li.best .teach-move")
            best = page.locator(".teach-list li.best")
            card = best.get_attribute("data-card")
            expect(page.locator(f'.hand [data-card="{card}"]')).to_have_attribute(
                "aria-pressed", "true"
            )
            page.click(".chooser .play")
        else:
            play_turn(page)
    # switched off: the list goes away
    wait_my_turn(page)
    page.uncheck("#teach")
    expect(page.locator(".teach")).to_have_count(0)
