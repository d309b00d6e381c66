// Move animation: the played card flies from the hand to the table, captured cards fly
// to the capturer's pile. Positions are read before and after the re-render.
import { cardFace } from "./cardart.js";
import { h } from "./dom.js";

export const SPEEDS = { off: 0, fast: 220, normal: 420, slow: 800 };

/** No animation for people who asked for less motion, nor in a hidden tab (where
 * animations may not run, and the page must keep up with the game). */
function stillLife() {
  const reduce = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  return reduce || document.hidden;
}

/** Where every card and seat is now, keyed for lookup after the next render. */
export function snapshot(root) {
  const cards = new Map();
  for (const el of root.querySelectorAll(".felt [data-card], .hand [data-card]")) {
    cards.set(el.dataset.card, el.getBoundingClientRect());
  }
  const seats = new Map();
  for (const el of root.querySelectorAll(".seat[data-seat]")) {
    seats.set(Number(el.dataset.seat), el.getBoundingClientRect());
  }
  return { cards, seats };
}

function flyer(card, rect) {
  const el = h("div", { class: "card flyer", "aria-hidden": "true", dataset: { flying: card } }, cardFace(card));
  Object.assign(el.style, {
    left: `${rect.left}px`, top: `${rect.top}px`, width: `${rect.width}px`, height: `${rect.height}px`,
  });
  document.body.append(el);
  return el;
}

function centre(rect, w, h2) {
  return { left: rect.left + rect.width / 2 - w / 2, top: rect.top + rect.height / 2 - h2 / 2, width: w, height: h2 };
}

function fly(el, from, to, ms, delay = 0) {
  const dx = to.left - from.left;
  const dy = to.top - from.top;
  const sc = to.width / from.width;
  const anim = el.animate(
    [{ transform: "translate(0,0) scale(1)" }, { transform: `translate(${dx}px, ${dy}px) scale(${sc})` }],
    { duration: ms, delay, easing: "cubic-bezier(.3,.7,.3,1)", fill: "forwards" });
  return anim.finished.catch(() => {});
}

/**
 * Animate `event` ({seat, card, capture}) on the freshly rendered `root`, given the
 * positions `before` it. Resolves when done. ms = 0 skips it.
 */
export async function animateMove(root, before, event, ms) {
  if (!ms || !event || event.kind !== "move" || !event.card || stillLife()) return;
  const sample = root.querySelector(".felt [data-card], .hand [data-card]");
  const size = sample ? sample.getBoundingClientRect() : { width: 60, height: 90 };
  const seatRect = before.seats.get(event.seat) || root.getBoundingClientRect();
  const start = before.cards.get(event.card) || centre(seatRect, size.width, size.height);
  const played = flyer(event.card, start);
  played.style.zIndex = "41";
  const jobs = [];
  if (!event.capture.length) {
    const target = root.querySelector(`.felt [data-card="${CSS.escape(event.card)}"]`);
    if (target) target.style.visibility = "hidden";
    const end = target ? target.getBoundingClientRect() : start;
    await fly(played, start, end, ms);
    if (target) target.style.visibility = "";
    played.remove();
    return;
  }
  const pileEl = root.querySelector(`.pile[data-pile="${event.seat}"]`);
  const pileRect = pileEl ? pileEl.getBoundingClientRect() : seatRect;
  const first = before.cards.get(event.capture[0]) || start;
  const pileTarget = centre(pileRect, size.width * 0.5, size.height * 0.5);
  // the taken cards stay in view (as copies) while the played card travels to them
  const taken = event.capture.filter((c) => before.cards.has(c)).map((c) => flyer(c, before.cards.get(c)));
  const landed = { left: first.left + 12, top: first.top + 12, width: first.width, height: first.height };
  await fly(played, start, landed, ms);
  played.remove();
  const flyers = [flyer(event.card, landed), ...taken];
  flyers.forEach((el, i) => jobs.push(fly(el, el.getBoundingClientRect(), pileTarget, ms, i * (ms / 8))));
  await Promise.all(jobs);
  flyers.forEach((el) => el.remove());
}

/** Fresh cards in the hand slide in from the deck. Resolves when done. */
export async function animateDeal(root, before, ms) {
  if (!ms || stillLife()) return;
  const stock = root.querySelector(".stock");
  if (!stock) return;
  const from = stock.getBoundingClientRect();
  const fresh = [...root.querySelectorAll(".hand [data-card]")].filter((el) => !before || !before.cards.has(el.dataset.card));
  const jobs = fresh.map((el, i) => {
    const to = el.getBoundingClientRect();
    const dx = from.left + from.width / 2 - (to.left + to.width / 2);
    const dy = from.top - to.top;
    return el.animate(
      [{ transform: `translate(${dx}px, ${dy}px) scale(.4)`, opacity: 0.2 }, { transform: "none", opacity: 1 }],
      { duration: ms, delay: i * (ms / 4), easing: "ease-out", fill: "backwards" }).finished.catch(() => {});
  });
  await Promise.all(jobs);
}
