"""The Learn course as a new player meets it: on a phone, from the menu, every lesson from
the first to the last (one wrong play first, to see its word), the progress kept across a
reload, the guided first deal reaching a real table against the gentlest bot with Teach me
on; the pages in Italian; a desktop screenshot; axe finds nothing serious on the way.

The plays and answers come from the lessons' own data (web/content/lessons.json), which
tests/engine/test_lessons_data.py holds to the rules engine."""

from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from web_helpers import (
    PHONE,
    page_faults,
    raw_faults,
    shot,
    switch_language,
)

pytestmark = pytest.mark.browser

DESKTOP = {"viewport": {"width": 1280, "height": 860}}


def lessons() -> list[dict[str, Any]]:
    raw = resources.files("scopa").joinpath("web", "content", "lessons.json").read_text("utf-8")
    found: list[dict[str, Any]] = json.loads(raw)["lessons"]
    return found


def make_play(page: Page, step: dict[str, Any]) -> None:
    """The step's (first) right play: its hand card, the table cards, Play."""
    play = {"card": step["hand"][0], "capture": []} if step.get("any") else step["right"][0]
    page.locator(f'.learn-board .hand [data-card="{play["card"]}"]').click()
    for c in play["capture"]:
        page.locator(f'.learn-board .table-cards [data-card="{c}"]').click()
    page.locator(".learn-play").click()


def answer(page: Page, step: dict[str, Any]) -> None:
    """The counting step's answer, among its buttons (who: you, them, nobody)."""
    if step["ask"] == "who":
        index = {0: 0, 1: 1, -1: 2}[step["answer"]]
    else:
        index = step["choices"].index(step["answer"])
    page.locator(".learn-answer").nth(index).click()


def do_step(page: Page, step: dict[str, Any]) -> None:
    if step["kind"] == "play":
        make_play(page, step)
    else:
        answer(page, step)
    expect(page.locator(".learn-feedback.right")).to_contain_text(step["well"]["en"])


def do_lesson(page: Page, lesson: dict[str, Any], number: int, total: int) -> None:
    """Every step of a lesson opened at its first step, to the end."""
    expect(page.locator("main h1")).to_have_text(lesson["title"]["en"])
    for i, step in enumerate(lesson["steps"]):
        expect(page.locator(".learn-meta")).to_contain_text(
            f"Lesson {number} of {total} · Step {i + 1} of {len(lesson['steps'])}")
        expect(page.locator(".learn-task")).to_have_text(step["task"]["en"])
        do_step(page, step)
        if i < len(lesson["steps"]) - 1:
            page.locator(".learn-next").click()
    expect(page.locator(".learn-complete")).to_be_visible()


