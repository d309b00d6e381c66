// The table page: one socket, a queue of server frames rendered one at a time (so moves
// animate in order), and the player's intents sent back. The server has the authority.
import { h, replace } from "./dom.js";
import { lang, t } from "./i18n.js";
import { setDeckContext } from "./decks/choice.js";
import { api } from "./api.js";
import { TableSocket } from "./socket.js";
import { forgetSeat, inviteFor, saveSeat, saveSetting, seatFor, setting } from "./store.js";
import { navigate } from "./nav.js";
import { lastPlayText, renderPlayArea, seatName, sideName } from "./tableview.js";
import {
  applyHandEnd, applyMatchEnd, applyState, applyWaiting, applyWelcome, newModel, selectCard, selectMove,
} from "./tablemodel.js";
import { animateDeal, animateMove, snapshot, SPEEDS } from "./anim.js";
import { commitmentBox, inviteBox, settingsBox, teachSwitch } from "./sidepanel.js";
import { accountBox } from "./accountside.js";
import { shortcutsDialog } from "./shortcuts.js";
import { moveSound, playSound, setSoundOn, soundOn } from "./sound.js";
import { matchMoment, momentOf, showMoment } from "./moment.js";
import { sideCount } from "./sides.js";
import { renderTeach, teachAllowed, teachSetting } from "./teach.js";
import { chatPanel } from "./chat.js";
import { endDialog } from "./dialogs.js";
import { loadSession } from "./session.js";
import { keepUnchanged } from "./morph.js";
import { mayResign, resignDialog, resigned, resignedText } from "./resign.js";

