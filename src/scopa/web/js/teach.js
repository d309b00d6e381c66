// "Teach me": every legal move in plain words, the strongest marked, with the reason.
import { h } from "./dom.js";
import { lang, t } from "./i18n.js";
import { cardList, cardName } from "./cards.js";
import { reason } from "./explain.js";

/** Words for a move: the server's own sentence in English, ours in Italian. */
function moveWords(entry) {
  const move = entry.move;
  const text = entry.text || "";
  if (lang() === "en" && text) return text;
  const card = cardName(move.card);
  if (!move.capture.length) return t("teach.lay", { card });
  const words = t("teach.take", { card, cards: cardList(move.capture) });
  if (/sweeps the table/.test(text)) return `${words} ${t("teach.sweeps")}`;
  if (/clears the table/.test(text)) return `${words} ${t("teach.clears")}`;
  return words;
}

/**
 * @param {object|null} analysis  the server's `analysis` frame, or {pending} / {error}
 * @param {Function} onPick  called with a move when the player picks one from the list
 */
export function renderTeach(analysis, onPick) {
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
    const item = h("li", { class: entry.best ? "best" : "", dataset: { card: entry.move.card, capture: entry.move.capture.join("+") } },
      h("button", { type: "button", class: "teach-move", onclick: () => onPick(entry.move) },
        moveWords(entry)),
      entry.best ? h("span", { class: "badge" }, t("teach.best")) : null,
      why(entry)
        ? h("p", { class: "why" }, why(entry))
        : h("span", { class: "value" }, t("teach.value", { v: formatValue(entry.value) })));
    list.append(item);
  }
  box.append(list);
  return box;
}

function why(entry) {
  return reason(entry.explanation);
}

function formatValue(v) {
  if (typeof v !== "number") return "?";
  return (v >= 0 ? "+" : "") + v.toFixed(2);
}
