// Puzzles ("find the play", docs/puzzles.md): the day's puzzle, or the next one near the
// player's puzzle rating. The page draws the solver's view with the table's own cards; the
// player taps a hand card, then the table cards it takes, then Play. The server checks the
// answer and only then sends the solution, every play's value and the reason, which the
// page shows on the cards. A guest solves unrated; the ids a guest has seen are kept for
// this tab so "next" does not repeat one.
import { h, replace } from "./dom.js";
import { t } from "./i18n.js";
import { csrfToken, currentUser, loadSession } from "./session.js";
import { cardEl, backsEl, pileEl, sweepCards } from "./cardview.js";
import { sortCards } from "./cards.js";
import { say, sentence } from "./explain.js";
import { navigate } from "./nav.js";
import { ratingText } from "./rating.js";

const SEEN = "scopa.puzzles.seen";

/** One key for a play, whatever the order of its fields and taken cards. */
const playKey = (m) => `${m.card}|${[...(m.capture || [])].sort().join(",")}`;
/** A value in points, to a tenth. */
const points = (v) => String(Number(Number(v).toFixed(1)) || 0);

async function call(method, path, body) {
  const headers = body ? { "Content-Type": "application/json" } : {};
  const csrf = csrfToken();
  if (method !== "GET" && csrf) headers["X-CSRF-Token"] = csrf;
  const res = await fetch(path, { method, headers, body: body ? JSON.stringify(body) : undefined });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) {
    const err = new Error(typeof data.detail === "string" ? data.detail : res.statusText);
    err.status = res.status;
    throw err;
  }
  return data;
}

function seen() {
  try {
    return JSON.parse(sessionStorage.getItem(SEEN) || "[]").slice(-100);
  } catch {
    return [];
  }
}

function markSeen(id) {
  const ids = seen().filter((x) => x !== id);
  ids.push(id);
  sessionStorage.setItem(SEEN, JSON.stringify(ids.slice(-100)));
}

/** A play in words: "Take the 3 of cups with the 3 of swords" (Teach me's words). */
function playText(move, table) {
  if (!move.capture || !move.capture.length) return say({ key: "move.lay", args: { card: { card: move.card } } });
  const sweep = table && move.capture.length === table.length;
  return say({ key: sweep ? "move.clear" : "move.take",
    args: { card: { card: move.card }, cards: { cards: move.capture } } });
}

