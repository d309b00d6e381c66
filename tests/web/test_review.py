"""A game review as a new player meets it (issue 42): a match against a bot, "Review this
game" from the match's end, the review coming in on the replay, each marked play's sign in
the list of plays, the costliest plays that lead to the play with the better one in words,
and the summary per player; on a phone too, and axe finds nothing serious."""

from __future__ import annotations

from playwright.sync_api import expect
from web_helpers import (
    axe_violations,
    get,
    phone_faults,
    play_until_match_end,
    shot,
    sit_at_short_match,
    wait_my_turn,
)

#: the review of a one-hand match at the test server's budget takes a few seconds; a busy
#: machine may take much longer
REVIEW_TIMEOUT = 180_000


def test_a_new_player_reviews_the_match_just_played(server, page, new_page, artifacts):  # type: ignore[no-untyped-def]
    sit_at_short_match(page, server)
    wait_my_turn(page)
    play_until_match_end(page)
    page.click(".match-end a.to-review")
    page.wait_for_url("**/replay/*")
    match_id = page.url.split("/replay/")[1].split("#")[0]
    # asked at once from the match's end: it comes in while the page waits
    expect(page.locator(".review-summary")).to_be_visible(timeout=REVIEW_TIMEOUT)
    shot(page, artifacts, "review-01-summary")
    answer = get(server, f"/api/matches/{match_id}/review")
    assert answer["status"] == "done"
    review = answer["review"]
    # the expected-margin chart: one point a valued play (two sides: every one), labelled
    valued = [p for p in review["plays"] if p["played_value"] is not None]
    chart = page.locator(".review-chart svg[role=img]")
    expect(chart).to_be_visible()
    assert (chart.get_attribute("aria-label") or "").startswith("Expected margin of ")
    points = chart.locator("polyline").get_attribute("points") or ""
    assert len(points.split()) == len(valued)
    sizes = chart.locator("text").evaluate_all(
        "els => els.map(e => parseFloat(getComputedStyle(e).fontSize)"
        " * e.ownerSVGElement.getBoundingClientRect().width"
        " / e.ownerSVGElement.viewBox.baseVal.width)")
    assert sizes and min(sizes) >= 12, sizes
    first = get(server, f"/api/matches/{match_id}")["replay"]["hands"][0]["number"]
    # every marked play of the hand shown carries its sign in the list of plays
    marked = [p for p in review["plays"] if p["mark"] and p["hand"] == first]
    expect(page.locator(".play-list .review-mark")).to_have_count(len(marked))
    expect(page.locator(".review-seat")).to_have_count(len(review["seats"]))
    # the costliest play leads to that play; a marked one shows the better play in words
    costly = [p for s in review["seats"] for p in s["costliest"]]
    assert costly, "a player who always plays the first card lost nothing all hand"
    page.locator(".review-costliest .play-step").first.click()
    worst = review["seats"][0]["costliest"][0] if review["seats"][0]["costliest"] else costly[0]
    expect(page.locator(".replay .counter")).to_contain_text(f"{worst['index']} ")
    if worst["mark"]:
        expect(page.locator(".review-note")).to_be_visible()
        expect(page.locator(".review-note")).to_contain_text("Better")
        # the second opinion, labelled as hindsight
        expect(page.locator(".review-note .review-hindsight")).to_contain_text(
            "Hindsight, with every card seen")
        # the better play on the cards: the position before the play, its card and what it
        # takes outlined
        page.click(".review-note .show-better")
        expect(page.locator(".review-better")).to_be_visible()
        expect(page.locator(".replay .counter")).to_contain_text(f"{worst['index'] - 1} ")
        best = worst["best"].split(":")
        taken = best[1].split("+") if len(best) > 1 else []
        expect(page.locator(".replay .card.better")).to_have_count(1 + len(taken))
        shot(page, artifacts, "review-02b-better-on-the-cards")
    shot(page, artifacts, "review-02-marked-play")
    assert axe_violations(page) == []
    phone = new_page(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    phone.goto(page.url.split("#")[0])
    expect(phone.locator(".review-summary")).to_be_visible()
    assert phone_faults(phone) == []
    shot(phone, artifacts, "review-03-phone")


def test_the_replay_offers_a_review_and_shows_it_coming(server, page):  # type: ignore[no-untyped-def]
    """From a replay (not the match's end): offered, not asked until the player asks."""
    sit_at_short_match(page, server)
    wait_my_turn(page)
    play_until_match_end(page)
    href = page.get_attribute(".match-end a[href^='/replay/']:not(.to-review)", "href")
    assert href is not None
    page.goto(server + href)
    ask = page.locator(".replay-review .review-ask")
    expect(ask).to_be_visible()
    match_id = href.rsplit("/", 1)[1]
    assert get(server, f"/api/matches/{match_id}/review")["status"] == "none"
    ask.click()
    expect(page.locator(".review-summary")).to_be_visible(timeout=REVIEW_TIMEOUT)
