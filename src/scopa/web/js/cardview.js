// Card elements: a face with its spoken name, a back, a small pile.
import { h } from "./dom.js";
import { cardBack, cardFace } from "./cardart.js";
import { cardLabel } from "./cards.js";

/** A face-up card; a <button> when `onclick` is given. */
export function cardEl(text, { onclick, pressed, extraClass = "", label } = {}) {
  const attrs = {
    class: `card ${extraClass}`.trim(),
    dataset: { card: text },
    "aria-label": label || cardLabel(text),
  };
  if (onclick) {
    return h("button", { ...attrs, type: "button", "aria-pressed": pressed ? "true" : "false", onclick },
      cardFace(text));
  }
  return h("div", { ...attrs, role: "img" }, cardFace(text));
}

export function backEl(extraClass = "") {
  return h("div", { class: `card back ${extraClass}`.trim(), "aria-hidden": "true" }, cardBack());
}

/** A row of face-down cards (another player's hand), at most `max` drawn. */
export function backsEl(count, max = 10) {
  const row = h("div", { class: "backs", "aria-hidden": "true" });
  for (let i = 0; i < Math.min(count, max); i++) row.append(backEl("mini"));
  return row;
}
