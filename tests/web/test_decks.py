"""The three Italian-suited decks (modern, Napoletane-like, Piacentine-like; the French- and
Spanish-suited ones are in test_decks_suits.py): each draws all 40 cards
distinctly under their spoken names, the choice is remembered, and a change redraws the
cards already on the page (the table keeps its state)."""

from __future__ import annotations

import json
import time
import urllib.request

import pytest
from deck_helpers import DRAW_DECK
from playwright.sync_api import expect
from scripted import scripted  # noqa: F401 - the scripted-socket table fixture
from web_helpers import (
    axe_violations,
    open_settings,
    shot,
    start_table,
    switch_language,
    wait_my_turn,
)

pytestmark = pytest.mark.browser

DECKS = ["modern", "napoletane", "piacentine"]


def test_each_deck_draws_forty_distinct_cards_under_their_names(server, page):
    page.goto(server + "/#rules")
    expect(page.locator(".doc[data-ready]")).to_have_count(1)
    drawn = {deck: page.evaluate(DRAW_DECK, deck) for deck in DECKS}
    names = [c["label"] for c in drawn["modern"]]
    assert len(set(names)) == 40
    for deck, cards in drawn.items():
        assert [c["label"] for c in cards] == names, deck  # the same names in every deck
        assert all(c["hidden"] == "true" and c["visible"] for c in cards), deck
        # the corner numeral is the value and readable on a phone (12 CSS px or more)
        assert all(c["rank"] == c["card"][:-1] and c["rankHeight"] >= 12 for c in cards), deck
        arts = [c["art"] for c in cards]
        assert len(set(arts)) == 40, f"{deck}: two cards drawn alike"
    # the decks really differ, card by card
    for i in range(40):
        assert len({drawn[d][i]["art"] for d in DECKS}) == 3, names[i]
    assert 'class="card-art deck-nap"' in drawn["napoletane"][0]["art"]
    assert 'class="card-art deck-pia"' in drawn["piacentine"][0]["art"]


def test_the_deck_choice_is_remembered_across_reload(server, page):
    page.goto(server + "/")
    picker = page.locator(".hero select.deck-select")
    expect(picker).to_have_value("modern")
    expect(page.locator(".hero-fan svg.deck-nap")).to_have_count(0)
    picker.select_option("napoletane")
    # the lobby's cards are redrawn at once, without a reload
    expect(page.locator(".hero-fan svg.deck-nap")).to_have_count(3)
    assert page.evaluate("localStorage.getItem('scopa.setting.deck')") == '"napoletane"'
    page.reload()
    expect(page.locator(".hero select.deck-select")).to_have_value("napoletane")
    expect(page.locator(".hero-fan svg.deck-nap")).to_have_count(3)
    # the rules page's examples use it too, and its picker shows it
    page.goto(server + "/#rules")
    expect(page.locator(".card-examples svg.deck-nap")).to_have_count(5)
    expect(page.locator(".doc select.deck-select")).to_have_value("napoletane")
    # an unknown saved name falls back to today's deck
    page.evaluate("localStorage.setItem('scopa.setting.deck', '\"tarocchi\"')")
    page.reload()
    expect(page.locator(".doc select.deck-select")).to_have_value("modern")


def test_the_picker_speaks_italian(server, page):
    page.goto(server + "/")
    switch_language(page)
    label = page.locator(".hero .deck-picker")
    expect(label).to_contain_text("Carte")
    expect(label.locator("option")).to_have_text(
        ["Moderne", "Napoletane", "Piacentine", "Francesi (♦ ♥ ♠ ♣)", "Spagnole (Escoba)"])


def test_changing_deck_at_the_table_redraws_every_card(scripted, artifacts):  # noqa: F811
    page, sent, _ = scripted
    hand = page.locator(".hand button.card")
    expect(hand).to_have_count(3)
    expect(page.locator("label[for=deck] #deck")).to_have_count(1)  # one picker, labelled
    labels = hand.evaluate_all("els => els.map(e => e.getAttribute('aria-label'))")
    hand.first.click()  # a selected card stays selected through the redraw
    frames = len(sent)
    steps = [("piacentine", "deck-pia"), ("napoletane", "deck-nap"),
             ("modern", "card-art:not(.deck-nap)")]
    open_settings(page)
    for deck, cls in steps:
        page.select_option(".settings select.deck-select", deck)
        expect(page.locator(f".hand svg.{cls}")).to_have_count(3)
        on_table = page.locator(".felt .card").count()
        expect(page.locator(f".felt .card svg.{cls}")).to_have_count(on_table)
        assert hand.evaluate_all("els => els.map(e => e.getAttribute('aria-label'))") == labels
        expect(hand.first).to_have_attribute("aria-pressed", "true")
        assert axe_violations(page) == [], deck
        shot(page, artifacts, f"deck-table-{deck}")
    assert len(sent) == frames  # redrawing sends nothing to the server


@pytest.mark.parametrize("deck", DECKS)
def test_a_real_table_in_each_deck_on_a_phone(server, new_page, artifacts, deck):
    phone = new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    phone.goto(server + "/")
    phone.select_option(".hero select.deck-select", deck)
    start_table(phone, server, seat2="bot:beginner")
    wait_my_turn(phone)
    cls = {"modern": "card-art", "napoletane": "deck-nap", "piacentine": "deck-pia"}[deck]
    expect(phone.locator(f".hand svg.{cls}").first).to_be_visible()
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    assert axe_violations(phone) == []
    shot(phone, artifacts, f"deck-phone-{deck}")


def finished_bot_match(server: str) -> str:
    """A short match of two bots, finished; returns its match id (waits for the event:
    the table reports it finished)."""
    body = {"variant": "scopa", "players": 2, "target": 1, "public": True,
            "seats": [{"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}]}
    req = urllib.request.Request(server + "/api/tables", json.dumps(body).encode(),
                                 {"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as res:
        table_id = json.loads(res.read())["table"]["id"]
    deadline = time.monotonic() + 60
    while True:
        with urllib.request.urlopen(f"{server}/api/tables/{table_id}", timeout=10) as res:
            table = json.loads(res.read())
        if table["status"] == "finished":
            return str(table["match_id"])
        assert time.monotonic() < deadline, "the bots' match did not finish"
        time.sleep(0.3)


def test_the_replay_draws_the_chosen_deck(server, page, artifacts):
    match_id = finished_bot_match(server)
    page.goto(server + "/")
    page.select_option(".hero select.deck-select", "piacentine")
    page.goto(f"{server}/replay/{match_id}")
    expect(page.locator(".replay .counter")).to_be_visible()
    # the hands and the table as dealt, faces up
    drawn = page.locator(".replay .card[data-card] svg")
    expect(drawn.first).to_be_visible()
    assert drawn.count() == page.locator(".replay .card[data-card] svg.deck-pia").count()
    # at the hand's end the piles' backs, in the same deck
    page.click(".replay .last")
    expect(page.locator(".replay .sheet")).to_be_visible()
    backs = page.locator(".replay .card.back svg")
    expect(backs.first).to_be_visible()
    assert backs.count() > 0
    assert backs.count() == page.locator(".replay .card.back svg.deck-pia").count()
    shot(page, artifacts, "deck-replay-piacentine")
