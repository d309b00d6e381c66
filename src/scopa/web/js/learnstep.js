// One step of a lesson, drawn and answered: a position where the learner makes the play
// (a hand card, then the table cards it takes, then Play: the same cards as the table's),
// a finished hand's piles to count, or the guided first deal against a bot.
import { h, replace } from "./dom.js";
import { t } from "./i18n.js";
import { cardEl } from "./cardview.js";
import { describeMove } from "./choose.js";
import { sortCards, SUITS, parseCard } from "./cards.js";
import { judgePlay, say } from "./lessons.js";
import { api } from "./api.js";
import { saveSeat, saveSetting, nickname } from "./store.js";
import { navigate } from "./nav.js";

/**
 * Draw `step` into `box`. `onRight()` is called once the learner got it right (the page
 * then offers the way on); a wrong answer shows its word and leaves the step open.
 */
export function drawStep(box, step, lesson, onRight) {
  if (step.kind === "play") return playStep(box, step, onRight);
  if (step.kind === "count") return countStep(box, step, lesson, onRight);
  if (step.kind === "declare") return declareStep(box, step, onRight);
  return dealStep(box, step, lesson, onRight);
}

/** The right/wrong word under a step, read out (role=status). */
function feedbackEl() {
  return h("div", { class: "learn-feedback", role: "status", "aria-live": "polite" });
}

function showFeedback(el, right, text) {
  el.className = `learn-feedback ${right ? "right" : "wrong"}`;
  replace(el, h("strong", {}, right ? t("learn.right") : t("learn.wrong")), " ", text);
  // on a phone the word lands under the cards: bring it into sight
  if (el.scrollIntoView) el.scrollIntoView({ block: "nearest" });
}

// ---- a play: the table, the hand, Play
function playStep(box, step, onRight) {
  const sel = { card: null, capture: [] };
  let solved = false;
  const feedback = feedbackEl();
  const board = h("div", { class: "learn-board" });
  const hint = h("p", { class: "learn-hint" });
  const play = h("button", { type: "button", class: "primary learn-play" }, t("learn.play"));
  const clear = h("button", { type: "button", class: "ghost learn-clear" }, t("learn.clear"));

  function draw() {
    const felt = h("section", { class: "felt", "aria-label": t("learn.table") });
    const row = h("div", { class: "table-cards" });
    for (const c of step.table) {
      const on = sel.capture.includes(c);
      row.append(cardEl(c, {
        pressed: on, extraClass: on ? "taken" : "",
        onclick: solved ? undefined : () => toggleTable(c),
      }));
    }
    if (!step.table.length) row.append(h("p", { class: "empty" }, t("table.empty")));
    felt.append(row);
    const many = step.hand.length > 5 ? " many" : "";
    const hand = h("div", { class: `hand${solved ? "" : " active"}${many}`, role: "group", "aria-label": t("learn.hand") });
    for (const c of sortCards(step.hand)) {
      const on = sel.card === c;
      hand.append(cardEl(c, { pressed: on, extraClass: on ? "selected" : "", onclick: solved ? undefined : () => pickCard(c) }));
    }
    hint.textContent = solved ? "" : !sel.card ? t("learn.pick")
      : `${describeMove(sel, t)}. ${step.table.length ? t("learn.pickTable") : ""}`.trim();
    play.disabled = solved || !sel.card;
    clear.hidden = solved;
    play.hidden = solved;
    replace(board, felt, h("div", { class: "my-hand" }, hand), hint, h("div", { class: "actions learn-actions" }, play, clear));
  }

  function pickCard(c) {
    sel.card = sel.card === c ? null : c;
    if (!sel.card) sel.capture = [];
    draw();
    focusCard(board, ".hand", c);
  }

  function toggleTable(c) {
    if (!sel.card) {
      hint.textContent = t("learn.pickFirst");
      return;
    }
    sel.capture = sel.capture.includes(c) ? sel.capture.filter((x) => x !== c) : [...sel.capture, c];
    draw();
    focusCard(board, ".table-cards", c);
  }

  play.addEventListener("click", () => {
    if (!sel.card) return;
    const verdict = judgePlay(step, { card: sel.card, capture: sel.capture });
    showFeedback(feedback, verdict.right, verdict.text);
    if (verdict.right) {
      solved = true;
      draw();
      onRight();
    }
  });
  clear.addEventListener("click", () => {
    sel.card = null;
    sel.capture = [];
    feedback.className = "learn-feedback";
    feedback.replaceChildren();
    draw();
  });
  draw();
  replace(box, h("p", { class: "learn-task", tabindex: "-1" }, say(step.task)), board, feedback);
}

/** Keep the focus on the card just pressed (the row is drawn anew). */
function focusCard(root, rowSel, c) {
  const el = root.querySelector(`${rowSel} [data-card="${c}"]`);
  if (el) el.focus();
}

// ---- counting: the piles, then a question with a few answers
function seatNames(players) {
  if (players === 2) return [t("learn.yourPile"), t("learn.botPile")];
  return [t("learn.yourPile"), t("learn.seatRight"), t("learn.seatPartner"), t("learn.seatLeft")];
}

