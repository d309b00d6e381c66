// Resigning a match: the side panel's button and the confirmation it asks for first (a
// native modal <dialog>: the browser keeps the focus inside, Escape cancels, and the
// focus goes back to the button). The server decides what a resignation does.
import { h } from "./dom.js";
import { t } from "./i18n.js";

/** Whether the page's seat may resign now: seated, the match under way, not resigned. */
export function mayResign(m) {
  if (m.seat === null || m.seat === undefined || !m.view || !m.state || m.state.match_over) return false;
  const mine = m.table && m.table.seats && m.table.seats[m.seat];
  return Boolean(mine && !mine.resigned);
}

/** Whether the page's seat resigned this match (a stand-in plays it now). */
export function resigned(m) {
  const mine = m.seat !== null && m.seat !== undefined && m.table && m.table.seats && m.table.seats[m.seat];
  return Boolean(mine && mine.resigned && m.state && !m.state.match_over);
}

/** The confirmation dialog; ``onConfirm`` is called when the player really means it. */
export function resignDialog(onConfirm) {
  const yes = h("button", { type: "button", class: "danger confirm-resign" }, t("resign.confirm"));
  const no = h("button", { type: "button", class: "keep-playing", autofocus: true }, t("resign.cancel"));
  const dialog = h("dialog", { class: "resign-dialog", "aria-labelledby": "resign-title", "aria-describedby": "resign-what" },
    h("h2", { id: "resign-title" }, t("resign.title")),
    h("p", { id: "resign-what" }, t("resign.what")),
    h("div", { class: "actions" }, no, yes));
  no.addEventListener("click", () => dialog.close());
  yes.addEventListener("click", () => {
    dialog.close();
    onConfirm();
  });
  return dialog;
}

/** What a ``resigned`` frame says, for the banner and screen readers (``name`` null:
 * the page's own seat). */
export function resignedText(msg, name) {
  if (name === null) return t(msg.ends ? "resign.youEnded" : "resign.done");
  return t(msg.ends ? "resign.endedBy" : "resign.leftBy", { name });
}
