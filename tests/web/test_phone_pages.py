"""Every kind of page of the site, signed in with real data, on two phones (360x800 and
390x844, touch) and a desktop (1280x800): nothing scrolls sideways, every visible control
on a touch screen is at least 44x44 CSS px (web_helpers.touch_faults says which are exempt
and why), no text drawn under 12 px (web_helpers.text_faults), no raw value shown as words
(an untranslated key, an identifier, a time with seconds, a bot called "expert 1":
web_helpers.raw_faults), no console error, nothing for axe, and the lobby's Play in sight
at once on a 390x844 phone. One viewport-high screenshot a page and size (``<page>-<width>.png`` in
the artifacts; docs/screenshots/before and after hold them)."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from puzzle_helpers import load_puzzles
from web_helpers import (
    page_faults,
    raw_faults,
    switch_language,
    text_faults,
)

PASSWORD = "correct horse 9"
#: a long name: the top bar must not be pushed wider than the screen by it
NAME = "Bartolomeo_Scopa17"

SIZES = {
    "360": {"viewport": {"width": 360, "height": 800}, "has_touch": True, "is_mobile": True},
    "390": {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True},
    "1280": {"viewport": {"width": 1280, "height": 800}},
}


def _finished_match(page: Page, base: str) -> str:
    """A finished match to replay: two random bots to one point, watched until the end."""
    made = page.request.post(base + "/api/tables", data={
        "name": "Watcher", "target": 1, "public": True,
        "seats": [{"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}]})
    assert made.status == 201, made.text()
    table = made.json()["table"]["id"]
    end = time.monotonic() + 120
    while time.monotonic() < end:
        info = page.request.get(f"{base}/api/tables/{table}").json()
        if info.get("status") == "finished" or info.get("match_id") and info.get("scores") \
                and max(info["scores"]) >= 1 and info.get("status") != "playing":
            return str(info["match_id"])
        page.wait_for_timeout(200)
    raise AssertionError("the bots' match did not finish")


@pytest.fixture(scope="module")
def site(server: str, browser: Any) -> dict[str, Any]:
    """One account with real data, made once: a finished match to replay, a paper event
    with a round under way, an online event with bots entered, and a table to sit at."""
    context = browser.new_context()
    page = context.new_page()
    base = server
    page.goto(base + "/")
    r = page.request.post(base + "/api/account/signup", data={"name": NAME, "password": PASSWORD})
    assert r.status == 201, r.text()
    csrf = r.json()["csrf"]
    match_id = _finished_match(page, base)
    headers = {"X-CSRF-Token": csrf}
    event = page.request.post(base + "/api/events", headers=headers, data={
        "name": "Phone night", "mode": "paper", "deals_per_round": 2, "duplicate": True,
        "entrants": ["Anna & Bruno", "Carla & Dario", "Elena & Franco", "Gino & Lia"]}).json()
    eid = event["id"]
    assert page.request.post(f"{base}/api/events/{eid}/rounds", headers=headers).status == 201
    online = page.request.post(base + "/api/events", headers=headers, data={
        "name": "Sunday Swiss", "mode": "online", "rounds": 3}).json()
    for level in ("expert", "intermediate"):
        added = page.request.post(f"{base}/api/events/{online['id']}/bots", headers=headers,
                                  data={"level": level})
        assert added.ok, added.text()
    context.close()
    return {"match": match_id, "event": eid}


@pytest.fixture(scope="module", autouse=True)
def puzzles_loaded(server_database_url: str) -> None:
    """Puzzles for the puzzle page (issue 42 section 3)."""
    load_puzzles(server_database_url)


def _pages(site: dict[str, Any], table: str) -> dict[str, tuple[str, str]]:
    """Each kind of page: its address and what shows it is drawn."""
    eid = site["event"]
    return {
        "lobby": ("/", "button.play-now-button"),
        "table": (f"/t/{table}", ".hand .card"),
        "replay": (f"/replay/{site['match']}", "main h1, main h2"),
        "rules": ("/#rules", "main h1"),
        "strategy": ("/#guide", "main h1"),
        "account": ("/account", "main h1, main h2"),
        "profile": (f"/players/{NAME}", ".profile"),
        "leaderboard": ("/leaderboard", "main h1"),
        "events": ("/events", "#event-name"),
        "event": (f"/events/{eid}", "section.round"),
        "enter": (f"/events/{eid}/enter", "form.enter-table"),
        "screen": (f"/events/{eid}/screen", "#screen-title"),
        "print": (f"/events/{eid}/print/1", ".print-table"),
        "reset": ("/reset/not-a-token", "main h1, main h2"),
        "close": ("/account/delete", ".delete-form"),
        # the Learn course: its list and a lesson's counting step (piles of small cards)
        "learn": ("/learn", ".learn-list"),
        "lesson": ("/learn/counting", ".learn-answers"),
        # puzzles (issue 42 section 3)
        "puzzles": ("/puzzles", ".puzzle-hand .card"),
    }


@pytest.mark.browser
@pytest.mark.parametrize("size", list(SIZES))
def test_every_page_fits(size, server, site, new_page, artifacts, page_errors):
    base = server
    page_errors.allow(r"/api/account/reset/not-a-token")  # the reset page asks: 404
    touch = bool(SIZES[size].get("has_touch"))
    page = new_page(**SIZES[size])
    page.goto(base + "/")
    signed = page.request.post(base + "/api/account/signin",
                               data={"name": NAME, "password": PASSWORD})
    assert signed.ok, signed.text()
    made = page.request.post(base + "/api/tables", data={"name": NAME}).json()
    table = str(made["table"]["id"])
    seat = json.dumps({"token": made["token"], "seat": made["seat"]})
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [f"scopa.seat.{table}", seat])
    found: dict[str, list[str]] = {}
    for name, (path, ready) in _pages(site, table).items():
        page.goto(base + path)
        expect(page.locator(ready).first).to_be_visible(timeout=30_000)
        if name == "table":  # the dealt hand has landed: nothing moves any more
            expect(page.locator(".play-host:not(.locked) .hand .card").first).to_be_visible()
            expect(page.locator(".chat-panel")).to_be_visible()
        page.screenshot(path=str(artifacts / f"{name}-{size}.png"))
        faults = page_faults(page, touch)
        if name == "lobby" and size == "390":
            bottom = page.locator("button.play-now-button").evaluate(
                "el => el.getBoundingClientRect().bottom")
            if bottom > 844:
                faults.append(f"Play is below the fold: its bottom at y={bottom:.0f} of 844")
        if faults:
            found[name] = faults
    assert not found, "\n".join(f"{name}: {faults}" for name, faults in found.items())


@pytest.mark.browser
def test_the_menu_reaches_every_section_on_a_phone(server, site, new_page):
    """At 360 px every section (Events and Leaderboard too) and the language are behind one
    menu button: a real button with aria-expanded, Escape closes it and gives the focus
    back; the account is an initial whose link still reads the name."""
    page = new_page(**SIZES["360"])
    page.goto(server + "/")
    assert page.request.post(server + "/api/account/signin",
                             data={"name": NAME, "password": PASSWORD}).ok
    page.goto(server + "/")
    menu = page.locator("button#menu-button")
    expect(menu).to_have_attribute("aria-expanded", "false")
    expect(page.locator("#site-nav")).to_be_hidden()
    expect(page.locator("#account-link")).to_have_text(NAME)
    expect(page.locator("#account-link")).to_have_attribute("data-initial", "B")
    menu.click()
    expect(menu).to_have_attribute("aria-expanded", "true")
    for label in ("Play", "Learn", "Rules", "Strategy", "Events", "Leaderboard"):
        expect(page.locator("#site-nav").get_by_role("link", name=label)).to_be_visible()
    expect(page.locator("#lang")).to_be_visible()
    page.keyboard.press("Escape")
    expect(menu).to_have_attribute("aria-expanded", "false")
    expect(page.locator("#site-nav")).to_be_hidden()
    assert page.evaluate("document.activeElement.id") == "menu-button"
    # the keyboard alone: Enter opens it, the first section has the focus, a link goes there
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.textContent") == "Play"
    menu.click()
    expect(page.locator("#site-nav")).to_be_hidden()
    menu.click()
    page.locator("#site-nav").get_by_role("link", name="Leaderboard").click()
    expect(page.locator("main h1")).to_be_visible()
    assert page.url.endswith("/leaderboard")
    expect(page.locator("#site-nav")).to_be_hidden()
    expect(page.locator('#site-nav a[aria-current="page"]')).to_have_text("Leaderboard")
    # the language from inside the menu
    menu.click()
    switch_language(page)
    expect(page.locator("#site-nav")).to_contain_text("Regole")
    switch_language(page)
    expect(page.locator("#site-nav")).to_contain_text("Rules")


@pytest.mark.browser
def test_a_match_resigned_before_any_card_says_so_with_the_controls_off(server, site, new_page):
    """A replay with nothing to step through (the match resigned before a card was played:
    the server's answer for a real match, its first hand's moves taken away) says so in
    words, its controls all off; a real hand lists its plays beside the table and marks
    the last capture, its score item by item beside the cards and its piles as stacks. The
    controls sit at the bottom of a phone's screen."""
    page = new_page(**SIZES["390"])
    page.goto(server + "/")
    real = page.request.get(f"{server}/api/matches/{site['match']}").json()
    first = real["replay"]["hands"][0]
    plays = len(first["moves"])
    captures = [i for i, mv in enumerate(first["moves"]) if mv.get("capture")]
    empty = {**real, "resigned": [0], "replay": {**real["replay"], "hands": [
        {**first, "moves": [], "positions": first["positions"][:1], "result": None}]}}
    page.route(f"**/api/matches/{site['match']}", lambda route: route.fulfill(json=empty))
    page.goto(f"{server}/replay/{site['match']}")
    expect(page.locator(".replay-resigned")).to_contain_text(
        "resigned before a card was played")
    expect(page.locator(".replay .counter")).to_have_text("Move 0 of 0")
    for control in ("first", "prev", "next", "last"):
        expect(page.locator(f".replay-controls .{control}")).to_be_disabled()
    bar = page.locator(".replay-controls").bounding_box()
    assert bar is not None and abs(bar["y"] + bar["height"] - 844) <= 1, bar
    page.unroute(f"**/api/matches/{site['match']}")
    page.goto(f"{server}/replay/{site['match']}")
    expect(page.locator(".play-list .play-step")).to_have_count(plays)
    expect(page.locator(".replay-controls .prev")).to_be_disabled()
    page.click(".replay-controls .last")
    expect(page.locator(".replay .counter")).to_have_text(f"Move {plays} of {plays}")
    if captures:
        expect(page.locator(".play-list li.last-capture")).to_have_count(1)
        marked = page.locator(".play-list li").nth(captures[-1])
        expect(marked).to_have_class("done last-capture")
    page.locator(".play-list .play-step").first.click()
    expect(page.locator(".replay .counter")).to_have_text(f"Move 1 of {plays}")
    expect(page.locator('.play-step[aria-current="step"]')).to_have_count(1)
    # the hand's score beside the cards, item by item as the record counts it, from the
    # first move on; the piles as stacks with their counts
    score = page.locator(".replay-side .replay-score .sheet")
    expect(score.locator("tbody tr[data-item]")).to_have_count(len(first["result"]["items"]))
    expect(score.locator("tr.match td.pt")).to_have_text([str(s) for s in first["scores_after"]])
    page.click(".replay-controls .last")
    last = first["positions"][-1]
    expect(page.locator(".replay-seats .pile-count")).to_have_text(
        [str(len(pile)) for pile in last["captured"]])
    sweeps = sum(last["scope"])
    expect(page.locator(".replay-seats .sweep-mark .card.turned")).to_have_count(sweeps)
    # on a desktop the score and the plays stand beside the table, not under it
    page.set_viewport_size({"width": 1280, "height": 800})
    felt = page.locator(".replay .felt").bounding_box()
    side = page.locator(".replay-side").bounding_box()
    assert felt and side and side["x"] >= felt["x"] + felt["width"], (felt, side)


