"""Who is who: every seat has its own name, bots show their level as a badge, partners are
marked, and the seats sit around a drawn table with the dealer and the player to move
plain to see."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from web_helpers import shot, sit_at_new_table

pytestmark = pytest.mark.browser

SIX = {
    "players": 6, "target": 21,
    "seats": [{"kind": "human"}] + [
        {"kind": "bot", "level": level}
        for level in ("beginner", "intermediate", "expert", "intermediate", "beginner")],
}  # fmt: skip


def box(page, selector: str) -> dict[str, float]:  # type: ignore[no-untyped-def]
    b = page.locator(selector).bounding_box()
    assert b is not None, selector
    return b


def test_six_seats_around_the_table_each_with_its_own_name(server, page, artifacts):
    sit_at_new_table(page, server, SIX)
    expect(page.locator(".hand .card")).not_to_have_count(0)
    seats = page.locator(".play-area .seat")
    expect(seats).to_have_count(6)
    names = seats.locator(".name").all_inner_texts()
    plain = [n.removesuffix(" (you)") for n in names]
    assert len(set(plain)) == 6, names
    assert not any("Bot" in n for n in names)
    # levels as badges; my two partners (seats 2 and 4 of two sides) are marked
    expect(page.locator(".opponents .chip.level")).to_have_count(5)
    expect(page.locator(".slot-right .chip.level")).to_have_text("beginner")
    partners = page.locator(".seat:has(.chip.partner)")
    expect(partners).to_have_count(2)
    assert sorted(partners.evaluate_all("els => els.map(e => e.dataset.seat)")) == ["2", "4"]
    # exactly one dealer and one player to move, both plain to see: another's seat glows
    # with its label, or, on my turn, my hand lights up (my turn's one cue)
    expect(page.locator(".chip.dealer")).to_have_count(1)
    expect(page.locator(".seat.to-move .chip.to-play, .hand.active")).to_have_count(1)
    # around the table: right is the next to play, then clockwise on screen to the left
    for slot, seat in (("right", 1), ("top-right", 2), ("top", 3), ("top-left", 4), ("left", 5)):
        expect(page.locator(f".seat.slot-{slot}")).to_have_attribute("data-seat", str(seat))
    felt, left, right = box(page, ".felt"), box(page, ".slot-left"), box(page, ".slot-right")
    top = box(page, ".slot-top")
    assert left["x"] + left["width"] <= felt["x"] and felt["x"] + felt["width"] <= right["x"]
    assert top["y"] + top["height"] <= felt["y"]
    shot(page, artifacts, "seats-01-six-desktop")
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    shot(page, artifacts, "seats-03-six-phone")


def test_four_seats_on_a_phone(server, new_page, artifacts):
    page = new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    sit_at_new_table(page, server, {
        "variant": "scopone-scientifico", "players": 4,
        "seats": [{"kind": "human"}] + [{"kind": "bot", "level": "intermediate"}] * 3})
    expect(page.locator(".hand .card")).to_have_count(10)
    expect(page.locator(".seat:has(.chip.partner)")).to_have_attribute("data-seat", "2")
    names = page.locator(".play-area .seat .name").all_inner_texts()
    assert len({n.removesuffix(" (you)") for n in names}) == 4
    # nothing sticks out sideways
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    shot(page, artifacts, "seats-02-four-phone")
