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
