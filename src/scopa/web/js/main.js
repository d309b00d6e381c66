// Entry point: picks the page from the address and mounts it into <main>.
import { installCardDefs, redrawCards } from "./cardart.js";
import { markDeck, onDeckChange, setDeckContext } from "./decks/choice.js";
import { deckFamily } from "./decks/words.js";
import { syncPickers } from "./decks/picker.js";
import { LANGUAGE_NAMES, LANGUAGES, lang, onLangChange, setLang, t, translateStatic } from "./i18n.js";
import { mountLobby } from "./lobby.js";
import { mountJoin } from "./join.js";
import { mountTable } from "./tablepage.js";
import { mountReplay } from "./replay.js";
import { mountDoc } from "./docpage.js";
import { navigate } from "./nav.js";
import { mountAccount, mountAccountDelete } from "./accountpage.js";
import { mountProfile } from "./profilepage.js";
import { mountLeaderboard } from "./leaderboardpage.js";
import { mountReset } from "./resetpage.js";
import { mountVerifyEmail } from "./emailbox.js";
import { loadSession, onSessionChange } from "./session.js";
import { mountEvents } from "./events.js";
import { mountEvent } from "./eventpage.js";
import { mountEnter, mountPrint, mountScreen } from "./eventviews.js";
// the Learn course (issue 42 section 2)
import { mountLearn, mountLesson } from "./learn.js";
// puzzles (issue 42 section 3)
import { mountPuzzles } from "./puzzlepage.js";

const main = document.getElementById("main");
let current = null;

function route() {
  if (current && current.unmount) current.unmount();
  main.replaceChildren();
  setDeckContext(null, { quiet: true }); // a table or lesson names its variant again (Escoba's deck)
  family = deckFamily();
  const path = location.pathname;
  let m;
  if ((m = path.match(/^\/t\/([^/]+)$/))) current = mountTable(main, decodeURIComponent(m[1]));
  else if ((m = path.match(/^\/join\/([^/]+)$/))) current = mountJoin(main, decodeURIComponent(m[1]));
  else if ((m = path.match(/^\/replay\/([^/]+)$/))) current = mountReplay(main, decodeURIComponent(m[1]));
  else if ((m = path.match(/^\/players\/([^/]+)$/))) current = mountProfile(main, decodeURIComponent(m[1]));
  else if ((m = path.match(/^\/reset\/([^/]+)$/))) current = mountReset(main, decodeURIComponent(m[1]));
  else if ((m = path.match(/^\/verify-email\/([^/]+)$/))) current = mountVerifyEmail(main, decodeURIComponent(m[1]));
  else if ((m = path.match(/^\/events\/([^/]+)\/print\/(\d+)$/))) current = mountPrint(main, decodeURIComponent(m[1]), Number(m[2]));
  else if ((m = path.match(/^\/events\/([^/]+)\/enter$/))) current = mountEnter(main, decodeURIComponent(m[1]));
  else if ((m = path.match(/^\/events\/([^/]+)\/screen$/))) current = mountScreen(main, decodeURIComponent(m[1]));
  else if ((m = path.match(/^\/events\/([^/]+)$/))) current = mountEvent(main, decodeURIComponent(m[1]));
  else if (path === "/events") current = mountEvents(main);
  // puzzles (issue 42 section 3)
  else if (path === "/puzzles") current = mountPuzzles(main, null);
  else if ((m = path.match(/^\/puzzles\/([^/]+)$/))) current = mountPuzzles(main, decodeURIComponent(m[1]));
  else if (path === "/account") current = mountAccount(main);
  else if (path === "/account/delete") current = mountAccountDelete(main);
  else if (path === "/leaderboard") current = mountLeaderboard(main);
  // the Learn course: its list, then one lesson
  else if (path === "/learn") current = mountLearn(main);
  else if ((m = path.match(/^\/learn\/([^/]+)$/))) current = mountLesson(main, m[1]);
  else if (location.hash === "#rules") current = mountDoc(main, "rules");
  else if (location.hash === "#guide") current = mountDoc(main, "guide");
  else current = mountLobby(main);
  document.title = t("app.title");
  // the table on a phone is the whole screen: the page says which it is (base.css)
  document.body.dataset.page = path.startsWith("/t/") ? "table" : "";
  markSection();
}


document.querySelector(".skip").addEventListener("click", (e) => {
  e.preventDefault();
  main.focus();
});

