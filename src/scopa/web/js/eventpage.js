// The event page: entrants, each round's pairings with table numbers, the live standings, the
// seeds' commitments (and the seeds once a round is over), the viewer's own table, and the
// organiser's actions. It polls the server every few seconds while it is shown.
import { h, redraw, replace } from "./dom.js";
import { lang, t } from "./i18n.js";
import { api } from "./api.js";
import { currentUser, loadSession } from "./session.js";
import { saveSeat } from "./store.js";
import { navigate } from "./nav.js";
import { variantName } from "./variants.js";
import { auditBox, correctionForm, crosstableBox, resultText, travellersBox } from "./eventextras.js";

const POLL_MS = 3000;
// the bots an organiser may enter (the four levels people play against)
const BOT_LEVELS = ["beginner", "intermediate", "expert", "champion"];

/** The standings as a table (the event page and the big screen). */
export function standingsTable(d, big = false) {
  const dup = d.duplicate;
  const cols = ["#", t("event.entrant"), ...(dup ? [t("event.field")] : []), t("event.mp"),
    t("event.wdl"), t("event.diff"), ...(d.format === "swiss" ? [t("event.buchholz")] : [])];
  const rows = d.standings.map((s) => h("tr", { class: s.withdrawn ? "withdrawn" : null },
    h("td", {}, String(s.rank)), h("td", {}, s.entrant + (s.withdrawn ? ` (${t("event.withdrawn")})` : "")),
    ...(dup ? [h("td", {}, (s.field >= 0 ? "+" : "") + s.field.toFixed(1))] : []),
    h("td", { class: "rating" }, String(s.match_points)),
    h("td", {}, `${s.won}-${s.drawn}-${s.lost}`), h("td", {}, (s.difference > 0 ? "+" : "") + s.difference),
    ...(d.format === "swiss" ? [h("td", {}, String(s.buchholz))] : [])));
  // a phone scrolls the table within its box, never the page sideways
  return h("div", { class: "table-scroll", tabindex: "0", role: "region", "aria-label": t("event.standings") },
    h("table", { class: `stats-table standings${big ? " big" : ""}` },
      h("thead", {}, h("tr", {}, cols.map((c) => h("th", { scope: "col" }, c)))), h("tbody", {}, rows)));
}

