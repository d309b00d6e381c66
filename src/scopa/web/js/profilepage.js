// A player's profile: ratings with their history as a chart, the items they take as bars,
// games per variant, recent matches with replay links, and "follow" for other players.
import { h, replace } from "./dom.js";
import { POOLS, ratingText } from "./rating.js";
import { botBadge } from "./botbadge.js";
import { t } from "./i18n.js";
import { api } from "./api.js";
import { currentUser, loadSession } from "./session.js";
import { variantName } from "./variants.js";
import { barChart, lineChart } from "./charts.js";

export function mountProfile(main, name) {
  const box = h("div", { class: "profile" });
  main.append(box);
  let data = null;
  const draw = () => (data ? drawProfile(box, data) : null);
  loadSession().then(() => api.profile(name)).then((d) => {
    data = d;
    draw();
  }).catch(() => replace(box, h("section", { class: "card-box" },
    h("h1", {}, name), h("p", { class: "error" }, t("profile.none")))));
  return { relang: draw };
}

function drawProfile(box, p) {
  const pools = POOLS.filter((pool) => p.ratings[pool]);
  const ratingRows = pools.map((pool) => {
    const r = p.ratings[pool];
    return h("tr", {}, h("th", { scope: "row" }, t(`pool.${pool}`)), h("td", { class: "rating" }, ratingText(r.rating, r.settled)),
      h("td", {}, String(r.games)), h("td", {}, String(r.wins)));
  });
  const charts = pools.map((pool) => {
    const points = p.history[pool] || [];
    const values = points.map((x) => x.rating);
    const label = t("profile.chartLabel", { pool: t(`pool.${pool}`), n: points.filter((x) => x.match_id).length,
      first: values.length ? ratingText(values[0]) : "–", last: values.length ? ratingText(values[values.length - 1]) : "–" });
    return h("figure", { class: "chart-box" },
      lineChart(values, label),
      h("figcaption", { class: "muted small" }, t("profile.chartCaption", { pool: t(`pool.${pool}`) })));
  });
  const st = p.stats;
  const bars = barChart([
    { label: t("profile.item.settebello"), value: st.items.settebello },
    { label: t("profile.item.primiera"), value: st.items.primiera },
    { label: t("profile.item.coins"), value: st.items.coins },
  ], t("profile.barsLabel"));
  const variants = h("table", { class: "stats-table" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("lobby.variant")), h("th", { scope: "col" }, t("profile.played")),
      h("th", { scope: "col" }, t("profile.won")))),
    h("tbody", {}, st.variants.map((v) => h("tr", {}, h("td", {}, variantName(v.variant)),
      h("td", {}, String(v.played)), h("td", {}, String(v.won))))));
  const recent = h("ul", { class: "table-list recent-matches" }, p.recent.map((m) => {
    const change = m.rating_after !== null && m.rating_before !== null
      ? ` · ${t("profile.ratingChange", { from: ratingText(m.rating_before), to: ratingText(m.rating_after) })}` : "";
    return h("li", {},
      h("span", { class: "what" }, `${variantName(m.variant)} · ${m.players.join(" – ")}`),
      h("span", { class: m.won ? "won" : "lost" }, `${t(m.won ? "profile.win" : "profile.loss")} ${(m.scores || []).join(" – ")}${change}`),
      h("a", { class: "button ghost", href: m.replay_url }, t("lobby.replay")));
  }));
  const me = currentUser();
  const follow = me && !p.own
    ? h("button", { type: "button", class: "follow", disabled: p.following }, t(p.following ? "friends.following" : "friends.follow"))
    : null;
  const followsYou = p.follows_you ? h("p", { class: "follows-you" }, t("friends.followsYou")) : null;
  if (follow && !p.following) {
    follow.addEventListener("click", async () => {
      await api.follow(p.name).catch(() => null);
      follow.textContent = t("friends.following");
      follow.disabled = true;
    });
  }
  const guard = me && !p.own ? guardBox(p) : null;
  replace(box, h("div", { class: "lobby" },
    h("section", { class: "card-box", "aria-labelledby": "profile-title" },
      h("h1", { id: "profile-title" }, p.name, p.bot ? [" ", botBadge()] : null),
      p.bot ? h("p", { class: "bot-card" }, [p.bot.author ? t("bots.by", { name: p.bot.author }) : t("bots.noAuthor"),
        ` · ${p.bot.variants.length ? p.bot.variants.map(variantName).join(", ") : t("bots.allVariants")}`,
        p.bot.about ? ` · ${p.bot.about}` : ""].join("")) : null,
      p.private ? h("p", { class: "muted" }, t("profile.privateNote")) : null,
      followsYou,
      follow,
      guard,
      h("h2", {}, t("profile.ratings")),
      pools.length ? h("table", { class: "stats-table ratings" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("profile.pool")), h("th", { scope: "col" }, t("profile.rating")),
          h("th", { scope: "col" }, t("profile.played")), h("th", { scope: "col" }, t("profile.won")))),
        h("tbody", {}, ratingRows)) : h("p", { class: "muted" }, t("profile.unrated")),
      pools.length && p.provisional ? h("p", { class: "muted small provisional" }, t("profile.provisional")) : null,
      charts,
      h("h2", {}, t("profile.recent")),
      p.recent.length ? recent : h("p", { class: "muted" }, t("profile.noMatches"))),
    h("div", { class: "lobby-side" },
      h("section", { class: "card-box", "aria-labelledby": "stats-title" },
        h("h2", { id: "stats-title" }, t("profile.stats")),
        h("p", {}, t("profile.summary", { played: st.played, won: st.won, hands: st.hands })),
        h("p", {}, t("profile.perHand", { points: st.points_per_hand === null ? "–" : st.points_per_hand.toFixed(2), sweeps: st.sweeps_per_hand === null ? "–" : st.sweeps_per_hand.toFixed(2) })),
        h("figure", { class: "chart-box" }, bars, h("figcaption", { class: "muted small" }, t("profile.barsCaption"))),
        variants))));
}

