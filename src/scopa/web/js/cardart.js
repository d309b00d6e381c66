// Card pictures in the chosen deck: today's ("modern"), Napoletane-like, Piacentine-like,
// French-suited or Spanish-suited, each drawn procedurally by its module in decks/. Pictures are decorative: the spoken name
// goes on the element holding them (cardview.js).
import { s } from "./dom.js";
import * as modern from "./decks/modern.js";
import * as napoletane from "./decks/napoletane.js";
import * as piacentine from "./decks/piacentine.js";
import * as french from "./decks/french.js";
import * as spanish from "./decks/spanish.js";
import { deckChoice } from "./decks/choice.js";

export { SUIT_COLOURS } from "./decks/modern.js";

const DECKS = { modern, napoletane, piacentine, french, spanish };

function deck(name) {
  return DECKS[name || deckChoice()] || modern;
}

/** Put every deck's shared symbols into the page once. */
export function installCardDefs() {
  if (document.getElementById("card-defs")) return;
  // placed by the style sheet (#card-defs): the page has no inline styles (CSP)
  const defs = s("svg", { id: "card-defs", width: 0, height: 0, "aria-hidden": "true" },
    s("defs", {}, ...Object.values(DECKS).flatMap((d) => d.symbols())));
  document.body.prepend(defs);
}

/** The face of a card as an <svg> in the chosen deck (or the deck named). */
export function cardFace(text, deckName) {
  const svg = deck(deckName).face(text);
  svg.dataset.face = text; // redrawCards finds it again
  return svg;
}

/** The back of a card, for hidden hands and piles. */
export function cardBack(deckName) {
  const svg = deck(deckName).back();
  svg.dataset.back = "";
  return svg;
}

/** Redraw every card picture under `root` in the chosen deck (after the choice changed). */
export function redrawCards(root = document) {
  for (const old of root.querySelectorAll("svg.card-art[data-face]")) old.replaceWith(cardFace(old.dataset.face));
  for (const old of root.querySelectorAll("svg.card-art[data-back]")) old.replaceWith(cardBack());
}
