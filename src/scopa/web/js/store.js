// What the page remembers in localStorage: seat tokens per table, nickname, settings.
const PREFIX = "scopa.";

function read(key, fallback) {
  try {
    const raw = localStorage.getItem(PREFIX + key);
    return raw === null ? fallback : JSON.parse(raw);
  } catch {
    return fallback;
  }
}

function write(key, value) {
  localStorage.setItem(PREFIX + key, JSON.stringify(value));
}

/** {token, seat, invite} for a table this browser sits at, or null. */
export function seatFor(tableId) {
  return read(`seat.${tableId}`, null);
}

export function saveSeat(tableId, data) {
  write(`seat.${tableId}`, { ...(seatFor(tableId) || {}), ...data });
}

export function forgetSeat(tableId) {
  localStorage.removeItem(`${PREFIX}seat.${tableId}`);
}

export function nickname() {
  return read("name", "");
}

export function saveNickname(name) {
  write("name", name);
}

export function setting(key, fallback) {
  return read(`setting.${key}`, fallback);
}

export function saveSetting(key, value) {
  write(`setting.${key}`, value);
}

/** The invite code of a table this browser has seen an invite for (to watch it). */
export function inviteFor(tableId) {
  const seat = seatFor(tableId);
  return (seat && seat.invite) || read(`invite.${tableId}`, null);
}

export function saveInvite(tableId, invite) {
  write(`invite.${tableId}`, invite);
}

/** Sign-out: forget what the person who was signed in left here (their seat tokens, the
 * invites of their tables, their nickname), so the next person on a shared browser can
 * neither resume those seats nor be offered to claim them. Settings and language stay. */
export function forgetPlayer() {
  const mine = [`${PREFIX}seat.`, `${PREFIX}invite.`];
  const keys = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (key && (mine.some((p) => key.startsWith(p)) || key === `${PREFIX}name`)) keys.push(key);
  }
  for (const key of keys) localStorage.removeItem(key);
}

/** Every seat this browser holds as a guest: [{table_id, token}] (claimed on sign-up). */
export function allSeats() {
  const out = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (!key || !key.startsWith(`${PREFIX}seat.`)) continue;
    const seat = read(key.slice(PREFIX.length), null);
    if (seat && seat.token) out.push({ table_id: key.slice(`${PREFIX}seat.`.length), token: seat.token });
  }
  return out;
}
