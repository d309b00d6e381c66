"""A phone in portrait at a Scopone Scientifico table: ten cards in hand, each with a
touch target of at least 44 px that a tap in its middle hits; Teach me stays reachable
while the player chooses."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from web_helpers import axe_violations, shot, sit_at_new_table, wait_my_turn

pytestmark = pytest.mark.browser

TARGET = 44

TARGETS = """() => [...document.querySelectorAll('.hand button.card')].map((el) => {
  const r = el.getBoundingClientRect();
  // the part of the card not covered by another card: sample a grid of points
  let hits = 0, cols = new Set(), rows = new Set();
  for (let x = r.left + 1; x < r.right; x += 2) for (let y = r.top + 1; y < r.bottom; y += 2) {
    const top = document.elementFromPoint(x, y);
    if (top && top.closest('button.card') === el) { hits++; cols.add(x); rows.add(y); }
  }
  const cx = r.left + r.width / 2, cy = r.top + r.height / 2;
  const centre = document.elementFromPoint(cx, cy);
  return {card: el.dataset.card, width: cols.size * 2, height: rows.size * 2,
          centreHits: Boolean(centre && centre.closest('button.card') === el),
          inside: r.left >= 0 && r.right <= innerWidth};
})"""


def test_ten_cards_on_a_phone_are_each_big_enough_to_tap(server, new_page, artifacts):
    page = new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    sit_at_new_table(page, server, {
        "variant": "scopone-scientifico", "players": 4,
        "seats": [{"kind": "human"}] + [{"kind": "bot", "level": "beginner"}] * 3})
    wait_my_turn(page)
    expect(page.locator(".hand button.card")).to_have_count(10)
    page.locator(".hand").scroll_into_view_if_needed()
    for t in page.evaluate(TARGETS):
        assert t["inside"] and t["centreHits"], t
        assert t["width"] >= TARGET and t["height"] >= TARGET, t
    shot(page, artifacts, "phone-scientifico-01-hand")
    # a tap in the middle of the 6th card selects that card, not its neighbour
    sixth = page.locator(".hand button.card").nth(5)
    card = sixth.get_attribute("data-card")
    sixth.tap()
    pressed = page.locator(".hand .card[aria-pressed=true]")
    expect(pressed).to_have_attribute("data-card", card or "")

    # Teach me: a drawer at the bottom of the screen, in view while the hand is
    page.check("#teach")
    page.locator(".hand").scroll_into_view_if_needed()
    summary = page.locator(".teach-drawer summary")
    expect(summary).to_be_in_viewport()
    expect(page.locator(".hand")).to_be_in_viewport()
    box = summary.bounding_box()
    assert box is not None and box["height"] >= TARGET and box["y"] + box["height"] <= 844
    summary.tap()
    expect(page.locator(".teach-drawer .teach-list li").first).to_be_in_viewport()
    shot(page, artifacts, "phone-scientifico-02-teach")
    assert axe_violations(page) == []
    # a move picked in the drawer is chosen in the table below
    page.locator(".teach-drawer .teach-move").first.tap()
    expect(page.locator(".chooser .play")).to_be_enabled()
    summary.tap()  # fold the drawer away: Play is in reach
    expect(page.locator(".teach-drawer .teach-list")).to_be_hidden()
