// The event page's reference parts: the crosstable (each entrant's rounds), a duplicate
// round's travellers (every table's points on the same cards, and the deal's hands), the
// organiser's log of corrections and withdrawals, and the form that corrects a result.
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { api } from "./api.js";

/** A table's result as a line: "21–5", each deal's points summed, or a forfeit (of one
 * entrant, or of both). */
export function resultText(result, done = false) {
  if (!result) return done ? t("event.sealedResult") : "";
  if (result.forfeit) return t("event.forfeit", { name: result.forfeit });
  if (result.double_forfeit) return t("event.doubleForfeit");
  const pts = result.score || (result.deals || []).reduce((a, d) => [a[0] + d[0], a[1] + d[1]], [0, 0]);
  const extra = result.decider && result.decider.length ? ` (${t("event.decider")})` : "";
  return `${pts[0]}–${pts[1]}${extra}`;
}

/** One round of an entrant as a short cell: "W 6–4 v Bruno (h)". */
function gameCell(g) {
  if (g.how === "bye") return t("event.bye");
  if (g.how === "rest") return t("event.rest", { n: g.match_points });
  const mark = g.match_points === 2 ? "W" : g.match_points === 1 ? "D" : "L";
  const side = g.home ? t("event.homeShort") : t("event.awayShort");
  const how = g.how === "played" ? `${g.points_for}–${g.points_against}`
    : g.how === "forfeit" ? t("event.forfeitShort") : t("event.doubleForfeitShort");
  return `${mark} ${how} ${t("event.versus", { name: g.opponent })} (${side})`;
}

/** Each entrant in standings order with its rounds, one column a round. */
export function crosstableBox(d) {
  const rows = d.crosstable || [];
  if (!rows.length) return null;
  const rounds = Math.max(0, ...rows.flatMap((r) => r.games.map((g) => g.round)));
  const head = ["#", t("event.entrant"), ...Array.from({ length: rounds }, (_, i) => t("event.roundShort", { n: i + 1 })), t("event.mp")];
  return h("details", { id: "crosstable", class: "crosstable" },
    h("summary", {}, t("event.crosstable")),
    h("div", { class: "table-scroll", tabindex: "0", role: "region", "aria-label": t("event.crosstable") },
      h("table", { class: "stats-table" },
        h("thead", {}, h("tr", {}, head.map((c) => h("th", { scope: "col" }, c)))),
        h("tbody", {}, rows.map((r) => h("tr", {},
          h("td", {}, String(r.rank)), h("th", { scope: "row" }, r.entrant),
          Array.from({ length: rounds }, (_, i) => {
            const g = r.games.find((x) => x.round === i + 1);
            return h("td", {}, g ? gameCell(g) : "–");
          }),
          h("td", { class: "rating" }, String(r.match_points))))))));
}

const travellerCache = new Map();

/** A duplicate round's travellers, fetched when opened (a finished round's never change
 * unless a result is corrected: the page's data then differs and the cache is dropped). */
export function travellersBox(id, round, version) {
  const key = `${id}/${round}/${version}`;
  const body = h("div", { class: "travellers-body" });
  const box = h("details", { id: `travellers-${round}`, class: "travellers" },
    h("summary", {}, t("event.travellers")), body);
  const fill = (data) => body.replaceChildren(...data.deals.map(dealBox));
  if (travellerCache.has(key)) fill(travellerCache.get(key));
  box.addEventListener("toggle", async () => {
    if (!box.open || travellerCache.has(key)) return;
    try {
      const data = await api.travellers(id, round);
      travellerCache.set(key, data);
      fill(data);
    } catch (err) {
      body.replaceChildren(h("p", { class: "error" }, t("error.generic", { msg: err.message })));
    }
  });
  return box;
}

