// Choosing a move: which legal moves a hand card has, and how to describe them.
import { cardList, theCard } from "./cards.js";

/** Legal moves that play `card`. */
export function movesFor(legalMoves, card) {
  return legalMoves.filter((m) => m.card === card);
}

export function sameMove(a, b) {
  if (!a || !b || a.card !== b.card || a.capture.length !== b.capture.length) return false;
  const set = new Set(a.capture);
  return b.capture.every((c) => set.has(c));
}

/** Plain words for a move, in the page's language. */
export function describeMove(move, t) {
  if (!move.capture.length) return t("table.lay", { card: theCard(move.card) });
  return t("table.take", { cards: cardList(move.capture) });
}
