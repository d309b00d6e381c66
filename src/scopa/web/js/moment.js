// The big moments of a hand, shown on every seat's screen: a scopa (the table swept),
// the settebello taken, a match won. A banner over the table and a sweep of light over
// the felt; with reduced motion the banner simply shows, still.
import { h } from "./dom.js";
import { t } from "./i18n.js";

/** How long a banner stays up (ms). */
export const MOMENT_MS = 2200;

/** The moment a move event makes, if any: {kind, title, text}. `name` is the mover's
 * name, `mine` whether the mover is this seat. */
export function momentOf(event, name, mine = false) {
  if (!event || event.kind !== "move") return null;
  if (event.scopa || !event.card) {
    return { kind: "scopa", title: t("moment.scopa"), text: mine ? t("moment.scopaYou") : t("moment.scopaBy", { name }) };
  }
  if (event.card === "7d" ? event.capture.length > 0 : event.capture.includes("7d")) {
    return { kind: "settebello", title: t("moment.settebello"),
      text: mine ? t("moment.settebelloYou") : t("moment.settebelloBy", { name }) };
  }
  return null;
}

/** The moment of a match's end: "You won the match!" or who won it. */
export function matchMoment(won, winnerName) {
  return { kind: "match", title: won ? t("moment.youWon") : t("moment.won", { name: winnerName }), text: "" };
}

/**
 * Show `moment` in `host` (replacing any earlier one); the felt in `playHost` gets its
 * sweep of light for a scopa. Resolves when the banner has had its time on screen, or
 * at once when `wait` is false.
 */
export function showMoment(host, playHost, moment, { wait = true } = {}) {
  host.replaceChildren();
  if (!moment) return Promise.resolve();
  const banner = h("div", { class: `moment ${moment.kind}`, dataset: { kind: moment.kind }, "aria-hidden": "true" },
    h("strong", {}, moment.title), moment.text ? h("span", {}, moment.text) : null);
  host.append(banner);
  playHost.dataset.moment = moment.kind;
  const felt = playHost.querySelector(".felt");
  if (felt && moment.kind !== "match") felt.classList.add(`moment-${moment.kind}`);
  // put away, not removed: the last moment stays in the page (hidden) until the next
  setTimeout(() => banner.classList.add("done"), MOMENT_MS);
  return wait ? new Promise((done) => setTimeout(done, Math.min(MOMENT_MS, 1200))) : Promise.resolve();
}
