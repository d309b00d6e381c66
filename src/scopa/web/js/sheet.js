// The score sheet of a hand: every item per side, so a player sees where each point came from.
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { cardEl } from "./cardview.js";

/** A side's value for one item, as the sheet lists it (item.values[i], item.cards[i]);
 * `compact`: a narrow column, words only (the primiera's value without its four cards, the
 * settebello a tick). */
function detail(item, i, compact = false) {
  const value = item.values[i];
  if (item.key === "settebello" && !compact) return value ? cardEl("7d", { extraClass: "tiny" }) : "–";
  if (item.key === "primiera") {
    if (value === null || value === undefined) return h("span", { class: "muted" }, t("sheet.none"));
    if (compact) return h("strong", {}, String(value));
    return h("span", { class: "prim" },
      h("span", { class: "prim-cards" }, (item.cards ? item.cards[i] : []).map((c) => cardEl(c, { extraClass: "tiny" }))),
      h("strong", {}, String(value)));
  }
  if (item.key === "napola" || item.key === "piccola") return value ? napolaRun(value) : "–";
  if (value === true) return "✓";
  if (value === false || value === null || value === undefined) return "–";
  return String(value);
}

/** The run of coins from the ace: "A-2-3-4". */
function napolaRun(n) {
  const ranks = ["A"];
  for (let r = 2; r <= n; r++) ranks.push(String(r));
  return ranks.join("-");
}

function pointCell(n) {
  return h("td", { class: n ? "pt won" : "pt" }, n ? `+${n}` : "0");
}

/**
 * @param {object} result  HandResult {sides: [...], outright, items: [{key, values, points, cards?}]}
 * @param {object} o  {rules, names: [side name], scores: match totals after the hand, handNumber,
 *   compact: narrow (beside the replay's cards)}
 */
export function renderSheet(result, o) {
  const items = result.items || [];  // the sheet carries its own list of items
  const head = h("tr", {}, h("th", { scope: "col" }, h("span", { class: "sr-only" }, t("sheet.item"))));
  for (const name of o.names) head.append(h("th", { scope: "col", colspan: 2 }, name));
  const body = h("tbody", {});
  for (const item of items) {
    const row = h("tr", { dataset: { item: item.key } }, h("th", { scope: "row" }, t(item.label || `item.${item.key}`)));
    result.sides.forEach((side, i) => row.append(h("td", { class: "detail" }, detail(item, i, o.compact)), pointCell(item.points[i] || 0)));
    body.append(row);
  }
  const total = h("tr", { class: "total" }, h("th", { scope: "row" }, t("sheet.hand")));
  for (const side of result.sides) total.append(h("td", {}, ""), h("td", { class: "pt" }, String(side.total)));
  const match = h("tr", { class: "match" }, h("th", { scope: "row" }, t("sheet.match")));
  (o.scores || []).forEach((s) => match.append(h("td", {}, ""), h("td", { class: "pt" }, h("strong", {}, String(s)))));
  body.append(total, match);
  const wrap = h("div", { class: o.compact ? "sheet compact" : "sheet" },
    h("h2", {}, t("sheet.title", { n: o.handNumber })),
    h("div", { class: "sheet-scroll" }, h("table", {}, h("thead", {}, head), body)));
  if (result.outright !== null && result.outright !== undefined) wrap.append(h("p", { class: "outright" }, t("sheet.outright")));
  return wrap;
}
