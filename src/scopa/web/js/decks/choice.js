// Which deck the cards are drawn in: remembered in localStorage (like the sound switch);
// a change is announced with a "scopa:deck" event so every page can redraw its cards.
import { saveSetting, setting } from "../store.js";

/** The decks on offer, the first the default (today's deck). */
export const DECK_NAMES = ["modern", "napoletane", "piacentine"];

export function deckChoice() {
  const name = setting("deck", DECK_NAMES[0]);
  return DECK_NAMES.includes(name) ? name : DECK_NAMES[0];
}

/** Remember the deck and tell the page; an unknown name changes nothing. */
export function setDeckChoice(name) {
  if (!DECK_NAMES.includes(name) || name === deckChoice()) return;
  saveSetting("deck", name);
  window.dispatchEvent(new CustomEvent("scopa:deck", { detail: name }));
}

export function onDeckChange(fn) {
  window.addEventListener("scopa:deck", () => fn(deckChoice()));
}

/** Name the deck on the root element, for what the style sheets draw (a pile's back). */
export function markDeck() {
  document.documentElement.dataset.deck = deckChoice();
}
