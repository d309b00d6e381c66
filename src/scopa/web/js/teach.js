// "Teach me": every legal move in plain words, the strongest marked, with the reasons and
// how each compares with the strongest (the server's structured messages, see explain.js).
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { sentence } from "./explain.js";

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
  for (const msg of analysis.context || []) box.append(h("p", { class: "teach-context" }, sentence(msg)));
  const common = analysis.common || [];
  if (common.length) {
    box.append(h("div", { class: "teach-common" }, h("p", {}, t("common.intro")),
      h("ul", { class: "why" }, common.map((msg) => h("li", {}, sentence(msg))))));
  }
  const list = h("ol", { class: "teach-list" });
  for (const entry of analysis.moves) {
    const reasons = (entry.reasons || []).map((msg) => h("li", {}, sentence(msg)));
    const item = h("li", { class: entry.best ? "best" : "", dataset: { card: entry.move.card, capture: entry.move.capture.join("+"), value: entry.value } },
      h("button", { type: "button", class: "teach-move", onclick: () => onPick(entry.move) },
        sentence(entry.label)),
      entry.best ? h("span", { class: "badge" }, t("teach.best")) : null,
      reasons.length ? h("ul", { class: "why" }, reasons) : null,
      h("p", { class: "margin" }, (entry.margin || []).map((msg) => sentence(msg)).join(" ")));
    list.append(item);
  }
  box.append(list);
  return box;
}

/** Whether Teach me is on at this table: a table setting every seat sees (off for all
 * when the creator chose so, and always in rated games; the server refuses it then). */
export function teachAllowed(table) {
  return !(table && table.teach === false);
}

/** The table's teach-me setting, as every seat and spectator sees it. */
export function teachSetting(table) {
  const on = teachAllowed(table);
  return h("p", { class: `teach-setting small ${on ? "on" : "off"}` }, t(on ? "teach.table.on" : "teach.table.off"));
}
