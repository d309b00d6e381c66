// Which deck the cards are drawn in: remembered in localStorage (like the sound switch);
// a change is announced with a "scopa:deck" event so every page can redraw its cards.
// Until the player picks one, the deck follows the game on screen: Spanish cards at an
// Escoba table (or lesson), today's modern deck elsewhere. The player's choice always wins.
import { saveSetting, setting } from "../store.js";

/** The decks on offer, the first the default (today's deck). */
export const DECK_NAMES = ["modern", "napoletane", "piacentine", "french", "spanish"];

/** The deck a variant is played with where nobody chose one. */
const VARIANT_DECKS = { escoba: "spanish" };

let context = null; // the variant on screen, or null

function saved() {
  const name = setting("deck", null);
  return DECK_NAMES.includes(name) ? name : null;
}

export function deckChoice() {
  return saved() || VARIANT_DECKS[context] || DECK_NAMES[0];
}

/** Say which variant the page shows (null when none): it picks the deck only while the
 * player has not chosen one. When that changes the deck, the page is told ("scopa:deck")
 * unless `quiet` (a page about to be drawn anew). */
export function setDeckContext(variant, { quiet = false } = {}) {
  const before = deckChoice();
  context = variant || null;
  markDeck();
  if (!quiet && deckChoice() !== before) window.dispatchEvent(new CustomEvent("scopa:deck", { detail: deckChoice() }));
}

/** Remember the deck and tell the page; an unknown name changes nothing. */
export function setDeckChoice(name) {
  if (!DECK_NAMES.includes(name) || name === saved()) return;
  const before = deckChoice();
  saveSetting("deck", name);
  if (name !== before) window.dispatchEvent(new CustomEvent("scopa:deck", { detail: name }));
}

export function onDeckChange(fn) {
  window.addEventListener("scopa:deck", () => fn(deckChoice()));
}

/** Name the deck on the root element, for what the style sheets draw (a pile's back). */
export function markDeck() {
  document.documentElement.dataset.deck = deckChoice();
}
