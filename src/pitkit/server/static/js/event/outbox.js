// @ts-check
// Entries on their way to the server, kept on this phone until it answers. Bad Wi-Fi
// in a hall drops a scorer's network, or the reply to an entry that did land: so each
// entry made on a page is first kept (js/event/keep.js, per event and per link) with
// an idempotency key made for it here, then sent. Sent again under the same key
// (after a lost reply, a reload, the network back), the server answers with the entry
// it made, never a second one (docs/protocol.md, "Events"). Entries go in the order
// they were made, one at a time: one waits while an earlier one waits. What waits is
// sent again when the browser says it is online, and on a timer that backs off
// (1 s, 2 s, 4 s... up to 30 s), and after a reload.
import {capital, h, plural, reasonOf} from '../dom.js';
import * as keep from './keep.js';

/** @typedef {import('./keep.js').Waiting} Waiting */
/** @typedef {import('./contract.js').LogEntry} LogEntry */

/**
 * What became of an entry sent: it landed (the server's answer: the entry, the event
 * as it now is), it was refused (the server's reason; nothing changed), or it is not
 * sent yet (no network, no answer in time, the server busy): it waits.
 * @typedef {{kind: 'landed', answer: any} | {kind: 'refused', status: number, reason: string} | {kind: 'unsent', reason: string}} Outcome
 */

/** How long an entry waits for its answer before it is kept to be sent again. */
const SEND_MS = 10000;
const FIRST_RETRY_MS = 1000;
const LAST_RETRY_MS = 30000;

/** A new idempotency key: 128 random bits, as 22 letters, digits, - and _. */
export function newKey() {
  // getRandomValues, not randomUUID: a hall's server is often plain http on the LAN,
  // where randomUUID does not exist.
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * Send one entry, once, under its key.
 * @param {string} eventId
 * @param {Waiting} item
 * @param {string} token
 * @returns {Promise<Outcome>}
 */
async function send(eventId, item, token) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), SEND_MS);
  try {
    const body = item.corrects ? {type: item.type, data: item.data, corrects: item.corrects} : {type: item.type, data: item.data};
    const response = await fetch(`/api/events/${encodeURIComponent(eventId)}/entries`, {
      method: 'POST',
      headers: {'content-type': 'application/json', 'idempotency-key': item.key, authorization: `Bearer ${token}`},
      body: JSON.stringify(body),
      signal: controller.signal,
    });
    const answer = await response.json().catch(() => ({}));
    if (response.ok) return {kind: 'landed', answer};
    // The server did nothing and may well do it later: busy (429), failing (5xx), or
    // a proxy with no worker behind it. Anything else is its refusal.
    if (response.status === 408 || response.status === 429 || response.status >= 500) return {kind: 'unsent', reason: reasonOf(answer, response)};
    return {kind: 'refused', status: response.status, reason: reasonOf(answer, response)};
  } catch (e) {
    return {kind: 'unsent', reason: e instanceof DOMException && e.name === 'AbortError' ? 'no answer from the server' : 'no network'};
  } finally {
    clearTimeout(timer);
  }
}

/** An event's entries waiting to be sent, on this browser, and the sending of them. */
export class Outbox {
  /**
   * @param {string} eventId
   * @param {(label: string, item: Waiting, outcome: Outcome) => void} told what to do
   *   with each outcome (the page's words, the event redrawn)
   */
  constructor(eventId, told) {
    this.eventId = eventId;
    this.told = told;
    /** @type {Promise<void>} */
    this.running = Promise.resolve();
    /** @type {Map<string, Outcome>} the last outcome of each entry, by key */
    this.outcomes = new Map();
    this.backoff = FIRST_RETRY_MS;
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.timer = null;
    addEventListener('online', () => { this.flush(); });
  }

  /**
   * The entries waiting to go through the link `label`, oldest first.
   * @param {string} label
   * @returns {Waiting[]}
   */
  waiting(label) {
    return keep.record(this.eventId).waiting[label] || [];
  }

