// @ts-check
// The lobby's ways to sit down without an invitation: Play now (a table of the game
// chosen, with whoever else presses it, and bots of the strength chosen in the seats
// nobody takes after a short wait, counted down here), Join (an open seat of a
// listed table), and the tables a signed-in profile holds seats at. Every seat taken
// is kept in this browser (js/store.js) and, signed in, made the profile's.
import {api, h, plural} from './dom.js';
import {asMe, signedIn, sitAs} from './profile.js';
import {timeLeftText} from './own-pace.js';
import * as store from './store.js';

/** One strength of bot for a game (`GET /api/levels`). @typedef {{level: string, bot: string, why: string}} Level */
/** Your seat at a Play now table. @typedef {{table: string, seat: number, token: string, level: string, bot: string, starts_in: number}} PlayNowSeat */
/** A Play now table waiting for players. @typedef {{table: string, game: string, level: string, bot: string, open: number, starts_in: number}} Waiting */
/**
 * A table where the signed-in profile holds a seat (`GET /api/profiles/me/tables`).
 * @typedef {{id: string, game: string, title: string, players: number, status: string, match: number,
 *   seat: number, name: string | null, updated: number, your_turn: boolean | null,
 *   move_left?: number | null, own_pace?: number | null}} MyTable
 */

/** @type {Record<string, string>} */
export const LEVEL_TITLES = {easy: 'Easy', medium: 'Medium', hard: 'Hard'};

/**
 * Keep a seat just taken (for this browser, and for the signed-in profile) and
 * return the address of the page that holds it.
 * @param {string} tableId
 * @param {string} game
 * @param {string} token the seat's own secret
 */
async function keepSeat(tableId, game, token) {
  store.updateTable(tableId, {token, game});
  if (signedIn()) {
    try {
      await sitAs(tableId, token);
    } catch {
      // The seat is this browser's all the same; the profile page can take it later.
    }
  }
  return `/t/${encodeURIComponent(tableId)}#token=${encodeURIComponent(token)}`;
}

/**
 * Take the first open seat of a listed table, under `name`, and go to it.
 * @param {string} tableId
 * @param {string} game
 * @param {string} name
 */
export async function join(tableId, game, name) {
  /** @type {{seat: number, token: string}} */
  const taken = await api(`/api/tables/${encodeURIComponent(tableId)}/take-seat`, {method: 'POST', body: name ? {name} : {}});
  location.assign(await keepSeat(tableId, game, taken.token));
}

/**
 * Play now: a seat at a table of `game` whose empty seats bots of `level` take after
 * the wait; the wait is counted down in `box`, then the page goes to the table.
 * @param {string} game
 * @param {string} level
 * @param {string} name
 * @param {HTMLElement} box
 */
export async function playNow(game, level, name, box) {
  /** @type {PlayNowSeat} */
  const seat = await api('/api/play-now', {method: 'POST', body: {game, level, ...(name ? {name} : {})}});
  const page = await keepSeat(seat.table, game, seat.token);
  const deadline = Date.now() + seat.starts_in * 1000;
  const go = () => location.assign(page);
  box.hidden = false;
  const tick = async () => {
    /** @type {import('./wire.js').TableInfo} */
    const table = await api(`/api/tables/${encodeURIComponent(seat.table)}`);
    if (table.status !== 'waiting') return go();
    const others = table.seats.filter((s) => s.kind === 'player').length - 1;
    const open = table.seats.filter((s) => s.kind === 'open').length;
    const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
    box.replaceChildren(
      h('p', {}, h('strong', {}, `${table.title}: `), others ? `you and ${plural(others, 'other player')}. ` : 'you. ',
        `${LEVEL_TITLES[seat.level] || seat.level} bots take ${open === 1 ? 'the empty seat' : `the ${open} empty seats`} `,
        h('span', {class: 'countdown'}, left ? `in ${left} s` : 'now'), '.'),
      h('p', {}, h('a', {class: 'button', href: page}, 'Go to the table now')));
    setTimeout(() => tick().catch(go), 1000);
  };
  await tick();
}

/**
 * The lobby's note on a Play now table still waiting.
 * @param {Waiting} waiting
 */
export function waitingText(waiting) {
  const level = (LEVEL_TITLES[waiting.level] || waiting.level).toLowerCase();
  return `Play now: ${level} bots take the empty seats in ${Math.ceil(waiting.starts_in)} s`;
}

/**
 * Draw the tables the signed-in profile holds seats at, those waiting for your move
 * first, in `list`; hides `panel` when nobody is signed in.
 * @param {HTMLElement} panel
 * @param {HTMLElement} list
 */
export async function drawMine(panel, list) {
  if (!signedIn()) {
    panel.hidden = true;
    return;
  }
  /** @type {MyTable[]} */
  const tables = await asMe('/api/profiles/me/tables');
  // Your turn first (as the server sends them: the least time left first).
  tables.sort((a, b) => Number(!!b.your_turn) - Number(!!a.your_turn));
  panel.hidden = false;
  list.replaceChildren(...(tables.length ? tables.map((t) => {
    const record = store.tableRecord(t.id);
    const here = record && record.token ? `/t/${encodeURIComponent(t.id)}#token=${encodeURIComponent(record.token)}` : null;
    return h('li', {class: 'table-item', dataset: {table: t.id}},
      h('div', {class: 't-head'}, h('span', {class: 't-title'}, t.title),
        t.your_turn ? h('strong', {class: 'your-turn'}, 'Your turn') : h('span', {class: 't-status'}, t.status)),
      t.your_turn && t.move_left != null ? h('div', {class: 't-seats move-left'}, `${timeLeftText(t.move_left)} to move`) : null,
      h('div', {class: 't-seats'}, `seat ${t.seat + 1} of ${t.players}${t.name ? ` as ${t.name}` : ''}${t.match > 1 ? ` · game ${t.match}` : ''}`),
      h('div', {class: 't-buttons'}, here
        ? h('a', {class: 'button primary', href: here}, 'Play')
        : h('a', {class: 'button', href: '/me'}, 'Continue from your profile')));
  }) : [h('li', {class: 'note'}, 'No tables yet: a seat you take while signed in shows here.')]));
}

/**
 * The lobby's text for each strength of a game, with the bot behind it.
 * @param {Level} level
 */
export function levelText(level) {
  return `${LEVEL_TITLES[level.level] || level.level} (${level.bot}): ${level.why}`;
}
