"""The end of a match (result, rematch) and the replay of finished matches."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect
from web_helpers import (
    axe_violations,
    get,
    play_until_match_end,
    post,
    shot,
    sit_at_short_match,
    wait_my_turn,
)

pytestmark = pytest.mark.browser










def test_match_end_shows_result_and_rematch_starts_a_new_match(server, page, artifacts):
    sit_at_short_match(page, server)
    wait_my_turn(page)
    play_until_match_end(page)
    result = page.locator(".match-end .result")
    expect(result).to_have_text(re.compile(r"^You (won|lost) the match"))
    # behind the dialog the table says the match is over (not that a hand is coming)
    expect(page.locator(".turn")).to_have_text("The match is over")
    record = page.locator(".match-end a[download]")
    expect(record).to_have_attribute("href", re.compile(r"^/api/matches/[^/]+/record$"))
    shot(page, artifacts, "match-01-end")
    page.click(".match-end .rematch")
    expect(page.locator(".overlay")).to_be_hidden(timeout=20_000)
    expect(page.locator(".scores .pts")).to_have_text(["0", "0"])
    expect(page.locator(".hand .card")).to_have_count(3)


def test_replay_of_a_finished_match(server, page, artifacts):
    post(
        server,
        "/api/tables",
        {
            "variant": "scopa",
            "players": 2,
            "target": 1,
            "public": True,
            "seats": [{"kind": "bot", "level": "beginner"}, {"kind": "bot", "level": "beginner"}],
        },
    )
    deadline = time.monotonic() + 60
    while not (matches := get(server, "/api/matches")["matches"]):
        assert time.monotonic() < deadline, "no match finished"
        time.sleep(0.5)
    match = get(server, f"/api/matches/{matches[0]['id']}")
    first = match["replay"]["hands"][0]
    page.goto(server + "/")
    page.click(".history a.button")
    page.wait_for_url("**/replay/*")
    expect(page.locator(".replay .counter")).to_have_text(f"Move 0 of {len(first['moves'])}")
    expect(page.locator(".replay .felt .card")).to_have_count(len(first["positions"][0]["table"]))
    page.click(".replay .next")
    page.click(".replay .next")
    expect(page.locator(".replay .counter")).to_have_text(f"Move 2 of {len(first['moves'])}")
    expect(page.locator(".replay .felt .card")).to_have_count(len(first["positions"][2]["table"]))
    page.keyboard.press("ArrowLeft")
    expect(page.locator(".replay .counter")).to_have_text(f"Move 1 of {len(first['moves'])}")
    shot(page, artifacts, "replay-01-move")
    page.click(".replay .last")
    expect(page.locator(".replay .sheet")).to_be_visible()
    expect(page.locator(".replay .sheet tr.match td.pt")).to_have_text(
        [str(s) for s in first["scores_after"]]
    )
    shot(page, artifacts, "replay-02-sheet")


def test_the_match_end_box_can_be_closed_and_leads_on(server, page, artifacts):
    """The result leaves the top bar usable, closes (button or Escape) and opens again
    from the side panel, and leads back to the lobby."""
    sit_at_short_match(page, server)
    wait_my_turn(page)
    play_until_match_end(page)
    box = page.locator(".match-end")
    expect(box.locator(".rematch")).to_be_visible()
    # the top bar is above the dialog, not under its shade: what is at its centre is its own
    on_top = page.evaluate("""() => {
        const r = document.querySelector('.topbar').getBoundingClientRect();
        const el = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return Boolean(el && el.closest('.topbar'));
    }""")
    assert on_top
    shot(page, artifacts, "match-end-box")
    assert axe_violations(page) == []
    page.keyboard.press("Escape")
    expect(page.locator(".overlay")).to_be_hidden()
    page.click(".reopen-sheet")
    expect(box).to_be_visible()
    box.locator(".close").click()
    expect(page.locator(".overlay")).to_be_hidden()
    page.click(".reopen-sheet")
    box.locator(".to-lobby").click()
    page.wait_for_url(server + "/")
    expect(page.locator(".hero")).to_be_visible()


def test_a_private_table_page_asks_nothing_it_cannot_see(server, page):
    """The player of a private table holds its invite: the page asks for the table through
    it, so the console shows no 404 (the page fixture fails on any console error)."""
    table = sit_at_short_match(page, server)
    wait_my_turn(page)
    expect(page.locator(".scoreboard")).to_be_visible()
    private = page.request.get(f"{server}/api/tables/{table}")
    assert private.status == 404  # asked by id, a private table is as unknown as a wrong id
