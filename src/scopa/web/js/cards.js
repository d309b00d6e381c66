// Card names and notation: "7d" is the seven of coins. Suits: d coins, c cups, s swords, b clubs.
import { has, joinWords, lang, t } from "./i18n.js";
import { deckFamily, rankMark } from "./decks/words.js";

export const SUITS = ["d", "c", "s", "b"];

export function parseCard(text) {
  const suit = text.slice(-1);
  const rank = Number(text.slice(0, -1));
  return { rank, suit };
}

// The words come from the catalogue shared with the server (scopa.messages.card_words).

/** "7 of coins" / "sette di denari" */
export function cardName(text, language = lang()) {
  const { rank, suit } = parseCard(text);
  return t("card.name", { rank: t(`rank.${rank}`, {}, language), suit: suitName(suit, language) }, language);
}

/** The accessible name of a card element: its name, led by the rank mark printed on the
 * card (a numeral; A, J, Q, K on French cards) when the name does not hold it ("10, king
 * of coins", "7 of cups", "7, sette di coppe", "K, king of diamonds"), so the visible
 * label is part of the spoken one (voice control users can say "10"). */
export function cardLabel(text, language = lang()) {
  const name = cardName(text, language);
  const mark = rankMark(parseCard(text).rank); // "K" on a French king
  return new RegExp(`(^|\\s)${mark}(\\s|$)`).test(name) ? name : `${mark}, ${name}`;
}

export function suitName(suit, language = lang()) {
  return t(`suit.${suit}`, {}, language);
}

/** A card's name with its article: "the 7 of coins" / "il sette di denari", "l'asso di coppe". */
export function theCard(text, language = lang()) {
  const { rank } = parseCard(text);
  // the article follows the deck's figure too: "la donna" (a French queen), "la sota"
  const keys = [`card.the.r${rank}.${deckFamily()}`, `card.the.r${rank}`, "card.the"];
  const article = keys.find((k) => k === "card.the" || has(k, language));
  return t(article, { name: cardName(text, language) }, language);
}

/** A list of card names joined for reading: "the 3 of cups and the 4 of coins". */
export function cardList(cards, language = lang()) {
  return joinWords(cards.map((c) => theCard(c, language)), language);
}

/** Sort cards by rank then suit, for stable display. */
export function sortCards(cards) {
  return [...cards].sort((a, b) => {
    const x = parseCard(a);
    const y = parseCard(b);
    return x.rank - y.rank || SUITS.indexOf(x.suit) - SUITS.indexOf(y.suit);
  });
}
