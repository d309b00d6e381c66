// One WebSocket to a table: says hello with the seat token (or as a spectator) and
// reconnects by itself after a lost connection, resuming the same seat.

/** First reconnection delay after a lost connection, and the longest (ms). */
const BASE_DELAY = 300;
const MAX_DELAY = 5000;
/** After a server restart (close code 1012) or a server going away (1001) every page of
 * that worker comes back at once: their returns are spread over at least this long (ms),
 * so the workers left are not hit by all of them in the same instant. */
const RESTART_SPREAD = 3000;
/** No page comes back sooner than this (ms). */
const MIN_DELAY = 100;

/**
 * How long to wait before reconnection attempt number `attempt` (0 first) after a close
 * with `code`: exponential back-off with random jitter (anywhere in the window, so pages
 * closed together spread out instead of retrying in step).
 * @param {number} code  the close event's code
 * @param {number} attempt
 * @param {() => number} random  uniform in [0, 1)
 * @returns {number} milliseconds
 */
export function reconnectDelay(code, attempt, random = Math.random) {
  const ceiling = Math.min(MAX_DELAY, BASE_DELAY * 2 ** attempt);
  const window = code === 1012 || code === 1001 ? Math.max(ceiling, RESTART_SPREAD) : ceiling;
  return Math.round(MIN_DELAY + random() * (window - MIN_DELAY));
}

export class TableSocket {
  /**
   * @param {string} tableId
   * @param {{token?: string, invite?: string}} who  token to play a seat; none to watch
   *   (with the invite code, for a private table)
   * @param {{onMessage: Function, onStatus: Function}} handlers
   */
  constructor(tableId, who, handlers) {
    this.tableId = tableId;
    this.who = who;
    this.handlers = handlers;
    this.retry = 0;
    this.closed = false;
    this.open();
  }

  open() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${proto}//${location.host}/ws/${encodeURIComponent(this.tableId)}`);
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.retry = 0;
      // a private table is watched only with its invite code
      const hello = this.who.token
        ? { type: "hello", token: this.who.token }
        : { type: "hello", spectate: true, ...(this.who.invite ? { invite: this.who.invite } : {}) };
      ws.send(JSON.stringify(hello));
      this.handlers.onStatus("open");
    });
    ws.addEventListener("message", (e) => {
      let msg;
      try {
        msg = JSON.parse(e.data);
      } catch {
        return;
      }
      this.handlers.onMessage(msg);
    });
    ws.addEventListener("close", (e) => {
      if (this.ws !== ws) return;
      if (this.closed) return;
      if (e.code === 4003 || e.code === 4004) {
        this.handlers.onStatus(e.code === 4003 ? "bad_token" : "unknown_table");
        return;
      }
      this.handlers.onStatus("lost");
      this.timer = setTimeout(() => this.open(), reconnectDelay(e.code, this.retry++));
    });
  }

  send(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(msg));
      return true;
    }
    return false;
  }

  /** Drop the connection without closing the socket object (tests: simulate a loss). */
  drop() {
    if (this.ws) this.ws.close();
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    if (this.ws) this.ws.close();
  }
}
