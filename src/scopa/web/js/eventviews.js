// An event's other views: a round's pairings to print (table numbers; in a duplicate event each
// deal's cards per table, once they may be shown), the organiser's results entry for a paper
// event (sized for a phone), and the big screen's standings, refreshed live.
import { h, redraw, replace } from "./dom.js";
import { t } from "./i18n.js";
import { api } from "./api.js";
import { loadSession } from "./session.js";
import { standingsTable } from "./eventpage.js";
import { resultText, scoreRows } from "./eventextras.js";

const SCREEN_MS = 5000;

function failed(box, err) {
  replace(box, h("p", { class: "error" }, t("error.generic", { msg: err.message })));
}

/** /events/<id>/print/<round>: one printed page for the round. */
export function mountPrint(main, id, round) {
  const box = h("section", { class: "print-round", "aria-labelledby": "print-title" });
  main.append(box);
  const draw = async () => {
    let d;
    try {
      await loadSession();
      d = await api.printRound(id, round);
    } catch (err) {
      failed(box, err);
      return;
    }
    const deals = (tb) => tb.deals ? h("div", { class: "boards" }, tb.deals.map((deal) =>
      h("div", { class: "board" }, h("strong", {}, t("event.dealN", { n: deal.deal })),
        h("p", {}, `${t("event.home")}: ${deal.home.join(" ")}`),
        h("p", {}, `${t("event.away")}: ${deal.away.join(" ")}`),
        h("p", {}, `${t("event.tableCards")}: ${deal.table.join(" ") || "—"}`),
        h("p", { class: "deck" }, `${t("event.deck")}: ${deal.deck.join(" ")}`)))) : null;
    replace(box, h("h1", { id: "print-title" }, d.event),
      h("h2", {}, t("event.round", { n: d.round, of: d.rounds })),
      h("p", { class: "small" }, t("event.commitment"), " ", h("code", {}, d.commitment)),
      d.seed ? h("p", { class: "small" }, t("event.seed"), " ", h("code", {}, d.seed)) : null,
      h("ol", { class: "print-tables" }, d.tables.map((tb) => h("li", { class: "print-table" },
        h("span", { class: "table-no" }, t("event.tableN", { n: tb.number })), " ",
        h("span", {}, tb.away === null ? `${tb.home} — ${t("event.bye")}` : `${tb.home} v ${tb.away}`),
        deals(tb)))),
      d.duplicate && !d.tables.some((tb) => tb.deals) ? h("p", { class: "muted small no-print" }, t("event.dealsLater")) : null,
      h("p", { class: "no-print" }, h("button", { type: "button", onclick: () => window.print() }, t("event.printNow"))));
  };
  draw();
  return { relang: draw };
}

