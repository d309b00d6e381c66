// The panel beside the table: settings, invite link, teach me, last play, seed commitment.
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { SPEEDS } from "./anim.js";
import { deckPicker } from "./decks/picker.js";
import { teachAllowed } from "./teach.js";

export function settingsBox(m, actions) {
  const speed = h("select", { id: "speed", onchange: (e) => actions.setSpeed(e.target.value) });
  for (const key of Object.keys(SPEEDS)) {
    speed.append(h("option", { value: key, selected: key === m.speed }, t(`settings.speed.${key}`)));
  }
  const teach = h("input", {
    type: "checkbox", id: "teach", role: "switch", checked: m.teachOn,
    onchange: (e) => actions.setTeach(e.target.checked),
  });
  const sound = h("input", {
    type: "checkbox", id: "sound", role: "switch", checked: m.soundOn,
    onchange: (e) => actions.setSound(e.target.checked),
  });
  // teach me is off in rated games (the server refuses it there): no switch to show
  const rated = Boolean(m.table && m.table.rated);
  return h("div", { class: "settings" },
    // off in rated games and where the table says so (the server sends "teach": false)
    teachAllowed(m.table) ? h("label", { class: "switch" }, teach, h("span", {}, t("teach.switch"))) : null,
    h("label", { class: "switch" }, sound, h("span", {}, t("settings.sound"))),
    h("label", { for: "speed" }, t("settings.speed"), " ", speed),
    deckPicker(),
    h("button", { type: "button", class: "link keys-link", "aria-keyshortcuts": "?", onclick: actions.shortcuts },
      t("keys.title"), " ", h("kbd", { "aria-hidden": "true" }, "?")));
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

export function commitmentBox(commitment, seeds) {
  const box = h("div", { class: "fairness" });
  if (commitment && commitment.commitment) {
    box.append(h("p", {}, t("table.commitment", { n: commitment.hand_number })),
      h("code", { class: "hash", title: commitment.commitment }, commitment.commitment));
  }
  for (const s of seeds) {
    box.append(h("details", {},
      h("summary", {}, `${t("sheet.seed")} · ${t("table.hand_number", { n: s.hand_number })}`),
      h("code", { class: "hash" }, s.seed),
      h("p", {}, h("a", { href: s.verify_url, target: "_blank", rel: "noopener" }, t("sheet.verify")))));
  }
  return box;
}
