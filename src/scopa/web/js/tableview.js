// Renders one table state (the seat's view) into plain DOM. No game logic lives here:
// what is legal comes from the server's legal_moves.
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { cardList, cardName, sortCards } from "./cards.js";
import { playWords } from "./explain.js";
import { backsEl, cardEl, pileEl, sweepCards } from "./cardview.js";
import { describeMove, movesFor, sameMove } from "./choose.js";
import { seatsOf, sideCount } from "./sides.js";

export function seatName(table, seat) {
  const info = table && table.seats ? table.seats[seat] : null;
  return info && info.name ? info.name : t("seat.name", { n: seat + 1 });
}

export function sideName(table, rules, side) {
  return seatsOf(side, rules, table).map((s) => seatName(table, s)).join(" & ");
}

/** Score board: one line per side. */
function scoreBoard(m) {
  const { view, table } = m;
  const teams = sideCount(view.rules, table);
  const mySide = view.seat === null ? -1 : view.seat % teams;
  const list = h("ol", { class: "scores", "aria-label": t("table.score") });
  // the table's totals count a finished hand at once; the view's are banked before it
  const totals = table && table.scores && table.scores.length === view.scores.length ? table.scores : view.scores;
  totals.forEach((points, side) => {
    list.append(h("li", { class: side === mySide ? "mine" : "" },
      h("span", { class: "who" }, sideName(table, view.rules, side)),
      h("strong", { class: "pts" }, String(points))));
  });
  return h("div", { class: "scoreboard" },
    h("span", { class: "target" }, `${t("table.hand_number", { n: view.hand_number })} · ${t("table.target", { n: view.rules.target })}`),
    list);
}

function turnSign(m) {
  const { view, table } = m;
  if (m.waiting) return h("p", { class: "turn waiting", role: "status" }, t("table.waiting"));
  if (m.state && m.state.match_over) return h("p", { class: "turn over", role: "status" }, t("table.matchOver"));
  if (view.hand_over) return h("p", { class: "turn", role: "status" }, t("table.handOver"));
  if (view.to_move === null || view.to_move === undefined) return h("p", { class: "turn" }, "");
  if (m.yourTurn) return h("p", { class: "turn mine", role: "status" }, t("table.yourTurn"));
  return h("p", { class: "turn", role: "status" }, t("table.turnOf", { name: seatName(table, view.to_move) }));
}

/** A declared hand still held (Cirulla): public, shown face up by its seat. */
function shownCards(view, seat, mine) {
  const shown = !mine && view.declarations ? view.declarations.shown[seat] : [];
  if (!shown || !shown.length) return null;
  return h("div", { class: "shown", "aria-label": t("table.shownHand") },
    shown.map((c) => cardEl(c, { extraClass: "tiny" })));
}

/** A small labelled token beside a seat's name: level, partner, dealer, to play. */
function chip(kind, text) {
  return h("span", { class: `chip ${kind}` }, text);
}

/** A seat's public facts: name and badges, cards in hand, pile size, sweeps. */
function seatPanel(m, seat, { mine = false, slot = "" } = {}) {
  const { view, table } = m;
  const info = (table && table.seats && table.seats[seat]) || {};
  const pile = view.captured[seat] || [];
  const sweeps = view.scope[seat] || 0;
  const teams = sideCount(view.rules, table);
  const me = view.seat;
  const chips = [];
  if (info.kind === "bot" && info.level) chips.push(chip("level", t(`level.${info.level}`)));
  if (info.bot_account) chips.push(chip("bot", t("bot.badge")));
  if (teams < view.rules.players) {
    if (me !== null && me !== undefined && seat !== me && seat % teams === me % teams) chips.push(chip("partner", t("table.partner")));
    else if (me === null || me === undefined || seat % teams !== me % teams) chips.push(chip("side", t("table.side", { n: (seat % teams) + 1 })));
  }
  if (seat === view.dealer) chips.push(chip("dealer", t("table.dealer")));
  // a resignation may end the match mid-hand: then nobody is to play
  const toPlay = view.to_move === seat && !view.hand_over && !(m.state && m.state.match_over);
  // my own turn has one cue, the hand lit up (myHand); another's seat glows and says so
  if (toPlay && !mine) chips.push(chip("to-play", t("table.toPlay")));
  if (info.resigned) chips.push(chip("away", t("table.resigned")));
  else if (info.standin) chips.push(chip("away", t("table.standin")));
  else if (info.kind === "human" && info.taken && !info.connected) chips.push(chip("away", t("table.away")));
  const classes = ["seat"];
  if (toPlay && !mine) classes.push("to-move");
  if (mine) classes.push("me");
  if (slot) classes.push(`slot-${slot}`);
  return h("section", { class: classes.join(" "), dataset: { seat: String(seat) }, "aria-label": seatName(table, seat) },
    h("header", {},
      h("span", { class: "name" }, seatName(table, seat), mine ? ` (${t("table.you")})` : ""),
      chips.length ? h("span", { class: "chips" }, chips) : null),
    mine ? null : h("div", { class: "hand-count" }, backsEl(view.hand_sizes[seat]),
      h("span", {}, view.hand_sizes[seat] === 1 ? t("table.cards1") : t("table.cards", { n: view.hand_sizes[seat] }))),
    shownCards(view, seat, mine),
    h("div", { class: "pile", dataset: { pile: String(seat) } },
      pileEl(pile.length, sweepCards(view.history || [], seat, sweeps))));
}

