// The lobby's "Bots online": outside programs playing through their bot accounts now,
// each with its author, variants and rating, and a challenge in two clicks (a table with
// the bot's seat kept for it; the match is rated, in the bots' own pool, when signed in).
import { h, replace } from "./dom.js";
import { t } from "./i18n.js";
import { api } from "./api.js";
import { saveSeat } from "./store.js";
import { navigate } from "./nav.js";
import { variantName } from "./variants.js";
import { currentUser } from "./session.js";
import { ratingText } from "./rating.js";
import { botBadge } from "./botbadge.js";

let seen = [];

export async function loadBotsBox(box) {
  try {
    seen = (await api.botsOnline()).bots;
  } catch {
    seen = [];
  }
  drawBotsBox(box);
}

export function drawBotsBox(box) {
  const list = h("ul", { class: "table-list bots-online" }, seen.map((bot) => botLine(bot)));
  replace(box, h("h2", { id: "bots-title" }, t("bots.online")),
    seen.length ? list : h("p", { class: "muted" }, t("bots.none")));
}

function botLine(bot) {
  const variants = bot.variants.length ? bot.variants : ["scopa"];
  const rating = bot.ratings["bots-singles"];
  const id = `challenge-${bot.name}`;
  const pick = h("select", { id, "aria-label": t("bots.variantFor", { name: bot.name }) },
    variants.map((v) => h("option", { value: v }, variantName(v))));
  const error = h("p", { class: "error", role: "alert" });
  const go = h("button", { type: "button", class: "challenge" }, t("bots.challenge"));
  go.addEventListener("click", async () => {
    error.textContent = "";
    go.disabled = true;
    try {
      const res = await api.createTable({
        variant: pick.value, rated: !!currentUser(), teach: !currentUser(),
        seats: [{ kind: "human" }, { kind: "online", bot: bot.name }],
      });
      saveSeat(res.table.id, { token: res.token, seat: res.seat, invite: res.invite });
      navigate(`/t/${res.table.id}`);
    } catch (err) {
      go.disabled = false;
      error.textContent = t("error.generic", { msg: err.message });
    }
  });
  return h("li", { class: "bot-line" },
    h("span", { class: "what" }, h("a", { href: `/players/${encodeURIComponent(bot.name)}` }, bot.name), " ", botBadge()),
    h("span", { class: "who muted small" }, [bot.author ? t("bots.by", { name: bot.author }) : "",
      rating ? ` · ${ratingText(rating.rating, rating.settled)}` : "", bot.about ? ` · ${bot.about}` : ""].join("")),
    pick, go, error);
}
