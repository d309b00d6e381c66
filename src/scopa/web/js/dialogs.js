// Overlays after a hand (score sheet, revealed seed) and after the match (result, rematch).
import { h } from "./dom.js";
import { ratingText } from "./rating.js";
import { t } from "./i18n.js";
import { renderSheet } from "./sheet.js";
import { seatName, sideName } from "./tableview.js";
import { api } from "./api.js";
import { sideCount } from "./sides.js";
import { currentUser } from "./session.js";

function sideNames(table, rules) {
  const names = [];
  for (let side = 0; side < sideCount(rules, table); side++) names.push(sideName(table, rules, side));
  return names;
}

/** Check the revealed seed against the commitment through the server's verify page. */
function verifyLine(handEnd) {
  if (!handEnd.seed) {  // a duplicate round's deal: other tables are still playing it
    return h("div", { class: "seed-box" },
      h("p", {}, t("sheet.commitment"), ": ", h("code", { class: "hash" }, handEnd.commitment)),
      h("p", { class: "muted small" }, t("sheet.sealed")));
  }
  const out = h("p", { class: "verify-result", "aria-live": "polite" });
  const button = h("button", { type: "button", class: "ghost" }, t("sheet.verify"));
  button.addEventListener("click", async () => {
    try {
      const res = await api.verify(handEnd.verify_url);
      out.textContent = res.ok ? t("sheet.verified") : t("sheet.notVerified");
      out.className = `verify-result ${res.ok ? "ok" : "bad"}`;
    } catch (e) {
      out.textContent = t("error.generic", { msg: e.message });
    }
  });
  return h("div", { class: "seed-box" },
    h("p", {}, t("sheet.seed"), ": ", h("code", { class: "hash" }, handEnd.seed)),
    h("p", { class: "muted small" }, t("sheet.verifyHow")),
    h("div", { class: "row" }, button, out));
}

/** The overlay after a hand and/or after the match. */
export function endDialog(m, actions) {
  const e = m.handEnd;
  const rules = m.view.rules;
  const dialog = h("div", { class: "dialog", role: "dialog", "aria-modal": "true", "aria-label": t("sheet.match") });
  if (e) {
    dialog.append(
      renderSheet(e.result, { rules, names: sideNames(m.table, rules), scores: e.scores, handNumber: e.hand_number }),
      verifyLine(e));
  }
  if (m.matchEnd) {
    dialog.append(matchEndBlock(m, actions));
  } else if (e && m.view.hand_over && m.state && m.state.match_over) {
    dialog.append(h("p", { class: "result", role: "status" }, t("table.matchOver")));
  } else if (e && m.view.hand_over) {
    dialog.append(continueBlock(m, actions));
  } else if (e) {
    dialog.append(h("div", { class: "actions" },
      h("button", { type: "button", class: "primary close", onclick: actions.closeSheet }, t("sheet.close"))));
  }
  return dialog;
}

/** Continue, and who the table is still waiting for (the next hand comes when everyone
 * has pressed Continue, or when the server's pause runs out). */
function continueBlock(m, actions) {
  const seated = m.seat !== null && m.seat !== undefined;
  const acts = h("div", { class: "actions" });
  if (seated) {
    acts.append(h("button", {
      type: "button", class: "primary next", onclick: actions.next, "aria-disabled": m.continued ? "true" : null,
    }, m.continued ? t("sheet.continued") : t("sheet.next")));
  }
  acts.append(h("span", { class: "countdown muted" }, ""));
  const others = m.waitingFor.filter((s) => s !== m.seat).map((s) => seatName(m.table, s));
  const text = others.length ? t("sheet.waitingFor", { names: others.join(", ") }) : "";
  return h("div", { class: "continue" }, acts,
    h("p", { class: "waiting-for", role: "status", dataset: { waiting: m.waitingFor.join(" ") } }, text));
}

function matchEndBlock(m, actions) {
  const e = m.matchEnd;
  const rules = m.view.rules;
  const teams = sideCount(rules, m.table);
  let text;
  if (m.seat !== null && m.seat !== undefined) text = e.winner === m.seat % teams ? t("end.won") : t("end.lost");
  else text = t("end.winner", { name: sideName(m.table, rules, e.winner) });
  const box = h("div", { class: "match-end" }, h("p", { class: "result", role: "status" }, text));
  const acts = h("div", { class: "actions" });
  // an event's table has no rematch: the event pairs the next game (the server refuses one)
  const rematch = !(m.table && m.table.rematch === false);
  if (m.seat !== null && m.seat !== undefined && rematch) {
    acts.append(h("button", { type: "button", class: "primary rematch", onclick: actions.rematch }, t("end.rematch")));
  }
  // a way on from here whatever happens next: the lobby, or back to the table (Escape too)
  const eventId = m.table && m.table.event_id;
  if (m.nextTable) {
    // the event paired this player's next table: one press to sit there
    box.append(h("p", { class: "next-table" }, h("button", { type: "button", class: "primary go-next-table",
      onclick: () => actions.goToEventTable(m.nextTable) }, t("end.nextTable", { r: m.nextTable.round, n: m.nextTable.table }))));
  }
  if (eventId) acts.append(h("a", { href: `/events/${encodeURIComponent(eventId)}`, class: "button ghost to-event" }, t("end.toEvent")));
  acts.append(h("a", { href: "/", class: "button ghost to-lobby" }, t("table.toLobby")),
    h("button", { type: "button", class: "ghost close", onclick: actions.closeSheet }, t("sheet.close")));
  if (m.table && m.table.shared_deals) {
    // a duplicate round: the other tables are still playing these cards
    acts.append(h("span", { class: "muted small sealed-replay" }, t("end.replayAfterRound")));
  } else {
    acts.append(h("a", { href: e.record_url, download: "" }, t("end.record")),
      h("a", { href: `/replay/${encodeURIComponent(e.match_id)}` }, t("end.replay")),
      h("a", { class: "to-review", href: `/replay/${encodeURIComponent(e.match_id)}#review` }, t("review.ask")));
  }
  box.append(acts);
  if (m.ratingChanges && m.ratingChanges.match_id === e.match_id && m.ratingChanges.changes.length) {
    box.append(ratingBlock(m.ratingChanges.changes));
  }
  if (m.seat !== null && m.seat !== undefined && !currentUser()) {
    // a guest keeps this seat and its matches by signing up (the seat token proves it)
    box.append(h("p", { class: "claim-seat" }, h("a", { href: "/account", class: "claim-link" }, t("table.claimLink"))));
  }
  if (!rematch) box.append(h("p", { class: "muted event-next" }, t("end.eventNext")));
  if (m.rematch) {
    box.append(h("p", { class: "muted" }, t("end.votes", { n: m.rematch.votes.length, k: m.rematch.needed.length })));
  }
  return box;
}

/** How the rated match moved each signed-in player's rating (old → new). */
function ratingBlock(changes) {
  const fmt = (x) => ratingText(x);
  const items = changes.map((c) => {
    const delta = c.after - c.before;
    const text = t("end.ratingChange", {
      name: c.name, from: fmt(c.before), to: fmt(c.after), delta: `${delta >= 0 ? "+" : "−"}${fmt(Math.abs(delta))}`,
    });
    return h("li", { class: `rating-change ${delta >= 0 ? "up" : "down"}`, dataset: { seat: String(c.seat) } },
      text, c.abandoned ? h("span", { class: "muted" }, ` · ${t("end.ratingAbandoned")}`) : null);
  });
  return h("section", { class: "rating-changes", "aria-label": t("end.ratings") },
    h("h3", {}, t("end.ratings")), h("ul", {}, items));
}