/** Where the others sit around the table, in play order from the one after me (play
 * goes counter-clockwise: the next player sits on my right). */
const SLOTS = {
  1: ["top"],
  2: ["top-right", "top-left"],
  3: ["right", "top", "left"],
  4: ["right", "top-right", "top-left", "left"],
  5: ["right", "top-right", "top", "top-left", "left"],
};

/** The seats around a drawn table, the table's cards on the felt in the middle. */
function ring(m, others) {
  const slots = SLOTS[others.length] || others.map(() => "top");
  const at = {};
  others.forEach((seat, i) => { at[slots[i]] = seat; });
  const panel = (slot) => (at[slot] === undefined ? null : seatPanel(m, at[slot], { slot }));
  return h("div", { class: `ring players-${others.length + 1}` },
    h("div", { class: "ring-top opponents" }, panel("top-left"), panel("top"), panel("top-right")),
    h("div", { class: "ring-left opponents" }, panel("left")),
    tableCards(m),
    h("div", { class: "ring-right opponents" }, panel("right")));
}

function tableCards(m) {
  const { view, selection } = m;
  const taken = new Set(selection && selection.move ? selection.move.capture : []);
  const maybe = new Set();
  if (selection && !selection.move) for (const mv of selection.moves) mv.capture.forEach((c) => maybe.add(c));
  const felt = h("section", { class: "felt", "aria-label": t("table.table") });
  const row = h("div", { class: "table-cards" });
  for (const c of view.table) {
    const cls = taken.has(c) ? "taken" : maybe.has(c) ? "maybe" : "";
    row.append(cardEl(c, { extraClass: cls }));
  }
  if (!view.table.length) row.append(h("p", { class: "empty" }, t("table.empty")));
  felt.append(row, h("p", { class: "stock" }, t("table.stock", { n: view.stock_size })));
  return felt;
}

/** Under the table: what the chosen card takes, the options, and Play. */
function chooser(m, actions) {
  const sel = m.selection;
  const box = h("div", { class: "chooser", "aria-live": "polite" });
  if (!m.yourTurn) {
    box.classList.add("idle");
    return box;
  }
  if (m.legalMoves.some((mv) => "declare" in mv)) {
    // Cirulla: the dealt hand may be declared (it is then shown to everyone) or not
    box.append(h("p", {}, t("table.mayDeclare")), h("div", { class: "actions" },
      h("button", { type: "button", class: "primary declare", onclick: () => actions.declare(true) }, t("table.declare")),
      h("button", { type: "button", class: "ghost pass", onclick: () => actions.declare(false) }, t("table.pass"))));
    return box;
  }
  if (!sel) {
    // the lit hand says it to the eye; the words are for screen readers
    box.classList.add("idle");
    box.append(h("p", { class: "sr-only" }, t("table.pickCard")));
    return box;
  }
  const name = cardName(sel.card);
  if (sel.moves.length > 1) {
    box.append(h("p", {}, t("table.choose", { card: name })));
    const opts = h("div", {
      class: "options", role: "radiogroup", "aria-label": t("table.choose", { card: name }),
      onkeydown: (e) => arrowKeys(e, ".option", (el, i) => actions.pickMove(sel.moves[i], { stay: true })),
    });
    // one tab stop: the chosen option, else the first; arrow keys move and choose
    const current = Math.max(0, sel.moves.findIndex((mv) => sameMove(mv, sel.move)));
    sel.moves.forEach((mv, i) => {
      const on = sameMove(mv, sel.move);
      opts.append(h("button", {
        type: "button", class: `option${on ? " on" : ""}`, role: "radio", "aria-checked": on ? "true" : "false",
        tabindex: i === current ? "0" : "-1",
        onclick: () => actions.pickMove(mv),
        onmouseenter: () => actions.preview(mv), onfocus: () => actions.preview(mv),
        onmouseleave: () => actions.preview(null), onblur: () => actions.preview(null),
      }, describeMove(mv, t)));
    });
    box.append(opts);
  } else if (sel.move.capture.length) {
    box.append(h("p", {}, t("table.only", { card: name, cards: cardList(sel.move.capture) })));
  } else {
    box.append(h("p", {}, t("table.layOnly", { card: name })));
  }
  box.append(h("div", { class: "actions" },
    h("button", { type: "button", class: "primary play", disabled: !sel.move, onclick: actions.confirm }, t("table.confirm")),
    h("button", { type: "button", class: "ghost", onclick: actions.cancel }, t("table.cancel"))));
  return box;
}

