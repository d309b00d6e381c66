// A finished match's review on the replay page (docs/review.md): ask for it, see it come
// (queued, then judged play by play), then each play's mark in the list of plays, the
// better play beside a marked one, and a summary per player. The server judges every play
// from what its player could see then, never the hidden cards.
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { api } from "./api.js";
import { playWords } from "./explain.js";
import { lineChart } from "./charts.js";

//: the marks' signs, as chess players write them
const SIGNS = { inaccuracy: "?!", mistake: "?", blunder: "??" };
//: the margin chart's drawing width: the replay's side column is about 290 px wide on a
//: desktop and wider on a phone, so the chart is shown at least this wide (labels >= 12 px)
const CHART_WIDTH = 260;
//: how often the page asks how a review is coming along
const POLL_MS = 1500;

/** A move as the review writes it ("7d", "7d:3s+4d", "declare", "pass") as {card, capture}
 * (null for a declaration). */
function moveOf(text) {
  if (text === "declare" || text === "pass") return null;
  const [card, taken] = text.split(":");
  return { card, capture: taken ? taken.split("+") : [] };
}

/** A review's play in words: who played what (a declaration as its word). */
export function reviewPlayWords(name, text) {
  const mv = moveOf(text);
  if (!mv) return `${name}: ${t(text === "declare" ? "table.declare" : "table.pass")}`;
  return playWords(name, mv);
}

/** The first side's expected margin through the match, one value a judged play: the match
 * margin before the play's hand (`before(hand)`) plus the play's value for its hand, turned
 * to the first side's (a value is the mover's side's margin; with two sides the other
 * side's is its opposite, with more only the first side's own plays say it). Forced plays
 * (not valued) and plays that say nothing of the first side are left out. */
export function marginSeries(plays, teams, before) {
  const out = [];
  for (const p of plays) {
    if (p.played_value === null || p.played_value === undefined) continue;
    const side = p.seat % teams;
    if (side !== 0 && teams !== 2) continue;
    out.push(before(p.hand) + (side === 0 ? p.played_value : -p.played_value));
  }
  return out;
}

/** The review of match `matchId`, kept up to date; `onChange` is called whenever it moves
 * (the page draws again). */
