// The server's HTTP API (docs/server-protocol.md). Errors throw with the server's message.
// A signed-in page sends its CSRF token with every change (docs/accounts.md).
import { csrfToken } from "./session.js";

async function request(method, path, body) {
  const headers = body ? { "Content-Type": "application/json" } : {};
  const csrf = csrfToken();
  if (method !== "GET" && csrf) headers["X-CSRF-Token"] = csrf;
  const res = await fetch(path, {
    method,
    headers,
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) {
    const detail = Array.isArray(data.detail)
      ? data.detail.map((d) => d.msg).join("; ")
      : data.detail || res.statusText;
    const err = new Error(detail);
    err.status = res.status;
    throw err;
  }
  return data;
}

const enc = encodeURIComponent;

export const api = {
  meta: () => request("GET", "/api/meta"),
  tables: () => request("GET", "/api/tables"),
  table: (id) => request("GET", `/api/tables/${enc(id)}`),
  createTable: (body) => request("POST", "/api/tables", body),
  invite: (code) => request("GET", `/api/invites/${enc(code)}`),
  join: (code, body) => request("POST", `/api/invites/${enc(code)}/join`, body),
  matches: () => request("GET", "/api/matches?limit=20"),
  match: (id) => request("GET", `/api/matches/${enc(id)}`),
  review: (id) => request("GET", `/api/matches/${enc(id)}/review`),
  askReview: (id) => request("POST", `/api/matches/${enc(id)}/review`, {}),
  matchRatings: (id) => request("GET", `/api/matches/${enc(id)}/ratings`),
  verify: (url) => request("GET", url),
  policy: () => request("GET", "/api/account/policy"),
  signUp: (body) => request("POST", "/api/account/signup", body),
  signIn: (body) => request("POST", "/api/account/signin", body),
  signOut: () => request("POST", "/api/account/signout", {}),
  changePassword: (body) => request("POST", "/api/account/password", body),
  block: (name) => request("POST", "/api/friends/block", { name }),
  unblock: (name) => request("POST", "/api/friends/unblock", { name }),
  report: (name, reason) => request("POST", "/api/friends/report", { name, reason }),
  emailState: () => request("GET", "/api/account/email"),
  // the language of the mail it sends (the page's)
  setEmail: (email, lang) => request("POST", "/api/account/email", { email, lang }),
  verifyEmail: (token) => request("POST", "/api/account/email/verify", { token }),
  forgot: (name, lang) => request("POST", "/api/account/forgot", { name, lang }),
  resetLink: (token) => request("GET", `/api/account/reset/${enc(token)}`),
  resetPassword: (body) => request("POST", "/api/account/reset", body),
  privacy: (priv) => request("POST", "/api/account/privacy", { private: priv }),
  claim: (claim) => request("POST", "/api/account/claim", { claim }),
  deleteAccount: (password) => request("POST", "/api/account/delete", { password }),
  profile: (name) => request("GET", `/api/players/${enc(name)}`),
  botsOnline: () => request("GET", "/api/bot/online"),
  myBots: () => request("GET", "/api/bots"),
  makeBot: (body) => request("POST", "/api/bots", body),
  changeBot: (name, body) => request("POST", `/api/bots/${enc(name)}`, body),
  makeToken: (name, label) => request("POST", `/api/bots/${enc(name)}/tokens`, { label }),
  revokeToken: (name, id) => request("DELETE", `/api/bots/${enc(name)}/tokens/${enc(id)}`),
  leaderboard: (pool, page) => request("GET", `/api/leaderboard/${enc(pool)}?page=${page}&per_page=20`),
  friends: () => request("GET", "/api/friends"),
  follow: (name) => request("POST", "/api/friends/follow", { name }),
  unfollow: (name) => request("POST", "/api/friends/unfollow", { name }),
  inviteFriend: (name, invite) => request("POST", "/api/friends/invite", { name, invite }),
  events: () => request("GET", "/api/events"),
  event: (id) => request("GET", `/api/events/${enc(id)}`),
  createEvent: (body) => request("POST", "/api/events", body),
  joinEvent: (id) => request("POST", `/api/events/${enc(id)}/join`, {}),
  addBot: (id, level) => request("POST", `/api/events/${enc(id)}/bots`, { level }),
  leaveEvent: (id) => request("POST", `/api/events/${enc(id)}/leave`, {}),
  startRound: (id) => request("POST", `/api/events/${enc(id)}/rounds`, {}),
  withdraw: (id, entrant, note) => request("POST", `/api/events/${enc(id)}/withdraw`, { entrant, note }),
  sitOut: (id, entrant, round) => request("POST", `/api/events/${enc(id)}/sit-out`, { entrant, round, note: "" }),
  lateEntry: (id, entrant) => request("POST", `/api/events/${enc(id)}/late-entry`, { entrant, note: "" }),
  reinstate: (id, entrant, note) => request("POST", `/api/events/${enc(id)}/reinstate`, { entrant, note }),
  enterResult: (id, r, tb, body) => request("POST", `/api/events/${enc(id)}/rounds/${r}/tables/${tb}/result`, body),
  correctResult: (id, r, tb, body) => request("PUT", `/api/events/${enc(id)}/rounds/${r}/tables/${tb}/result`, body),
  eventSeat: (id) => request("POST", `/api/events/${enc(id)}/seat`, {}),
  printRound: (id, r) => request("GET", `/api/events/${enc(id)}/rounds/${r}/print`),
  travellers: (id, r) => request("GET", `/api/events/${enc(id)}/rounds/${r}/travellers`),
};
