// The page a one-time password-reset link opens (/reset/<token>): whose password it sets,
// a new password, and then the way to sign in. The server checks the link and the
// password; a used or expired link says so.
import { h, replace } from "./dom.js";
import { t } from "./i18n.js";
import { api } from "./api.js";
import { loadSession } from "./session.js";

export function mountReset(main, token) {
  const box = h("div", { class: "account reset" });
  main.append(box);
  let name = null;
  let state = "loading"; // loading | form | invalid | done
  let error = "";

  function draw() {
    if (state === "loading") {
      replace(box, h("p", { class: "muted", role: "status" }, t("reset.loading")));
      return;
    }
    if (state === "invalid" || state === "done") {
      replace(box, h("section", { class: "card-box", "aria-labelledby": "reset-title" },
        h("h1", { id: "reset-title" }, t("reset.title")),
        h("p", { role: state === "invalid" ? "alert" : "status", class: `reset-${state}` },
          t(state === "invalid" ? "reset.invalid" : "reset.done")),
        h("a", { class: "button primary", href: "/account" }, t("reset.toSignIn"))));
      return;
    }
    const pass = h("input", { id: "reset-password", type: "password", required: true, minlength: 10,
      maxlength: 128, autocomplete: "new-password", "aria-describedby": "reset-help" });
    const user = h("input", { type: "text", name: "username", autocomplete: "username", value: name, hidden: true, readonly: true });
    const form = h("form", { class: "card-box reset-form", "aria-labelledby": "reset-title" },
      h("h1", { id: "reset-title" }, t("reset.title")),
      h("p", {}, t("reset.for", { name })),
      user,
      h("div", { class: "field" }, h("label", { for: "reset-password" }, t("reset.new")), pass,
        h("p", { id: "reset-help", class: "muted small" }, t("account.passwordRule"))),
      h("p", { class: "error", role: "alert" }, error),
      h("button", { type: "submit", class: "primary" }, t("reset.save")));
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      try {
        await api.resetPassword({ token, password: pass.value });
        state = "done";
        loadSession(true); // every session of the account ended: this one too
      } catch (err) {
        if (err.status === 404) state = "invalid";
        else error = t("error.generic", { msg: err.message });
      }
      draw();
    });
    replace(box, form);
  }

  api.resetLink(token).then((res) => {
    name = res.name;
    state = "form";
  }).catch(() => {
    state = "invalid";
  }).finally(draw);
  draw();
  return { relang: draw };
}
