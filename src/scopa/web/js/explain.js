// The server's explanations are structured messages, {key, args} (scopa.messages): this
// renders them in the page's language from the shared catalogue, by the same rules as the
// Python renderer. Arguments: numbers and strings as they are, {card}, {cards}, {rank},
// {ranks}, {list: [messages]} and nested messages; a key's ".1" text when args.n is 1.
import { has, joinWords, lang, t } from "./i18n.js";
import { cardList, theCard } from "./cards.js";

/** A message in words. */
export function say(msg, language = lang()) {
  if (!msg || !msg.key) return "";
  const args = msg.args || {};
  let key = msg.key;
  if (args.n === 1 && has(`${key}.1`, language)) key += ".1";
  const values = {};
  for (const [name, value] of Object.entries(args)) values[name] = argument(value, language);
  return t(key, values, language);
}

/** A message as a sentence, its first letter capitalised. */
export function sentence(msg, language = lang()) {
  const words = say(msg, language);
  return words ? words[0].toUpperCase() + words.slice(1) : "";
}

function argument(value, language) {
  if (value === null || typeof value !== "object") return String(value);
  if ("key" in value) return say(value, language);
  if ("card" in value) return theCard(value.card, language);
  if ("cards" in value) return cardList(value.cards, language);
  if ("rank" in value) return t(`rank.${value.rank}`, {}, language);
  if ("ranks" in value) return t(`ranks.${value.ranks}`, {}, language);
  if ("list" in value) return joinWords(value.list.map((m) => say(m, language)), language);
  return "";
}

/** The last-play line's words for a play {card, capture, scopa} by `name` (the terminal
 * says the same keys: scopa.terminal.render.play_words). */
export function playWords(name, play, language = lang()) {
  const args = { name, card: { card: play.card } };
  const text = play.capture.length
    ? say({ key: "table.lastTake", args: { ...args, cards: { cards: play.capture } } }, language)
    : say({ key: "table.lastLay", args }, language);
  return play.scopa ? `${text} — ${t("table.sweep", {}, language)}` : text;
}
