// @ts-check
// What the page sends the server (docs/protocol.md, "Client to server"): the hello,
// actions, the full view when the page falls out of step, ready, a rematch; and the
// watchdog that never lets the page wait for an answer that will not come.
// (What the server sends, and the windows it opens, are js/table/receive.js's.)
import {api, errorText, toast} from '../dom.js';
import * as store from '../store.js';
import {S, draw, link, realtime} from './state.js';

// At most one full view every 250 ms (when an update came without one): with the
// player's own actions this stays well inside the server's limit of 10 messages a second.
const SYNC_GAP_MS = 250;

let actId = 0;

/** The hello message: the seat's token, the name, and the last version held. */
export function hello() {
  /** @type {Record<string, unknown>} */
  const message = {type: 'hello', views: true};
  if (S.token) message.token = S.token;
  const name = store.playerName();
  if (name) message.name = name;
  if (S.match != null && S.version != null) {
    message.match = S.match;
    message.version = S.version;
  }
  return message;
}

/** Say this seat is ready for the next hand (the end-of-hand window's button). */
export function sayReady() {
  if (S.seat == null || !S.pause || !link.socket || !link.socket.isOpen) return false;
  link.socket.send({type: 'ready', id: 'ready'});
  return true;
}

/**
 * Ask for the full view: at once after a gap, else at most every SYNC_GAP_MS.
 * @param {'gap' | 'refresh'} why
 */
export function requestSync(why) {
  if (why === 'gap' || !S.syncWhy) S.syncWhy = why;
  if (S.syncing || S.syncTimer) return;
  const wait = why === 'gap' ? 0 : Math.max(0, S.lastSyncAt + SYNC_GAP_MS - Date.now());
  S.syncTimer = setTimeout(() => {
    S.syncTimer = null;
    if (!link.socket || !link.socket.isOpen) return;
    S.syncing = true;
    S.lastSyncAt = Date.now();
    link.socket.send({type: 'sync', id: 'sync'});
  }, wait);
}

/**
 * Send an action. Turn-based games act on the version shown; Pit's market may be older.
 * It names the seat it is meant for: if the host moved this player meanwhile, the
 * server refuses it (`seat_changed`) rather than play it in the new seat.
 * @param {string} text
 */
export function act(text) {
  if (S.seat == null || !link.socket || !link.socket.isOpen) return;
  if (S.pending && !realtime()) return;
  const id = ++actId;
  S.pending = {id, text, at: Date.now()};
  const version = realtime() ? S.viewVersion : S.version;
  link.socket.send({type: 'act', action: text, version, seat: S.seat, id});
  draw();
}

/** Whether the page may send an action now. */
export function canAct() {
  if (S.seat == null || S.conn !== 'open' || !S.view || !S.game) return false;
  if (S.pause) return false; // between hands: the next one starts when everyone is ready
  if (realtime()) return true;
  return !S.pending && S.viewVersion === S.version && !S.syncing;
}

/** @type {Map<string, Promise<import('../games/contract.js').Verdict>>} */
const verdicts = new Map();

/**
 * The game's rules judge (POST /api/games/{game}/judge), cached.
 * @param {string[]} args
 */
export function judge(args) {
  const key = JSON.stringify(args);
  let verdict = verdicts.get(key);
  if (!verdict) {
    verdict = api(`/api/games/${S.table ? S.table.game : ''}/judge`, {method: 'POST', body: {args}})
      .then((r) => ({ok: true, text: String(r.verdict)}), (e) => ({ok: false, text: String(e.message)}));
    verdicts.set(key, verdict);
  }
  return verdict;
}

/** Ask for another match: it starts once every player here has asked. */
export function askRematch() {
  link.socket?.send({type: 'rematch', id: 'rematch'});
  toast('Asked for another game: it starts when every player here agrees.', 'info');
}

/** Whether this browser hosts the table (it holds the host's token). */
export function hosting() {
  const record = store.tableRecord(S.tableId);
  return !!(record && record.host);
}

/** The host starts the next match now, without waiting for the others' yes. */
export async function startRematchNow() {
  const record = store.tableRecord(S.tableId);
  if (!record || !record.host) return;
  try {
    await api(`/api/tables/${S.tableId}/rematch`, {method: 'POST', token: record.host});
  } catch (error) {
    toast(errorText(error));
  }
}

/** Never stay stuck waiting for an answer that will not come. */
export function watchdog() {
  const now = Date.now();
  if (S.turnEnds || S.sortingEnds || S.pause) draw(); // the countdowns count down
  if (S.syncing && now - S.lastSyncAt > 5000) {
    S.syncing = false;
    requestSync('gap');
  }
  if (S.pending && now - S.pending.at > 10000) {
    S.pending = null;
    toast('The server did not answer that move: try again.');
    draw();
  }
}
