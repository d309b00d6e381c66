"""The French- and Spanish-suited decks (issue 44 section 1): each draws its 40 cards in its
own suits (diamonds, hearts, spades, clubs; oros, copas, espadas, bastos) with the large
index top left; every word that names a suit or a figure follows the deck, in English and
Italian; an Escoba table deals Spanish cards until the player chooses a deck, and the
player's choice wins and is remembered."""

from __future__ import annotations

import pytest
from deck_helpers import DRAW_DECK
from playwright.sync_api import expect
from scripted import scripted, state, view  # noqa: F401 - the scripted-socket table fixture
from web_helpers import (
    axe_violations,
    open_settings,
    shot,
    sideways_fault,
    sit_at_new_table,
    text_faults,
    wait_my_turn,
)

pytestmark = pytest.mark.browser

#: the symbol each deck draws a suit from (the <use> of a card's signs)
SYMBOLS = {"french": {"d": "fr-d", "c": "fr-c", "s": "fr-s", "b": "fr-b"},
           "spanish": {"d": "spa-d", "c": "spa-c", "s": "spa-s", "b": "spa-b"}}  # fmt: skip

#: the words the page says, in the deck's words (t() and the card names of cards.js)
WORDS = """
async (deck) => {
  const { setDeckChoice } = await import("/static/js/decks/choice.js");
  const { t } = await import("/static/js/i18n.js");
  const { cardLabel, theCard } = await import("/static/js/cards.js");
  setDeckChoice(deck);
  const out = {};
  for (const lang of ["en", "it"]) {
    out[lang] = {
      settebello: t("moment.settebelloYou", {}, lang), coins: t("item.coins", {}, lang),
      outright: t("sheet.outright", {}, lang), why: t("why.coins", { n: 3 }, lang),
      grande: t("option.grande.help", {}, lang),
      seven: theCard("7d", lang), queen: theCard("9c", lang), knave: theCard("8b", lang),
      label10: cardLabel("10s", lang), label1: cardLabel("1d", lang),
    };
  }
  return out;
}
"""


def test_each_new_deck_draws_forty_cards_in_its_own_suits(server, page):
    page.goto(server + "/#rules")
    expect(page.locator(".doc[data-ready]")).to_have_count(1)
    italian = page.evaluate(DRAW_DECK, "modern")
    for deck, marks in [("french", {"1": "A", "8": "J", "9": "Q", "10": "K"}), ("spanish", {})]:
        cards = page.evaluate(DRAW_DECK, deck)
        assert len({c["art"] for c in cards}) == 40, f"{deck}: two cards drawn alike"
        for card, other in zip(cards, italian, strict=True):
            rank, suit = card["card"][:-1], card["card"][-1]
            assert card["hidden"] == "true" and card["visible"], card["card"]
            assert card["art"] != other["art"], card["card"]
            # every sign drawn is the deck's own sign of the card's suit
            assert f'href="#{SYMBOLS[deck][suit]}"' in card["art"], card["card"]
            for other_suit, symbol in SYMBOLS[deck].items():
                if other_suit != suit:
                    assert f'href="#{symbol}"' not in card["art"], card["card"]
            # the large index top left: the value, or the French letter, readable on a phone
            mark = marks.get(rank, rank)
            assert card["rank"] == mark and card["rankHeight"] >= 12, card["card"]
            # what is printed there is said first in the card's name
            assert card["label"].startswith(f"{mark}, ") or f" {mark} " in f" {card['label']} "
    french = page.evaluate(DRAW_DECK, "french")
    assert french[6]["label"] == "7 of diamonds" and french[19]["label"] == "K, king of hearts"
    spanish = page.evaluate(DRAW_DECK, "spanish")
    assert spanish[36]["label"] == "7 of bastos" and spanish[17]["label"] == "8, sota of copas"


def test_the_words_follow_the_deck_in_both_languages(server, page):
    page.goto(server + "/#rules")
    expect(page.locator(".doc[data-ready]")).to_have_count(1)
    modern = page.evaluate(WORDS, "modern")
    assert modern["en"]["settebello"] == "You take the seven of coins"
    assert modern["it"]["seven"] == "il sette di denari"
    french = page.evaluate(WORDS, "french")
    assert french["en"]["settebello"] == "You take the seven of diamonds"
    assert french["en"]["coins"] == "Diamonds"
    assert french["en"]["outright"] == "All ten diamonds: the match is won outright!"
    assert french["en"]["why"] == "It wins 3 diamonds toward the most diamonds."
    assert french["en"]["grande"] == "King, queen and jack of diamonds together score 5."
    assert (
        french["en"]["label10"] == "K, king of spades"
        and french["en"]["label1"] == "A, ace of diamonds"
    )
    assert french["it"]["settebello"] == "Prendi il sette di quadri"
    assert french["it"]["queen"] == "la donna di cuori"
    assert french["it"]["coins"] == "Quadri"
    assert french["it"]["knave"] == "il fante di fiori"
    spanish = page.evaluate(WORDS, "spanish")
    assert spanish["en"]["settebello"] == "You take the seven of oros"
    assert spanish["en"]["seven"] == "the 7 of oros"
    assert spanish["en"]["grande"] == "King, caballo and sota of oros together score 5."
    assert spanish["it"]["settebello"] == "Prendi il sette di oros"
    assert spanish["it"]["outright"] == "Tutti e dieci gli oros: partita vinta!"
    assert spanish["it"]["knave"] == "la sota di bastos"


