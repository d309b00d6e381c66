// Replay of a finished match, move by move, with each hand's score sheet.
import { h, replace } from "./dom.js";
import { t } from "./i18n.js";
import { api } from "./api.js";
import { sortCards } from "./cards.js";
import { playWords } from "./explain.js";
import { cardEl } from "./cardview.js";
import { renderSheet } from "./sheet.js";
import { variantName } from "./variants.js";
import { seatsOf, sideCount } from "./sides.js";

export function mountReplay(main, matchId) {
  const box = h("section", { class: "replay" });
  main.append(box);
  let data = null;
  let hand = 0;
  let step = 0;

  function names(seat) {
    return data.players[seat] || t("seat.name", { n: seat + 1 });
  }

  function sideNames(rules) {
    const out = [];
    for (let side = 0; side < sideCount(rules, data); side++) {
      out.push(seatsOf(side, rules, data).map(names).join(" & "));
    }
    return out;
  }

  function moveText(mv) {
    const who = names(mv.seat);
    if ("declare" in mv) return `${who}: ${t(mv.declare ? "table.declare" : "table.pass")}`;
    if (!mv.card) return `${who}: ${t("table.sweep")}`;
    return playWords(who, mv);
  }

  function render() {
    const hd = data.replay.hands[hand];
    const pos = hd.positions[Math.min(step, hd.positions.length - 1)];
    const total = hd.moves.length;
    const rules = data.rules;
    const handTabs = h("div", { class: "hand-tabs", role: "tablist" },
      data.replay.hands.map((x, i) => h("button", {
        type: "button", role: "tab", "aria-selected": i === hand ? "true" : "false",
        class: i === hand ? "on" : "", onclick: () => { hand = i; step = 0; render(); },
      }, `${t("replay.hand")} ${x.number}`)));
    const controls = h("div", { class: "replay-controls" },
      h("button", { type: "button", class: "first", onclick: () => go(0) }, t("replay.first")),
      h("button", { type: "button", class: "prev", onclick: () => go(step - 1) }, t("replay.prev")),
      h("span", { class: "counter", "aria-live": "polite" }, t("replay.move", { n: step, k: total })),
      h("button", { type: "button", class: "next", onclick: () => go(step + 1) }, t("replay.next")),
      h("button", { type: "button", class: "last", onclick: () => go(total) }, t("replay.last")));
    const seats = h("div", { class: "replay-seats" });
    pos.hands.forEach((cards, seat) => {
      seats.append(h("section", { class: `seat${pos.to_move === seat && step < total ? " to-move" : ""}` },
        h("header", {}, h("span", { class: "name" }, names(seat))),
        h("div", { class: "mini-hand" }, sortCards(cards).map((c) => cardEl(c, { extraClass: "small" }))),
        h("p", { class: "pile-count" }, t("table.pile", { n: pos.captured[seat].length }),
          pos.scope[seat] ? ` · ${t("table.sweeps", { n: pos.scope[seat] })}` : "")));
    });
    const felt = h("section", { class: "felt", "aria-label": t("table.table") },
      h("div", { class: "table-cards" }, pos.table.length ? pos.table.map((c) => cardEl(c)) : h("p", { class: "empty" }, t("table.empty"))));
    const last = step > 0 ? h("p", { class: "last-play" }, moveText(hd.moves[step - 1])) : h("p", { class: "last-play" }, "");
    const parts = [
      h("h1", {}, `${t("replay.title")}: ${variantName(data.variant)} · ${data.players.join(" – ")} · ${data.scores.join(" – ")}`),
      handTabs, controls, last, seats, felt,
    ];
    const resigned = data.resigned || [];
    if (step >= total && !hd.result && resigned.length) {
      // a resignation ended the match during this hand: no score sheet, say who gave up
      parts.push(h("p", { class: "replay-resigned" },
        t("replay.resigned", { names: resigned.map((s) => names(s)).join(", ") })));
    } else if (step >= total && hd.result) {
      parts.push(renderSheet(hd.result, { rules, names: sideNames(rules), scores: hd.scores_after, handNumber: hd.number }));
      parts.push(h("p", { class: "muted small" }, t("sheet.seed"), ": ", h("code", { class: "hash" }, hd.seed)));
    }
    parts.push(h("p", {}, h("a", { class: "action-link", href: `/api/matches/${encodeURIComponent(matchId)}/record`, download: "" }, t("end.record"))));
    replace(box, parts);
  }

  function go(n) {
    const total = data.replay.hands[hand].moves.length;
    step = Math.max(0, Math.min(total, n));
    render();
    const focus = box.querySelector(n > step ? ".last" : ".next");
    if (focus && document.activeElement === document.body) focus.focus();
  }

  function onKey(e) {
    if (!data || e.target.closest("input, select, textarea")) return;
    if (e.key === "ArrowRight") go(step + 1);
    else if (e.key === "ArrowLeft") go(step - 1);
  }
  document.addEventListener("keydown", onKey);

  api.match(matchId).then((d) => {
    data = d;
    render();
  }).catch((e) => replace(box, h("p", { class: "error" }, t("error.generic", { msg: e.message }))));

  return {
    unmount: () => document.removeEventListener("keydown", onKey),
    relang: () => data && render(),
  };
}
