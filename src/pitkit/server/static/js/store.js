// What the browser remembers between visits: the player's name, and for each table
// the seat token (so reloading keeps the seat) and the host token (to start it).
// Tokens are secrets: they live only here and in the page's own address.

const KEY = 'pitkit.v1';

function load() {
  try {
    return JSON.parse(localStorage.getItem(KEY)) || {};
  } catch {
    return {};
  }
}

function save(data) {
  try {
    localStorage.setItem(KEY, JSON.stringify(data));
  } catch {
    // Private browsing or a full store: the page still works, reloads just lose the seat.
  }
}

export function playerName() {
  return load().name || '';
}

export function setPlayerName(name) {
  const data = load();
  data.name = name;
  save(data);
}

/** The table's record: {token, host, invites: {seat: url}, game, created}. */
export function tableRecord(id) {
  return (load().tables || {})[id] || null;
}

export function updateTable(id, change) {
  const data = load();
  data.tables = data.tables || {};
  const record = {...(data.tables[id] || {}), ...change, seen: Date.now()};
  data.tables[id] = record;
  // Keep the newest 50 tables: old tokens are useless once their tables are gone.
  const ids = Object.keys(data.tables).sort((a, b) => data.tables[b].seen - data.tables[a].seen);
  for (const old of ids.slice(50)) delete data.tables[old];
  save(data);
  return record;
}

export function forgetSeat(id) {
  const data = load();
  if (data.tables && data.tables[id]) {
    delete data.tables[id].token;
    save(data);
  }
}

export function myTables() {
  return load().tables || {};
}

/** Per-hand scores of a match, as the page saw them (the server's view holds only totals). */
export function sheet(id, match) {
  return ((load().sheets || {})[`${id}/${match}`]) || {};
}

export function saveSheet(id, match, rows) {
  const data = load();
  data.sheets = data.sheets || {};
  data.sheets[`${id}/${match}`] = rows;
  const keys = Object.keys(data.sheets);
  for (const old of keys.slice(0, Math.max(0, keys.length - 30))) delete data.sheets[old];
  save(data);
}