export function mountTable(main, tableId) {
  const mine = seatFor(tableId);
  const m = newModel(tableId, mine, { speed: setting("speed", "fast"), teach: setting("teach", false) });
  const banner = h("p", { class: "banner", role: "status", hidden: true });
  const playHost = h("div", { class: "play-host" });
  const side = h("aside", { class: "side-panel" });
  const overlay = h("div", { class: "overlay", hidden: true });
  const momentHost = h("div", { class: "moment-host" });
  const heading = h("h1", { class: "sr-only" }, t("table.heading"));
  const root = h("div", { class: "table-page" }, heading, banner, playHost, side, overlay, momentHost);
  m.soundOn = soundOn();
  const chat = chatPanel(tableId, { send: (frame) => socket.send(frame), nameOf: (seat) => seatName(m.table, seat),
    isBot: (author) => /^s\d+$/.test(author) && !!(m.table && m.table.seats[Number(author.slice(1))] || {}).bot_account });
  main.append(root);
  const live = document.getElementById("live");
  let shortcuts = shortcutsDialog();
  root.append(shortcuts);
  let resignBox = h("dialog", { class: "resign-dialog", hidden: true });
  root.append(resignBox);
  /** The list of shortcuts (rebuilt each time: the language may have changed). */
  function showShortcuts() {
    if (shortcuts.open) return;
    const fresh = shortcutsDialog();
    shortcuts.replaceWith(fresh);
    shortcuts = fresh;
    shortcuts.showModal();
  }

  const queue = [];
  let busy = false;
  /** the server said there is no such table (or not for us): nothing more is drawn */
  let unknownTable = false;

  /** Tell screen readers: each message its own line in the live region (a later one
   * does not wipe out an earlier one still being read); the last few are kept. */
  function say(text) {
    if (!live || !text) return;
    live.append(h("p", {}, text));
    while (live.childElementCount > 4) live.firstElementChild.remove();
  }

  function showBanner(text) {
    banner.hidden = !text;
    banner.textContent = text || "";
  }

  // ---- rendering ---------------------------------------------------------------
  function renderPlay() {
    if (!m.view) {
      replace(playHost, waitingArea());
      return;
    }
    const focusKey = focusedKey();
    const next = keepUnchanged(playHost.firstElementChild, renderPlayArea(m, actions));
    replace(playHost, next);
    restoreFocus(focusKey);
  }

  /** Before the match starts: who is seated, and the link to send. */
  function waitingArea() {
    const seats = h("ul", { class: "waiting-seats" });
    for (const info of (m.table && m.table.seats) || []) {
      seats.append(h("li", { class: info.taken ? "taken" : "free" },
        info.taken ? info.name : t("table.freeSeat")));
    }
    const url = inviteUrl();
    return h("div", { class: "play-area waiting-area" },
      h("p", { class: "turn waiting", role: "status" }, t("table.waiting")),
      seats,
      url ? inviteBox(url) : null,
      accountBox(m.table, isSeated(), inviteCode(), !m.view && hasFreeSeat()));
  }

  // the folded boxes of the side panel stay as the player left them across redraws
  const folds = { settings: false, fairness: false };
  function renderSide() {
    const seated = m.seat !== null && m.seat !== undefined;
    // first what the play needs: the invite, the last play, Teach me; then the chat; then
    // the quiet things, each behind one control (settings, resign, the shuffle's check)
    const parts = [];
    const url = inviteUrl();
    if (url && hasFreeSeat() && m.view) parts.push(inviteBox(url));
    if (m.view) {
      const last = lastPlayText(m.view, m.table);
      if (last) parts.push(h("p", { class: "last-play" }, t("table.last", { text: last })));
    }
    if (resigned(m)) parts.push(h("p", { class: "resigned muted" }, t("resign.done")));
    if (m.table) {
      const teach = seated ? teachSwitch(m, actions) : null;
      parts.push(h("div", { class: "teach-box" }, teachSetting(m.table), teach));
    }
    if (m.teachOn && m.yourTurn && teachAllowed(m.table)) parts.push(teachDrawer(renderTeach(m.analysis, actions.pickFromTeach)));
    // before the match the waiting area holds this box: said once on the page, not twice
    const accounts = m.view ? accountBox(m.table, isSeated(), inviteCode(), hasFreeSeat()) : null;
    if (accounts) parts.push(accounts);
    if (m.table && m.table.spectators) {
      parts.push(h("p", { class: "watching muted" }, t("table.watching", { n: m.table.spectators })));
    }
    if ((m.handEnd || m.matchEnd) && !m.sheetOpen) {
      // the closed result (or an earlier hand's sheet) can be opened again from here
      parts.push(h("button", { type: "button", class: "ghost reopen-sheet", onclick: () => { m.sheetOpen = true; renderOverlay(); renderSide(); } },
        m.matchEnd ? t("end.show") : t("sheet.title", { n: m.handEnd.hand_number })));
    }
    const after = [];
    const quiet = [];
    if (seated) quiet.push(settingsBox(m, actions, folds.settings, (open) => { folds.settings = open; }));
    if (mayResign(m)) {
      quiet.push(h("button", { type: "button", class: "ghost resign", onclick: actions.askResign }, t("resign.button")));
    }
    if (quiet.length) after.push(h("div", { class: "quiet-row" }, quiet));
    if ((m.state && m.state.commitment) || m.seeds.length) {
      after.push(commitmentBox(m.state && m.state.commitment, m.seeds, folds.fairness, (open) => { folds.fairness = open; }));
    }
    // the chat stays put (its input keeps focus and what is typed); the rest is redrawn
    for (const el of [...side.children]) if (el !== chat.el) el.remove();
    if (!chat.el.isConnected) side.append(chat.el);
    chat.el.before(...parts.filter(Boolean));
    chat.el.after(...after);
  }

  // on a phone the side panel sits below the table: Teach me floats in a drawer at the
  // bottom of the screen instead, reachable while the player chooses
  const phone = window.matchMedia("(max-width: 820px)");
  let drawerOpen = false;
  function teachDrawer(teach) {
    if (!phone.matches) return teach;
    const drawer = h("details", { class: "teach-drawer", open: drawerOpen },
      h("summary", {}, t("teach.switch")), teach);
    drawer.addEventListener("toggle", () => { drawerOpen = drawer.open; });
    return drawer;
  }
  const onPhoneChange = () => renderSide();
  phone.addEventListener("change", onPhoneChange);

  let overlayKey = "";
  let returnFocus = null;
  /** Where the focus was before the dialog opened, if that is still there; else the hand. */
  function giveFocusBack() {
    const el = returnFocus;
    returnFocus = null;
    if (el && el !== document.body && document.contains(el) && !overlay.contains(el)) el.focus({ preventScroll: true });
    else focusHand();
  }

  // the sheet dialog keeps the focus: Tab and Shift+Tab go round inside it
  overlay.addEventListener("keydown", (e) => {
    if (e.key !== "Tab") return;
    const items = [...overlay.querySelectorAll("button, a[href], input, select, [tabindex='0']")]
      .filter((el) => !el.disabled && el.offsetParent !== null);
    if (!items.length) return;
    const first = items[0];
    const last = items[items.length - 1];
    if (e.shiftKey && document.activeElement === first) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault();
      first.focus();
    }
  });

  let ratingsAsked = null;
  let eventTimer = null;

  function renderOverlay() {
    const show = Boolean(m.view && m.sheetOpen && (m.handEnd || m.matchEnd));
    const wasShown = !overlay.hidden;
    if (show && !wasShown) returnFocus = document.activeElement;
    // the top bar stays in sight and usable above the dialog (the way to the lobby, the
    // language, the account)
    const bar = document.querySelector(".topbar");
    overlay.style.top = show && bar ? `${Math.max(0, bar.getBoundingClientRect().bottom)}px` : "";
    overlay.hidden = !show;
    // the dialog is modal: the rest of the page cannot be reached meanwhile
    playHost.inert = show;
    side.inert = show;
    if (!show) {
      overlay.replaceChildren();
      overlayKey = "";
      if (wasShown) giveFocusBack();
      return;
    }
    // rebuild only when what the dialog shows changed (keeps focus and the seed check)
    const key = JSON.stringify([m.handEnd && m.handEnd.hand_number, Boolean(m.matchEnd),
      m.rematch && m.rematch.votes, m.view.hand_over, m.state && m.state.match_over, lang(),
      m.waitingFor, m.continued, m.ratingChanges && m.ratingChanges.match_id,
      m.nextTable && m.nextTable.table_id]);
    if (key === overlayKey) return;
    overlayKey = key;
    replace(overlay, endDialog(m, actions));
    const button = overlay.querySelector(".primary");
    if (button) button.focus();
    tickCountdown();
  }

  /** A rated match's end: fetch how it moved the players' ratings (the server records
   * them before it announces the end), once per match, then show them in the box. */
  /** An event's table whose match is over: watch the event (every few seconds, while
   * this page is shown) until the viewer's next table is paired, then offer it in the
   * box, as lichess's Swiss does. */
  function watchEvent() {
    const eventId = m.table && m.table.event_id;
    if (!eventId || !m.matchEnd || eventTimer || m.seat === null || m.seat === undefined) return;
    const look = async () => {
      try {
        const d = await api.event(eventId);
        const mine = d.my_table && d.my_table.table_id !== m.table.id ? d.my_table : null;
        const next = mine ? { ...mine, event_id: eventId } : null;
        if ((next && next.table_id) !== (m.nextTable && m.nextTable.table_id)) {
          m.nextTable = next;
          renderOverlay();
        }
        if (d.status === "finished") clearInterval(eventTimer);
      } catch (err) {
        console.error(err);
      }
    };
    eventTimer = setInterval(look, 5000);
    look();
  }

  async function loadRatings() {
    const id = m.matchEnd && m.matchEnd.match_id;
    if (!id || !(m.table && m.table.rated) || ratingsAsked === id) return;
    ratingsAsked = id;
    try {
      m.ratingChanges = await api.matchRatings(id);
    } catch (err) {
      console.error(err);
      return;
    }
    renderOverlay();
  }

  function renderAll() {
    if (unknownTable) return; // the "no such table" notice stays whatever arrives later
    // the variant picks the deck while the player has chosen none (Spanish cards for Escoba)
    setDeckContext((m.view && m.view.rules && m.view.rules.variant) || (m.table && m.table.variant));
    renderPlay();
    renderSide();
    renderOverlay();
  }

  function hasFreeSeat() {
    return Boolean(m.table && m.table.seats && m.table.seats.some((x) => x.kind === "human" && !x.taken));
  }

  function inviteCode() {
    return (mine && mine.invite) || (m.table && m.table.invite) || null;
  }

  function inviteUrl() {
    const code = inviteCode();
    return code ? `${location.origin}/join/${encodeURIComponent(code)}` : null;
  }

  function isSeated() {
    return m.seat !== null && m.seat !== undefined;
  }

  /** Where the focus is in the play area, as a selector to find it after a re-render;
   * "hand" when it fell to the page (the element it was on is gone, e.g. after a move). */
  function focusedKey() {
    const el = document.activeElement;
    if (!el || el === document.body) return focusWasInPlay ? "hand" : null;
    if (!playHost.contains(el)) return null;
    if (el.dataset.card) return `.hand [data-card="${CSS.escape(el.dataset.card)}"]`;
    if (el.classList.contains("play")) return ".play";
    if (el.classList.contains("option")) return `.option:nth-child(${[...el.parentNode.children].indexOf(el) + 1})`;
    return "hand";
  }

  // whether the focus was last in the play area (so when its element goes, it is put
  // back in the hand; a page just opened is left alone)
  let focusWasInPlay = false;
  const trackFocus = (e) => { focusWasInPlay = playHost.contains(e.target); };
  document.addEventListener("focusin", trackFocus);

  function focusIn(selector) {
    const el = playHost.querySelector(selector);
    if (el) el.focus({ preventScroll: true });
  }

  /** The hand's tab stop (its chosen or first card), else the hand itself. */
  function focusHand() {
    const el = playHost.querySelector('.hand button.card[tabindex="0"]') || playHost.querySelector(".hand");
    if (el) el.focus({ preventScroll: true });
  }

  /** Focus back where it was, or in the hand: after a move the player is in their hand,
   * not at the top of the page (unless a dialog is open). */
  function restoreFocus(key) {
    if (!key || !overlay.hidden || shortcuts.open || resignBox.open) return;
    const el = key === "hand" ? null : playHost.querySelector(key);
    if (!el) {
      focusHand();
      return;
    }
    if (el.matches(".hand button.card")) {
      for (const card of playHost.querySelectorAll(".hand button.card")) card.tabIndex = card === el ? 0 : -1;
    }
    el.focus({ preventScroll: true });
  }

  let countdownTimer = null;
  function tickCountdown() {
    clearInterval(countdownTimer);
    const el = overlay.querySelector(".countdown");
    const at = m.handEnd && m.handEnd.next_hand_at;
    if (!el || !at) return;
    const skew = m.serverSkew || 0;
    const update = () => {
      const left = Math.max(0, Math.round(at - (Date.now() / 1000 + skew)));
      const clock = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
      el.textContent = t("sheet.nextIn", { n: clock });
    };
    update();
    countdownTimer = setInterval(update, 1000);
  }

  // ---- frames from the server -----------------------------------------------------
  function onMessage(msg) {
    if (msg.type === "state") m.latestStateId = msg.state_id;
    if (msg.type === "analysis") return onAnalysis(msg);
    if (msg.type === "error") return onError(msg);
    if (msg.type === "pong") return undefined;
    // chat is shown as it comes: it does not wait behind the animations of the play
    if (msg.type === "chat_history") return chat.onHistory(msg);
    if (msg.type === "chat") return chat.onChat(msg);
    if (msg.type === "muted") return chat.onMuted(msg);
    if (msg.type === "reported") return undefined;
    queue.push(msg);
    pump();
    return undefined;
  }

  async function pump() {
    if (busy) return;
    busy = true;
    updateInput();
    while (queue.length) {
      const msg = queue.shift();
      try {
        await apply(msg);
      } catch (err) {
        console.error(err);
      }
    }
    busy = false;
    updateInput();
  }

  async function apply(msg) {
    switch (msg.type) {
      case "welcome":
        applyWelcome(m, msg);
        return;
      case "state":
        return showState(msg);
      case "hand_end":
        applyHandEnd(m, msg);
        renderSide();
        renderOverlay();
        say(t("sheet.title", { n: msg.hand_number }));
        return;
      case "waiting":
        applyWaiting(m, msg);
        renderOverlay();
        return;
      case "match_end": {
        const fresh = !m.matchEnd;
        applyMatchEnd(m, msg);
        renderSide();
        renderOverlay();
        loadRatings();
        watchEvent();
        if (fresh && m.view) {
          const rules = m.view.rules;
          const seated = m.seat !== null && m.seat !== undefined;
          const won = seated && msg.winner === m.seat % sideCount(rules, m.table);
          if (won || !seated) playSound("win");
          showMoment(momentHost, playHost, matchMoment(won, sideName(m.table, rules, msg.winner)), { wait: false });
        }
        return;
      }
      case "rematch":
        m.rematch = msg;
        renderOverlay();
        return;
      case "resigned": {
        const text = resignedText(msg, msg.seat === m.seat ? null : seatName(m.table, msg.seat));
        say(text);
        showBanner(text);
        setTimeout(() => showBanner(""), 6000);
        return;
      }
      default:
    }
  }

  async function showState(msg) {
    const before = m.view ? snapshot(playHost) : null;
    const wasMyTurn = m.yourTurn;
    applyState(m, msg);
    renderAll();
    const event = msg.event;
    const ms = SPEEDS[m.speed] ?? SPEEDS.fast;
    if (before && event && event.kind === "move") {
      playSound(moveSound(event));
      await animateMove(playHost, before, event, ms);
      // a scopa, the settebello: a banner every seat sees (held a moment when animated)
      const moment = momentOf(event, seatName(m.table, event.seat), event.seat === m.seat);
      if (moment) await showMoment(momentHost, playHost, moment, { wait: ms > 0 });
    }
    if (event && (event.dealt || event.kind === "deal" || event.kind === "match_start")) {
      playSound("deal");
      await animateDeal(playHost, event.kind === "move" ? before : null, ms);
    }
    if (m.yourTurn && !wasMyTurn) playSound("turn");
    if (m.view) {
      const last = event && event.kind === "move" ? lastPlayText(m.view, m.table) : "";
      say([last, m.yourTurn ? t("table.yourTurn") : ""].filter(Boolean).join(". "));
    }
    if (m.yourTurn && m.teachOn && teachAllowed(m.table)) requestTeach();
    document.title = m.yourTurn ? `● ${t("table.yourTurn")} · Scopa` : "Scopa";
    loadRatings();
    // the last state shown in full (animations done): what tests and tools wait for
    playHost.dataset.shown = String(msg.state_id);
  }

  function onAnalysis(msg) {
    if (!m.state || msg.state_id !== m.state.state_id) return;
    m.analysis = msg;
    renderSide();
  }

  function onError(msg) {
    if (chat.onError(msg)) return;
    if (msg.ref === "teach") {
      if (msg.code === "rate_limited" || msg.code === "busy") {
        // the previous analysis is still being computed, or the server's analyses are
        // all taken: ask again shortly
        const stateId = m.state && m.state.state_id;
        setTimeout(() => {
          if (m.teachOn && m.yourTurn && m.state && m.state.state_id === stateId) requestTeach();
        }, msg.code === "busy" ? 2000 : 800);
        return;
      }
      m.analysis = { error: msg.code };
      renderSide();
      return;
    }
    m.sending = false;
    if (msg.code === "bad_token") return;
    showBanner(t("error.generic", { msg: msg.message || msg.code }));
    setTimeout(() => showBanner(""), 4000);
    updateInput();
  }

  function onStatus(status) {
    if (status === "open") {
      showBanner("");
      socket.send({ type: "chat_open" }); // after each (re)connection: history, then live
    } else if (status === "lost") showBanner(t("table.disconnected"));
    else if (status === "unknown_table") noSuchTable();
    else if (status === "bad_token" && !(mine && mine.token)) noSuchTable(); // private, no invite
    else if (status === "bad_token") {
      // the stored seat is not valid here (any more): watch instead
      const invite = inviteFor(tableId);
      forgetSeat(tableId);
      showBanner(t("table.badToken"));
      m.seat = null;
      socket = new TableSocket(tableId, { invite }, { onMessage, onStatus: onSpectatorStatus });
      window.scopaSocket = socket;
    }
  }

  function onSpectatorStatus(status) {
    if (status === "open") socket.send({ type: "chat_open" });
    else if (status === "lost") showBanner(t("table.disconnected"));
    // a private table shows nothing to those without its invite
    else if (status === "unknown_table" || status === "bad_token") noSuchTable();
  }

  function noSuchTable() {
    unknownTable = true;
    replace(playHost, h("div", { class: "play-area waiting-area" },
      h("p", { class: "turn", role: "alert" }, t("table.unknown")),
      h("a", { class: "button", href: "/" }, t("table.toLobby"))));
    side.replaceChildren();
  }

  function requestTeach() {
    if (!m.state) return;
    m.analysis = { pending: true };
    socket.send({ type: "teach", state_id: m.state.state_id });
    renderSide();
  }

  /** Input is off while frames wait to be shown or a move is on its way. */
  function updateInput() {
    const off = busy || queue.length > 0 || m.sending;
    playHost.classList.toggle("locked", off);
  }

  // ---- the player's intents ----------------------------------------------------------
  const actions = {
    pickCard(card) {
      if (!m.yourTurn || m.sending) return;
      const sel = m.selection;
      if (sel && sel.card === card && sel.move) {
        actions.confirm();
        return;
      }
      if (!selectCard(m, card)) return;
      renderPlay();
      if (m.selection.moves.length > 1) focusIn(".chooser .option");
    },
    pickMove(move, { stay = false } = {}) {
      if (!m.selection) return;
      m.selection = { ...m.selection, move };
      renderPlay();
      // arrow keys in the options choose and stay there; a click goes on to Play
      focusIn(stay ? '.chooser .option[aria-checked="true"]' : ".chooser .play");
    },
    pickFromTeach(move) {
      if (!selectMove(m, move)) return;
      renderPlay();
      focusIn(".chooser .play");
    },
    preview(move) {
      const set = new Set(move ? move.capture : []);
      for (const el of playHost.querySelectorAll(".felt .card")) el.classList.toggle("preview", set.has(el.dataset.card));
    },
    cancel() {
      m.selection = null;
      renderPlay();
    },
    declare(yes) {
      if (m.sending || busy) return;
      if (socket.send({ type: "move", state_id: m.latestStateId, move: { declare: yes } })) {
        m.sending = true;
        updateInput();
      }
    },
    confirm() {
      const sel = m.selection;
      if (!sel || !sel.move || m.sending || busy) return;
      if (socket.send({ type: "move", state_id: m.latestStateId, move: { card: sel.move.card, capture: sel.move.capture } })) {
        m.sending = true;
        updateInput();
      }
    },
    next() {
      if (m.view && !m.view.hand_over) {
        // an earlier hand's sheet reopened from the side panel: just close it
        actions.closeSheet();
        return;
      }
      // the sheet stays up, saying who the table still waits for, until the deal
      if (m.continued || !socket.send({ type: "next" })) return;
      m.continued = true;
      renderOverlay();
    },
    closeSheet() {
      m.sheetOpen = false;
      renderOverlay();
      renderSide();
    },
    rematch() {
      socket.send({ type: "rematch" });
    },
    async goToEventTable(next) {
      try {
        const seat = await api.eventSeat(next.event_id);
        saveSeat(seat.table_id, { token: seat.token, seat: seat.seat, invite: seat.invite });
        navigate(`/t/${encodeURIComponent(seat.table_id)}`);
      } catch (err) {
        say(t("error.generic", { msg: err.message }));
      }
    },
    askResign() {
      // made afresh each time: the language may have changed
      const fresh = resignDialog(() => socket.send({ type: "resign" }));
      resignBox.replaceWith(fresh);
      resignBox = fresh;
      resignBox.showModal();
    },
    setSpeed(value) {
      m.speed = value;
      saveSetting("speed", value);
    },
    shortcuts() {
      showShortcuts();
    },
    setSound(on) {
      m.soundOn = on;
      setSoundOn(on);
    },
    setTeach(on) {
      m.teachOn = on;
      saveSetting("teach", on);
      if (on && m.yourTurn && teachAllowed(m.table)) requestTeach();
      else renderSide();
    },
  };

  function onKey(e) {
    if (e.target.closest("input, select, textarea") || e.ctrlKey || e.metaKey || e.altKey) return;
    if (shortcuts.open || resignBox.open) return;
    if (e.key === "?") {
      e.preventDefault();
      showShortcuts();
      return;
    }
    if (e.key === "Escape") {
      if (!overlay.hidden && m.matchEnd) actions.closeSheet();
      else if (!overlay.hidden && m.handEnd) actions.next();
      else actions.cancel();
      return;
    }
    const n = Number(e.key);
    if (m.yourTurn && n >= 1 && n <= 9) {
      const cards = playHost.querySelectorAll(".hand .card");
      if (cards[n - 1]) {
        cards[n - 1].focus();
        actions.pickCard(cards[n - 1].dataset.card);
      }
    }
  }
  document.addEventListener("keydown", onKey);

  renderAll();
  let socket = new TableSocket(tableId, { token: mine && mine.token, invite: inviteFor(tableId) }, { onMessage, onStatus });
  // handy for tests and for the curious: the live socket of this page
  window.scopaSocket = socket;
  // a spectator sees the table before the socket's welcome (a seat's welcome comes at once);
  // a private table is known only through its invite: asked for by id it is answered 404,
  // as an unknown table is
  const invite = inviteFor(tableId);
  const early = mine && mine.token ? null : invite ? api.invite(invite) : api.table(tableId);
  if (early) {
    early.then((table) => {
      if (!m.table) {
        m.table = table;
        renderAll();
      }
    }).catch(() => {});
  }
  // the side panel and the match-end box offer a guest to sign up and keep the seat: drawn
  // again once the page knows who is signed in (a reload must not take a player for a guest)
  let mounted = true;
  loadSession().then(() => {
    if (!mounted) return;
    overlayKey = "";
    renderAll();
  });

  return {
    unmount() {
      mounted = false;
      socket.close();
      clearInterval(countdownTimer);
      clearInterval(eventTimer);
      document.title = "Scopa";
      document.removeEventListener("keydown", onKey);
      phone.removeEventListener("change", onPhoneChange);
      document.removeEventListener("focusin", trackFocus);
    },
    relang() {
      heading.textContent = t("table.heading");
      chat.relang();
      renderAll();
    },
  };
}

export { seatName };