/** Cards in suit order then rank, as a player lays a pile out to count it. */
function bySuit(cards) {
  return [...cards].sort((a, b) => {
    const x = parseCard(a);
    const y = parseCard(b);
    return SUITS.indexOf(x.suit) - SUITS.indexOf(y.suit) || x.rank - y.rank;
  });
}

function pileView(name, cards, sweeps) {
  const count = t("learn.cards", { n: cards.length });
  const extra = sweeps ? ` · ${sweeps === 1 ? t("table.sweeps1") : t("table.sweeps", { n: sweeps })}` : "";
  return h("section", { class: "learn-pile", "aria-label": `${name}: ${count}` },
    h("h3", {}, name, " ", h("span", { class: "muted-on-felt" }, `(${count}${extra})`)),
    h("div", { class: "learn-pile-cards" }, bySuit(cards).map((c) => cardEl(c, { extraClass: "tiny" }))));
}

function valueText(value) {
  if (value === true) return t("learn.yes");
  if (value === false) return t("learn.no");
  if (value === null || value === undefined) return "—";
  return String(value);
}

function sideNames(step) {
  return step.piles.length === 2 ? [t("learn.you"), t("learn.bot")] : [t("learn.yourSide"), t("learn.theirSide")];
}

function countStep(box, step, lesson, onRight) {
  const names = seatNames(step.piles.length);
  const piles = h("div", { class: "learn-board learn-piles" },
    step.piles.map((p, i) => pileView(names[i], p, step.scope[i])));
  question(box, step, piles, sideNames(step), onRight);
}

/** Cirulla's declaration: a dealt hand of three, and what it may declare. */
function declareStep(box, step, onRight) {
  const hand = h("div", { class: "hand learn-dealt", role: "group", "aria-label": t("learn.hand") },
    sortCards(step.hand).map((c) => cardEl(c)));
  question(box, step, h("div", { class: "learn-board" }, h("div", { class: "my-hand" }, hand)), [], onRight);
}

/** A question under a picture (piles, a hand): its answers as buttons, the word on each
 * answer, and once right what the page shows beside it (an item's values, the sheet). */
function question(box, step, picture, sides, onRight) {
  const feedback = feedbackEl();
  const answers = step.ask === "who"
    ? [[0, sides[0]], [1, sides[1]], [-1, t("learn.nobody")]]
    : step.choices.map((n) => [n, n === 1 ? t("learn.points1") : t("learn.points", { n })]);
  const after = h("div", { class: "learn-after" });
  const buttons = answers.map(([value, label]) => h("button", {
    type: "button", class: "learn-answer", onclick: () => answer(value),
  }, label));
  const group = h("div", { class: "learn-answers", role: "group", "aria-label": say(step.task) }, buttons);

  function answer(value) {
    const right = value === step.answer;
    showFeedback(feedback, right, say(right ? step.well : step.otherwise));
    if (!right) return;
    answers.forEach(([v], i) => {
      buttons[i].disabled = true;
      if (v === value) buttons[i].classList.add("chosen");
    });
    if (step.values) {
      after.append(h("p", { class: "learn-values" }, `${t(`item.${step.item}`)}: `,
        step.values.map((v, i) => `${sides[i]} ${valueText(v)}`).join(" · ")));
    }
    if (step.sheet) after.append(sheetTable(step, sides));
    onRight();
  }
  replace(box, h("p", { class: "learn-task", tabindex: "-1" }, say(step.task)), picture, group, feedback, after);
}

/** The scored example's sheet: each item's points for each side, and the totals. */
function sheetTable(step, sides) {
  const head = h("tr", {}, h("th", { scope: "col" }, t("learn.item")), sides.map((s) => h("th", { scope: "col" }, s)));
  const rows = step.sheet.map((item) => h("tr", {}, h("th", { scope: "row" }, t(`item.${item.key}`)),
    item.points.map((p) => h("td", {}, String(p)))));
  const total = h("tr", { class: "total" }, h("th", { scope: "row" }, t("learn.total")),
    step.totals.map((p) => h("td", {}, h("strong", {}, String(p)))));
  return h("table", { class: "learn-sheet" }, h("caption", {}, t("learn.sheet")),
    h("thead", {}, head), h("tbody", {}, rows, total));
}

// ---- the guided first deal: a real table against the gentlest bot, Teach me on
function dealStep(box, step, lesson, onRight) {
  const error = h("p", { class: "error", role: "alert" });
  const start = h("button", { type: "button", class: "primary big learn-deal" }, t("learn.startDeal"));
  start.addEventListener("click", async () => {
    start.disabled = true;
    error.textContent = "";
    try {
      const res = await api.createTable({
        variant: lesson.variant, players: 2, teams: 2, target: 11, public: false, teach: true,
        name: nickname() || t("lobby.defaultName"), creator_seat: 0, rated: false,
        seats: [{ kind: "human" }, { kind: "bot", level: step.level || "beginner" }], options: {},
      });
      saveSeat(res.table.id, { token: res.token, seat: res.seat, invite: res.invite });
      saveSetting("teach", true); // the table opens with Teach me's suggestions shown
      onRight();
      navigate(`/t/${encodeURIComponent(res.table.id)}`);
    } catch (err) {
      error.textContent = t("learn.dealError", { msg: err.message });
      start.disabled = false;
    }
  });
  replace(box, h("p", { class: "learn-task", tabindex: "-1" }, say(step.task)), start, error);
}
