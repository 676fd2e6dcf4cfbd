// @ts-check
// The WebSocket to a table (docs/protocol.md): says hello, reconnects by itself with
// growing pauses, and notices a dead connection by pinging, since a socket can die
// without ever closing (a laptop lid, a Wi-Fi switch).

// Close codes after which trying again cannot help.
/** @type {Record<number, string>} */
export const FINAL = {
  4404: 'There is no such table.',
  4003: 'The host gave your seat to someone else.',
  1008: 'The server closed the connection: too many messages.',
  4010: 'You stopped watching: this page was hidden for a long while.',
};

/** The close code of a spectator let go for sending nothing for a long while. */
export const IDLE_CLOSE = 4010;

/**
 * What the socket tells its owner. hello(): the hello message to send (it holds the
 * last version seen); message(m): each message from the server; state(name, detail):
 * 'connecting' (detail: the attempt), 'open', 'down' (retrying, detail: seconds until
 * the next try) or 'final' (detail: why). watching(): whether the page only watches
 * (a spectator's page pings only while it is shown, so that a hidden one gives its
 * place up after a while: docs/protocol.md).
 * @typedef {{
 *   hello: () => Record<string, unknown>,
 *   message: (message: import('./wire.js').ServerMessage) => void,
 *   state: (state: 'connecting' | 'open' | 'down' | 'final', detail?: number | string) => void,
 *   watching?: () => boolean,
 * }} SocketHooks
 */

export class TableSocket {
  /**
   * @param {string} tableId
   * @param {SocketHooks} hooks
   */
  constructor(tableId, hooks) {
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    this.url = `${scheme}://${location.host}/ws/tables/${encodeURIComponent(tableId)}`;
    this.hooks = hooks;
    /** @type {WebSocket | null} */
    this.ws = null;
    this.attempt = 0;
    this.stopped = false;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.retryTimer = undefined;
    /** @type {ReturnType<typeof setInterval> | undefined} */
    this.pingTimer = undefined;
    /** @type {number | null} */
    this.pongDue = null;
    window.addEventListener('online', () => this.retryNow());
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'visible') this.retryNow();
    });
  }

  start() {
    this.stopped = false;
    this.open();
  }

  open() {
    clearTimeout(this.retryTimer);
    this.hooks.state('connecting', this.attempt);
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.onopen = () => {
      this.attempt = 0;
      ws.send(JSON.stringify(this.hooks.hello()));
      this.hooks.state('open');
      this.startPings();
    };
    ws.onmessage = (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      if (message.type === 'pong') {
        this.pongDue = null;
        return;
      }
      this.hooks.message(message);
    };
    ws.onclose = (event) => {
      if (this.ws !== ws) return;
      this.stopPings();
      this.ws = null;
      if (this.stopped) return;
      if (event.code in FINAL) {
        this.stopped = true;
        this.hooks.state('final', FINAL[event.code]);
        return;
      }
      // 0.5 s, 1 s, 2 s, ... at most 10 s between tries, a little random so that a
      // restarted server is not hit by every page at the same instant.
      const pause = Math.min(10, 0.5 * 2 ** this.attempt) * (0.8 + Math.random() * 0.4);
      this.attempt += 1;
      this.hooks.state('down', pause);
      this.retryTimer = setTimeout(() => this.open(), pause * 1000);
    };
  }

  /** Try at once (the browser says it is online again, or the tab is visible again). */
  retryNow() {
    if (this.stopped || this.ws) return;
    this.open();
  }

  /** Drop the connection as a network failure would; it reconnects by itself. */
  drop() {
    if (this.ws) this.ws.close(4000, 'dropped');
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    this.stopPings();
    if (this.ws) this.ws.close(1000);
    this.ws = null;
  }

  /** @param {Record<string, unknown>} message */
  send(message) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  get isOpen() {
    return !!this.ws && this.ws.readyState === WebSocket.OPEN;
  }

  startPings() {
    this.stopPings();
    let n = 0;
    this.pingTimer = setInterval(() => {
      if (this.pongDue !== null && Date.now() > this.pongDue) {
        // No answer to the last ping: the connection is dead though not closed.
        this.drop();
        return;
      }
      if (document.visibilityState === 'hidden' && this.hooks.watching?.()) return;
      if (this.pongDue === null && this.send({type: 'ping', id: `ping-${++n}`})) {
        this.pongDue = Date.now() + 10000;
      }
    }, 15000);
  }

  stopPings() {
    clearInterval(this.pingTimer);
    this.pingTimer = undefined;
    this.pongDue = null;
  }
}