document.addEventListener("click", (e) => {
  if (e.defaultPrevented) return;
  const a = e.target.closest("a[href]");
  if (!a || a.target || a.hasAttribute("download") || e.ctrlKey || e.metaKey || e.shiftKey) return;
  const url = new URL(a.href, location.href);
  if (url.origin !== location.origin || url.pathname.startsWith("/api/") || url.pathname.startsWith("/static/")) return;
  e.preventDefault();
  navigate(url.pathname + url.search + url.hash);
});

window.addEventListener("popstate", route);
window.addEventListener("scopa:route", route);
window.addEventListener("hashchange", route);

// The language switch: one button a language, each named in its own words, the chosen one
// pressed. It stays hidden in the page until this module runs (its imports await the message
// catalogue, which the page's load event does not wait for): a click before then would be lost.
const langSwitch = document.getElementById("lang");
function markLanguage() {
  for (const b of langSwitch.querySelectorAll("button[data-lang]")) {
    b.setAttribute("aria-pressed", String(b.dataset.lang === lang()));
  }
}
for (const code of LANGUAGES) {
  const b = document.createElement("button");
  b.type = "button";
  b.dataset.lang = code;
  b.lang = code;
  b.textContent = LANGUAGE_NAMES[code];
  b.addEventListener("click", () => setLang(code));
  langSwitch.append(b);
}
markLanguage();
langSwitch.hidden = false;
onLangChange(() => {
  markLanguage();
  translateStatic();
  loadSession().then(drawAccountLink);
  if (current && current.relang) current.relang();
  else route();
});

// a new deck: every card on the page is redrawn in place (the table keeps its state)
// (and, when the deck names its suits otherwise, every text is written again)
let family = deckFamily();
onDeckChange(() => {
  markDeck();
  redrawCards();
  syncPickers();
  if (deckFamily() === family) return;
  family = deckFamily();
  translateStatic();
  // the picker that made the change is drawn again: the focus stays on it
  const focused = document.activeElement && document.activeElement.id;
  if (current && current.relang) current.relang();
  const again = focused && document.getElementById(focused);
  if (again && again !== document.activeElement) again.focus({ preventScroll: true });
});
/** The top bar's account link: "Sign in" for a guest; once signed in the name's initial
 * in a circle, and the name beside it where there is room (read out everywhere). */
function drawAccountLink(session) {
  const link = document.getElementById("account-link");
  if (!link) return;
  const name = session.user ? session.user.name : null;
  link.replaceChildren(Object.assign(document.createElement("span"),
    { className: "account-name", textContent: name || t("nav.signIn") }));
  link.classList.toggle("signed-in", Boolean(name));
  if (name) link.dataset.initial = [...name][0].toUpperCase();
  else delete link.dataset.initial;
  link.title = name ? `${t("nav.account")}: ${name}` : "";
}
onSessionChange(drawAccountLink);

// ---- the site menu: on a narrow screen the sections and the language fold behind one
// button (a disclosure: aria-expanded; Escape or a click elsewhere closes it and the focus
// goes back to the button); on a wide screen they are all in the bar and it is not shown
const menuButton = document.getElementById("menu-button");
const siteNav = document.getElementById("site-nav");
function setMenu(open, { focusButton = false } = {}) {
  siteNav.classList.toggle("open", open);
  menuButton.setAttribute("aria-expanded", String(open));
  if (open) {
    const first = siteNav.querySelector("a, button");
    if (first) first.focus();
  } else if (focusButton) menuButton.focus();
}
menuButton.addEventListener("click", () => setMenu(menuButton.getAttribute("aria-expanded") !== "true"));
document.addEventListener("keydown", (e) => {
  if (e.key === "Escape" && siteNav.classList.contains("open")) {
    e.stopPropagation();
    setMenu(false, { focusButton: true });
  }
}, true);
document.addEventListener("click", (e) => {
  if (!siteNav.classList.contains("open")) return;
  if (e.target.closest("#site-nav a") || !e.target.closest("#site-nav, #menu-button")) setMenu(false);
});

/** The section the page belongs to, marked in the bar (aria-current). */
function markSection() {
  const path = location.pathname;
  const hash = location.hash;
  for (const a of siteNav.querySelectorAll("a")) {
    const url = new URL(a.href);
    const here = url.hash ? path === "/" && hash === url.hash
      : url.pathname === "/" ? path === "/" && !["#rules", "#guide"].includes(hash)
        : path === url.pathname || path.startsWith(`${url.pathname}/`);
    if (here) a.setAttribute("aria-current", "page");
    else a.removeAttribute("aria-current");
  }
}

document.documentElement.lang = lang();
installCardDefs();
markDeck();
translateStatic();
loadSession();
route();
// the installed app's worker (docs/install.md): the page's files kept for a fast start, and
// a clear page when the network is gone; a site that cannot have one works as before
if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(() => {});
