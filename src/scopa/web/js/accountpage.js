// The account page: sign up (bringing this browser's guest seats along) or sign in; once
// signed in: friends, privacy, password, sign out, delete. Playing never needs any of it.
import { h, replace } from "./dom.js";
import { t } from "./i18n.js";
import { api } from "./api.js";
import { allSeats, forgetPlayer } from "./store.js";
import { currentUser, loadSession, setSession } from "./session.js";
import { navigate } from "./nav.js";
import { emailBox, forgotBox } from "./emailbox.js";
import { botsSection } from "./botsaccount.js";

export function mountAccount(main) {
  const box = h("div", { class: "account" });
  main.append(box);
  let policy = null;
  const draw = () => (currentUser() ? drawSignedIn(box, draw) : drawGuest(box, policy, draw));
  Promise.all([loadSession(), api.policy().catch(() => null)]).then(([, p]) => {
    policy = p;
    draw();
  });
  return { relang: draw };
}

function field(id, label, attrs = {}, help = null) {
  const input = h("input", { id, name: id, ...attrs, "aria-describedby": help ? `${id}-help` : undefined });
  return [input, h("div", { class: "field" }, h("label", { for: id }, label), input,
    help ? h("p", { id: `${id}-help`, class: "muted small" }, help) : null)];
}

function drawGuest(box, policy, redraw) {
  const seats = allSeats();
  const [upName, upNameField] = field("signup-name", t("account.name"),
    { type: "text", required: true, maxlength: 20, autocomplete: "username" }, t("account.nameRule"));
  const [upPass, upPassField] = field("signup-password", t("account.password"),
    { type: "password", required: true, minlength: policy ? policy.password_length[0] : 10,
      maxlength: 128, autocomplete: "new-password" }, t("account.passwordRule"));
  const upError = h("p", { class: "error", role: "alert" });
  const signUp = h("form", { class: "card-box signup", "aria-labelledby": "signup-title" },
    h("h1", { id: "signup-title" }, t("account.signUp")),
    h("p", { class: "muted" }, t("account.optional")),
    upNameField, upPassField,
    seats.length ? h("p", { class: "claim-note" }, t("account.claimNote", { n: seats.length })) : null,
    upError,
    h("button", { type: "submit", class: "primary" }, t("account.signUp")));
  signUp.addEventListener("submit", async (e) => {
    e.preventDefault();
    upError.textContent = "";
    try {
      const res = await api.signUp({ name: upName.value.trim(), password: upPass.value, claim: seats });
      setSession(res);
      redraw();
    } catch (err) {
      upError.textContent = t("error.generic", { msg: err.message });
    }
  });
  const [inName, inNameField] = field("signin-name", t("account.name"),
    { type: "text", required: true, maxlength: 40, autocomplete: "username" });
  const [inPass, inPassField] = field("signin-password", t("account.password"),
    { type: "password", required: true, maxlength: 128, autocomplete: "current-password" });
  const inError = h("p", { class: "error", role: "alert" });
  const signIn = h("form", { class: "card-box signin", "aria-labelledby": "signin-title" },
    h("h2", { id: "signin-title" }, t("account.signIn")), inNameField, inPassField, inError,
    h("button", { type: "submit", class: "primary" }, t("account.signIn")));
  signIn.addEventListener("submit", async (e) => {
    e.preventDefault();
    inError.textContent = "";
    try {
      setSession(await api.signIn({ name: inName.value.trim(), password: inPass.value }));
      redraw();
    } catch (err) {
      inError.textContent = t(err.status === 429 ? "account.throttled" : "account.wrong");
    }
  });
  replace(box, h("div", { class: "lobby" }, signUp,
    h("div", { class: "lobby-side" }, signIn, policy && policy.email ? forgotBox() : null)));
}

