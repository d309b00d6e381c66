// The deck picker: a labelled <select> of the decks, used wherever settings are shown
// (the table's settings, the lobby, the rules page). Every picker on the page follows the
// choice, and the cards are redrawn by main.js on the "scopa:deck" event.
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { DECK_NAMES, deckChoice, setDeckChoice } from "./choice.js";

/** The picker; one page shows one (the lobby's, the table's settings or the rules page's),
 * so it takes the plain id "deck" like the table's "sound" and "speed". */
export function deckPicker(id = "deck") {
  const select = h("select", { id, class: "deck-select", onchange: (e) => setDeckChoice(e.target.value) });
  for (const name of DECK_NAMES) {
    select.append(h("option", { value: name, selected: name === deckChoice() }, t(`deck.${name}`)));
  }
  return h("label", { class: "deck-picker", for: id }, t("deck.label"), " ", select);
}

/** Keep every picker on the page showing the current choice. */
export function syncPickers(root = document) {
  for (const sel of root.querySelectorAll("select.deck-select")) sel.value = deckChoice();
}
