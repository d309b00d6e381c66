// The rules page's facts, drawn from /api/meta (the seatings and deals the server declares)
// so the page and the lobby never disagree: player counts, targets, deal tables, the seat
// layouts of team games; and its example cards, drawn in the chosen deck.
import { api } from "./api.js";
import { h, s } from "./dom.js";
import { joinWords, t } from "./i18n.js";
import { cardEl } from "./cardview.js";
import { deckPicker } from "./decks/picker.js";

let metaOnce = null;

function meta() {
  metaOnce = metaOnce || api.meta().catch((e) => {
    metaOnce = null;
    throw e;
  });
  return metaOnce;
}

/** "3 cards, six times", "3, then 4", "10 at once". */
export function dealWords(rounds) {
  if (rounds.every((n) => n === rounds[0])) {
    return rounds.length === 1 ? t("rules.deal.once", { cards: rounds[0] })
      : t("rules.deal.times", { cards: rounds[0], n: rounds.length });
  }
  return joinWords(rounds.map(String));
}

function sidesWords(players, sides) {
  return sides === players ? t("lobby.teams.each") : t("lobby.teams.n", { n: sides, k: players / sides });
}

function dealTable(variant) {
  const rows = variant.players.map((p) => {
    const deal = variant.deals[String(p)];
    return h("tr", { dataset: { players: p } },
      h("th", { scope: "row" }, String(p)),
      h("td", {}, variant.teams[String(p)].map((n) => sidesWords(p, n)).join(" / ")),
      h("td", {}, String(deal.table)),
      h("td", {}, dealWords(deal.rounds)));
  });
  return h("table", { class: "deal-table" },
    h("thead", {}, h("tr", {},
      ...["lobby.players", "lobby.teams", "rules.col.table", "rules.col.hands"].map((k) => h("th", { scope: "col" }, t(k))))),
    h("tbody", {}, ...rows));
}

const SIDE_COLOURS = ["#b3261e", "#1f4e9a", "#8a5a00", "#2d6a1f", "#6b3fa0", "#444"];

/** Seats around a table, numbered in playing order and coloured by side (seat s plays
 * for side s % sides), with the partners spelled out below. */
function layout(players, sides) {
  const parts = [s("circle", { cx: 60, cy: 60, r: 34, fill: "#1f5e3b", stroke: "#7a4f2a", "stroke-width": 5 })];
  for (let seat = 0; seat < players; seat++) {
    // seat 1 at the bottom, play going round to the right (anticlockwise), as at a real table
    const a = Math.PI / 2 - (2 * Math.PI * seat) / players;
    const x = 60 + 46 * Math.cos(a), y = 60 + 46 * Math.sin(a);
    parts.push(
      s("circle", { cx: x, cy: y, r: 11, fill: SIDE_COLOURS[seat % sides], stroke: "#fff", "stroke-width": 2 }),
      s("text", { x, y: y + 5, "text-anchor": "middle", "font-size": 14, "font-weight": 700, fill: "#fff" }, String(seat + 1)),
    );
  }
  const groups = [];
  for (let side = 0; side < sides; side++) {
    const seats = [];
    for (let seat = side; seat < players; seat += sides) seats.push(String(seat + 1));
    groups.push(joinWords(seats));
  }
  return h("figure", { class: "seat-layout", dataset: { players, sides } },
    s("svg", { viewBox: "0 0 120 120", width: 120, height: 120, "aria-hidden": "true", focusable: "false" }, ...parts),
    h("figcaption", {},
      h("strong", {}, t("rules.layout", { players, sides: sidesWords(players, sides) })), " ",
      t("rules.partners", { groups: groups.join(" · ") })));
}

function layouts(m) {
  const seen = new Set();
  const out = [];
  for (const v of m.variants) {
    for (const p of v.players) {
      for (const n of v.teams[String(p)]) {
        const key = `${p}/${n}`;
        if (n < p && !seen.has(key)) {
          seen.add(key);
          out.push([p, n]);
        }
      }
    }
  }
  out.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  return h("div", { class: "seat-layouts" }, ...out.map(([p, n]) => layout(p, n)));
}

/** Fill the [data-meta], [data-cards] and [data-deck-picker] places of a loaded page. */
export async function fillFacts(box) {
  for (const el of box.querySelectorAll("[data-cards]")) {
    el.replaceChildren(...el.dataset.cards.split(" ").map((c) => cardEl(c, { extraClass: "small" })));
  }
  for (const el of box.querySelectorAll("[data-deck-picker]")) el.replaceChildren(deckPicker());
  const places = box.querySelectorAll("[data-meta]");
  if (!places.length) return;
  let m;
  try {
    m = await meta();
  } catch (e) {
    // the page still reads without its tables; say what is missing where they go
    for (const el of places) {
      if (el.tagName === "DIV") el.replaceChildren(h("p", { class: "error" }, t("error.generic", { msg: e.message })));
    }
    return;
  }
  const variants = Object.fromEntries(m.variants.map((v) => [v.name, v]));
  for (const el of places) {
    const v = variants[el.dataset.variant || "scopa"];
    const what = el.dataset.meta;
    if (what === "players") el.textContent = joinWords(v.players.map(String));
    else if (what === "target") el.textContent = String(v.target);
    else if (what === "deals") el.replaceChildren(dealTable(v));
    else if (what === "layouts") el.replaceChildren(layouts(m));
  }
}
