// The table page's model and how each server frame changes it. No DOM here: the page
// renders the model after every change.
import { movesFor, sameMove } from "./choose.js";

export function newModel(tableId, mine, settings) {
  return {
    tableId, table: null, seat: mine ? mine.seat : null, state: null, view: null,
    latestStateId: null, legalMoves: [], yourTurn: false, waiting: false,
    selection: null, sending: false, analysis: null, handEnd: null, matchEnd: null,
    rematch: null, seeds: [], sheetOpen: false, serverSkew: 0,
    // between hands: the seats still reading the sheet, and whether I pressed Continue
    waitingFor: [], continued: false,
    speed: settings.speed, teachOn: settings.teach,
  };
}

export function applyWelcome(m, msg) {
  m.table = msg.table;
  m.seat = msg.seat;
  m.serverSkew = msg.server_time ? msg.server_time - Date.now() / 1000 : 0;
}

/** A `state` frame: the whole truth for this socket. */
export function applyState(m, msg) {
  const event = msg.event;
  if (event && event.kind === "match_start") {
    m.handEnd = null;
    m.matchEnd = null;
    m.rematch = null;
    m.seeds = [];
    m.sheetOpen = false;
  }
  if (event && event.kind === "deal") {
    // the last sheet stays available from the side panel
    m.sheetOpen = Boolean(m.matchEnd);
  }
  if (event && (event.kind === "deal" || event.kind === "match_start")) {
    m.waitingFor = [];
    m.continued = false;
  }
  m.state = msg;
  m.table = msg.table || m.table;
  m.view = msg.view || null;
  m.waiting = !msg.view || Boolean(m.table && m.table.status === "waiting");
  m.legalMoves = msg.legal_moves || [];
  m.yourTurn = Boolean(msg.your_turn);
  m.sending = false;
  if (msg.match_over && !m.matchEnd && msg.match_id) {
    // joined (or reloaded) after the end: no match_end frame will come
    m.matchEnd = {
      match_id: msg.match_id, winner: msg.winner, scores: m.view ? m.view.scores : [],
      record_url: `/api/matches/${encodeURIComponent(msg.match_id)}/record`,
    };
    m.sheetOpen = true;
  }
  keepSelection(m);
  m.analysis = null;
}

export function applyHandEnd(m, msg) {
  m.handEnd = msg;
  m.sheetOpen = true;
  m.waitingFor = msg.waiting_for || [];
  // pressed already (a reload after Continue): the server no longer waits for this seat
  m.continued = Array.isArray(msg.waiting_for) && m.seat !== null && m.seat !== undefined
    && !m.waitingFor.includes(m.seat);
  if (msg.seed && !m.seeds.some((s) => s.hand_number === msg.hand_number)) m.seeds.push(msg);
}

/** A `waiting` frame: who has pressed Continue, who is still reading the sheet. */
export function applyWaiting(m, msg) {
  m.waitingFor = msg.waiting_for || [];
  if (m.seat !== null && m.seat !== undefined) m.continued = !m.waitingFor.includes(m.seat);
  if (m.handEnd) m.handEnd = { ...m.handEnd, next_hand_at: msg.next_hand_at };
}

export function applyMatchEnd(m, msg) {
  m.matchEnd = msg;
  m.sheetOpen = true;
}

/** A selection survives a new state only if it is still legal. */
function keepSelection(m) {
  const sel = m.selection;
  if (!sel || !m.yourTurn) {
    m.selection = null;
    return;
  }
  const moves = movesFor(m.legalMoves, sel.card);
  if (!moves.length) {
    m.selection = null;
    return;
  }
  const move = sel.move && moves.find((mv) => sameMove(mv, sel.move));
  m.selection = { card: sel.card, moves, move: move || (moves.length === 1 ? moves[0] : null) };
}

/** Select a hand card: its legal moves, and the move itself when there is only one. */
export function selectCard(m, card) {
  const moves = movesFor(m.legalMoves, card);
  if (!moves.length) return false;
  m.selection = { card, moves, move: moves.length === 1 ? moves[0] : null };
  return true;
}

/** Select exactly `move` (from the chooser or the teach list), if it is legal. */
export function selectMove(m, move) {
  const moves = movesFor(m.legalMoves, move.card);
  const chosen = moves.find((mv) => sameMove(mv, move));
  if (!chosen) return false;
  m.selection = { card: move.card, moves, move: chosen };
  return true;
}
