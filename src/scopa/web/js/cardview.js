// Card elements: a face with its spoken name, a back, a pile of taken cards.
import { h } from "./dom.js";
import { t } from "./i18n.js";
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

/**
 * A pile of taken cards as players keep one: face down, higher the more it holds, its
 * count on top, and each scopa's card turned face up across it, as at a real table.
 * `sweeps`: the sweeping cards, oldest first (null where the card is not known). To a
 * screen reader the pile is one picture, said in words (pileWords).
 */
export function pileEl(count, sweeps) {
  const label = pileWords(count, sweeps.length);
  const layers = count ? Math.min(4, 1 + Math.floor(count / 8)) : 0;
  const stack = h("span", { class: `pile-stack${count ? "" : " empty"}` });
  for (let i = 0; i < layers; i++) stack.append(backEl("pile-card"));
  stack.append(h("span", { class: "pile-count" }, String(count)));
  const turned = sweeps.map((c) => h("span", { class: `sweep-mark${c ? "" : " blank"}` },
    c ? cardEl(c, { extraClass: "turned" }) : null));
  return h("span", { class: "pile-cards", role: "img", "aria-label": label, title: label },
    stack, turned.length ? h("span", { class: "sweeps" }, turned) : null);
}

/** The cards `seat` swept the table with, oldest first, from a hand's plays so far
 * (entries with `scopa`): `n` of them, null for any the plays do not show. */
export function sweepCards(entries, seat, n) {
  const known = entries.filter((e) => e.scopa && e.seat === seat && e.card).map((e) => e.card);
  const out = known.slice(-n);
  while (out.length < n) out.unshift(null);
  return out;
}

/** A pile in words: how many cards taken, how many scope among them. */
export function pileWords(count, sweeps) {
  const taken = count === 1 ? t("table.pile1") : t("table.pile", { n: count });
  if (!sweeps) return taken;
  return `${taken}, ${sweeps === 1 ? t("table.sweeps1") : t("table.sweeps", { n: sweeps })}`;
}