def test_a_new_player_takes_the_whole_course_on_a_phone(
    server: str, new_page: Any, artifacts: Path,
) -> None:
    course = lessons()
    total = len(course)
    page = new_page(**PHONE)
    page.goto(server + "/")
    # the menu has Learn
    page.locator("#menu-button").click()
    page.locator("#site-nav").get_by_role("link", name="Learn").click()
    expect(page.locator(".learn-list li")).to_have_count(total)
    expect(page.locator("#site-nav a[aria-current='page']")).to_have_text("Learn")
    expect(page.locator(".learn-tick")).to_have_count(0)
    shot(page, artifacts, "learn-01-list-phone")
    found = {"list": page_faults(page, True)}
    page.locator(".learn-go").click()

    # the first lesson's first step: a wrong play first, and its word
    first = course[0]["steps"][0]
    wrong = first["wrong"][0]
    expect(page.locator(".learn-intro")).to_have_text(course[0]["intro"]["en"])
    page.locator(f'.learn-board .hand [data-card="{wrong["card"]}"]').click()
    page.locator(".learn-play").click()
    expect(page.locator(".learn-feedback.wrong")).to_contain_text(wrong["why"]["en"])
    expect(page.locator(".learn-next")).to_have_count(0)
    shot(page, artifacts, "learn-02-wrong-play-phone")
    found["wrong play"] = page_faults(page, True)
    feedback_box = page.locator(".learn-feedback").bounding_box()
    assert feedback_box and feedback_box["y"] < 844 * 1.5  # near the cards, not far below
    page.locator(".learn-clear").click()
    expect(page.locator(".learn-feedback")).to_be_empty()
    do_lesson(page, course[0], 1, total)
    shot(page, artifacts, "learn-03-lesson-done-phone")
    page.locator(".learn-next-lesson").click()

    # the second lesson, left after its first step: a reload opens it where it was left
    second = course[1]
    expect(page.locator("main h1")).to_have_text(second["title"]["en"])
    do_step(page, second["steps"][0])
    page.locator(".learn-next").click()
    page.reload()
    expect(page.locator(".learn-meta")).to_contain_text(f"Step 2 of {len(second['steps'])}")
    expect(page.locator(".learn-task")).to_have_text(second["steps"][1]["task"]["en"])
    page.goto(server + "/learn")
    expect(page.locator(f'[data-lesson="{course[0]["id"]}"] .learn-tick')).to_be_visible()
    expect(page.locator(f'[data-lesson="{second["id"]}"] .learn-state')).to_have_text(
        f"at step 2 of {len(second['steps'])}")
    page.locator(".learn-go").click()
    do_step(page, second["steps"][1])
    page.locator(".learn-next-lesson").click()

    # on to the guided deal, every lesson in turn
    deal = next(i for i, lesson in enumerate(course) if lesson["steps"][-1]["kind"] == "deal")
    for number in range(2, deal):
        do_lesson(page, course[number], number + 1, total)
        if course[number]["id"] == "counting":  # the scored example's sheet
            expect(page.locator(".learn-sheet tbody tr")).to_have_count(
                len(course[number]["steps"][-1]["sheet"]) + 1)
            shot(page, artifacts, "learn-04-scored-example-phone")
            found["scored example"] = page_faults(page, True)
        page.locator(".learn-next-lesson").click()
    expect(page.locator("main h1")).to_have_text(course[deal]["title"]["en"])
    shot(page, artifacts, "learn-05-first-deal-phone")
    found["first deal"] = page_faults(page, True)
    with page.expect_response(lambda r: r.url.endswith("/api/tables")
                              and r.request.method == "POST") as made:
        page.locator(".learn-deal").click()
    body = made.value.json()
    assert made.value.status == 201, body
    seats = body["table"]["seats"]
    assert [s.get("kind") for s in seats] == ["human", "bot"]
    assert seats[1].get("level") == course[deal]["steps"][-1]["level"] == "beginner"
    expect(page).to_have_url(re.compile(r"/t/[^/]+$"))
    expect(page.locator(".hand .card").first).to_be_visible(timeout=30_000)
    expect(page.locator("#teach")).to_be_checked()
    expect(page.locator(".teach-list > li").first).to_be_attached(timeout=30_000)
    shot(page, artifacts, "learn-06-table-vs-bot-phone")

    # the variants' lessons, resumed from the list
    page.goto(server + "/learn")
    expect(page.locator(".learn-tick")).to_have_count(deal + 1)
    expect(page.locator(".learn-go")).to_have_text(f"Continue: {course[deal + 1]['title']['en']}")
    page.locator(".learn-go").click()
    for number in range(deal + 1, total):
        do_lesson(page, course[number], number + 1, total)
        if number == deal + 1:
            shot(page, artifacts, "learn-07-scopone-done-phone")
            found["variant lesson"] = page_faults(page, True)
        if number < total - 1:
            page.locator(".learn-next-lesson").click()
    expect(page.locator(".learn-next-lesson")).to_have_count(0)
    page.locator(".learn-all").click()
    expect(page.locator(".learn-tick")).to_have_count(total)
    expect(page.locator(".learn-all-done")).to_be_visible()
    shot(page, artifacts, "learn-08-all-done-phone")
    found = {k: v for k, v in found.items() if v}
    assert not found, found


