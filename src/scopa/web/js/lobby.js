// The front page: start a table in a few clicks, the public tables, finished matches.
import { h, redraw, replace } from "./dom.js";
import { lang, t } from "./i18n.js";
import { api } from "./api.js";
import { nickname, saveNickname, saveSeat, saveSetting, setting } from "./store.js";
import { navigate } from "./nav.js";
import { variantName, variantLine } from "./variants.js";
import { cardFace } from "./cardart.js";
import { deckPicker } from "./decks/picker.js";
import { seatsOf } from "./sides.js";
import { currentUser, loadSession } from "./session.js";
import { rulesOptions } from "./lobbyoptions.js";
import { loadEventsBox } from "./events.js";
import { drawBotsBox, loadBotsBox } from "./botsonline.js";
import { nameWithBadge } from "./botbadge.js";

const TARGETS = [11, 16, 21, 31];

export function mountLobby(main) {
  // the first screen is Play: a level, a variant, one button; a table of one's own (friends,
  // teams, rules) is folded below it
  const quick = h("form", { class: "play-now card-box", "aria-labelledby": "play-title" });
  const form = h("form", { class: "new-table", "aria-labelledby": "new-title" });
  const customTitle = h("h2", { id: "new-title" }, t("lobby.new"));
  const customHelp = h("p", { class: "muted small custom-help" }, t("lobby.customHelp"));
  const custom = h("details", { class: "card-box custom-table", id: "custom-table" },
    h("summary", {}, customTitle), customHelp, form);
  const open = h("section", { class: "card-box open-tables", "aria-labelledby": "open-title" });
  const history = h("section", { class: "card-box history", "aria-labelledby": "history-title" });
  const events = h("section", { class: "card-box events-box", "aria-labelledby": "events-title" });
  const bots = h("section", { class: "card-box bots-box", "aria-labelledby": "bots-title" });
  let banner = hero();
  main.append(banner, h("div", { class: "lobby" }, h("div", { class: "lobby-main" }, quick, custom),
    h("div", { class: "lobby-side" }, open, bots, history, events)));
  let meta = null;
  // the choices so far: kept when the language changes
  const state = { variant: "scopa", players: 2, teams: null, target: null, seats: null, advanced: false };

  Promise.all([api.meta(), loadSession()]).then(([data]) => {
    meta = data;
    buildQuick(quick, meta);
    buildForm(form, meta, state);
  }).catch((e) => replace(quick, h("p", { class: "error" }, t("error.generic", { msg: e.message }))));
  drawOpen(open);
  drawHistory(history);
  loadOpen(open);
  loadHistory(history);
  loadEventsBox(events);
  loadBotsBox(bots);
  const timer = setInterval(() => {
    loadOpen(open);
    loadEventsBox(events);
    loadBotsBox(bots);
  }, 5000);

  return {
    unmount: () => clearInterval(timer),
    relang: () => {
      const fresh = hero();
      banner.replaceWith(fresh);
      banner = fresh;
      customTitle.textContent = t("lobby.new");
      customHelp.textContent = t("lobby.customHelp");
      if (meta) {
        buildQuick(quick, meta);
        buildForm(form, meta, state);
      }
      drawOpen(open);
      drawHistory(history);
      drawBotsBox(bots);
      loadOpen(open);
      loadHistory(history);
      loadEventsBox(events);
    },
  };
}

