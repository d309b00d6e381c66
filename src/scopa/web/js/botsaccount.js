// An author's bots on the account page: make a bot account, give it API tokens (each
// shown once), revoke them (docs/bot-protocol.md, "Online").
import { h, replace } from "./dom.js";
import { t } from "./i18n.js";
import { api } from "./api.js";
import { botBadge } from "./botbadge.js";

export function botsSection() {
  const box = h("section", { class: "card-box my-bots", "aria-labelledby": "bots-title" });
  drawBots(box);
  return box;
}

async function drawBots(box, shown = null) {
  let data;
  try {
    data = await api.myBots();
  } catch (err) {
    replace(box, h("h2", { id: "bots-title" }, t("bots.mine")), h("p", { class: "error" }, t("error.generic", { msg: err.message })));
    return;
  }
  const name = h("input", { id: "bot-name", required: true, maxlength: 24, autocomplete: "off" });
  const about = h("input", { id: "bot-about", maxlength: 200, autocomplete: "off" });
  const allows = h("input", { id: "bot-allows", type: "checkbox" });
  const error = h("p", { class: "error", role: "alert" });
  const form = h("form", { class: "new-bot" },
    h("h3", {}, t("bots.make")),
    h("p", { class: "muted small" }, t("bots.makeHelp")),
    h("div", { class: "field" }, h("label", { for: "bot-name" }, t("bots.name")), name),
    h("div", { class: "field" }, h("label", { for: "bot-about" }, t("bots.about")), about),
    h("label", { class: "check" }, allows, t("bots.allowsBots")),
    error, h("button", { type: "submit" }, t("bots.makeButton")));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    error.textContent = "";
    try {
      await api.makeBot({ name: name.value.trim(), about: about.value.trim(), allows_bots: allows.checked });
      drawBots(box);
    } catch (err) {
      error.textContent = t("error.generic", { msg: err.message });
    }
  });
  const bots = data.bots.map((bot) => {
    const tokens = h("ul", { class: "tokens" }, bot.tokens.map((tok) => h("li", {},
      h("span", {}, t("bots.token", { label: tok.label, when: tok.created_at.slice(0, 10) })),
      h("button", { type: "button", class: "ghost revoke", "aria-label": t("bots.revokeWho", { label: tok.label }),
        onclick: async () => { await api.revokeToken(bot.name, tok.id); drawBots(box); } }, t("bots.revoke")))));
    const newToken = h("button", { type: "button", class: "new-token" }, t("bots.newToken"));
    newToken.addEventListener("click", async () => {
      const made = await api.makeToken(bot.name, "token");
      drawBots(box, { bot: bot.name, token: made.token });
    });
    const reveal = shown && shown.bot === bot.name
      ? h("p", { class: "token-once", role: "status" }, t("bots.tokenOnce"), " ", h("code", {}, shown.token)) : null;
    const plays = h("input", { type: "checkbox", checked: bot.allows_bots });
    plays.addEventListener("change", async () => {
      await api.changeBot(bot.name, { allows_bots: plays.checked }).catch(() => null);
      drawBots(box);
    });
    return h("li", { class: "bot" },
      h("p", {}, h("a", { href: `/players/${encodeURIComponent(bot.name)}` }, bot.name), " ", botBadge(), " ",
        h("span", { class: "muted small" }, bot.online ? t("bots.isOnline") : t("bots.isOffline"))),
      h("label", { class: "check" }, plays, t("bots.allowsBots")),
      tokens, reveal, newToken);
  });
  replace(box, h("h2", { id: "bots-title" }, t("bots.mine")),
    h("p", { class: "muted small" }, t("bots.mineHelp")),
    bots.length ? h("ul", { class: "table-list my-bot-list" }, bots) : null,
    data.bots.length < data.allowed ? form : h("p", { class: "muted" }, t("bots.enough", { n: data.allowed })));
}
