// @ts-check
// The leaderboards (/leaders, /leaders/GAME): for the game chosen, the profiles rated
// in enough of its matches, ranked by the low end of their range (docs/ratings.md),
// a page at a time. Your own row (this browser's profile) stands out.
import {api, errorText, h, ordinal, plural} from './dom.js';
import {signedIn} from './profile.js';
import {points, ratingText, swatch} from './ratings.js';

/** A game as GET /api/games describes it (what this page reads of it). @typedef {{name: string, title: string}} GameInfo */
/** A row. @typedef {{place: number, id: string, name: string, colour: string, rating: number, plus_minus: number, low: number, matches: number}} LeaderOut */
/** A page of a leaderboard. @typedef {{game: string, title: string, least: number, total: number, page: number, per_page: number, leaders: LeaderOut[]}} LeaderboardOut */

let page = 0;

/**
 * @param {string} id
 * @returns {HTMLElement}
 */
function byId(id) {
  const el = document.getElementById(id);
  if (!el) throw new Error(`the page has no #${id}`);
  return el;
}

const select = /** @type {HTMLSelectElement} */ (byId('game'));

/**
 * @param {LeaderOut} row
 * @param {string | null} me this browser's profile
 */
function leaderRow(row, me) {
  return h('tr', {class: row.id === me ? 'mine' : null, dataset: {profile: row.id}},
    h('td', {}, String(row.place)),
    h('td', {class: 'who'}, swatch(row.colour), h('a', {href: `/p/${encodeURIComponent(row.id)}`}, row.name),
      row.id === me ? ' (you)' : ''),
    h('td', {class: 'rating', title: `ranked by ${points(row.low)}, the low end of the range`}, points(row.rating), ' ',
      h('span', {class: 'range'}, `± ${points(row.plus_minus)}`)),
    h('td', {}, String(row.matches)));
}

/** @param {LeaderboardOut} board */
function draw(board) {
  const signed = signedIn();
  const me = signed ? signed.profile.id : null;
  document.title = `pitkit: ${board.title} leaderboard`;
  byId('title').textContent = `Leaderboard: ${board.title}`;
  byId('board-caption').textContent = `${board.title} leaderboard, places ${board.page * board.per_page + 1} on`;
  byId('rule').textContent = `Players rated in at least ${plural(board.least, 'match', 'matches')} of ${board.title}, `
    + 'ranked by the low end of their range (the rating less the ±), so a few lucky wins do not top the board. '
    + (board.total ? `${plural(board.total, 'player')} in all.` : '');
  byId('board-rows').replaceChildren(...board.leaders.map((row) => leaderRow(row, me)));
  byId('board').hidden = !board.leaders.length;
  const empty = byId('empty');
  empty.hidden = !!board.leaders.length;
  empty.textContent = board.page ? 'No more players.' : `Nobody yet: play ${board.title} with other people to be rated.`;
  byId('newer').hidden = board.page === 0;
  byId('older').hidden = (board.page + 1) * board.per_page >= board.total;
  const mine = me ? board.leaders.find((row) => row.id === me) : null;
  if (mine) byId('rule').append(` You are ${ordinal(mine.place)}: ${ratingText(mine)}.`);
}

async function load() {
  const game = select.value;
  try {
    draw(await api(`/api/leaderboard/${encodeURIComponent(game)}?page=${page}`));
  } catch (error) {
    byId('empty').textContent = `The leaderboard could not be read: ${errorText(error)}`;
    byId('empty').hidden = false;
  }
}

async function start() {
  /** @type {GameInfo[]} */
  const games = await api('/api/games');
  select.replaceChildren(...games.map((g) => h('option', {value: g.name}, g.title)));
  const asked = decodeURIComponent(location.pathname.split('/')[2] || '');
  select.value = games.some((g) => g.name === asked) ? asked : games[0].name;
  select.addEventListener('change', () => {
    page = 0;
    history.replaceState(null, '', `/leaders/${encodeURIComponent(select.value)}`);
    load();
  });
  byId('newer').addEventListener('click', () => { page = Math.max(0, page - 1); load(); });
  byId('older').addEventListener('click', () => { page += 1; load(); });
  await load();
}

start();