function buildForm(form, meta, state) {
  const name0 = form.querySelector("#name");
  const typed = name0 ? name0.value : null;
  const publicBefore = form.querySelector("#public");
  const variantSel = h("select", { id: "variant", name: "variant" });
  for (const v of meta.variants) variantSel.append(h("option", { value: v.name }, variantName(v.name)));
  const variantDesc = h("p", { class: "variant-desc muted", id: "variant-desc" });
  const playersSel = h("select", { id: "players", name: "players" });
  const teamsSel = h("select", { id: "teams", name: "teams" });
  const targetSel = h("select", { id: "target", name: "target" });
  const seatsBox = h("fieldset", { class: "seats" });
  const name = h("input", { id: "name", name: "name", type: "text", maxlength: meta.limits ? meta.limits.name_length : 24,
    value: typed ?? (nickname() || ""), placeholder: t("lobby.defaultName"), autocomplete: "nickname" });
  const pub = h("input", { id: "public", type: "checkbox", checked: Boolean(publicBefore && publicBefore.checked) });
  // rated play is for accounts (off by default: a friends' table is unrated unless asked)
  const ratedBefore = form.querySelector("#rated");
  const rated = currentUser() ? h("input", { id: "rated", type: "checkbox", checked: Boolean(ratedBefore && ratedBefore.checked),
    "aria-describedby": "rated-help" }) : null;
  const teachBefore = form.querySelector("#table-teach");
  const teach = h("input", { id: "table-teach", type: "checkbox", checked: teachBefore ? teachBefore.checked : true });
  const advanced = h("input", { id: "advanced", type: "checkbox", checked: state.advanced,
    "aria-describedby": "advanced-help" });
  const advancedHelp = h("p", { id: "advanced-help", class: "muted small advanced-help" });
  const error = h("p", { class: "error", role: "alert" });
  const start = h("button", { type: "submit", class: "primary big start" }, t("lobby.start"));

  const variantOf = () => meta.variants.find((v) => v.name === state.variant);
  const options = rulesOptions(state, variantOf);

  function fillPlayers() {
    const v = variantOf();
    replace(playersSel, v.players.map((n) => h("option", { value: n, selected: n === state.players }, String(n))));
    if (!v.players.includes(state.players)) state.players = v.players[0];
    playersSel.value = String(state.players);
    fillTeams();
  }

  function fillTeams() {
    const options = (variantOf().teams || {})[String(state.players)] || [state.players];
    if (!options.includes(state.teams)) state.teams = options[0];
    replace(teamsSel, options.map((n) => h("option", { value: n, selected: n === state.teams },
      n === state.players ? t("lobby.teams.each") : t("lobby.teams.n", { n, k: state.players / n }))));
    teamsSel.disabled = options.length < 2;
    fillSeats();
  }

  function fillTargets(keep = false) {
    const def = variantOf().target;
    const values = [...new Set([def, ...TARGETS])].sort((a, b) => a - b);
    if (!keep || !values.includes(state.target)) state.target = def;
    replace(targetSel, values.map((n) => h("option", { value: n, selected: n === state.target }, t("lobby.points", { n }))));
  }

  const levels = meta.levels || meta.bot_levels.slice(0, 4);
  const engines = meta.bot_levels.filter((name) => !levels.includes(name));

  function botOptions(value) {
    const out = levels.map((level) => h("option", { value: `bot:${level}`, selected: value === `bot:${level}` },
      t("lobby.bot", { level: levelName(level) })));
    if (state.advanced && engines.length) {
      out.push(h("optgroup", { label: t("lobby.engines") }, engines.map((name) =>
        h("option", { value: `bot:${name}`, selected: value === `bot:${name}` }, t("lobby.engine", { name })))));
    }
    return out;
  }

  function fillAdvanced() {
    replace(advancedHelp, state.advanced
      ? [t("lobby.advancedHelp"), h("ul", {}, engines.map((name) =>
        h("li", {}, h("strong", {}, name), ": ", engineText(name))))]
      : t("lobby.advancedHelp"));
  }

  function fillSeats() {
    const seats = [];
    const engineSeat = (v) => engines.some((name) => v === `bot:${name}`);
    for (let i = 0; i < state.players; i++) {
      let prev = state.seats && state.seats[i];
      if (prev && !state.advanced && engineSeat(prev)) prev = "bot:intermediate";
      seats.push(prev || (i === 0 ? "you" : "bot:intermediate"));
    }
    seats[0] = "you";
    state.seats = seats;
    const rows = [h("legend", {}, t("lobby.seats"))];
    seats.forEach((value, i) => {
      const sideNote = state.teams < state.players ? ` · ${t("table.side", { n: (i % state.teams) + 1 })}` : "";
      const label = h("label", { for: `seat-${i}` }, t("lobby.seat", { n: i + 1 }), sideNote);
      if (i === 0) {
        rows.push(h("div", { class: "seat-row" }, label, h("output", { id: "seat-0" }, t("lobby.you"))));
        return;
      }
      const sel = h("select", { id: `seat-${i}`, onchange: (e) => { state.seats[i] = e.target.value; } });
      sel.append(h("option", { value: "human", selected: value === "human" }, t("lobby.human")));
      sel.append(...botOptions(value));
      for (const name of meta.external_bots ? meta.external_bot_names || [] : []) {
        sel.append(h("option", { value: `ext:${name}`, selected: value === `ext:${name}` },
          t("lobby.external", { name })));
      }
      rows.push(h("div", { class: "seat-row" }, label, sel));
    });
    if (engines.length) {
      rows.push(h("label", { class: "check advanced" }, advanced, t("lobby.advanced")), advancedHelp);
      fillAdvanced();
    }
    replace(seatsBox, rows);
  }

  advanced.addEventListener("change", () => {
    state.advanced = advanced.checked;
    fillSeats();
    advanced.focus();
  });

  variantSel.addEventListener("change", () => {
    state.variant = variantSel.value;
    variantDesc.textContent = variantLine(variantOf());
    fillTargets();
    fillPlayers();
    options.reset();
  });
  playersSel.addEventListener("change", () => { state.players = Number(playersSel.value); fillTeams(); });
  teamsSel.addEventListener("change", () => { state.teams = Number(teamsSel.value); fillSeats(); });
  targetSel.addEventListener("change", () => { state.target = Number(targetSel.value); });

  form.onsubmit = async (e) => {
    e.preventDefault();
    error.textContent = "";
    // one click is enough: without a nickname you play as "Player"
    const nick = name.value.trim() || t("lobby.defaultName");
    if (name.value.trim()) saveNickname(nick);
    const body = {
      variant: state.variant, players: state.players, teams: state.teams, target: state.target,
      public: pub.checked, teach: teach.checked, name: nick, creator_seat: 0,
      rated: Boolean(rated && rated.checked),
      seats: state.seats.map(seatRequest), options: options.chosen(),
    };
    start.disabled = true;
    try {
      const res = await api.createTable(body);
      saveSeat(res.table.id, { token: res.token, seat: res.seat, invite: res.invite });
      navigate(`/t/${encodeURIComponent(res.table.id)}`);
    } catch (err) {
      error.textContent = t("error.generic", { msg: err.message });
      start.disabled = false;
    }
  };

  replace(form,
    h("div", { class: "field" }, h("label", { for: "variant" }, t("lobby.variant")), variantSel),
    variantDesc,
    h("div", { class: "field-row" },
      h("div", { class: "field" }, h("label", { for: "players" }, t("lobby.players")), playersSel),
      h("div", { class: "field" }, h("label", { for: "teams" }, t("lobby.teams")), teamsSel),
      h("div", { class: "field" }, h("label", { for: "target" }, t("lobby.target")), targetSel)),
    seatsBox,
    options.el,
    // signed in, the seat takes the account's name
    currentUser() ? h("p", { class: "playing-as" }, t("lobby.playingAs", { name: currentUser().name }))
      : h("div", { class: "field" }, h("label", { for: "name" }, t("lobby.name")), name),
    h("label", { class: "check" }, pub, t("lobby.public")),
    h("label", { class: "check" }, teach, t("lobby.teach")),
    rated ? [h("label", { class: "check" }, rated, t("lobby.rated")),
      h("p", { id: "rated-help", class: "muted small" }, t("lobby.ratedHelp"))] : null,
    error,
    start);
  if (!variantOf()) state.variant = meta.variants[0].name;
  variantSel.value = state.variant;
  variantDesc.textContent = variantLine(variantOf());
  fillTargets(true);
  fillPlayers();
  document.documentElement.lang = lang();
}

