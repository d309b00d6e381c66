// Joining from an invite link: see the table, give a nickname, take a seat.
import { h, replace } from "./dom.js";
import { t } from "./i18n.js";
import { api } from "./api.js";
import { nickname, saveInvite, saveNickname, saveSeat, seatFor } from "./store.js";
import { navigate } from "./nav.js";
import { variantName } from "./variants.js";
import { currentUser, loadSession } from "./session.js";
import { teachSetting } from "./teach.js";

export function mountJoin(main, invite) {
  const box = h("section", { class: "card-box join" });
  main.append(box);

  loadSession().then(() => api.invite(invite)).then((table) => {
    const mine = seatFor(table.id);
    if (mine && mine.token) {
      navigate(`/t/${encodeURIComponent(table.id)}`);
      return;
    }
    saveInvite(table.id, invite); // so that "Watch" may open a private table
    const free = table.seats.filter((s) => s.kind === "human" && !s.taken);
    const who = table.seats.map((s) => (s.taken ? s.name : "…")).join(", ");
    const watch = h("a", { class: "button ghost", href: `/t/${encodeURIComponent(table.id)}` }, t("lobby.watch"));
    if (!free.length) {
      replace(box, h("h1", {}, t("join.title")), h("p", {}, t("join.full")), watch);
      return;
    }
    const name = h("input", { id: "join-name", type: "text", required: true, maxlength: 24, value: nickname(), autocomplete: "nickname" });
    const error = h("p", { class: "error", role: "alert" });
    const user = currentUser();
    const form = h("form", {},
      h("p", {}, `${variantName(table.variant)} · ${t("table.target", { n: table.target })} · ${who}`),
      table.rated ? h("p", { class: "rated-badge" }, t("table.rated")) : null,
      teachSetting(table), // known before sitting down: the same for every seat
      // signed in, the seat takes the account's name
      user ? h("p", { class: "playing-as" }, t("lobby.playingAs", { name: user.name }))
        : h("div", { class: "field" }, h("label", { for: "join-name" }, t("lobby.name")), name),
      error,
      h("div", { class: "actions" }, h("button", { type: "submit", class: "primary big" }, t("join.button")), watch));
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      const nick = user ? user.name : name.value.trim();
      if (!nick) return;
      if (!user) saveNickname(nick);
      try {
        const res = await api.join(invite, { name: nick, seat: null });
        saveSeat(res.table.id, { token: res.token, seat: res.seat, invite });
        navigate(`/t/${encodeURIComponent(res.table.id)}`);
      } catch (err) {
        error.textContent = t("error.generic", { msg: err.message });
      }
    });
    replace(box, h("h1", {}, t("join.title")), form);
    if (!user) name.focus();
  }).catch(() => replace(box, h("h1", {}, t("join.title")), h("p", { class: "error" }, t("join.unknown"))));

  return {};
}