export function createReview(matchId, onChange) {
  let state = null;
  let timer = null;
  let error = "";
  let marks = new Map();
  let asked = false;

  function set(next) {
    state = next;
    marks = new Map();
    for (const p of state.review ? state.review.plays : []) marks.set(`${p.hand}/${p.index}`, p);
    clearTimeout(timer);
    if (state.status === "queued" || state.status === "running") {
      timer = setTimeout(load, POLL_MS);
    }
    onChange();
  }

  function load() {
    api.review(matchId).then((r) => {
      // come from "Review this game" (the match's end): asked at once
      if (r.status === "none" && window.location.hash === "#review" && !asked) ask();
      else set(r);
    }).catch((e) => { error = e.message; onChange(); });
  }

  function ask() {
    asked = true;
    error = "";
    api.askReview(matchId).then(set).catch((e) => { error = e.message; onChange(); });
  }

  /** The judged play of hand `handNumber`'s `index`-th move (1-based), if any. */
  function play(handNumber, index) {
    return marks.get(`${handNumber}/${index}`) || null;
  }

  /** The mark's sign after a play in the list of plays (nothing for a good play). */
  function badge(handNumber, index) {
    const p = play(handNumber, index);
    if (!p || !p.mark) return null;
    return h("span", { class: `review-mark ${p.mark}`, title: t(`review.${p.mark}`) },
      h("span", { "aria-hidden": "true" }, ` ${SIGNS[p.mark]}`),
      h("span", { class: "sr-only" }, ` (${t(`review.${p.mark}`)})`));
  }

  /** Beside the board, for the play just shown: its mark and the better play, in words,
   * and a button that shows the better play on the cards (``show(seat, move)``). */
  function note(handNumber, index, names, show) {
    const p = play(handNumber, index);
    if (!p || !p.mark) return null;
    const best = moveOf(p.best);
    return h("div", { class: `review-note ${p.mark}`, role: "note" },
      h("p", {}, h("strong", {}, `${SIGNS[p.mark]} ${t(`review.${p.mark}`)}`), " · ",
        t("review.lost", { points: p.loss.toFixed(2) })),
      h("p", {}, `${t("review.better")}: `, reviewPlayWords(names(p.seat), p.best)),
      best && show ? h("button", { type: "button", class: "show-better",
        onclick: () => show(p.seat, best, p.best) }, t("review.showBetter")) : null,
      p.why_best ? h("p", { class: "muted" }, p.why_best) : null,
      hindsight(p, names));
  }

  /** The second opinion, labelled as hindsight: the best play with every card seen. */
  function hindsight(p, names) {
    if (!p.hindsight_best) return null;  // a review made before hindsight existed
    return h("p", { class: "review-hindsight" }, h("strong", {}, `${t("review.hindsight")}: `),
      p.hindsight_loss
        ? [reviewPlayWords(names(p.seat), p.hindsight_best), " · ",
          t("review.lost", { points: p.hindsight_loss.toFixed(2) })]
        : t("review.hindsightSame"));
  }

  /** The first side's expected margin through the match, as a line (`match`: the sides'
   * count, the first side's name, its match margin before a hand). */
  function chart(match) {
    const values = marginSeries(state.review.plays, match.teams, match.before);
    if (values.length < 2) return null;
    return h("figure", { class: "review-chart" },
      lineChart(values, t("review.chart", { name: match.firstSide }), { span: 4, dots: false, width: CHART_WIDTH }),
      h("figcaption", { class: "muted small" }, t("review.chartHow", { name: match.firstSide })));
  }

  function summary(names, go, match) {
    const r = state.review;
    return h("div", { class: "review-summary" },
      match ? chart(match) : null,
      r.seats.map((s) => h("section", { class: "review-seat" },
        h("h3", {}, names(s.seat)),
        h("p", {}, t("review.average", { points: s.average_loss.toFixed(2), n: s.plays })),
        h("p", { class: "review-counts" }, ["inaccuracy", "mistake", "blunder"].map((m) =>
          h("span", { class: `review-count ${m}` }, `${SIGNS[m]} ${t(`review.${m}s`)}: ${s.marks[m] || 0}`))),
        s.costliest.length ? h("ol", { class: "review-costliest" }, s.costliest.map((p) => h("li", {},
          h("button", { type: "button", class: "play-step", onclick: () => go(p.hand, p.index) },
            `${t("replay.hand")} ${p.hand}: `, reviewPlayWords(names(p.seat), p.played),
            ` (−${p.loss.toFixed(2)})`)))) : null)),
      h("p", { class: "muted small" }, t("review.how", { n: r.simulations })));
  }

  /** The review's box for the side of the replay (`match`: see `chart`). */
  function box(names, go, match) {
    const parts = [h("h2", { id: "review-title" }, t("review.title"))];
    if (!state) {
      parts.push(h("p", { class: "muted" }, t("review.loading")));
    } else if (state.status === "none" || state.status === "failed") {
      if (state.status === "failed") parts.push(h("p", { class: "error" }, state.error || t("review.failed")));
      parts.push(h("p", { class: "muted" }, t("review.offer")),
        h("button", { type: "button", class: "primary review-ask", onclick: ask }, t("review.ask")));
    } else if (state.status === "queued") {
      parts.push(h("p", { role: "status" }, state.ahead ? t("review.ahead", { n: state.ahead }) : t("review.queued")));
    } else if (state.status === "running") {
      parts.push(h("p", { role: "status" }, t("review.running", { n: state.done, k: state.total })),
        h("progress", { max: String(state.total || 1), value: String(state.done), "aria-labelledby": "review-title" }));
    } else {
      parts.push(summary(names, go, match));
    }
    if (error) parts.push(h("p", { class: "error", role: "alert" }, error));
    return h("section", { class: "card-box replay-review", "aria-labelledby": "review-title" }, parts);
  }

  load();
  return { box, badge, note, stop: () => clearTimeout(timer) };
}
