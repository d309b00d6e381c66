// Table chat: the socket's own channel (players' or spectators'), quick phrases shown in
// the reader's language, free text always set as text (never parsed as HTML), mute a
// speaker for yourself (kept for the browser session) and report a message.
import { h, replace } from "./dom.js";
import { t } from "./i18n.js";
import { botBadge } from "./botbadge.js";

const MUTES = "scopa.mutes.";

function savedMutes(tableId) {
  try {
    const list = JSON.parse(sessionStorage.getItem(MUTES + tableId) || "[]");
    return Array.isArray(list) ? list.filter((a) => typeof a === "string") : [];
  } catch {
    return [];
  }
}

/**
 * @param {string} tableId
 * @param {{send: Function, nameOf: Function}} io  send(frame) -> bool; nameOf(seat) -> name
 */
export function chatPanel(tableId, io) {
  const st = {
    channel: null, you: null, messages: [], muted: new Set(savedMutes(tableId)),
    limit: 200, phrases: [], reported: new Set(), error: "",
  };
  const heading = h("h2", { id: "chat-title" });
  const note = h("p", { class: "muted small chat-note" });
  const list = h("ol", { class: "chat-list" });
  const log = h("div", { class: "chat-log", role: "log", "aria-live": "polite", "aria-labelledby": "chat-title", tabindex: "0" }, list);
  const phraseBox = h("div", { class: "chat-phrases", role: "group" });
  const input = h("input", { type: "text", id: "chat-input", class: "chat-input", autocomplete: "off", maxlength: st.limit });
  const sendButton = h("button", { type: "submit", class: "chat-send" });
  const form = h("form", { class: "chat-form" }, input, sendButton);
  const error = h("p", { class: "chat-error", role: "status" });
  const mutedBox = h("div", { class: "chat-muted" });
  const el = h("section", { class: "chat-panel", "aria-labelledby": "chat-title", hidden: true },
    heading, note, log, phraseBox, form, error, mutedBox);

  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    if (io.send({ type: "chat", text })) input.value = "";
  });

  function authorName(author, name) {
    if (author === st.you) return t("chat.you");
    if (author.startsWith("w")) return t("chat.spectator", { n: author.slice(1) });
    const seat = Number(author.slice(1));
    return name || io.nameOf(seat);
  }

  function persistMutes() {
    sessionStorage.setItem(MUTES + tableId, JSON.stringify([...st.muted]));
  }

  function setMuted(author, muted) {
    if (muted) st.muted.add(author);
    else st.muted.delete(author);
    persistMutes();
    io.send({ type: "mute", author, muted });
    render();
  }

  function messageItem(m) {
    const who = authorName(m.author, m.name);
    const body = m.phrase ? t(m.phrase) : m.text;
    const mine = m.author === st.you;
    const item = h("li", { class: `chat-message${mine ? " mine" : ""}${m.phrase ? " phrase" : ""}`, dataset: { id: String(m.id), author: m.author } },
      h("span", { class: "chat-author" }, who), io.isBot && io.isBot(m.author) ? [" ", botBadge()] : null, " ",
      // free text goes in as a text node only: a message is never HTML
      h("span", { class: "chat-text" }, body));
    if (!mine) {
      const reported = st.reported.has(m.id);
      item.append(h("span", { class: "chat-actions" },
        h("button", { type: "button", class: "link chat-mute", "aria-label": t("chat.muteWho", { name: who }), onclick: () => setMuted(m.author, true) }, t("chat.mute")),
        h("button", { type: "button", class: "link chat-report", disabled: reported, "aria-label": reported ? null : t("chat.reportWho", { name: who }),
          onclick: () => { if (io.send({ type: "report", id: m.id })) { st.reported.add(m.id); render(); } } },
        reported ? t("chat.reported") : t("chat.report"))));
    }
    return item;
  }

  /** The panel's own words (in the language now). */
  function label() {
    const spectators = st.channel === "spectators";
    heading.textContent = t(spectators ? "chat.titleSpectators" : "chat.title");
    note.textContent = t(spectators ? "chat.spectatorsOnly" : "chat.playersOnly");
    input.setAttribute("aria-label", t("chat.message"));
    input.placeholder = t("chat.message");
    input.maxLength = st.limit;
    sendButton.textContent = t("chat.send");
    phraseBox.setAttribute("aria-label", t("chat.phrases"));
  }
  label();

  // hidden until the server says which channel this socket is in
  function render() {
    if (!st.channel) return;
    el.hidden = false;
    label();
    replace(phraseBox, st.phrases.map((key) => h("button", { type: "button", class: "chat-phrase", dataset: { phrase: key },
      onclick: () => io.send({ type: "chat", phrase: key }) }, t(key))));
    const shown = st.messages.filter((m) => !st.muted.has(m.author));
    const atBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 24;
    replace(list, shown.length ? shown.map(messageItem) : h("li", { class: "muted chat-none" }, t("chat.none")));
    if (atBottom) log.scrollTop = log.scrollHeight;
    error.textContent = st.error;
    const muted = [...st.muted];
    replace(mutedBox, muted.length ? [h("span", { class: "muted small" }, t("chat.mutedList")), " ",
      muted.map((a) => h("button", { type: "button", class: "link chat-unmute", onclick: () => setMuted(a, false) },
        t("chat.unmute", { name: authorName(a) })))] : []);
  }

  function add(m) {
    if (st.messages.some((x) => x.id === m.id)) return;
    st.messages.push(m);
    st.messages.sort((a, b) => a.id - b.id);
    if (st.messages.length > 200) st.messages.shift();
  }

  let errorTimer = null;
  function showError(text) {
    st.error = text;
    render();
    clearTimeout(errorTimer);
    errorTimer = setTimeout(() => { st.error = ""; render(); }, 5000);
  }

  return {
    el,
    /** The history on each (re)connection; mutes this browser kept are told again. */
    onHistory(msg) {
      if (msg.channel !== st.channel) {
        // e.g. a seat token no longer valid: now watching, in the spectators' chat
        st.messages = [];
        st.reported.clear();
      }
      st.channel = msg.channel;
      st.you = msg.you;
      st.limit = (msg.limits && msg.limits.length) || st.limit;
      st.phrases = msg.phrases || [];
      for (const m of msg.messages || []) add(m);
      const told = new Set(msg.muted || []);
      for (const a of told) st.muted.add(a);
      for (const a of st.muted) if (!told.has(a) && a !== st.you) io.send({ type: "mute", author: a, muted: true });
      persistMutes();
      render();
    },
    onChat(msg) {
      if (msg.channel !== st.channel) return;
      add(msg.message);
      render();
    },
    onMuted(msg) {
      st.muted = new Set(msg.muted || []);
      persistMutes();
      render();
    },
    /** A chat error: shown under the chat; false when the error is not the chat's. */
    onError(msg) {
      if (!["chat", "mute", "report"].includes(msg.ref)) return false;
      const known = ["chat_too_long", "chat_rate_limited", "chat_empty"];
      showError(known.includes(msg.code) ? t(`chat.error.${msg.code}`, { n: st.limit }) : t("chat.error.other", { msg: msg.message || msg.code }));
      return true;
    },
    relang: render,
  };
}
