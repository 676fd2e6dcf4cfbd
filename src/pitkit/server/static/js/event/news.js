// @ts-check
// How a page follows its event live. A stream of the event's news (server-sent
// events, GET /api/events/<id>/stream) names the event's last entry at once and
// after each new one, and the page fetches the event when that is not the entry it
// shows: a new entry is on the big screen within a second or two, and nothing is
// asked of the server in between. The stream says it is alive every 10 s, and
// the browser opens the next when one ends (each lasts 25 s). Where no stream can be
// had (the server caps them per address, or the page is hidden), the page asks for
// the event every few seconds instead (`live` false), and tries a stream again later.
// How fresh the page is, in words: "live", or "last updated 40 s ago — reconnecting".
// Each piece of news says the server's time too: the round clock (js/event/clock.js)
// sets the page's clock by it.
import {serverClock} from './clock.js';

/** A stream silent this long is taken for dead (it says it is alive every 10 s): the
page says it is not current, and opens another (a network that drops leaves a stream
open and silent, rather than closed). */
const SILENT_MS = 15000;
/** A stream the server refused is asked for again after this long. */
const AGAIN_MS = 60000;

/**
 * Seconds or minutes, in words: "40 s", "3 min".
 * @param {number} ms
 */
function ago(ms) {
  const s = Math.max(0, Math.round(ms / 1000));
  return s < 120 ? `${s} s` : `${Math.round(s / 60)} min`;
}

/** An event's news, and how fresh what the page shows is. */
export class News {
  /**
   * @param {string} eventId
   * @param {(seq: number) => void} onEntry the stream named this last entry
   * @param {number} pollMs how often the page asks when it has no stream
   */
  constructor(eventId, onEntry, pollMs) {
    this.url = `/api/events/${encodeURIComponent(eventId)}/stream`;
    this.onEntry = onEntry;
    this.pollMs = pollMs;
    /** @type {EventSource | null} */
    this.source = null;
    /** When the server last answered (ms): the page is as of then, at least. */
    this.heardAt = Date.now();
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.again = null;
  }

  /** Follow the event while the page is visible. */
  start() {
    if (typeof EventSource === 'undefined') return; // it asks every few seconds instead
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'visible') this.open();
      else this.close();
    });
    if (document.visibilityState === 'visible') this.open();
    setInterval(() => {
      if (this.source && this.source.readyState === EventSource.OPEN && Date.now() - this.heardAt > SILENT_MS) {
        this.close();
        this.open();
      }
    }, 5000);
  }

  open() {
    if (this.source) return;
    if (this.again !== null) clearTimeout(this.again);
    this.again = null;
    const source = this.source = new EventSource(this.url);
    /** @param {MessageEvent} e */
    const news = (e) => {
      this.heard();
      try {
        const said = JSON.parse(e.data);
        if (typeof said.now === 'number') serverClock.heard(said.now);
        this.onEntry(Number(said.seq));
      } catch {
        // Not news this page reads: the next poll or entry corrects it.
      }
    };
    source.addEventListener('entry', news);
    source.addEventListener('ping', news);
    source.addEventListener('error', () => {
      // CONNECTING: the browser opens the next stream by itself. CLOSED: the server
      // refused one (429: too many from this address): ask every few seconds, and
      // for a stream again later.
      if (source.readyState === EventSource.CLOSED) {
        this.close();
        this.again = setTimeout(() => this.open(), AGAIN_MS);
      }
    });
  }

  close() {
    if (this.source) this.source.close();
    this.source = null;
  }

  /** The server answered just now (a stream's news, a fetch, an entry's answer). */
  heard() {
    this.heardAt = Date.now();
  }

  /** Whether a stream brings the news (else the page asks every few seconds). */
  live() {
    return !!this.source && this.source.readyState === EventSource.OPEN && Date.now() - this.heardAt < SILENT_MS;
  }

  /**
   * How fresh the page is: stale once nothing was heard for longer than the stream's
   * pings or the page's polls allow, with the words to say so.
   * @returns {{stale: boolean, text: string}}
   */
  fresh() {
    const silent = Date.now() - this.heardAt;
    const open = !!this.source && this.source.readyState === EventSource.OPEN;
    const stale = silent > (open ? SILENT_MS : this.pollMs + 4000);
    if (stale) return {stale, text: `Last updated ${ago(silent)} ago — reconnecting…`};
    // A stream between two (each lasts 25 s) is as live as one open.
    return {stale, text: this.source ? 'Live' : 'Updated every few seconds'};
  }
}