export function mountEvent(main, id) {
  const box = h("section", { class: "card-box event-page", "aria-labelledby": "event-title" });
  main.append(box);
  let data = null;
  let seen = "";
  let note = "";
  // the organiser's withdrawal being confirmed (an entrant's name), kept across refreshes
  const ui = { confirming: null, redraw: () => draw() };
  const load = async (force = false) => {
    let fresh;
    try {
      await loadSession();
      fresh = await api.event(id);
    } catch (err) {
      replace(box, h("p", { class: "error" }, err.status === 404 ? t("event.notFound") : t("error.generic", { msg: err.message })));
      return;
    }
    const text = JSON.stringify(fresh);
    if (text === seen && !force) return;  // nothing changed: nothing is drawn again
    seen = text;
    data = fresh;
    draw();
  };
  const act = (fn) => async () => {
    try {
      note = "";
      await fn();
    } catch (err) {
      note = err.message;
    }
    load(true);
  };
  const draw = () => {
    const d = data;
    if (!d) return;
    const me = currentUser();
    const ev = d.event;
    const head = h("div", { class: "event-head" },
      h("h1", { id: "event-title" }, d.name),
      h("p", { class: "muted" }, [t(`event.format.${d.format}`), variantName(d.variant),
        d.target ? t("event.toTarget", { n: d.target }) : t("event.deals", { n: d.deals_per_round || 4 }),
        d.duplicate ? t("event.duplicate") : null, t(`event.mode.${d.mode}`)]
        .filter(Boolean).join(" · "), " ",
      h("span", { class: `event-status status-${d.status}` }, t(`event.status.${d.status}`))),
      // a start is a day and an hour, never seconds
      d.starts_at ? h("p", {}, t("event.startsAt", { when: new Date(d.starts_at).toLocaleString(lang(), {
        weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" }) })) : null);
    const parts = [head];
    if (note) parts.push(h("p", { class: "error", role: "alert" }, note));
    if (d.my_table) {
      parts.push(h("p", { class: "your-table" }, h("button", { type: "button", id: "event-go",
        onclick: act(async () => {
          const seat = await api.eventSeat(id);
          saveSeat(seat.table_id, { token: seat.token, seat: seat.seat, invite: seat.invite });
          navigate(`/t/${encodeURIComponent(seat.table_id)}`);
        }) }, t("event.goToTable", { n: d.my_table.table }))));
    }
    if (d.status === "open" && d.mode === "online") {
      if (!me) parts.push(h("p", {}, h("a", { href: "/account" }, t("event.signInToJoin"))));
      else if (d.entered) parts.push(h("button", { type: "button", id: "event-leave", class: "ghost", onclick: act(() => api.leaveEvent(id)) }, t("event.leave")));
      else parts.push(h("button", { type: "button", class: "primary", id: "event-join", onclick: act(() => api.joinEvent(id)) }, t("event.join")));
    }
    if (d.organiser) parts.push(organiserPanel(d, id, act, ui));
    if (d.duplicate) parts.push(h("p", { class: "muted small duplicate-note" }, t("event.duplicateHelp")));
    parts.push(h("h2", {}, t("event.entrants", { n: d.entrants.length, of: d.capacity })),
      h("ul", { class: "entrants" }, d.entrants.map((n) => h("li", {}, n))));
    if (ev) {
      parts.push(h("h2", {}, t("event.standings")), standingsTable(d),
        h("p", {}, h("a", { class: "action-link", href: `/api/events/${encodeURIComponent(id)}/standings.csv`, download: "", id: "event-csv" }, t("event.csv"))),
        crosstableBox(d));
      for (const r of [...ev.played].reverse()) parts.push(roundBox(d, r, id, act));
      parts.push(auditBox(d));
    }
    redraw(box, ...parts);
  };
  load();
  const timer = setInterval(load, POLL_MS);
  return { unmount: () => clearInterval(timer), relang: draw };
}

function roundBox(d, r, id, act) {
  const organiser = d.organiser && d.status !== "open";
  const travellers = d.duplicate && !d.target && (r.seed || (organiser && d.mode === "paper"))
    ? travellersBox(id, r.number, JSON.stringify(r.tables.map((tb) => tb.result))) : null;
  return h("section", { class: "round", "aria-label": t("event.round", { n: r.number, of: d.rounds }) },
    h("h2", {}, t("event.round", { n: r.number, of: d.rounds })),
    r.ends_at && !r.seed && r.tables.some((tb) => tb.away !== null && !tb.done)
      ? h("p", { class: "round-clock" }, t("event.endsAt", { when: new Date(r.ends_at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }) })) : null,
    h("p", { class: "muted small commitment" }, t("event.commitment"), " ", h("code", {}, r.commitment)),
    r.seed ? h("p", { class: "muted small seed" }, t("event.seed"), " ", h("code", {}, r.seed)) : null,
    h("table", { class: "stats-table pairings" },
      h("thead", {}, h("tr", {}, [t("event.table"), t("event.home"), t("event.away"), t("event.result")]
        .map((c) => h("th", { scope: "col" }, c)))),
      h("tbody", {}, r.tables.map((tb) => h("tr", {},
        h("td", {}, String(tb.number)), h("td", {}, tb.home),
        h("td", {}, tb.away === null ? t("event.bye") : tb.away),
        h("td", {}, resultText(tb.result, tb.done),
          organiser && tb.result && tb.away !== null ? correctionForm(d, id, r.number, tb, act) : null))))),
    travellers,
    h("p", {}, h("a", { class: "action-link", href: `/events/${encodeURIComponent(id)}/print/${r.number}` }, t("event.print"))));
}

function organiserPanel(d, id, act, ui) {
  const ev = d.event;
  const current = ev && ev.played.length ? ev.played[ev.played.length - 1] : null;
  const roundOver = !current || current.tables.every((tb) => tb.away === null || tb.result || tb.done);
  const buttons = [];
  if (d.status !== "finished" && roundOver) {
    buttons.push(h("button", { type: "button", class: "primary", id: "event-start", onclick: act(() => api.startRound(id)) },
      ev ? t("event.nextRound") : t("event.start")));
  }
  const links = [];
  if (d.mode === "paper" && ev) links.push(h("a", { class: "action-link", href: `/events/${encodeURIComponent(id)}/enter` }, t("event.enter")));
  links.push(h("a", { class: "action-link", href: `/events/${encodeURIComponent(id)}/screen` }, t("event.screen")));
  if (ev) links.push(h("a", { class: "action-link", href: `/api/events/${encodeURIComponent(id)}/download`, download: "" }, t("event.download")));
  let bots = null;
  if (d.status === "open" && d.mode === "online") {
    const level = h("select", { id: "bot-level", "aria-label": t("event.botLevel") },
      BOT_LEVELS.map((l) => h("option", { value: l }, t(`level.${l}`))));
    bots = h("p", {}, level, " ", h("button", { type: "button", class: "ghost", id: "event-add-bot",
      onclick: act(() => api.addBot(id, level.value)) }, t("event.addBot")));
  }
  let withdraw = null;
  let swiss = null;
  if (ev && d.status === "running") {
    withdraw = withdrawBox(d, id, act, ui);
    if (d.format === "swiss") swiss = swissBox(d, id, act);
  }
  return h("section", { class: "organiser", "aria-label": t("event.organiser") },
    h("h2", {}, t("event.organiser")), h("p", {}, buttons, " ", links.map((a) => [a, " "])), bots, withdraw, swiss);
}

/** A Swiss event's organiser: an entrant sits the next round out; a paper event takes a
 * late entry while round 1 is played. */
function swissBox(d, id, act) {
  const ev = d.event;
  const next = ev.played.length + 1;
  const out = h("div", { class: "swiss-tools" });
  if (next <= d.rounds) {
    const who = h("select", { id: "sit-out-who", "aria-label": t("event.sitOutWho") },
      ev.entrants.filter((e) => !ev.withdrawn.includes(e.name)).map((e) => h("option", { value: e.name }, e.name)));
    out.append(h("p", { class: "row" }, h("label", { for: "sit-out-who" }, `${t("event.sitOut")} ${next}`), who,
      h("button", { type: "button", class: "ghost", id: "event-sit-out",
        onclick: act(() => api.sitOut(id, who.value, next)) }, t("event.sitOutDo"))));
  }
  const roundOne = ev.played.length === 1 && ev.played[0].tables.some((tb) => tb.away !== null && !tb.done);
  if (d.mode === "paper" && roundOne) {
    const name = h("input", { id: "late-entry-name", maxlength: 24 });
    out.append(h("p", { class: "row" }, h("label", { for: "late-entry-name" }, t("event.lateEntry")), name,
      h("button", { type: "button", class: "ghost", id: "event-late-entry",
        onclick: act(() => api.lateEntry(id, name.value.trim())) }, t("event.lateEntryDo"))));
  }
  return out;
}

/** Withdrawing an entrant: pick, then confirm naming exactly whom (it forfeits their table
 * now); a withdrawal can be undone until the next round is paired. */
function withdrawBox(d, id, act, ui) {
  const ev = d.event;
  const active = ev.entrants.filter((e) => !ev.withdrawn.includes(e.name)).map((e) => e.name);
  const out = h("div", { class: "withdraw" });
  if (ui.confirming && active.includes(ui.confirming)) {
    const who = ui.confirming;
    out.append(h("p", { role: "alert", class: "confirm" }, t("event.withdrawConfirm", { name: who })),
      h("p", { class: "row" },
        h("button", { type: "button", id: "event-withdraw-yes", class: "danger", onclick: act(async () => {
          ui.confirming = null;
          await api.withdraw(id, who, "");
        }) }, t("event.withdrawYes", { name: who })),
        h("button", { type: "button", id: "event-withdraw-no", class: "ghost", onclick: () => {
          ui.confirming = null;
          ui.redraw();
        } }, t("event.cancel"))));
  } else {
    ui.confirming = null;
    const label = h("label", { for: "withdraw-who" }, t("event.withdrawWho"));
    const pick = h("select", { id: "withdraw-who" }, active.map((n) => h("option", { value: n }, n)));
    out.append(h("p", { class: "row" }, label, pick, h("button", { type: "button", class: "ghost", id: "event-withdraw",
      onclick: () => {
        ui.confirming = pick.value;
        ui.redraw();
        const yes = document.getElementById("event-withdraw-yes");
        if (yes) yes.focus();
      } }, t("event.withdraw"))));
  }
  for (const name of d.reinstatable || []) {
    out.append(h("p", { class: "row undo" }, t("event.withdrewNote", { name }), " ",
      h("button", { type: "button", class: "ghost undo-withdraw", "data-entrant": name,
        onclick: act(() => api.reinstate(id, name, "")) }, t("event.undoWithdraw", { name }))));
  }
  return out;
}
