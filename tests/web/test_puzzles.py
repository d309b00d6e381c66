"""Puzzles in the browser (issue 42 section 3): a new player opens Puzzles from the menu,
answers three puzzles (one wrong) by tapping a hand card and the table cards it takes,
sees right or wrong, the solution on the cards, the reason and the rating move, then the
next one; a guest solves unrated; the page is whole in Italian; on a phone and a desktop
nothing scrolls sideways, no text is under the floor, and axe finds nothing serious."""

from __future__ import annotations

import re
import secrets
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from puzzle_helpers import answers, load_puzzles
from web_helpers import (
    PHONE,
    axe_violations,
    page_faults,
    raw_faults,
    switch_language,
)

DESKTOP = {"viewport": {"width": 1280, "height": 800}}


@pytest.fixture(scope="module")
def puzzles(server_database_url: str) -> None:
    load_puzzles(server_database_url)


def _shown(page: Page, base: str) -> dict[str, Any]:
    """The puzzle on the page (its id is on the page; its view as the page got it)."""
    box = page.locator("section.puzzle-page[data-puzzle]")
    expect(box).to_be_visible()
    pid = box.get_attribute("data-puzzle")
    shown: dict[str, Any] = page.request.get(f"{base}/api/puzzles/{pid}").json()
    return shown


def _play(page: Page, move: dict[str, Any]) -> None:
    page.locator(f'.puzzle-hand button.card[data-card="{move["card"]}"]').click()
    for c in move["capture"]:
        page.locator(f'.puzzle-table button.card[data-card="{c}"]').click()
    expect(page.locator(".puzzle-choice")).to_contain_text("Your play:")
    page.locator("button.puzzle-play").click()


@pytest.mark.browser
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_new_player_answers_three_puzzles(size, server, puzzles, new_page, artifacts):
    touch = size == "phone"
    page = new_page(**(PHONE if touch else DESKTOP))
    page.goto(server + "/")
    name = f"Solver{secrets.token_hex(3)}"
    made = page.request.post(server + "/api/account/signup",
                             data={"name": name, "password": "correct horse 9"})
    assert made.status == 201, made.text()
    page.goto(server + "/")
    if touch:
        page.locator("#menu-button").click()
    page.locator("#site-nav").get_by_role("link", name="Puzzles").click()
    expect(page).to_have_url(re.compile(r"/puzzles$"))
    expect(page.locator("h1")).to_have_text("Find the play")
    expect(page.locator(".puzzle-page")).to_contain_text("Your puzzle rating: 1500?")
    faults: dict[str, list[str]] = {}
    rating = 1500
    ids = []
    for n, right in enumerate((True, False, True)):
        shown = _shown(page, server)
        ids.append(shown["puzzle"]["id"])
        assert shown["answered"] is False
        best, wrong = answers(shown["puzzle"]["view"])
        expect(page.locator("button.puzzle-play")).to_be_disabled()
        if n == 0:
            page.screenshot(path=str(artifacts / f"puzzle-{size}.png"))
            faults["puzzle"] = page_faults(page, touch)
        _play(page, best if right else wrong)
        verdict = page.locator(".puzzle-verdict")
        expect(verdict).to_have_text("Right: that is the best play." if right
                                     else "Not the best play.")
        expect(verdict).to_be_focused()
        # the solution on the cards: the best card and what it takes outlined
        expect(page.locator(f'.puzzle-hand .card.best-card[data-card="{best["card"]}"]'))\
            .to_be_visible()
        assert sorted(page.locator(".puzzle-table .card.best-take").evaluate_all(
            "els => els.map(e => e.dataset.card)")) == sorted(best["capture"])
        expect(page.locator(".puzzle-reason")).to_contain_text("at least")
        expect(page.locator(".puzzle-plays li")).to_have_count(
            len(shown["puzzle"]["view"]["hand"]) and page.locator(".puzzle-plays li").count())
        moved = page.locator(".puzzle-rating-move").inner_text()
        before, after = (int(x) for x in re.findall(r"(\d+)\??", moved))
        assert before == rating and (after > before) is right, moved
        rating = after
        if n == 1:
            page.screenshot(path=str(artifacts / f"puzzle-answered-{size}.png"), full_page=True)
            faults["answered"] = page_faults(page, touch)
        page.locator("button.puzzle-next").click()
        expect(page.locator("section.puzzle-page[data-puzzle]")).not_to_have_attribute(
            "data-puzzle", ids[-1])
    assert len(set(ids)) == 3
    expect(page.locator(".puzzle-page")).to_contain_text(f"Your puzzle rating: {rating}")
    # a puzzle answered before says that its first answer was the one that counted
    page.goto(f"{server}/puzzles/{ids[0]}")
    expect(page.locator(".puzzle-answered")).to_have_text(
        "You answered this puzzle before: only your first answer counts.")
    page.goto(f"{server}/puzzles")
    # in Italian, every word of the page
    switch_language(page)
    expect(page.locator("h1")).to_have_text("Trova la giocata")
    expect(page.locator(".puzzle-page")).to_contain_text("La tua mano")
    faults["italian"] = raw_faults(page)
    shown = _shown(page, server)
    best, _ = answers(shown["puzzle"]["view"])
    page.locator(f'.puzzle-hand button.card[data-card="{best["card"]}"]').click()
    for c in best["capture"]:
        page.locator(f'.puzzle-table button.card[data-card="{c}"]').click()
    page.locator("button.puzzle-play").click()
    expect(page.locator(".puzzle-verdict")).to_have_text("Giusto: è la giocata migliore.")
    expect(page.locator(".puzzle-reason")).to_contain_text("almeno")
    page.screenshot(path=str(artifacts / f"puzzle-italian-{size}.png"), full_page=True)
    faults["italian answered"] = raw_faults(page) + axe_violations(page)
    switch_language(page)
    assert not any(faults.values()), faults


@pytest.mark.browser
def test_a_guest_solves_the_daily_puzzle_unrated(server, puzzles, new_page, artifacts):
    page = new_page(**PHONE)
    page.goto(server + "/puzzles/daily")
    expect(page.locator(".puzzle-day")).to_contain_text("Puzzle of the day")
    expect(page.locator(".puzzle-page")).to_contain_text("as a guest you solve unrated")
    shown = _shown(page, server)
    daily = page.request.get(f"{server}/api/puzzles/daily").json()
    assert daily["puzzle"]["id"] == shown["puzzle"]["id"]
    best, wrong = answers(shown["puzzle"]["view"])
    _play(page, wrong)
    expect(page.locator(".puzzle-verdict")).to_have_text("Not the best play.")
    expect(page.locator(".puzzle-rating-move")).to_contain_text("as a guest you solve unrated")
    # the player's own play is marked apart from the best one
    expect(page.locator(f'.puzzle-hand .card.chosen[data-card="{wrong["card"]}"]'))\
        .to_be_visible()
    page.screenshot(path=str(artifacts / "puzzle-guest-390.png"), full_page=True)
    assert page_faults(page, True) == []