/**
 * Arrow keys (and Home / End) move the focus among the `selector` items of the element
 * the key was pressed in: a roving tab stop, one Tab into the group, arrows within it.
 * `onMove(el, index)` runs for the item reached (e.g. to choose it).
 */
function arrowKeys(e, selector, onMove) {
  const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[e.key];
  if (!step && e.key !== "Home" && e.key !== "End") return;
  const items = [...e.currentTarget.querySelectorAll(selector)];
  const here = items.indexOf(document.activeElement);
  if (!items.length) return;
  e.preventDefault();
  let next;
  if (e.key === "Home") next = 0;
  else if (e.key === "End") next = items.length - 1;
  else next = (Math.max(0, here) + step + items.length) % items.length;
  for (const [i, el] of items.entries()) el.tabIndex = i === next ? 0 : -1;
  items[next].focus();
  if (onMove) onMove(items[next], next);
}

function myHand(m, actions) {
  const { view, selection } = m;
  const many = view.hand.length > 5 ? " many" : "";
  const hand = h("div", {
    class: `hand${m.yourTurn ? " active" : ""}${many}`, role: m.yourTurn ? "toolbar" : "group",
    "aria-label": t("table.hand"), tabindex: "-1",
    onkeydown: m.yourTurn ? (e) => arrowKeys(e, "button.card") : undefined,
  });
  const cards = sortCards(view.hand);
  // one tab stop in the hand: the chosen card, else the first
  const stop = selection && cards.includes(selection.card) ? selection.card : cards[0];
  for (const c of cards) {
    const pressed = selection && selection.card === c;
    const el = cardEl(c, {
      pressed,
      extraClass: pressed ? "selected" : "",
      onclick: m.yourTurn ? () => actions.pickCard(c) : undefined,
    });
    if (m.yourTurn) el.tabIndex = c === stop ? 0 : -1;
    hand.append(el);
  }
  return hand;
}

/** The whole playing area. `m` is the page's model; `actions` the user's intents. */
export function renderPlayArea(m, actions) {
  const { view } = m;
  const n = view.rules.players;
  const me = view.seat;
  // a spectator sees the table from seat 0's chair
  const anchor = me === null || me === undefined ? 0 : me;
  // everyone else in play order, starting with the next to play after the anchor
  const others = [];
  for (let i = 1; i < n; i++) others.push((anchor + i) % n);
  // on a phone the site's bar is not shown at the table: the way back is here
  const exit = h("a", { class: "table-exit", href: "/", "aria-label": t("table.toLobby") },
    h("span", { "aria-hidden": "true" }, "‹ "), t("table.lobby"));
  const area = h("div", { class: `play-area${m.yourTurn ? " my-turn" : ""}` },
    h("div", { class: "status-bar" }, exit, scoreBoard(m), turnSign(m)),
    ring(m, others),
  );
  if (me !== null && me !== undefined) {
    area.append(chooser(m, actions), h("div", { class: "my-side" }, h("div", { class: "my-hand" }, myHand(m, actions)),
      seatPanel(m, me, { mine: true })));
  } else {
    area.append(h("div", { class: "my-side" }, seatPanel(m, anchor, { slot: "bottom" })),
      h("p", { class: "note" }, t("table.spectating")));
  }
  return area;
}

/** Words for the last play of the hand. */
export function lastPlayText(view, table) {
  const last = view.history[view.history.length - 1];
  if (last && last.declare) return t("table.declared", { name: seatName(table, last.seat), cards: cardList(last.shown) });
  if (!last || !last.card) return "";
  return playWords(seatName(table, last.seat), last);
}

export { movesFor };