  /** Every entry waiting, through any link. */
  count() {
    return Object.values(keep.record(this.eventId).waiting).reduce((n, items) => n + items.length, 0);
  }

  /**
   * Keep an entry made here (before anything is sent: a reload sends it again, under
   * the same key), then send what waits. Its own outcome: unsent while it waits.
   * @param {string} label whose link it goes through ("player:Ann")
   * @param {Omit<Waiting, 'key' | 'made'>} entry
   * @returns {Promise<Outcome>}
   */
  async enter(label, entry) {
    /** @type {Waiting} */
    const item = {...entry, key: newKey(), made: Date.now()};
    keep.update(this.eventId, (r) => { r.waiting[label] = [...(r.waiting[label] || []), item]; });
    await this.flush();
    return this.outcomes.get(item.key) || {kind: 'unsent', reason: 'an entry made before it waits'};
  }

  /** Send every entry waiting, in order (after any sending under way). */
  flush() {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.running = this.running.then(() => this.run());
    return this.running;
  }

  /** One round: each link's entries in order, until one is not sent. */
  async run() {
    const record = keep.record(this.eventId);
    let stuck = false;
    for (const label of Object.keys(record.waiting)) {
      const token = record.tokens[label];
      for (let item = this.waiting(label)[0]; item; item = this.waiting(label)[0]) {
        /** @type {Outcome} */
        const outcome = token ? await send(this.eventId, item, token)
          : {kind: 'refused', status: 403, reason: 'the link it was made through is no longer kept in this browser'};
        this.outcomes.set(item.key, outcome);
        if (outcome.kind !== 'unsent') this.drop(label, item.key);
        this.told(label, item, outcome);
        if (outcome.kind === 'unsent') { stuck = true; break; }
      }
    }
    if (stuck) {
      this.timer = setTimeout(() => { this.flush(); }, this.backoff);
      this.backoff = Math.min(this.backoff * 2, LAST_RETRY_MS);
    } else {
      this.backoff = FIRST_RETRY_MS;
    }
  }

  /**
   * @param {string} label
   * @param {string} key
   */
  drop(label, key) {
    keep.update(this.eventId, (r) => {
      const rest = (r.waiting[label] || []).filter((w) => w.key !== key);
      if (rest.length) r.waiting[label] = rest;
      else delete r.waiting[label];
    });
  }
}

/**
 * The entries waiting to be sent, in words, above the page: each "waiting to send",
 * and a button to try now. Nothing (null) when none waits.
 * @param {Waiting[]} items
 * @param {((log: LogEntry[]) => Map<number, string>) | undefined} describe the kind's words for entries
 * @param {() => void} retry
 */
export function waitingPanel(items, describe, retry) {
  if (!items.length) return null;
  /** @type {LogEntry[]} */
  const entries = items.map((w, i) => ({seq: i + 1, at: w.made / 1000, role: '', author: null, by: '', type: w.type,
    data: w.data, corrects: w.corrects, corrected_by: []}));
  const words = describe ? describe(entries) : new Map();
  return h('section', {class: 'outbox', 'aria-labelledby': 'outbox-title', 'data-waiting': items.length},
    h('h2', {id: 'outbox-title'}, `Waiting to send (${items.length})`),
    h('p', {class: 'note'}, `No answer from the server yet: ${plural(items.length, 'entry', 'entries')} ${items.length === 1 ? 'is' : 'are'} kept on this phone and sent by themselves, in order, when the network is back. Keep this page open, or open it again later.`),
    h('ol', {class: 'outbox-list'}, items.map((w, i) => h('li', {'data-key': w.key, 'data-type': w.type},
      h('span', {class: 'what'}, capital(words.get(i + 1) || w.type.replaceAll('_', ' '))),
      ' ', h('span', {class: 'chip away'}, 'waiting to send'),
      w.corrects ? h('small', {}, ` (correcting entry #${w.corrects})`) : null))),
    h('button', {type: 'button', 'data-action': 'send-now', onclick: retry}, 'Try now'));
}
