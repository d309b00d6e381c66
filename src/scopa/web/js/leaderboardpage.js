// The leaderboards: one per rating pool, a page at a time, and the bots' published ratings.
import { h, replace } from "./dom.js";
import { POOLS, ratingText } from "./rating.js";
import { nameWithBadge } from "./botbadge.js";
import { t } from "./i18n.js";
import { api } from "./api.js";

export function mountLeaderboard(main) {
  const box = h("section", { class: "card-box leaderboard", "aria-labelledby": "board-title" });
  main.append(box);
  const state = { pool: "singles", page: 1, data: null };
  const load = async () => {
    try {
      state.data = await api.leaderboard(state.pool, state.page);
    } catch (err) {
      state.data = null;
      replace(box, h("p", { class: "error" }, t("error.generic", { msg: err.message })));
      return;
    }
    draw();
  };
  const draw = () => {
    const d = state.data;
    if (!d) return;
    const tabs = h("div", { class: "pool-tabs", role: "group", "aria-label": t("profile.pool") }, POOLS.map((pool) =>
      h("button", { type: "button", class: pool === state.pool ? "on" : "ghost", "aria-pressed": String(pool === state.pool),
        onclick: () => { state.pool = pool; state.page = 1; load(); } }, t(`pool.${pool}`))));
    const rows = d.entries.map((e) => h("tr", {}, h("td", {}, String(e.rank)),
      h("td", {}, h("a", { href: `/players/${encodeURIComponent(e.name)}` }, e.name), e.bot ? nameWithBadge("", true) : null,
        e.provisional ? h("span", { class: "muted small provisional" }, ` (${t("board.provisional")})`) : null),
      h("td", { class: "rating" }, ratingText(e.rating, e.settled)), h("td", {}, String(e.games)), h("td", {}, String(e.wins))));
    const table = h("table", { class: "stats-table board" },
      h("thead", {}, h("tr", {}, ["#", t("account.name"), t("profile.rating"), t("profile.played"), t("profile.won")]
        .map((c) => h("th", { scope: "col" }, c)))),
      h("tbody", {}, rows));
    const prev = h("button", { type: "button", class: "prev", disabled: state.page <= 1,
      onclick: () => { state.page -= 1; load(); } }, t("board.prev"));
    const next = h("button", { type: "button", class: "next-page", disabled: state.page >= d.pages,
      onclick: () => { state.page += 1; load(); } }, t("board.next"));
    const bots = h("ul", { class: "bot-ratings" }, Object.entries(d.bots).map(([level, r]) =>
      h("li", {}, `${t(`level.${level}`) === `level.${level}` ? level : t(`level.${level}`)}: ${ratingText(r.rating)}`)));
    replace(box, h("h1", { id: "board-title" }, t("nav.leaderboard")), tabs,
      h("p", { class: "muted small" }, t("board.minGames", { n: d.min_games })),
      d.entries.length ? table : h("p", { class: "muted" }, t("board.empty")),
      h("div", { class: "pager" }, prev, h("span", {}, t("board.page", { n: state.page, of: d.pages })), next),
      h("h2", {}, t("board.bots")), h("p", { class: "muted small" }, t("board.botsHelp")), bots);
  };
  load();
  return { relang: draw };
}
