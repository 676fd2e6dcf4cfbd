// @ts-check
// What this browser keeps of each event: the links opened here (a manager who also
// plays holds two), which one the page uses, the players' links the manager made
// here (the server shows each only once), and the entries made here that wait to be
// sent (js/event/outbox.js: no network, or no answer yet). Links are secrets: they
// live only here, never in the page's address once read (js/event.js takes them out
// of it).

const KEY = 'pitkit.events.v1';

/**
 * An entry made on this page that the server has not answered yet, with the
 * idempotency key it is sent with every time (so that it lands once), where its
 * words go on the page, what to say once it lands, and when it was made (ms).
 * @typedef {{key: string, type: string, data: Record<string, unknown>, corrects: number | null, where: string, done: string, made: number}} Waiting
 */

/**
 * One event's record: tokens by who holds them ("manager", "player:Ann"), the one in
 * use ("" for the public view), the links made here by name, the entries waiting to
 * be sent by whose link they go through, when it was last seen.
 * @typedef {{tokens: Record<string, string>, current: string, made: Record<string, string>, waiting: Record<string, Waiting[]>, seen: number}} EventRecord
 */

/** @returns {Record<string, EventRecord>} */
function load() {
  try {
    const data = JSON.parse(localStorage.getItem(KEY) || '{}');
    return data && typeof data === 'object' ? data : {};
  } catch {
    return {};
  }
}

/** @param {Record<string, EventRecord>} data */
function save(data) {
  try {
    localStorage.setItem(KEY, JSON.stringify(data));
  } catch {
    // Private browsing or a full store: the page still works; a reload needs the link again.
  }
}

/**
 * A record with every field, from what was stored (if anything).
 * @param {Partial<EventRecord> | undefined} found
 * @returns {EventRecord}
 */
function complete(found) {
  const r = found || {};
  return {tokens: r.tokens || {}, current: r.current || '', made: r.made || {}, waiting: r.waiting || {}, seen: r.seen || 0};
}

/**
 * The event's record (a blank one if this browser has none).
 * @param {string} id
 * @returns {EventRecord}
 */
export function record(id) {
  return complete(load()[id]);
}

/**
 * Change the event's record.
 * @param {string} id
 * @param {(r: EventRecord) => void} change
 */
export function update(id, change) {
  const data = load();
  const r = complete(data[id]);
  change(r);
  r.seen = Date.now();
  data[id] = r;
  // Keep the newest 30 events: an old event's links are of no more use here (one with
  // entries still to send is kept whatever its age).
  const ids = Object.keys(data).sort((a, b) => (data[b].seen || 0) - (data[a].seen || 0));
  for (const old of ids.slice(30)) if (!Object.values(data[old].waiting || {}).some((w) => w.length)) delete data[old];
  save(data);
  return r;
}

/**
 * Who a token's holder is, as the record names them.
 * @param {{role: string, name: string | null}} me
 */
export function label(me) {
  return me.role === 'manager' ? 'manager' : `${me.role}:${me.name || ''}`;
}
