// The table's word on accounts: a guest seated here may sign up to keep the seat (and its
// matches); a signed-in player may ask a friend they follow to a free seat.
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { api } from "./api.js";
import { currentUser } from "./session.js";

/** The box for the side panel, or null when there is nothing to offer. */
export function accountBox(table, seated, invite, freeSeat) {
  const parts = [];
  if (table && table.rated) parts.push(h("p", { class: "rated-badge" }, t("table.rated")));
  if (seated && !currentUser()) {
    parts.push(h("p", { class: "claim-seat small" }, t("table.claimText"), " ",
      h("a", { href: "/account", class: "claim-link" }, t("table.claimLink"))));
  }
  if (seated && currentUser() && invite && freeSeat) parts.push(friendInvite(invite));
  return parts.length ? h("div", { class: "account-side" }, parts) : null;
}

function friendInvite(invite) {
  const sel = h("select", { id: "friend-invite", "aria-label": t("friends.inviteLabel") });
  const status = h("span", { class: "muted small", role: "status" });
  const send = h("button", { type: "button", disabled: true }, t("friends.invite"));
  const box = h("div", { class: "friend-invite" }, h("label", { for: "friend-invite" }, t("friends.inviteLabel")), " ", sel, " ", send, " ", status);
  api.friends().then((data) => {
    for (const p of data.following) {
      sel.append(h("option", { value: p.name }, p.online ? `${p.name} · ${t("friends.online")}` : p.name));
    }
    send.disabled = !data.following.length;
    if (!data.following.length) status.textContent = t("friends.none");
  }).catch(() => null);
  send.addEventListener("click", async () => {
    try {
      await api.inviteFriend(sel.value, invite);
      status.textContent = t("friends.invited", { name: sel.value });
    } catch (err) {
      status.textContent = t("error.generic", { msg: err.message });
    }
  });
  return box;
}