@pytest.mark.browser
def test_the_checks_see_small_text_and_raw_values(server, new_page):
    """The text and raw-value checks find what they are for: words drawn at 11 px, an SVG's
    12-unit label shown at half size, and each kind of raw value, put on a real page."""
    page = new_page(**SIZES["390"])
    page.goto(server + "/")
    expect(page.locator("button.play-now-button")).to_be_visible()
    assert text_faults(page) == [] and raw_faults(page) == []
    page.evaluate("""() => {
        const main = document.querySelector('main');
        const p = document.createElement('p');
        p.textContent = 'tiny words';
        p.style.fontSize = '11px';
        const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
        svg.setAttribute('viewBox', '0 0 480 200');
        svg.setAttribute('width', '240');
        const label = document.createElementNS('http://www.w3.org/2000/svg', 'text');
        label.setAttribute('x', '10'); label.setAttribute('y', '50');
        label.setAttribute('font-size', '12');
        label.textContent = 'chart label';
        svg.append(label);
        const raw = document.createElement('p');
        raw.textContent = 'event.status.open · deals_per_round · 2026-12-06T20:15:07 · 20:15:07'
            + ' · esperto 1';
        main.prepend(p, svg, raw);
    }""")
    small = text_faults(page)
    assert any('"tiny words" 11.0 px' in f for f in small), small
    assert any('"chart label" 6.0 px' in f for f in small), small
    raw = " | ".join(raw_faults(page))
    for kind in ("a key", "an identifier", "an ISO time", "seconds", "a level and a number"):
        assert kind + ":" in raw, raw