export function mountPuzzles(main, which) {
  const box = h("section", { class: "card-box puzzle-page", "aria-labelledby": "puzzle-title" });
  main.append(box);
  const state = { data: null, error: null, failed: false, card: null, takes: [], result: null, busy: false };

  const load = async () => {
    state.card = null; state.takes = []; state.result = null; state.error = null;
    try {
      await loadSession();
      if (which === "daily") state.data = await call("GET", "/api/puzzles/daily");
      else if (which) state.data = await call("GET", `/api/puzzles/${encodeURIComponent(which)}`);
      else state.data = await call("GET", `/api/puzzles/next?skip=${encodeURIComponent(seen().join(","))}`);
    } catch (err) {
      state.data = null;
      state.failed = err.status !== 404;
      const none = which && which !== "daily" ? "puzzle.notFound"
        : !which && (seen().length || currentUser()) ? "puzzle.noneLeft" : "puzzle.none";
      state.error = err.status === 404 ? t(none) : t("error.generic", { msg: err.message });
    }
    draw();
    const title = box.querySelector("h1");
    if (title) title.focus();
  };

  const next = () => {
    if (which) navigate("/puzzles");
    else load();
  };

  const answer = async () => {
    if (!state.card || state.busy) return;
    state.busy = true;
    try {
      state.result = await call("POST", `/api/puzzles/${state.data.puzzle.id}/answer`,
        { move: { card: state.card, capture: state.takes } });
      markSeen(state.data.puzzle.id);
      state.error = null;
    } catch (err) {
      state.error = err.message;
    } finally {
      state.busy = false;
    }
    draw();
    const verdict = box.querySelector(".puzzle-verdict");
    if (verdict) verdict.focus();
  };

  const pickHand = (c) => {
    if (state.result) return;
    state.card = state.card === c ? null : c;
    state.takes = [];
    draw();
    const again = box.querySelector(`.puzzle-hand [data-card="${c}"]`);
    if (again) again.focus();
  };

  const pickTable = (c) => {
    if (state.result || !state.card) return;
    state.takes = state.takes.includes(c) ? state.takes.filter((x) => x !== c) : [...state.takes, c];
    draw();
    const again = box.querySelector(`.puzzle-table [data-card="${c}"]`);
    if (again) again.focus();
  };

  const draw = () => {
    const title = h("h1", { id: "puzzle-title", tabindex: "-1" }, t("puzzle.title"));
    const links = h("p", { class: "puzzle-links" },
      h("a", { href: "/puzzles/daily", "aria-current": which === "daily" ? "page" : null }, t("puzzle.daily")),
      " · ",
      h("a", { href: "/puzzles", "aria-current": !which ? "page" : null }, t("nav.puzzles")));
    if (!state.data) {
      replace(box, title, links, h("p", { class: state.failed ? "error" : "muted puzzle-empty" }, state.error || "…"));
      return;
    }
    const d = state.data;
    box.dataset.puzzle = d.puzzle.id;
    const v = d.puzzle.view;
    const me = v.seat;
    const them = 1 - me;
    const r = state.result;
    const best = r ? r.best : null;
    const head = [
      d.day ? h("p", { class: "puzzle-day" }, t("puzzle.dailyOf", { day: d.day })) : null,
      h("p", { class: "puzzle-kind" }, t(`puzzle.kind.${d.puzzle.kind}`)),
      h("p", { class: "muted small" }, t("puzzle.rating", { rating: r ? r.puzzle_rating : d.rating }),
        " · ",
        d.player ? t("puzzle.yourRating", { rating: ratingText(d.player.rating, d.player.settled) }) : t("puzzle.guest")),
      d.answered && !r ? h("p", { class: "muted small puzzle-answered" }, t("puzzle.again")) : null,
    ];
    // the other side: its hand face down, the stock, the two piles
    const sweepsOf = (seat) => sweepCards(v.history, seat, v.scope[seat]);
    const sides = h("div", { class: "puzzle-sides" },
      h("div", { class: "puzzle-side" }, backsEl(v.hand_sizes[them]),
        h("p", {}, say({ key: "puzzle.opponent", args: { n: v.hand_sizes[them] } }))),
      v.stock_size ? h("p", { class: "puzzle-stock" }, say({ key: "puzzle.stock", args: { n: v.stock_size } })) : null,
      h("div", { class: "puzzle-piles" },
        h("div", {}, h("span", { class: "small muted" }, t("puzzle.yourPile")), " ", pileEl(v.captured[me].length, sweepsOf(me))),
        h("div", {}, h("span", { class: "small muted" }, t("puzzle.theirPile")), " ", pileEl(v.captured[them].length, sweepsOf(them)))),
      h("p", { class: "small muted" }, t("puzzle.score", { mine: v.scores[me % 2], theirs: v.scores[them % 2] })));
    const tableCards = sortCards(v.table).map((c) => {
      const mine = state.takes.includes(c);
      const cls = [mine ? (r ? "chosen" : "selected") : "", best && best.capture.includes(c) ? "taken best-take" : ""].join(" ").trim();
      return cardEl(c, { extraClass: cls, pressed: state.takes.includes(c),
        onclick: r ? undefined : () => pickTable(c) });
    });
    const table = h("div", { class: "puzzle-table felt-strip", role: "group", "aria-label": t("puzzle.table") },
      h("h2", { class: "small" }, t("puzzle.table")),
      h("div", { class: "table-cards" }, tableCards.length ? tableCards : h("p", { class: "empty" }, t("puzzle.emptyTable"))));
    const handCards = sortCards(v.hand).map((c) => {
      const mine = state.card === c;
      const cls = [mine ? (r ? "chosen" : "selected") : "", best && best.card === c ? "taken best-card" : ""].join(" ").trim();
      return cardEl(c, { extraClass: cls, pressed: state.card === c, onclick: r ? undefined : () => pickHand(c) });
    });
    const hand = h("div", { class: "puzzle-hand", role: "group", "aria-label": t("puzzle.yourHand") },
      h("h2", { class: "small" }, t("puzzle.yourHand")), h("div", { class: "hand-cards" }, handCards));
    const chosen = state.card ? t("puzzle.pick", { play: playText({ card: state.card, capture: state.takes }, v.table) })
      : t("puzzle.pickNone");
    const controls = r ? null : h("div", { class: "puzzle-controls" },
      h("p", { class: "puzzle-choice", "aria-live": "polite" }, chosen),
      h("p", { class: "muted small" }, t("puzzle.help")),
      h("div", { class: "puzzle-buttons" },
        h("button", { type: "button", class: "primary puzzle-play", disabled: !state.card || state.busy, onclick: answer }, t("puzzle.play")),
        h("button", { type: "button", class: "ghost puzzle-clear", disabled: !state.card, onclick: () => { state.card = null; state.takes = []; draw(); } }, t("puzzle.clear"))));
    const error = state.error ? h("p", { class: "error", role: "alert" }, state.error) : null;
    replace(box, title, links, head, sides, table, hand, controls, error, r ? solution(r, v, d) : null);
  };

  const solution = (r, v, d) => {
    const verdict = h("p", { class: `puzzle-verdict ${r.correct ? "right" : "wrong"}`, tabindex: "-1" },
      t(r.correct ? "puzzle.right" : "puzzle.wrong"));
    const rating = r.rating ? t("puzzle.moved", { before: r.rating.before, after: ratingText(r.rating.after, r.rating.settled) })
      : d.player ? t("puzzle.again") : t("puzzle.guest");
    const byMove = new Map(r.explained.moves.map((m) => [playKey(m.move), m]));
    const label = (m) => {
      const said = byMove.get(playKey(m));
      return said ? sentence(said.label) : playText(m, v.table);
    };
    const plays = h("ol", { class: "puzzle-plays" }, r.plays.map((p) => {
      const said = byMove.get(playKey(p.move));
      const why = said ? [...said.reasons, ...said.margin].map((m) => sentence(m)).join(" ") : "";
      return h("li", { class: p.best ? "best" : "" },
        h("strong", {}, label(p.move)), ": ",
        say({ key: "puzzle.value", args: { value: points(p.value), n: Math.abs(Number(points(p.value))) } }),
        why ? h("span", { class: "small muted puzzle-why" }, ` — ${why}`) : null);
    }));
    return h("section", { class: "puzzle-solution", "aria-labelledby": "puzzle-solution-title" },
      verdict,
      h("h2", { id: "puzzle-solution-title" }, t("puzzle.best", { play: label(r.best) })),
      h("p", { class: "puzzle-reason" }, sentence(r.reason)),
      h("p", { class: "puzzle-rating-move" }, rating),
      h("h3", { class: "small" }, t("puzzle.values")),
      plays,
      h("button", { type: "button", class: "primary puzzle-next", onclick: next }, t("puzzle.next")));
  };

  load();
  return { relang: draw };
}
