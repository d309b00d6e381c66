// Card names and notation: "7d" is the seven of coins. Suits: d coins, c cups, s swords, b clubs.
import { lang } from "./i18n.js";

export const SUITS = ["d", "c", "s", "b"];

const NAMES = {
  en: {
    suits: { d: "coins", c: "cups", s: "swords", b: "clubs" },
    ranks: { 1: "ace", 8: "knave", 9: "knight", 10: "king" },
    of: "of",
  },
  it: {
    suits: { d: "denari", c: "coppe", s: "spade", b: "bastoni" },
    ranks: {
      1: "asso", 2: "due", 3: "tre", 4: "quattro", 5: "cinque", 6: "sei", 7: "sette",
      8: "fante", 9: "cavallo", 10: "re",
    },
    of: "di",
  },
};

export function parseCard(text) {
  const suit = text.slice(-1);
  const rank = Number(text.slice(0, -1));
  return { rank, suit };
}

/** "7 of coins" / "sette di denari" */
export function cardName(text, language = lang()) {
  const { rank, suit } = parseCard(text);
  const n = NAMES[language] || NAMES.en;
  const rankName = n.ranks[rank] || String(rank);
  return `${rankName} ${n.of} ${n.suits[suit]}`;
}

/** The accessible name of a card element: its name, led by the rank numeral printed on
 * the card when the name does not hold it ("10, king of coins", "7 of cups",
 * "7, sette di coppe"), so the visible label is part of the spoken one (voice control
 * users can say "10"). */
export function cardLabel(text, language = lang()) {
  const name = cardName(text, language);
  const { rank } = parseCard(text);
  return new RegExp(`(^|\\s)${rank}(\\s|$)`).test(name) ? name : `${rank}, ${name}`;
}

export function suitName(suit, language = lang()) {
  return (NAMES[language] || NAMES.en).suits[suit];
}

/** A card's name with its article: "the 7 of coins" / "il sette di denari", "l'asso di coppe". */
export function theCard(text, language = lang()) {
  const name = cardName(text, language);
  if (language === "it") return name.startsWith("asso") ? `l'${name}` : `il ${name}`;
  return `the ${name}`;
}

/** A list of card names joined for reading: "the 3 of cups and the 4 of coins". */
export function cardList(cards, language = lang()) {
  const names = cards.map((c) => theCard(c, language));
  const and = language === "it" ? " e " : " and ";
  if (names.length <= 1) return names.join("");
  return names.slice(0, -1).join(", ") + and + names[names.length - 1];
}

/** Sort cards by rank then suit, for stable display. */
export function sortCards(cards) {
  return [...cards].sort((a, b) => {
    const x = parseCard(a);
    const y = parseCard(b);
    return x.rank - y.rank || SUITS.indexOf(x.suit) - SUITS.indexOf(y.suit);
  });
}
