// The keyboard shortcuts of the table page, listed in a modal <dialog> (opened with "?"
// or the link in the side panel; the browser keeps the focus inside and gives it back).
import { h } from "./dom.js";
import { t } from "./i18n.js";

/** [keys, what they do] — the message keys of each line. */
const KEYS = [
  ["keys.tab", "keys.tabWhat"],
  ["keys.arrows", "keys.arrowsWhat"],
  ["keys.enter", "keys.enterWhat"],
  ["keys.digits", "keys.digitsWhat"],
  ["keys.options", "keys.optionsWhat"],
  ["keys.esc", "keys.escWhat"],
  ["keys.help", "keys.helpWhat"],
];

export function shortcutsDialog() {
  const list = h("dl", { class: "keys" });
  for (const [keys, what] of KEYS) list.append(h("dt", {}, h("kbd", {}, t(keys))), h("dd", {}, t(what)));
  const close = h("button", { type: "button", class: "primary" }, t("sheet.close"));
  const dialog = h("dialog", { class: "shortcuts", "aria-labelledby": "shortcuts-title" },
    h("h2", { id: "shortcuts-title" }, t("keys.title")), list, h("div", { class: "actions" }, close));
  close.addEventListener("click", () => dialog.close());
  return dialog;
}