/** Play at once: a bot of the chosen level in every other seat, the variant's own
 * players, sides and target; the choices are remembered for the next visit. */
function buildQuick(box, meta) {
  const levels = meta.levels || meta.bot_levels.slice(0, 4);
  const keptLevel = setting("quickLevel", "intermediate");
  const keptVariant = setting("quickVariant", "scopa");
  const level = h("select", { id: "quick-level" }, levels.map((l) =>
    h("option", { value: l, selected: l === keptLevel }, levelName(l))));
  const variant = h("select", { id: "quick-variant" }, meta.variants.map((v) =>
    h("option", { value: v.name, selected: v.name === keptVariant }, variantName(v.name))));
  const desc = h("p", { class: "muted small variant-desc", id: "quick-desc" });
  const play = h("button", { type: "submit", class: "primary big wide play-now-button" }, t("lobby.playNow"));
  const error = h("p", { class: "error", role: "alert" });
  const chosen = () => meta.variants.find((v) => v.name === variant.value) || meta.variants[0];
  const describe = () => { desc.textContent = variantLine(chosen()); };
  variant.addEventListener("change", describe);
  box.onsubmit = async (e) => {
    e.preventDefault();
    error.textContent = "";
    const v = chosen();
    saveSetting("quickLevel", level.value);
    saveSetting("quickVariant", v.name);
    const players = v.players[0];
    const teams = ((v.teams || {})[String(players)] || [players])[0];
    const seats = [{ kind: "human" }];
    for (let i = 1; i < players; i++) seats.push({ kind: "bot", level: level.value });
    play.disabled = true;
    try {
      const res = await api.createTable({
        variant: v.name, players, teams, target: v.target, public: false, teach: true,
        name: nickname() || t("lobby.defaultName"), creator_seat: 0, rated: false, seats, options: {},
      });
      saveSeat(res.table.id, { token: res.token, seat: res.seat, invite: res.invite });
      navigate(`/t/${encodeURIComponent(res.table.id)}`);
    } catch (err) {
      error.textContent = t("error.generic", { msg: err.message });
      play.disabled = false;
    }
  };
  replace(box,
    h("h1", { id: "play-title" }, t("lobby.playTitle")),
    h("div", { class: "field-row" },
      h("div", { class: "field" }, h("label", { for: "quick-level" }, t("lobby.opponent")), level),
      h("div", { class: "field" }, h("label", { for: "quick-variant" }, t("lobby.variant")), variant)),
    desc, error, play);
  describe();
}

