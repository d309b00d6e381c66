// Events (tournaments): the list in the lobby and on /events, and the form that makes one.
// The event page itself is eventpage.js; print, results entry and big screen eventviews.js.
import { h, redraw, replace } from "./dom.js";
import { t } from "./i18n.js";
import { api } from "./api.js";
import { currentUser, loadSession } from "./session.js";
import { navigate } from "./nav.js";
import { rulesOptions } from "./lobbyoptions.js";
import { variantName } from "./variants.js";

/** One event's line: name, format, status, places taken. */
export function eventLine(e) {
  const what = [t(`event.format.${e.format}`), e.variant ? variantName(e.variant) : null, e.target ? t("event.toTarget", { n: e.target })
    : t("event.deals", { n: e.deals_per_round || 4 }), e.duplicate ? t("event.duplicate") : null,
  t(`event.mode.${e.mode}`)].filter(Boolean).join(" · ");
  return h("li", { class: "event-line" },
    h("a", { href: `/events/${encodeURIComponent(e.id)}` }, e.name), " ",
    h("span", { class: "muted small" }, what), " ",
    h("span", { class: `event-status status-${e.status}` }, t(`event.status.${e.status}`)), " ",
    h("span", { class: "muted small" }, t("event.places", { n: e.entered_count, of: e.capacity })));
}

/** The lobby's box: events open or running, refreshed with the open tables. */
export function drawEventsBox(box, events) {
  redraw(box, h("h2", { id: "events-title" }, t("event.title")),
    events && events.length ? h("ul", { class: "event-list" }, events.map(eventLine))
      : h("p", { class: "muted" }, t("event.none")),
    h("p", {}, h("a", { class: "action-link", href: "/events" }, t("event.all"))));
}

export async function loadEventsBox(box) {
  try {
    drawEventsBox(box, (await api.events()).events);
  } catch {
    drawEventsBox(box, null);
  }
}

/** /events: every open or running event, and the form to make one (signed in). */
export function mountEvents(main) {
  const list = h("section", { class: "card-box", "aria-labelledby": "events-title" });
  const form = h("section", { class: "card-box new-event", "aria-labelledby": "new-event-title" });
  main.append(h("div", { class: "events-page" }, list, form));
  const draw = () => {
    loadEventsBox(list);
    loadSession().then(() => drawForm(form));
  };
  draw();
  return { relang: draw };
}

function field(label, input, help = null) {
  return h("div", { class: "field" }, h("label", { for: input.id }, label), input,
    help ? h("p", { class: "muted small" }, help) : null);
}

/** A checkbox with its label beside it, the whole row a target. */
function check(label, input) {
  return h("label", { class: "check-row", for: input.id }, input, h("span", {}, label));
}

let meta = null;

