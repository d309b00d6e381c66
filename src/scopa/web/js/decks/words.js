// The words that follow the deck. The site's texts name the Italian suits and figures
// ("coins", "the seven of coins", "knave"); a French- or Spanish-suited deck names its own
// (diamonds, hearts, spades, clubs; oros, copas, espadas, bastos). The one home of those
// names is the "deckword.<family>.<word>" block of strings.js: t() passes every text of
// ours through deckWords, which swaps the Italian-suit words for the deck's, whole words
// only, longest phrase first, keeping a capital. The engine and the server never change.
import { STRINGS } from "../strings.js";
import { deckChoice } from "./choice.js";

/** Which words each deck speaks: the three Italian-suited decks share the site's own. */
const FAMILY = { french: "french", spanish: "spanish" };

/** The rank mark printed in a card's corner: letters on French cards, numerals elsewhere. */
const MARKS = { french: { 1: "A", 8: "J", 9: "Q", 10: "K" } };

export function deckFamily(deck = deckChoice()) {
  return FAMILY[deck] || "italian";
}

export function rankMark(rank, deck = deckChoice()) {
  return (MARKS[deckFamily(deck)] || {})[rank] || String(rank);
}

const tables = new Map(); // "family/lang" -> {re, swap} or null

function table(family, language) {
  const key = `${family}/${language}`;
  if (!tables.has(key)) {
    const prefix = `deckword.${family}.`;
    const swap = new Map();
    for (const [k, v] of Object.entries(STRINGS[language] || {})) {
      if (k.startsWith(prefix)) swap.set(k.slice(prefix.length).toLowerCase(), v);
    }
    const words = [...swap.keys()].sort((a, b) => b.length - a.length)
      .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
    tables.set(key, words.length
      ? { re: new RegExp(`(?<![\\p{L}'])(${words.join("|")})(?![\\p{L}])`, "giu"), swap } : null);
  }
  return tables.get(key);
}

/** `text` in the words of the chosen deck (unchanged for the Italian-suited decks). */
export function deckWords(text, language, deck = deckChoice()) {
  const family = deckFamily(deck);
  if (family === "italian" || typeof text !== "string") return text;
  const tab = table(family, language);
  if (!tab) return text;
  return text.replace(tab.re, (found) => {
    const word = tab.swap.get(found.toLowerCase());
    return found[0] !== found[0].toLowerCase() ? word[0].toUpperCase() + word.slice(1) : word;
  });
}
