// Interface strings in English, Italian and Spanish. t("key", {n: 3}) fills {n}.
// Two tables: the page's own strings (strings.js) and the message catalogue shared with the
// server (../messages.json, read by scopa.messages too): card words, explanations, the
// last-play line. A key lives in one of them only.
import { STRINGS } from "./strings.js";
import { deckWords } from "./decks/words.js";

/** The site's languages, in the order the switch offers them (the same list as
 * scopa.messages.LANGUAGES: tests/test_language_catalogues.py compares them). */
export const LANGUAGES = ["en", "it", "es"];
/** Each language's name in its own words (the switch shows them to every reader). */
export const LANGUAGE_NAMES = { en: "English", it: "Italiano", es: "Español" };

const KEY = "scopa.lang";
const CATALOGUE = await loadCatalogue();
let current = pickLanguage();
const listeners = new Set();

async function loadCatalogue() {
  try {
    const res = await fetch(new URL("../messages.json", import.meta.url));
    if (res.ok) return await res.json();
  } catch {
    // offline or blocked: the page still works with its own strings
  }
  return Object.fromEntries(LANGUAGES.map((code) => [code, {}]));
}

function pickLanguage() {
  const saved = localStorage.getItem(KEY);
  if (LANGUAGES.includes(saved)) return saved;
  // the browser's language when the player never chose: "es-ES" -> "es"
  const browser = (navigator.language || "en").toLowerCase().split("-")[0];
  return LANGUAGES.includes(browser) ? browser : "en";
}

export function lang() {
  return current;
}

export function setLang(code) {
  if (!LANGUAGES.includes(code)) return;
  current = code;
  localStorage.setItem(KEY, code);
  document.documentElement.lang = code;
  for (const fn of listeners) fn(code);
}

export function onLangChange(fn) {
  listeners.add(fn);
}

function lookup(language, key) {
  return (STRINGS[language] || {})[key] ?? (CATALOGUE[language] || {})[key];
}

/** Whether `key` has a text in `language` (or in English, the fallback). */
export function has(key, language = current) {
  return lookup(language, key) !== undefined || lookup("en", key) !== undefined;
}

export function t(key, params = {}, language = current) {
  let text = lookup(language, key) ?? lookup("en", key) ?? key;
  // a suit or a figure named in the words of the chosen deck (decks/words.js)
  if (!key.startsWith("deck")) text = deckWords(text, language);
  for (const [name, value] of Object.entries(params)) {
    text = text.replaceAll(`{${name}}`, String(value));
  }
  return text;
}

/** Words joined as a list: "a, b and c" / "a, b e c" / "a, b y c". */
export function joinWords(parts, language = current) {
  if (!parts.length) return "";
  let out = parts[0];
  parts.slice(1).forEach((part, i) => {
    const key = i === parts.length - 2 ? "list.and" : "list.comma";
    out = t(key, { rest: out, last: part, next: part }, language);
  });
  return out;
}

/** Fill every [data-i18n] element under root with its string. */
export function translateStatic(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-label]")) {
    el.setAttribute("aria-label", t(el.dataset.i18nLabel));
  }
}
