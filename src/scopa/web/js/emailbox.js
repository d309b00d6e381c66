// The optional e-mail address of an account, where the site sends e-mail: the account
// page's address form, the sign-in form's "Forgot your password?", and the page the
// address check link opens (/verify-email/<token>). The server decides; these only ask.
import { h, replace } from "./dom.js";
import { lang, t } from "./i18n.js";
import { api } from "./api.js";

/** The signed-in account's address and whether it is checked (nothing if no e-mail). */
export function emailBox() {
  const box = h("section", { class: "email-box", "aria-labelledby": "email-title" });
  async function draw() {
    let state;
    try {
      state = await api.emailState();
    } catch (err) {
      box.replaceChildren();
      return;
    }
    if (!state.available) {
      box.replaceChildren();
      return;
    }
    const input = h("input", { id: "email", type: "email", maxlength: 254, autocomplete: "email",
      value: state.email || "", "aria-describedby": "email-help" });
    const status = h("p", { class: "email-status muted", role: "status" },
      state.email ? t(state.verified ? "email.checked" : "email.unchecked", { email: state.email }) : t("email.none"));
    const form = h("form", { class: "email-form" },
      h("h2", { id: "email-title" }, t("email.title")),
      h("div", { class: "field" }, h("label", { for: "email" }, t("email.address")), input,
        h("p", { id: "email-help", class: "muted small" }, t("email.help"))),
      status, h("button", { type: "submit" }, t("email.save")));
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      try {
        const res = await api.setEmail(input.value.trim(), lang());
        status.textContent = res.email ? t("email.sent", { email: res.email }) : t("email.none");
      } catch (err) {
        status.textContent = t("error.generic", { msg: err.message });
      }
    });
    replace(box, form);
  }
  draw();
  return box;
}

/** "Forgot your password?" under the sign-in form (only where the site sends e-mail). */
export function forgotBox() {
  const name = h("input", { id: "forgot-name", type: "text", required: true, maxlength: 40, autocomplete: "username" });
  const status = h("p", { class: "forgot-status", role: "status" });
  const form = h("form", { class: "forgot-form" },
    h("p", { class: "muted small" }, t("email.forgotHelp")),
    h("div", { class: "field" }, h("label", { for: "forgot-name" }, t("account.name")), name),
    status, h("button", { type: "submit" }, t("email.forgotSend")));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      await api.forgot(name.value.trim(), lang());
      status.textContent = t("email.forgotSent");
    } catch (err) {
      status.textContent = t("error.generic", { msg: err.message });
    }
  });
  return h("details", { class: "forgot" }, h("summary", {}, t("email.forgot")), form);
}

/** The page an address check link opens. */
export function mountVerifyEmail(main, token) {
  const box = h("section", { class: "card-box verify-email", "aria-labelledby": "verify-title" });
  main.append(box);
  let ok = null;
  function draw() {
    replace(box, h("h1", { id: "verify-title" }, t("email.title")),
      h("p", { role: ok === false ? "alert" : "status", class: ok === null ? "muted" : ok ? "verify-ok" : "verify-bad" },
        t(ok === null ? "reset.loading" : ok ? "email.verified" : "reset.invalid")),
      h("a", { class: "button", href: "/account" }, t("email.toAccount")));
  }
  api.verifyEmail(token).then(() => { ok = true; }).catch(() => { ok = false; }).finally(draw);
  draw();
  return { relang: draw };
}
