// "Teach me": every legal move in plain words, the strongest marked, with the reason.
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { cardList, cardName } from "./cards.js";

/** Our own words for a move, in the page's language (the server's text is English). */
function moveWords(move, sweeps) {
  const card = cardName(move.card);
  if (!move.capture.length) return t("teach.lay", { card });
  const text = t("teach.take", { card, cards: cardList(move.capture) });
  return sweeps ? `${text} ${t("teach.sweeps")}` : text;
}

/**
 * @param {object|null} analysis  the server's `analysis` frame, or {pending} / {error}
 * @param {object} view  the seat's view (to tell sweeps)
 * @param {Function} onPick  called with a move when the player picks one from the list
 */
export function renderTeach(analysis, view, onPick) {
  const box = h("section", { class: "teach", "aria-label": t("teach.title") }, h("h2", {}, t("teach.title")));
  if (!analysis) return box;
  if (analysis.pending) {
    box.append(h("p", { class: "muted" }, t("teach.wait")));
    return box;
  }
  if (analysis.error) {
    box.append(h("p", { class: "muted" }, t("teach.unavailable")));
    return box;
  }
  const list = h("ol", { class: "teach-list" });
  for (const entry of analysis.moves) {
    const sweeps = entry.move.capture.length > 0 && entry.move.capture.length === view.table.length;
    const item = h("li", { class: entry.best ? "best" : "", dataset: { card: entry.move.card, capture: entry.move.capture.join("+") } },
      h("button", { type: "button", class: "teach-move", onclick: () => onPick(entry.move) },
        moveWords(entry.move, sweeps)),
      entry.best ? h("span", { class: "badge" }, t("teach.best")) : null,
      why(entry)
        ? h("p", { class: "why" }, why(entry))
        : h("span", { class: "value" }, t("teach.value", { v: formatValue(entry.value) })));
    list.append(item);
  }
  box.append(list);
  return box;
}

/** The server's reason, without the move description it starts with (shown above it). */
function why(entry) {
  let text = entry.explanation || "";
  const move = entry.text || "";
  if (move && text.toLowerCase().startsWith(move.toLowerCase())) {
    text = text.slice(move.length).replace(/^[\s;:,.]+/, "");
  }
  return text ? text[0].toUpperCase() + text.slice(1) : "";
}

function formatValue(v) {
  if (typeof v !== "number") return "?";
  return (v >= 0 ? "+" : "") + v.toFixed(2);
}