function drawSignedIn(box, redraw) {
  const user = currentUser();
  const friendsBox = h("section", { class: "card-box friends", "aria-labelledby": "friends-title" });
  const message = h("p", { class: "muted", role: "status" });
  const priv = h("input", { id: "private", type: "checkbox", checked: user.private });
  priv.addEventListener("change", async () => {
    try {
      await api.privacy(priv.checked);
      setSession({ user: { ...user, private: priv.checked }, csrf: (await loadSession()).csrf });
      message.textContent = t(priv.checked ? "account.nowPrivate" : "account.nowPublic");
    } catch (err) {
      message.textContent = t("error.generic", { msg: err.message });
    }
  });
  const [oldPass, oldField] = field("old-password", t("account.oldPassword"),
    { type: "password", required: true, autocomplete: "current-password" });
  const [newPass, newField] = field("new-password", t("account.newPassword"),
    { type: "password", required: true, minlength: 10, autocomplete: "new-password" }, t("account.passwordRule"));
  const pwError = h("p", { class: "error", role: "alert" });
  const pwForm = h("form", { class: "password-form" }, h("h2", {}, t("account.changePassword")),
    oldField, newField, pwError, h("button", { type: "submit" }, t("account.changePassword")));
  pwForm.addEventListener("submit", async (e) => {
    e.preventDefault();
    pwError.textContent = "";
    try {
      await api.changePassword({ old: oldPass.value, new: newPass.value });
      pwForm.reset();
      message.textContent = t("account.passwordChanged");
    } catch (err) {
      pwError.textContent = t("error.generic", { msg: err.message });
    }
  });
  const signOut = h("button", { type: "button", class: "ghost sign-out" }, t("account.signOut"));
  signOut.addEventListener("click", async () => {
    await api.signOut().catch(() => null);
    forgetPlayer();
    setSession({ user: null, csrf: null });
    redraw();
  });
  // closing the account is on a page of its own (/account/delete), asked for again there
  const close = h("section", { class: "danger-zone", "aria-labelledby": "close-title" },
    h("h2", { id: "close-title" }, t("account.dangerZone")),
    h("p", { class: "muted small" }, t("account.deleteHelp")),
    h("a", { class: "action-link close-account", href: "/account/delete" }, t("account.closeLink")));
  const me = h("section", { class: "card-box me", "aria-labelledby": "me-title" },
    h("h1", { id: "me-title" }, t("account.hello", { name: user.name })),
    h("div", { class: "actions" },
      h("a", { class: "button", href: `/players/${encodeURIComponent(user.name)}` }, t("account.profile")),
      h("a", { class: "button ghost", href: "/leaderboard" }, t("nav.leaderboard")),
      signOut),
    h("label", { class: "check" }, priv, t("account.private")),
    message, pwForm, emailBox(), close);
  replace(box, h("div", { class: "lobby" }, me, h("div", { class: "lobby-side" }, friendsBox, botsSection())));
  drawFriends(friendsBox);
}

async function drawFriends(box) {
  let data;
  try {
    data = await api.friends();
  } catch (err) {
    replace(box, h("p", { class: "error" }, t("error.generic", { msg: err.message })));
    return;
  }
  const [who, whoField] = field("follow-name", t("friends.followName"), { type: "text", maxlength: 40 });
  const error = h("p", { class: "error", role: "alert" });
  const form = h("form", { class: "follow-form" }, whoField, error,
    h("button", { type: "submit" }, t("friends.follow")));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      await api.follow(who.value.trim());
      drawFriends(box);
    } catch (err) {
      error.textContent = t("error.generic", { msg: err.message });
    }
  });
  const person = (p, extra) => h("li", {},
    h("span", { class: `dot ${p.online ? "on" : "off"}`, "aria-hidden": "true" }),
    h("a", { href: `/players/${encodeURIComponent(p.name)}` }, p.name),
    h("span", { class: "muted small" }, t(p.online ? "friends.online" : "friends.offline")), extra);
  const following = h("ul", { class: "table-list people" }, data.following.map((p) => person(p,
    h("button", { type: "button", class: "ghost", onclick: async () => { await api.unfollow(p.name); drawFriends(box); } },
      t("friends.unfollow")))));
  const invitations = h("ul", { class: "table-list invitations" }, data.invitations.map((i) => h("li", {},
    h("span", {}, t("friends.invitedBy", { name: i.from })),
    h("a", { class: "button primary", href: i.url }, t("lobby.join")))));
  const recent = h("ul", { class: "table-list people recent" }, data.recent_opponents.map((p) => person(p,
    p.following ? null : h("button", { type: "button", class: "ghost", onclick: async () => { await api.follow(p.name); drawFriends(box); } },
      t("friends.follow")))));
  replace(box, h("h2", { id: "friends-title" }, t("friends.title")),
    data.invitations.length ? [h("h3", {}, t("friends.invitations")), invitations] : null,
    h("h3", {}, t("friends.following")),
    data.following.length ? following : h("p", { class: "muted" }, t("friends.none")),
    form,
    h("h3", {}, t("friends.recent")),
    data.recent_opponents.length ? recent : h("p", { class: "muted" }, t("friends.noneRecent")));
}

/** Closing the account: its own page, the consequences said, the password asked again,
 * one red button and a way back that keeps the account. */
export function mountAccountDelete(main) {
  const box = h("div", { class: "account account-delete" });
  main.append(box);
  const draw = () => {
    if (!currentUser()) {
      navigate("/account");
      return;
    }
    const [delPass, delField] = field("delete-password", t("account.password"),
      { type: "password", required: true, autocomplete: "current-password" });
    const delError = h("p", { class: "error", role: "alert" });
    const delForm = h("form", { class: "card-box delete-form", "aria-labelledby": "close-title" },
      h("h1", { id: "close-title" }, t("account.closeTitle")),
      h("p", {}, t("account.deleteHelp")),
      h("p", { class: "warn" }, t("account.closeWarn")),
      delField, delError,
      h("div", { class: "actions" },
        h("button", { type: "submit", class: "danger" }, t("account.delete")),
        h("a", { class: "button ghost", href: "/account" }, t("account.keep"))));
    delForm.addEventListener("submit", async (e) => {
      e.preventDefault();
      delError.textContent = "";
      try {
        await api.deleteAccount(delPass.value);
        setSession({ user: null, csrf: null });
        navigate("/");
      } catch (err) {
        delError.textContent = t("error.generic", { msg: err.message });
      }
    });
    replace(box, delForm);
  };
  loadSession().then(draw);
  return { relang: draw };
}