/** /events/<id>/enter: a paper event's results, one table at a time, on a phone. */
export function mountEnter(main, id) {
  const box = h("section", { class: "card-box enter-results", "aria-labelledby": "enter-title" });
  main.append(box);
  let note = "";
  // tables whose result waits for the opponents' check (the event asks for it): the body
  const checking = new Map();
  const draw = async () => {
    let d;
    try {
      await loadSession();
      d = await api.event(id);
    } catch (err) {
      failed(box, err);
      return;
    }
    const ev = d.event;
    const rnd = ev && ev.played.length ? ev.played[ev.played.length - 1] : null;
    if (!rnd) {
      replace(box, h("h1", { id: "enter-title" }, d.name), h("p", {}, t("event.notStarted")));
      return;
    }
    const deals = d.target ? 0 : d.deals_per_round || 4;
    const forms = rnd.tables.filter((tb) => tb.away !== null).map((tb) => {
      if (tb.result) {
        return h("li", { class: "entered" }, t("event.tableN", { n: tb.number }), `: ${tb.home} v ${tb.away} `,
          h("strong", {}, resultText(tb.result)));
      }
      const { rows, boxes } = scoreRows(tb, deals, `enter-${rnd.number}-${tb.number}`, {},
        (label, who) => `${t("event.tableN", { n: tb.number })} ${label} ${who}`);
      const pending = checking.get(tb.number);
      const save = async (body) => {
        checking.delete(tb.number);
        try {
          await api.enterResult(id, rnd.number, tb.number, body);
          note = "";
        } catch (err) {
          note = err.message;
        }
        draw();
      };
      const submit = async (e) => {
        e.preventDefault();
        const pts = boxes.map(([home, away]) => [Number(home.value), Number(away.value)]);
        const body = deals ? { deals: pts } : { score: pts[0] };
        if (!d.confirm_results) return save(body);
        checking.set(tb.number, body);  // the opponents read it back first
        draw();
      };
      if (pending) {
        const sum = deals ? pending.deals.reduce((a, x) => [a[0] + x[0], a[1] + x[1]], [0, 0]) : pending.score;
        return h("li", {}, h("div", { class: "enter-table confirm-result", role: "group", "aria-labelledby": `check-${tb.number}` },
          h("h2", { id: `check-${tb.number}` }, t("event.tableN", { n: tb.number })),
          h("p", { class: "readback" }, t("event.readBack", { home: tb.home, away: tb.away, h: sum[0], a: sum[1] })),
          deals ? h("p", { class: "muted" }, pending.deals.map((x, i) => `${t("event.dealN", { n: i + 1 })}: ${x[0]}–${x[1]}`).join(" · ")) : null,
          h("p", {}, t("event.opponentsConfirm", { away: tb.away })),
          h("div", { class: "row" },
            h("button", { type: "button", class: "primary", id: `confirm-${tb.number}`, onclick: () => save(pending) }, t("event.confirmSave")),
            h("button", { type: "button", class: "ghost", onclick: () => { checking.delete(tb.number); draw(); } }, t("event.change")))));
      }
      return h("li", {}, h("form", { class: "enter-table", onsubmit: submit },
        h("h2", {}, t("event.tableN", { n: tb.number })),
        // which box is whose, above the boxes: a score the wrong way round is easy otherwise
        h("div", { class: "score-row score-head", "aria-hidden": "true" }, h("span", {}),
          h("span", { class: "side home" }, `${t("event.home")}: ${tb.home}`), h("span", {}),
          h("span", { class: "side away" }, `${t("event.away")}: ${tb.away}`)),
        rows, h("button", { type: "submit", class: "primary" }, d.confirm_results ? t("event.checkFirst") : t("event.save"))));
    });
    redraw(box, h("h1", { id: "enter-title" }, d.name),
      h("p", {}, t("event.round", { n: rnd.number, of: d.rounds })),
      note ? h("p", { class: "error", role: "alert" }, note) : null,
      h("ul", { class: "enter-list" }, forms),
      h("p", {}, h("a", { class: "action-link", href: `/events/${encodeURIComponent(id)}` }, t("event.back"))));
  };
  draw();
  return { relang: draw };
}

/** /events/<id>/screen: the standings and the round's tables, big, refreshed live. */
export function mountScreen(main, id) {
  const box = h("section", { class: "big-screen", "aria-labelledby": "screen-title" });
  main.append(box);
  const draw = async () => {
    let d;
    try {
      d = await api.event(id);
    } catch (err) {
      failed(box, err);
      return;
    }
    const ev = d.event;
    const rnd = ev && ev.played.length ? ev.played[ev.played.length - 1] : null;
    redraw(box, h("h1", { id: "screen-title" }, d.name),
      rnd ? h("h2", {}, t("event.round", { n: rnd.number, of: d.rounds })) : h("p", {}, t("event.notStarted")),
      d.standings.length ? standingsTable(d, true) : null,
      rnd ? h("ul", { class: "screen-tables" }, rnd.tables.map((tb) => h("li", {},
        `${t("event.tableN", { n: tb.number })}: ${tb.home} v ${tb.away === null ? t("event.bye") : tb.away} `,
        h("strong", {}, resultText(tb.result, tb.done))))) : null);
  };
  draw();
  const timer = setInterval(draw, SCREEN_MS);
  return { unmount: () => clearInterval(timer), relang: draw };
}
