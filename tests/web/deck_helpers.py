"""Shared steps of the deck tests (test_decks.py, test_decks_suits.py)."""

from __future__ import annotations

#: every card of one deck as the page draws it: its name and its picture (the picture
#: serialized without the data-face attribute that names the card)
DRAW_DECK = """
async (deck) => {
  const { setDeckChoice } = await import("/static/js/decks/choice.js");
  const { cardEl } = await import("/static/js/cardview.js");
  setDeckChoice(deck);
  const out = [];
  for (const s of "dcsb") for (let r = 1; r <= 10; r++) {
    const el = cardEl(`${r}${s}`);
    el.style.setProperty("--card-w", "64px");  // a big hand's card on a phone
    document.querySelector("main").append(el);
    const numeral = el.querySelector("text");
    const svg = el.querySelector("svg").cloneNode(true);
    svg.removeAttribute("data-face");
    const box = el.getBoundingClientRect();
    out.push({ card: el.dataset.card, label: el.getAttribute("aria-label"),
               hidden: el.querySelector("svg").getAttribute("aria-hidden"),
               art: svg.outerHTML, visible: box.width > 0 && box.height > 0,
               rank: numeral.textContent, rankHeight: numeral.getBoundingClientRect().height });
    el.remove();
  }
  return out;
}
"""