function dealBox(deal) {
  const cards = deal.cards;
  return h("section", { class: "traveller", "aria-label": t("event.dealN", { n: deal.deal + 1 }) },
    h("h4", {}, t("event.dealN", { n: deal.deal + 1 })),
    h("div", { class: "table-scroll" }, h("table", { class: "stats-table" },
      h("thead", {}, h("tr", {}, [t("event.home"), t("event.away"), t("event.result"), t("event.field")]
        .map((c) => h("th", { scope: "col" }, c)))),
      h("tbody", {}, deal.tables.map((r) => h("tr", {},
        h("td", {}, r.home), h("td", {}, r.away), h("td", {}, `${r.home_points}–${r.away_points}`),
        h("td", {}, `${r.field >= 0 ? "+" : ""}${r.field.toFixed(1)}`)))))),
    cards ? h("ul", { class: "hands" },
      cards.hands.map((hand) => h("li", {},
        h("strong", {}, `${hand.side === "home" ? t("event.home") : t("event.away")}${hand.leads ? ` (${t("event.leads")})` : ""}: `),
        hand.cards.join(" "))),
      h("li", {}, h("strong", {}, `${t("event.tableCards")}: `), cards.table.join(" "))) : null);
}

/** The organiser's changes, newest first: corrections (before and after) and
 * withdrawals, with their notes. */
export function auditBox(d) {
  const entries = (d.event && d.event.audit) || [];
  if (!entries.length) return null;
  return h("section", { class: "audit", "aria-labelledby": "audit-title" },
    h("h2", { id: "audit-title" }, t("event.audit")),
    h("ul", {}, [...entries].reverse().map((a) => {
      const where = a.table ? t("event.roundTable", { r: a.round, n: a.table }) : "";
      const change = a.before || a.after ? `${resultText(a.before) || "–"} → ${resultText(a.after) || "–"}` : "";
      return h("li", {}, [t(`event.audit.${a.action}`, { name: a.entrant || "" }), where, change, a.note ? `“${a.note}”` : ""]
        .filter(Boolean).join(" · "));
    })));
}

/** A table's score boxes, home then away on each row: one row a deal (or one for the
 * match's score when `deals` is 0), each box with an id from `idPrefix` (so a redraw keeps
 * what was typed), a value from `values` ({deals} or {score}) and its label from
 * `aria(label, who)`. Returns the rows and the [home, away] boxes. */
export function scoreRows(table, deals, idPrefix, values, aria) {
  const boxes = [];
  const rows = [];
  for (const i of deals ? Array.from({ length: deals }, (_, k) => k) : [null]) {
    const label = i === null ? t("event.score") : t("event.dealN", { n: i + 1 });
    const given = (i === null ? values.score : (values.deals || [])[i]) || ["", ""];
    const mk = (side, who, value) => h("input", { type: "number", inputmode: "numeric", min: 0, max: 1000,
      required: true, id: `${idPrefix}-${i === null ? "score" : i}-${side}`, value: String(value),
      "aria-label": aria(label, who) });
    const home = mk("home", table.home, given[0]);
    const away = mk("away", table.away, given[1]);
    boxes.push([home, away]);
    rows.push(h("div", { class: "score-row" }, h("span", {}, label), home, h("span", {}, "–"), away));
  }
  return { rows, boxes };
}

/** The organiser's correction of one table's result: each deal's points (or the match's
 * score), home first, labelled with the names, and a note for the log. */
export function correctionForm(d, id, round, table, act) {
  const deals = d.target ? 0 : d.deals_per_round || 4;
  const { rows, boxes: inputs } = scoreRows(table, deals, `correct-${round}-${table.number}`,
    table.result || {}, (label, who) => `${label}: ${who}`);
  const note = h("input", { type: "text", maxlength: 200, required: true, "aria-label": t("event.correctionNote"),
    id: `correct-${round}-${table.number}-note`,
    placeholder: t("event.correctionNote") });
  const form = h("form", { class: "correct-form", id: `correct-${round}-${table.number}` },
    h("p", { class: "sides" }, t("event.homeIs", { name: table.home }), " · ", t("event.awayIs", { name: table.away })),
    rows, note, h("button", { type: "submit", class: "primary" }, t("event.correctSave")));
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const nums = inputs.map(([a, b]) => [Number(a.value), Number(b.value)]);
    const body = deals ? { deals: nums, note: note.value } : { score: nums[0], note: note.value };
    act(() => api.correctResult(id, round, table.number, body))();
  });
  return h("details", { class: "correct", id: `correct-box-${round}-${table.number}` },
    h("summary", {}, t("event.correct")), form);
}
