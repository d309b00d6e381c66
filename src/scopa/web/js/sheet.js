// The score sheet of a hand: every item per side, so a player sees where each point came from.
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { cardEl } from "./cardview.js";

function has(rules, option, variants) {
  if (rules[option] !== undefined) return Boolean(rules[option]);
  return variants.includes(rules.variant);
}

/** Which items this variant scores. */
export function sheetItems(rules) {
  const items = ["cards", "coins", "settebello"];
  if (rules.primiera !== undefined ? rules.primiera : rules.variant !== "escoba") items.push("primiera");
  if (has(rules, "sevens", ["escoba"])) items.push("sevens");
  items.push("scope");
  if (has(rules, "napola", ["napola"])) items.push("napola");
  if (has(rules, "re_bello", ["re-bello"])) items.push("re_bello");
  return items;
}

function detail(item, side) {
  switch (item) {
    case "cards": return String(side.cards);
    case "coins": return String(side.coins);
    case "settebello": return side.settebello ? cardEl("7d", { extraClass: "tiny" }) : "–";
    case "sevens": return String(side.sevens);
    case "scope": return String(side.scope);
    case "napola": return side.napola_run ? napolaRun(side.napola_run) : "–";
    case "re_bello": return side.re_bello ? "✓" : "–";
    case "primiera": {
      if (side.primiera === null || side.primiera === undefined) return h("span", { class: "muted" }, t("sheet.none"));
      return h("span", { class: "prim" },
        h("span", { class: "prim-cards" }, side.primiera_cards.map((c) => cardEl(c, { extraClass: "tiny" }))),
        h("strong", {}, String(side.primiera)));
    }
    default: return "";
  }
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
 * @param {object} result  HandResult {sides: [...], outright}
 * @param {object} o  {rules, names: [side name], scores: match totals after the hand, handNumber}
 */
export function renderSheet(result, o) {
  const items = sheetItems(o.rules);
  const head = h("tr", {}, h("th", { scope: "col" }, h("span", { class: "sr-only" }, t("sheet.item"))));
  for (const name of o.names) head.append(h("th", { scope: "col", colspan: 2 }, name));
  const body = h("tbody", {});
  for (const item of items) {
    const row = h("tr", { dataset: { item } }, h("th", { scope: "row" }, t(`sheet.${item}`)));
    for (const side of result.sides) {
      row.append(h("td", { class: "detail" }, detail(item, side)), pointCell(side.points[item === "napola" ? "napola" : item] || 0));
    }
    body.append(row);
  }
  const total = h("tr", { class: "total" }, h("th", { scope: "row" }, t("sheet.hand")));
  for (const side of result.sides) total.append(h("td", {}, ""), h("td", { class: "pt" }, String(side.total)));
  const match = h("tr", { class: "match" }, h("th", { scope: "row" }, t("sheet.match")));
  (o.scores || []).forEach((s) => match.append(h("td", {}, ""), h("td", { class: "pt" }, h("strong", {}, String(s)))));
  body.append(total, match);
  const wrap = h("div", { class: "sheet" },
    h("h2", {}, t("sheet.title", { n: o.handNumber })),
    h("div", { class: "sheet-scroll" }, h("table", {}, h("thead", {}, head), body)));
  if (result.outright !== null && result.outright !== undefined) wrap.append(h("p", { class: "outright" }, t("sheet.outright")));
  return wrap;
}