/** Block (or unblock) and report a player: their chat and invitations stop reaching you;
 * a report goes to the operator, with an optional reason asked for in a modal dialog. */
function guardBox(p) {
  let blocked = p.blocked;
  const status = h("p", { class: "guard-status muted", role: "status" });
  const blockButton = h("button", { type: "button", class: "ghost block" }, t(blocked ? "guard.unblock" : "guard.block"));
  blockButton.addEventListener("click", async () => {
    try {
      await (blocked ? api.unblock(p.name) : api.block(p.name));
      blocked = !blocked;
      blockButton.textContent = t(blocked ? "guard.unblock" : "guard.block");
      status.textContent = t(blocked ? "guard.blocked" : "guard.unblocked", { name: p.name });
    } catch (err) {
      status.textContent = t("error.generic", { msg: err.message });
    }
  });
  const reason = h("textarea", { id: "report-reason", maxlength: 200, rows: 3 });
  const send = h("button", { type: "submit", class: "danger send-report" }, t("guard.send"));
  const cancel = h("button", { type: "button", class: "cancel-report" }, t("guard.cancel"));
  const form = h("form", { method: "dialog" },
    h("h2", { id: "report-title" }, t("guard.reportTitle", { name: p.name })),
    h("p", { id: "report-what" }, t("guard.reportWhat", { name: p.name })),
    h("label", { for: "report-reason" }, t("guard.reason")), reason,
    h("div", { class: "actions" }, cancel, send));
  const dialog = h("dialog", { class: "report-dialog", "aria-labelledby": "report-title", "aria-describedby": "report-what" }, form);
  cancel.addEventListener("click", () => dialog.close());
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    dialog.close();
    try {
      const res = await api.report(p.name, reason.value.trim() || null);
      status.textContent = t(res.already ? "guard.reportedAgain" : "guard.reported", { name: p.name });
    } catch (err) {
      status.textContent = t("error.generic", { msg: err.message });
    }
  });
  const reportButton = h("button", { type: "button", class: "ghost report" }, t("guard.report"));
  reportButton.addEventListener("click", () => dialog.showModal());
  return h("div", { class: "guard" }, h("div", { class: "row" }, blockButton, reportButton), status, dialog);
}
