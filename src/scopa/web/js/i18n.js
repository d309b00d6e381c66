// Interface strings in English and Italian. t("key", {n: 3}) fills {n}.
import { STRINGS } from "./strings.js";

const KEY = "scopa.lang";
let current = pickLanguage();
const listeners = new Set();

function pickLanguage() {
  const saved = localStorage.getItem(KEY);
  if (saved === "en" || saved === "it") return saved;
  return (navigator.language || "en").toLowerCase().startsWith("it") ? "it" : "en";
}

export function lang() {
  return current;
}

export function setLang(code) {
  if (code !== "en" && code !== "it") return;
  current = code;
  localStorage.setItem(KEY, code);
  document.documentElement.lang = code;
  for (const fn of listeners) fn(code);
}

export function onLangChange(fn) {
  listeners.add(fn);
}

export function t(key, params = {}) {
  const table = STRINGS[current] || STRINGS.en;
  let text = table[key] ?? STRINGS.en[key] ?? key;
  for (const [name, value] of Object.entries(params)) {
    text = text.replaceAll(`{${name}}`, String(value));
  }
  return text;
}

/** Fill every [data-i18n] element under root with its string. */
export function translateStatic(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-label]")) {
    el.setAttribute("aria-label", t(el.dataset.i18nLabel));
  }
}
