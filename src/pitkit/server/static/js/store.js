// @ts-check
// What the browser remembers between visits: the player's name, and for each table
// the seat token (so reloading keeps the seat) and the host token (to start it).
// Tokens are secrets: they live only here and in the page's own address.

const KEY = 'pitkit.v1';

/**
 * What this browser keeps of a table: the seat token, the host token, the
 * invitation links by seat, the game, when it was last seen.
 * @typedef {{token?: string, host?: string, invites?: Record<string, string>, game?: string, seen?: number, profile?: string}} TableRecord
 */

/**
 * Everything stored: the player's name, tables by id, the sounds and animations chosen.
 * (`sheets`: the score sheets older pages kept here; the server keeps them now, and the
 * next save drops them.)
 * @typedef {{name?: string, tables?: Record<string, TableRecord>, sheets?: unknown, effects?: Effects}} Stored
 */

/** Sounds and animations on or off (unset: as the device prefers). @typedef {{sound?: boolean, motion?: boolean}} Effects */

/** @returns {Stored} */
function load() {
  try {
    return JSON.parse(localStorage.getItem(KEY) || '{}') || {};
  } catch {
    return {};
  }
}

/** @param {Stored} data */
function save(data) {
  delete data.sheets;
  try {
    localStorage.setItem(KEY, JSON.stringify(data));
  } catch {
    // Private browsing or a full store: the page still works, reloads just lose the seat.
  }
}

export function playerName() {
  return load().name || '';
}

/** @returns {Effects} */
export function effects() {
  return load().effects || {};
}

/** @param {Effects} chosen */
export function setEffects(chosen) {
  const data = load();
  data.effects = chosen;
  save(data);
}

/** @param {string} name */
export function setPlayerName(name) {
  const data = load();
  data.name = name;
  save(data);
}

/**
 * The table's record, if this browser has one.
 * @param {string} id
 * @returns {TableRecord | null}
 */
export function tableRecord(id) {
  return (load().tables || {})[id] || null;
}

/**
 * @param {string} id
 * @param {TableRecord} change
 */
export function updateTable(id, change) {
  const data = load();
  /** @type {Record<string, TableRecord>} */
  const tables = data.tables = data.tables || {};
  const record = {...(tables[id] || {}), ...change, seen: Date.now()};
  tables[id] = record;
  // Keep the newest 50 tables: old tokens are useless once their tables are gone.
  const ids = Object.keys(tables).sort((a, b) => (tables[b].seen || 0) - (tables[a].seen || 0));
  for (const old of ids.slice(50)) delete tables[old];
  save(data);
  return record;
}

/**
 * Forget the seat token of a table, if it is `token` (the table refused it): another
 * token this browser holds there (the host's own seat) stays.
 * @param {string} id
 * @param {string} token
 */
export function forgetSeat(id, token) {
  const data = load();
  if (data.tables && data.tables[id] && data.tables[id].token === token) {
    delete data.tables[id].token;
    save(data);
  }
}

export function myTables() {
  return load().tables || {};
}