def test_the_course_in_italian_and_on_a_desktop(
    server: str, new_page: Any, artifacts: Path,
) -> None:
    course = lessons()
    counting = next(lesson for lesson in course if lesson["id"] == "counting")
    page = new_page(**DESKTOP)
    page.goto(server + "/learn")
    expect(page.locator(".learn-list li").first).to_be_visible()
    switch_language(page)
    expect(page.locator("main h1")).to_have_text("Impara a giocare")
    expect(page.locator("#site-nav a[href='/learn']")).to_have_text("Impara")
    expect(page.locator(".learn-list li").first).to_contain_text(course[0]["title"]["it"])
    assert not raw_faults(page)
    page.goto(server + "/learn/counting")
    step = counting["steps"][0]
    expect(page.locator(".learn-task")).to_have_text(step["task"]["it"])
    expect(page.locator(".learn-pile h3").first).to_contain_text("Il tuo mazzetto")
    page.locator(".learn-answer").nth(2).click()  # "Nobody": wrong
    expect(page.locator(".learn-feedback.wrong")).to_contain_text(step["otherwise"]["it"])
    answer(page, step)
    expect(page.locator(".learn-feedback.right")).to_contain_text(step["well"]["it"])
    expect(page.locator(".learn-values")).to_contain_text("22")
    shot(page, artifacts, "learn-09-counting-italian-desktop")
    # a play step on the desktop, in Italian
    page.goto(server + "/learn/priority")
    first = next(lesson for lesson in course if lesson["id"] == "priority")["steps"][0]
    sum_play = next(w for w in first["wrong"] if not w["legal"])
    page.locator(f'.learn-board .hand [data-card="{sum_play["card"]}"]').click()
    for c in sum_play["capture"]:
        page.locator(f'.learn-board .table-cards [data-card="{c}"]').click()
    page.locator(".learn-play").click()
    expect(page.locator(".learn-feedback.wrong")).to_contain_text(sum_play["why"]["it"])
    shot(page, artifacts, "learn-10-priority-wrong-desktop")
    found = page_faults(page, False)
    assert not found, found
    # back in English, the step where it was
    switch_language(page)
    expect(page.locator(".learn-task")).to_have_text(first["task"]["en"])


def test_a_play_made_with_the_keyboard_alone(server: str, page: Page) -> None:
    """Enter on a hand card, then on the table card, Tab to Play: the focus stays on the
    card pressed (the row is drawn anew), and Next takes it once the play is right."""
    step = lessons()[0]["steps"][0]
    play = step["right"][0]
    page.goto(server + "/learn/" + lessons()[0]["id"])
    page.locator(f'.learn-board .hand [data-card="{play["card"]}"]').focus()
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.dataset.card") == play["card"]
    chosen = page.locator(f'.hand [data-card="{play["card"]}"]')
    expect(chosen).to_have_attribute("aria-pressed", "true")
    for c in play["capture"]:
        page.locator(f'.learn-board .table-cards [data-card="{c}"]').focus()
        page.keyboard.press("Enter")
        assert page.evaluate("document.activeElement.dataset.card") == c
    for _ in range(20):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.classList.contains('learn-play')"):
            break
    page.keyboard.press("Enter")
    expect(page.locator(".learn-feedback.right")).to_be_visible()
    assert page.evaluate("document.activeElement.classList.contains('learn-next')")
    page.keyboard.press("Enter")
    expect(page.locator(".learn-meta")).to_contain_text("Step 2 of")
    assert page.evaluate("document.activeElement.classList.contains('learn-task')")


def test_an_unknown_lesson_says_so(server: str, page: Page) -> None:
    page.goto(server + "/learn/%E0%A4%A")  # not even a valid escape
    expect(page.locator(".learn .error")).to_have_text("There is no such lesson.")
    page.goto(server + "/learn/no-such-lesson")
    expect(page.locator(".learn .error")).to_have_text("There is no such lesson.")
    page.locator(".learn a[href='/learn']").click()
    expect(page.locator(".learn-list li").first).to_be_visible()
    # progress the page cannot read is a fresh start, never a broken page
    for kept in ("not json{", '{"done": "equal", "at": {"equal": 99, "sum": "x"}}'):
        page.evaluate("v => localStorage.setItem('scopa.learn', v)", kept)
        page.goto(server + "/learn")
        expect(page.locator(".learn-go")).to_have_text("Start the first lesson")
        page.goto(server + "/learn/equal")
        expect(page.locator(".learn-meta")).to_contain_text("Step 1 of")
