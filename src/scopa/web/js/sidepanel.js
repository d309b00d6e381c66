// The panel beside the table: the invite link, Teach me, the settings and the shuffle's
// commitment (each folded behind one control).
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { SPEEDS } from "./anim.js";
import { deckPicker } from "./decks/picker.js";
import { teachAllowed } from "./teach.js";

/** The Teach me switch: a help while playing, in sight beside the table's own setting. */
export function teachSwitch(m, actions) {
  // off in rated games and where the table says so (the server sends "teach": false)
  if (!teachAllowed(m.table)) return null;
  const teach = h("input", {
    type: "checkbox", id: "teach", role: "switch", checked: m.teachOn,
    onchange: (e) => actions.setTeach(e.target.checked),
  });
  return h("label", { class: "switch" }, teach, h("span", {}, t("teach.switch")));
}

/** Sound, animation, cards and the keyboard's shortcuts: behind one disclosure, kept open
 * or closed across redraws (`open`, `onToggle`). */
export function settingsBox(m, actions, open, onToggle) {
  const speed = h("select", { id: "speed", onchange: (e) => actions.setSpeed(e.target.value) });
  for (const key of Object.keys(SPEEDS)) {
    speed.append(h("option", { value: key, selected: key === m.speed }, t(`settings.speed.${key}`)));
  }
  const sound = h("input", {
    type: "checkbox", id: "sound", role: "switch", checked: m.soundOn,
    onchange: (e) => actions.setSound(e.target.checked),
  });
  const box = h("details", { class: "table-settings", id: "table-settings", open },
    h("summary", {}, h("span", { class: "gear", "aria-hidden": "true" }, "⚙"), t("settings.title")),
    h("div", { class: "settings" },
      h("label", { class: "switch" }, sound, h("span", {}, t("settings.sound"))),
      h("div", { class: "field" }, h("label", { for: "speed" }, t("settings.speed")), speed),
      deckPicker(),
      h("button", { type: "button", class: "link keys-link", "aria-keyshortcuts": "?", onclick: actions.shortcuts },
        t("keys.title"), " ", h("kbd", { "aria-hidden": "true" }, "?"))));
  box.addEventListener("toggle", () => onToggle(box.open));
  return box;
}

export function inviteBox(url) {
  const input = h("input", { type: "text", readonly: true, value: url, class: "invite-url", "aria-label": t("table.invite") });
  const button = h("button", { type: "button", class: "copy" }, t("table.copy"));
  button.addEventListener("click", async () => {
    input.select();
    try {
      await navigator.clipboard.writeText(url);
    } catch {
      document.execCommand && document.execCommand("copy");
    }
    button.textContent = t("table.copied");
    setTimeout(() => { button.textContent = t("table.copy"); }, 1500);
  });
  return h("div", { class: "invite" }, h("h2", {}, t("table.invite")), h("div", { class: "row" }, input, button));
}

/** The shuffle's commitment (a hash) and the seeds of hands played: behind a "verify"
 * disclosure, for whoever wants to check; kept open across redraws like the settings. */
export function commitmentBox(commitment, seeds, open, onToggle) {
  const body = h("div", { class: "fairness-body" });
  if (commitment && commitment.commitment) {
    body.append(h("p", { class: "small muted" }, t("table.commitmentHelp")),
      h("p", { class: "small" }, t("table.commitment", { n: commitment.hand_number })),
      h("code", { class: "hash", title: commitment.commitment }, commitment.commitment));
  }
  for (const s of seeds) {
    body.append(h("div", { class: "seed-line" },
      h("p", { class: "small" }, `${t("sheet.seed")} · ${t("table.hand_number", { n: s.hand_number })}`),
      h("code", { class: "hash" }, s.seed),
      h("p", {}, h("a", { class: "action-link", href: s.verify_url, target: "_blank", rel: "noopener" }, t("sheet.verify")))));
  }
  const box = h("details", { class: "fairness", id: "fairness", open },
    h("summary", {}, t("table.verifyShuffle")), body);
  box.addEventListener("toggle", () => onToggle(box.open));
  return box;
}
