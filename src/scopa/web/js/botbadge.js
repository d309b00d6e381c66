// The mark beside an online bot's name, the same wherever its name is shown: the table,
// the lobby, profiles, the leaderboard, the chat (bots online, docs/bot-protocol.md).
import { h } from "./dom.js";
import { t } from "./i18n.js";

export function botBadge() {
  return h("span", { class: "bot-badge", title: t("bot.badgeTitle") }, t("bot.badge"));
}

/** A name, with the mark when it is a bot's. */
export function nameWithBadge(name, isBot) {
  return isBot ? [name, " ", botBadge()] : [name];
}
