"""Every page of the site on a 360 px touch screen, signed in under a long name: no
sideways scroll, every control at least 44 px tall (web_helpers.phone_faults), nothing
serious for axe. One screenshot a page (``phone-<page>.png`` in the artifacts)."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Page, expect
from web_helpers import axe_violations, phone_faults, shot

PASSWORD = "correct horse 9"
#: a long name: the top bar must not be pushed wider than the screen by it
NAME = "Bartolomeo_Scopa17"


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


@pytest.mark.browser
def test_every_page_fits_a_phone(server, new_page, artifacts, page_errors):
    base = server
    page_errors.allow(r"/api/account/reset/not-a-token")  # the reset page asks: 404
    phone = new_page(viewport={"width": 360, "height": 740}, has_touch=True, is_mobile=True)
    phone.goto(base + "/")
    r = phone.request.post(base + "/api/account/signup", data={"name": NAME, "password": PASSWORD})
    assert r.status == 201, r.text()
    csrf = r.json()["csrf"]
    match_id = _finished_match(phone, base)
    event = phone.request.post(base + "/api/events", headers={"X-CSRF-Token": csrf}, data={
        "name": "Phone night", "mode": "paper", "deals_per_round": 2, "duplicate": True,
        "entrants": ["Anna & Bruno", "Carla & Dario", "Elena & Franco", "Gino & Lia"]}).json()
    eid = event["id"]
    assert phone.request.post(f"{base}/api/events/{eid}/rounds",
                              headers={"X-CSRF-Token": csrf}).status == 201
    table = phone.request.post(base + "/api/tables", data={"name": NAME}).json()
    phone.evaluate("([k, v]) => localStorage.setItem(k, v)",
                   [f"scopa.seat.{table['table']['id']}",
                    f'{{"token": "{table["token"]}", "seat": {table["seat"]}}}'])
    pages = {
        "lobby": ("/", "button.start"),
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
        "table": (f"/t/{table['table']['id']}", ".hand .card"),
        "replay": (f"/replay/{match_id}", "main h1, main h2"),
        "reset": ("/reset/not-a-token", "main h1, main h2"),
    }
    found: dict[str, list[str]] = {}
    for name, (path, ready) in pages.items():
        phone.goto(base + path)
        expect(phone.locator(ready).first).to_be_visible(timeout=30_000)
        shot(phone, artifacts, f"phone-{name}")
        faults = phone_faults(phone) + axe_violations(phone)
        if faults:
            found[name] = faults
    assert found == {}