async function drawForm(box) {
  if (!currentUser()) {
    replace(box, h("h2", { id: "new-event-title" }, t("event.new")),
      h("p", {}, h("a", { href: "/account" }, t("event.signInToOrganise"))));
    return;
  }
  if (!meta) meta = await api.meta();
  // the variants of two sides (an event's table is one entrant against another)
  const variants = meta.variants.filter((v) => v.players.some((n) => ((v.teams || {})[String(n)] || [n]).includes(2)));
  const state = { variant: "scopa", players: 2, options: {}, optionsOpen: false };
  const variantOf = () => meta.variants.find((v) => v.name === state.variant);
  const name = h("input", { id: "event-name", required: true, maxlength: 80 });
  const mode = h("select", { id: "event-mode" }, ["online", "paper"].map((m) =>
    h("option", { value: m }, t(`event.mode.${m}`))));
  const variant = h("select", { id: "event-variant" }, variants.map((v) =>
    h("option", { value: v.name, selected: v.name === state.variant }, variantName(v.name))));
  const players = h("select", { id: "event-players" });
  const drawPlayers = () => {
    const v = variantOf();
    const two = v.players.filter((n) => ((v.teams || {})[String(n)] || [n]).includes(2));
    if (!two.includes(state.players)) state.players = two[0];
    replace(players, two.map((n) => h("option", { value: n, selected: n === state.players }, String(n))));
  };
  const options = rulesOptions(state, variantOf);
  variant.addEventListener("change", () => {
    state.variant = variant.value;
    drawPlayers();
    options.reset();
  });
  players.addEventListener("change", () => { state.players = Number(players.value); });
  drawPlayers();
  const format = h("select", { id: "event-format" }, ["swiss", "round-robin", "knockout"].map((f) =>
    h("option", { value: f }, t(`event.format.${f}`))));
  const rounds = h("input", { id: "event-rounds", type: "number", min: 1, max: 60 });
  const play = h("select", { id: "event-play" }, ["target", "deals"].map((p) =>
    h("option", { value: p }, t(`event.play.${p}`))));
  const amount = h("input", { id: "event-amount", type: "number", min: 1, max: 1000, value: 11 });
  const capacity = h("input", { id: "event-capacity", type: "number", min: 2, max: 256, value: 16 });
  const starts = h("input", { id: "event-starts", type: "datetime-local" });
  const grace = h("input", { id: "event-grace", type: "number", min: 10, max: 3600, placeholder: "60" });
  const clock = h("input", { id: "event-clock", type: "number", min: 5, max: 600 });
  const duplicate = h("input", { id: "event-duplicate", type: "checkbox" });
  const rated = h("input", { id: "event-rated", type: "checkbox" });
  const auto = h("input", { id: "event-auto", type: "checkbox", checked: true });
  const confirmResults = h("input", { id: "event-confirm", type: "checkbox" });
  const rest = h("select", { id: "event-rest" }, [[1, t("event.restHalf")], [0, t("event.restZero")]].map(([v, label]) =>
    h("option", { value: String(v) }, label)));
  const entrants = h("textarea", { id: "event-entrants", rows: 6 });
  const error = h("p", { class: "error", role: "alert" });
  const submit = async (e) => {
    e.preventDefault();
    const body = { name: name.value.trim(), mode: mode.value, variant: state.variant,
      players: state.players, options: options.chosen(),
      format: format.value, capacity: Number(capacity.value), duplicate: duplicate.checked,
      rated: rated.checked, auto_next: auto.checked, confirm_results: confirmResults.checked,
      rest_points: Number(rest.value) };
    if (rounds.value) body.rounds = Number(rounds.value);
    if (play.value === "target") body.target = Number(amount.value);
    else body.deals_per_round = Number(amount.value);
    if (starts.value) body.starts_at = new Date(starts.value).toISOString();
    if (grace.value) body.grace_seconds = Number(grace.value);
    if (clock.value) body.round_minutes = Number(clock.value);
    if (mode.value === "paper") body.entrants = entrants.value.split("\n").map((x) => x.trim()).filter(Boolean);
    try {
      const made = await api.createEvent(body);
      navigate(`/events/${encodeURIComponent(made.id)}`);
    } catch (err) {
      error.textContent = err.message;
    }
  };
  replace(box, h("h2", { id: "new-event-title" }, t("event.new")),
    h("form", { class: "event-form", onsubmit: submit },
      field(t("event.name"), name), field(t("event.mode"), mode), field(t("event.variant"), variant),
      field(t("event.players"), players), options.el,
      field(t("event.format"), format), field(t("event.rounds"), rounds), field(t("event.play"), play),
      field(t("event.amount"), amount), field(t("event.capacity"), capacity),
      field(t("event.starts"), starts),
      field(t("event.grace"), grace, t("event.graceHelp")),
      field(t("event.clock"), clock, t("event.clockHelp")),
      field(t("event.restPoints"), rest, t("event.restHelp")),
      check(t("event.duplicate"), duplicate), check(t("event.rated"), rated), check(t("event.autoNext"), auto),
      check(t("event.confirmResults"), confirmResults),
      field(t("event.paperEntrants"), entrants),
      error, h("button", { type: "submit", class: "primary", id: "event-create" }, t("event.create"))));
}
