"""The card art and card names, checked in the browser on all 40 cards."""

from __future__ import annotations

import pytest
from web_helpers import shot, switch_language

pytestmark = pytest.mark.browser

RENDER_DECK = """
async (width) => {
  const { cardEl } = await import("/static/js/cardview.js");
  const { installCardDefs } = await import("/static/js/cardart.js");
  installCardDefs();
  const box = document.createElement("div");
  box.id = "deck";
  box.style.cssText = "display:flex;flex-wrap:wrap;gap:4px;background:#1f5e3b;padding:6px";
  for (const s of "dcsb") for (let r = 1; r <= 10; r++) {
    const el = cardEl(`${r}${s}`);
    el.style.setProperty("--card-w", `${width}px`);
    box.append(el);
  }
  document.querySelector("main").replaceChildren(box);
  return [...box.children].map((el) => {
    const num = el.querySelector("text").getBoundingClientRect();
    return { card: el.dataset.card, label: el.getAttribute("aria-label"),
             rank: el.querySelector("text").textContent, height: num.height,
             width: el.getBoundingClientRect().width };
  });
}
"""

EN_RANKS = {1: "ace", 8: "knave", 9: "knight", 10: "king"}
IT_RANKS = ["asso", "due", "tre", "quattro", "cinque", "sei", "sette", "fante", "cavallo", "re"]
EN_SUITS = {"d": "coins", "c": "cups", "s": "swords", "b": "clubs"}
IT_SUITS = {"d": "denari", "c": "coppe", "s": "spade", "b": "bastoni"}


@pytest.mark.parametrize("language", ["en", "it"])
def test_every_card_has_its_name_and_a_readable_rank(server, new_page, artifacts, language):
    page = new_page(viewport={"width": 390, "height": 844}, is_mobile=True)
    page.goto(server + "/#rules")
    if language == "it":
        switch_language(page)
    cards = page.evaluate(RENDER_DECK, 64)  # the card width of a big hand on a phone
    assert len(cards) == 40
    for c in cards:
        rank, suit = int(c["card"][:-1]), c["card"][-1]
        # the spoken name holds the numeral printed on the card (WCAG 2.5.3 label in name)
        if language == "en" and rank not in EN_RANKS:
            assert c["label"] == f"{rank} of {EN_SUITS[suit]}"
        elif language == "en":
            assert c["label"] == f"{rank}, {EN_RANKS[rank]} of {EN_SUITS[suit]}"
        else:
            assert c["label"] == f"{rank}, {IT_RANKS[rank - 1]} di {IT_SUITS[suit]}"
        assert c["rank"] == str(rank)
        assert c["width"] == pytest.approx(64, abs=1)
        # the rank numeral is at least 12 CSS pixels tall even on the smallest cards
        assert c["height"] >= 12, c
    shot(page, artifacts, f"deck-{language}")