/** A short welcome with three cards fanned out (decorative). */
function hero() {
  const fan = h("div", { class: "hero-fan", "aria-hidden": "true" },
    ["1d", "7d", "10d"].map((c) => h("div", { class: "card" }, cardFace(c))));
  return h("section", { class: "hero" }, fan,
    h("div", {}, h("p", { class: "hero-title" }, t("lobby.heroTitle")), h("p", { class: "muted" }, t("lobby.heroText")),
      deckPicker()));
}

/** What an engine does, in the page's language (a bot we do not know: its name alone). */
function engineText(name) {
  const key = `engine.${name}`;
  const text = t(key);
  return text === key ? "" : text;
}

/** A bot level's name in the page's language (other registered bots keep their own). */
function levelName(level) {
  const key = `level.${level}`;
  const text = t(key);
  return text === key ? level : text;
}

/** The form's seat value as the server's seat request. */
function seatRequest(value) {
  if (value === "you" || value === "human") return { kind: "human" };
  if (value.startsWith("ext:")) return { kind: "external", bot: value.slice(4) };
  return { kind: "bot", level: value.slice(4) };
}

// the last lists fetched: redrawn at once in a new language, then fetched again
const seen = { tables: [], matches: [] };

async function loadOpen(box) {
  try {
    seen.tables = (await api.tables()).tables;
  } catch {
    seen.tables = [];
  }
  drawOpen(box);
}

function drawOpen(box) {
  const tables = seen.tables;
  const list = h("ul", { class: "table-list" });
  for (const table of tables) {
    const names = table.seats.filter((s) => s.taken).flatMap((s, i) =>
      [i ? ", " : "", ...nameWithBadge(s.name, s.bot_account)]);
    const free = table.status === "waiting" && table.invite;
    list.append(h("li", {},
      h("span", { class: "what" }, `${variantName(table.variant)} · ${t("lobby.playersN", { n: table.players })} · ${t("table.target", { n: table.target })}`),
      h("span", { class: "who muted" }, names),
      h("span", { class: "status" }, t(`lobby.status.${table.status}`)),
      free ? h("a", { class: "button", href: `/join/${encodeURIComponent(table.invite)}` }, t("lobby.join")) : null,
      h("a", { class: "button ghost", href: `/t/${encodeURIComponent(table.id)}` }, t("lobby.watch"))));
  }
  redraw(box, h("h2", { id: "open-title" }, t("lobby.open")),
    tables.length ? list : h("p", { class: "muted" }, t("lobby.none")));
}

async function loadHistory(box) {
  try {
    seen.matches = (await api.matches()).matches;
  } catch {
    seen.matches = [];
  }
  drawHistory(box);
}

function drawHistory(box) {
  const matches = seen.matches;
  const list = h("ul", { class: "table-list" });
  for (const match of matches.slice(0, 8)) {
    const rules = match.rules || { players: match.players.length };
    const winners = match.winner === null || match.winner === undefined
      ? "" : seatsOf(match.winner, rules, match).map((seat) => match.players[seat]).join(" & ");
    list.append(h("li", {},
      h("span", { class: "what" }, `${variantName(match.variant)} · ${match.players.join(" – ")}`),
      h("span", { class: "status" }, match.scores.join(" – ")),
      winners ? h("span", { class: "muted small" }, t("lobby.wonBy", { name: winners })) : null,
      h("a", { class: "button ghost", href: `/replay/${encodeURIComponent(match.id)}` }, t("lobby.replay"))));
  }
  replace(box, h("h2", { id: "history-title" }, t("nav.history")),
    matches.length ? list : h("p", { class: "muted" }, t("lobby.history.none")));
}
