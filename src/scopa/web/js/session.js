// Who is signed in on this browser, and the CSRF token the server wants back on every
// change (docs/accounts.md). The session itself is an HttpOnly cookie the page never sees.
let state = { user: null, csrf: null };
let loaded = null;
const listeners = new Set();

/** The account (or null for a guest), asked of the server once per page load. */
export function loadSession(force = false) {
  if (!loaded || force) {
    loaded = fetch("/api/account").then((r) => (r.ok ? r.json() : { user: null, csrf: null }))
      .catch(() => ({ user: null, csrf: null }))
      .then((data) => {
        setSession(data);
        return state;
      });
  }
  return loaded;
}

export function setSession(data) {
  state = { user: data.user || null, csrf: data.csrf || null };
  loaded = Promise.resolve(state);
  for (const fn of listeners) fn(state);
}

export function currentUser() {
  return state.user;
}

export function csrfToken() {
  return state.csrf;
}

export function onSessionChange(fn) {
  listeners.add(fn);
}
