// One WebSocket to a table: says hello with the seat token (or as a spectator) and
// reconnects by itself after a lost connection, resuming the same seat.

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
      const delay = Math.min(5000, 300 * 2 ** this.retry++);
      this.timer = setTimeout(() => this.open(), delay);
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