def test_the_settebello_and_the_table_follow_the_french_deck(scripted, artifacts):  # noqa: F811
    page, sent, sockets = scripted
    open_settings(page)
    picker = page.locator(".settings select.deck-select")
    picker.focus()  # as a keyboard user has it
    picker.select_option("french")
    expect(page.locator(".hand svg.deck-fr")).to_have_count(3)
    on_table = page.locator(".felt .card").count()
    expect(page.locator(".felt .card svg.deck-fr")).to_have_count(on_table)
    expect(page.locator('.hand .card[data-card="7d"]')).to_have_attribute(
        "aria-label", "7 of diamonds"
    )
    expect(picker).to_be_focused()  # the words were written again, the focus stayed
    frames = len(sent)
    mine = {"kind": "move", "seat": 0, "card": "7d", "capture": ["3s", "4d"], "scopa": False,
            "by": "human"}  # fmt: skip
    sockets[-1].send(state(7, view(to_move=1), [], mine))
    expect(page.locator('.moment[data-kind="settebello"]')).to_contain_text(
        "You take the seven of diamonds"
    )
    assert axe_violations(page) == []
    assert len(sent) == frames  # a deck is only how the page draws and names the cards


ESCOBA = {"variant": "escoba", "players": 2, "target": 21,
          "seats": [{"kind": "human"}, {"kind": "bot", "level": "beginner"}]}  # fmt: skip
SCOPA = {**ESCOBA, "variant": "scopa", "target": 11}


def test_escoba_deals_spanish_cards_until_a_deck_is_chosen(server, page, artifacts):
    sit_at_new_table(page, server, ESCOBA)
    wait_my_turn(page)
    expect(page.locator(".hand svg.deck-spa").first).to_be_visible()
    assert page.evaluate("localStorage.getItem('scopa.setting.deck')") is None  # nothing chosen
    open_settings(page)
    expect(page.locator(".settings select.deck-select")).to_have_value("spanish")
    # a Scopa table keeps today's deck
    sit_at_new_table(page, server, SCOPA)
    wait_my_turn(page)
    expect(page.locator(".hand .card svg").first).to_be_visible()
    expect(page.locator(".hand svg.deck-spa")).to_have_count(0)
    # the player's choice wins, at Escoba too, and is remembered across a reload
    page.goto(server + "/")
    page.select_option(".hero select.deck-select", "french")
    sit_at_new_table(page, server, ESCOBA)
    wait_my_turn(page)
    expect(page.locator(".hand svg.deck-fr").first).to_be_visible()
    page.reload()
    wait_my_turn(page)
    expect(page.locator(".hand svg.deck-fr").first).to_be_visible()
    expect(page.locator(".hand svg.deck-spa")).to_have_count(0)
    # choosing the modern deck is a choice too
    page.goto(server + "/")
    page.select_option(".hero select.deck-select", "modern")
    sit_at_new_table(page, server, ESCOBA)
    wait_my_turn(page)
    expect(page.locator(".hand .card svg").first).to_be_visible()
    expect(page.locator(".hand svg.deck-spa, .hand svg.deck-fr")).to_have_count(0)


@pytest.mark.parametrize(
    ("deck", "cls", "body"), [("french", "deck-fr", SCOPA), ("spanish", "deck-spa", ESCOBA)]
)
@pytest.mark.parametrize(("size", "width", "height"), [("desktop", 1280, 860), ("phone", 390, 844)])
def test_a_table_in_each_new_deck(
    server, new_page, artifacts, deck, cls, body, size, width, height
):
    phone = size == "phone"
    page = new_page(viewport={"width": width, "height": height}, is_mobile=phone, has_touch=phone)
    page.goto(server + "/")
    if deck == "french":
        page.select_option(".hero select.deck-select", deck)
    sit_at_new_table(page, server, body)  # the Spanish deck: Escoba's own, unchosen
    wait_my_turn(page)
    expect(page.locator(f".hand svg.{cls}").first).to_be_visible()
    on_table = page.locator(".felt .card").count()
    expect(page.locator(f".felt .card svg.{cls}")).to_have_count(on_table)
    assert sideways_fault(page) == []
    assert text_faults(page) == []
    assert axe_violations(page) == []
    shot(page, artifacts, f"deck-{deck}-{size}")


def test_the_escoba_lesson_is_drawn_in_spanish_cards_until_a_deck_is_chosen(server, page):
    page.goto(server + "/learn/escoba")
    expect(page.locator(".learn-step .card svg.deck-spa").first).to_be_visible()
    expect(page.locator(".learn-step .card svg:not(.deck-spa)")).to_have_count(0)
    # a chosen deck wins in the Escoba lesson too
    page.goto(server + "/learn")
    page.evaluate("localStorage.setItem('scopa.setting.deck', '\"french\"')")
    page.goto(server + "/learn/escoba")
    expect(page.locator(".learn-step .card svg.deck-fr").first).to_be_visible()
    expect(page.locator(".learn-step .card svg.deck-spa")).to_have_count(0)
