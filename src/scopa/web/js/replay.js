// Replay of a finished match, move by move, with each hand's score sheet.
import { h, replace } from "./dom.js";
import { t } from "./i18n.js";
import { setDeckContext } from "./decks/choice.js";
import { api } from "./api.js";
import { sortCards } from "./cards.js";
import { playWords } from "./explain.js";
import { cardEl, pileEl, sweepCards } from "./cardview.js";
import { renderSheet } from "./sheet.js";
import { variantName } from "./variants.js";
import { seatsOf, sideCount } from "./sides.js";
import { createReview, reviewPlayWords } from "./reviewpanel.js";

export function mountReplay(main, matchId) {
  const box = h("section", { class: "replay" });
  main.append(box);
  let data = null;
  let hand = 0;
  let step = 0;
  // a better play shown on the cards (from the review): {hand, step, seat, card, capture}
  let better = null;
  // the match's review (asked on this page), drawn into the list of plays and the side
  const review = createReview(matchId, () => data && render());

  function names(seat) {
    return data.players[seat] || t("seat.name", { n: seat + 1 });
  }

  /** The first side's match margin before hand `number` (over the best other side). */
  function marginBefore(number) {
    const i = data.replay.hands.findIndex((x) => x.number === number);
    const prev = i > 0 ? data.replay.hands[i - 1].scores_after : null;
    return prev ? prev[0] - Math.max(...prev.slice(1)) : 0;
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

  /** A control of the bar: a symbol, and its word (the word alone read out; on a phone
   * only the symbol is shown). */
  function control(cls, symbol, label, to, disabled) {
    return h("button", { type: "button", class: cls, disabled, onclick: () => go(to, cls) },
      h("span", { class: "symbol", "aria-hidden": "true" }, symbol), h("span", { class: "label" }, label));
  }

  function render() {
    const hd = data.replay.hands[hand];
    const pos = hd.positions[Math.min(step, hd.positions.length - 1)];
    const total = hd.moves.length;
    const rules = data.rules;
    const resigned = data.resigned || [];
    const handTabs = h("div", { class: "hand-tabs", role: "tablist" },
      data.replay.hands.map((x, i) => h("button", {
        type: "button", role: "tab", "aria-selected": i === hand ? "true" : "false",
        class: i === hand ? "on" : "", onclick: () => { hand = i; step = 0; render(); },
      }, `${t("replay.hand")} ${x.number}`)));
    // nothing to step through (a match resigned before a card was played): said plainly,
    // the controls shown but off
    const none = total === 0;
    const controls = h("div", { class: "replay-controls", role: "group", "aria-label": t("replay.controls") },
      control("first", "«", t("replay.first"), 0, none || step === 0),
      control("prev", "‹", t("replay.prev"), step - 1, none || step === 0),
      h("span", { class: "counter", "aria-live": "polite" }, t("replay.move", { n: step, k: total })),
      control("next", "›", t("replay.next"), step + 1, none || step >= total),
      control("last", "»", t("replay.last"), total, none || step >= total));
    // the better play, drawn on the position it was open in (the step before the play)
    const shown = better && better.hand === hand && better.step === step ? better : null;
    const seats = h("div", { class: "replay-seats" });
    pos.hands.forEach((cards, seat) => {
      seats.append(h("section", { class: `seat${pos.to_move === seat && step < total ? " to-move" : ""}` },
        h("header", {}, h("span", { class: "name" }, names(seat))),
        h("div", { class: "mini-hand" }, sortCards(cards).map((c) => cardEl(c, {
          extraClass: shown && shown.seat === seat && shown.card === c ? "small better" : "small" }))),
        h("div", { class: "pile" }, pileEl(pos.captured[seat].length,
          sweepCards(hd.moves.slice(0, step), seat, pos.scope[seat])))));
    });
    const felt = h("section", { class: "felt", "aria-label": t("table.table") },
      h("div", { class: "table-cards" }, pos.table.length ? pos.table.map((c) => cardEl(c, {
        extraClass: shown && shown.capture.includes(c) ? "better" : "" })) : h("p", { class: "empty" }, t("table.empty"))));
    const last = step > 0 ? h("p", { class: "last-play" }, moveText(hd.moves[step - 1])) : h("p", { class: "last-play" }, "");
    // the plays of the hand, beside the table: the one shown marked, the last capture so
    // far marked too; each one a step to go to
    let lastCapture = -1;
    hd.moves.slice(0, step).forEach((mv, i) => { if (mv.capture && mv.capture.length) lastCapture = i; });
    const plays = h("ol", { class: "play-list" }, hd.moves.map((mv, i) => h("li", {
      class: [i < step ? "done" : "", i === lastCapture ? "last-capture" : ""].filter(Boolean).join(" ") || null,
    }, h("button", { type: "button", class: "play-step", "aria-current": i === step - 1 ? "step" : null,
      onclick: () => go(i + 1) }, moveText(mv), review.badge(hd.number, i + 1),
    i === lastCapture ? h("span", { class: "capture-mark" }, ` · ${t("replay.lastCapture")}`) : null))));
    // beside the cards: the hand's score, item by item, as the record counted it, then
    // its plays
    const side = h("div", { class: "replay-side" },
      hd.result ? h("section", { class: "card-box replay-score" },
        renderSheet(hd.result, { rules, names: sideNames(rules), scores: hd.scores_after,
          handNumber: hd.number, compact: true })) : null,
      h("section", { class: "card-box replay-plays", "aria-labelledby": "plays-title" },
        h("h2", { id: "plays-title" }, t("replay.plays")),
        none ? h("p", { class: "muted" }, t("replay.noMoves")) : plays),
      review.box(names, (number, index) => {
        hand = Math.max(0, data.replay.hands.findIndex((x) => x.number === number));
        go(index);
      }, { teams: sideCount(rules, data), firstSide: sideNames(rules)[0], before: marginBefore }));
    const showBetter = (seat, move, text) => {
      better = { hand, step: step - 1, seat, text, ...move };
      step -= 1;
      render();
    };
    const betterLine = shown ? h("p", { class: "review-better banner", role: "status" },
      `${t("review.betterShown")}: `, reviewPlayWords(names(shown.seat), shown.text)) : null;
    const board = [last, step > 0 ? review.note(hd.number, step, names, showBetter) : null,
      betterLine, seats, felt];
    if (step >= total && !hd.result && resigned.length) {
      // a resignation ended the match during this hand: no score sheet, say who gave up
      const who = resigned.map((x) => names(x)).join(", ");
      board.push(h("p", { class: "replay-resigned banner" },
        none ? t("replay.resignedEarly", { names: who }) : t("replay.resigned", { names: who })));
    } else if (step >= total && hd.result) {
      board.push(h("p", { class: "muted small" }, t("sheet.seed"), ": ", h("code", { class: "hash" }, hd.seed)));
    }
    const parts = [
      h("h1", {}, `${t("replay.title")}: ${variantName(data.variant)} · ${data.players.join(" – ")} · ${data.scores.join("\u00a0–\u00a0")}`),
      handTabs,
      controls,
      h("div", { class: "replay-layout" }, h("div", { class: "replay-board" }, board), side),
      h("p", {}, h("a", { class: "action-link", href: `/api/matches/${encodeURIComponent(matchId)}/record`, download: "" }, t("end.record"))),
    ];
    replace(box, parts);
  }

  function go(n, from = "next") {
    better = null;
    const total = data.replay.hands[hand].moves.length;
    step = Math.max(0, Math.min(total, n));
    render();
    // the focus stays on the bar: the button pressed, else the nearest one still on
    const order = [`.${from}`, ".next", ".prev", ".first", ".last"];
    const focus = order.map((sel) => box.querySelector(`.replay-controls ${sel}`)).find((b) => b && !b.disabled);
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
    setDeckContext(d.variant, { quiet: true }); // an Escoba match in Spanish cards, unless chosen
    render();
  }).catch((e) => replace(box, h("p", { class: "error" }, t("error.generic", { msg: e.message }))));

  return {
    unmount: () => { document.removeEventListener("keydown", onKey); review.stop(); },
    relang: () => data && render(),
  };
}
