// @ts-check
// The lobby: create a table (game, seats, rule options) and list the tables to play
// at or watch. Creating a table stores its tokens in this browser (js/store.js) and
// goes to your seat.
import {api, errorText, h, plural, toast} from './dom.js';
import * as store from './store.js';

/** @typedef {import('./wire.js').GameInfo} GameInfo */
/** @typedef {import('./wire.js').TableInfo} TableInfo */
/** @typedef {import('./wire.js').SeatInfo} SeatInfo */

/** @type {Record<string, string>} */
const STATUS = {waiting: 'waiting for players', playing: 'playing', over: 'over', broken: 'broken', closed: 'closed', expired: 'expired: nobody came'};

/** @type {GameInfo[]} */
let games = [];
let filter = '';

/**
 * The element with this id (the page has it).
 * @param {string} id
 */
function byId(id) {
  return /** @type {HTMLElement} */ (document.getElementById(id));
}

/** @param {string} id */
const selectEl = (id) => /** @type {HTMLSelectElement} */ (byId(id));
/** @param {string} id */
const inputEl = (id) => /** @type {HTMLInputElement} */ (byId(id));

/** The game chosen. */
function game() {
  const chosen = document.querySelector('input[name="game"]:checked');
  return games.find((g) => g.name === (chosen instanceof HTMLInputElement ? chosen.value : '')) || games[0];
}

/**
 * The bot a new seat gets: the game's own choice (a good one that answers at once).
 * @param {GameInfo} g
 */
function defaultBot(g) {
  const names = Object.keys(g.bots);
  return names.includes(g.opponent) ? g.opponent : names[names.length - 1];
}

function drawGames() {
  const box = byId('games');
  box.replaceChildren(h('legend', {class: 'sr-only'}, 'Game'), ...games.map((g, i) => h('div', {class: 'game-choice'},
    h('input', {type: 'radio', name: 'game', id: `game-${g.name}`, value: g.name, checked: i === 0,
      onchange: () => drawForm(true)}),
    h('label', {for: `game-${g.name}`},
      h('span', {class: 'g-title'}, g.title), h('br'),
      h('span', {class: 'g-players'}, g.min_players === g.max_players ? `${g.min_players} players` : `${g.min_players}–${g.max_players} players`),
      g.realtime ? h('span', {class: 'g-players'}, ' · real time') : null, h('br'),
      h('span', {class: 'g-summary'}, g.summary)))));
}

/** @param {boolean} [newGame] */
function drawForm(newGame = false) {
  const g = game();
  const players = selectEl('players');
  const current = newGame ? g.default_players : Number(players.value) || g.default_players;
  players.replaceChildren();
  for (let n = g.min_players; n <= g.max_players; n++) {
    players.append(h('option', {value: n, selected: n === (current >= g.min_players && current <= g.max_players ? current : g.default_players)}, n));
  }
  players.disabled = g.min_players === g.max_players;
  players.onchange = drawSeats;
  drawSeats();
  drawRules();
}

function drawSeats() {
  const g = game();
  const n = Number(selectEl('players').value);
  const list = byId('seats');
  const before = [...list.querySelectorAll('select')].map((s) => s.value);
  list.replaceChildren(h('li', {}, h('span', {class: 'seat-label'}, 'Seat 1'), h('strong', {}, 'You')));
  for (let i = 1; i < n; i++) {
    const id = `seat-${i}`;
    const select = h('select', {id, name: id},
      h('option', {value: 'open'}, 'Open: invite a friend'),
      Object.entries(g.bots).map(([name, doc]) => h('option', {value: name, title: doc}, `Bot: ${name}`)));
    select.value = before[i - 1] && [...select.options].some((o) => o.value === before[i - 1]) ? before[i - 1] : defaultBot(g);
    const doc = h('small', {class: 'bot-doc'});
    const explain = () => { doc.textContent = select.value === 'open' ? 'a friend takes this seat with its link' : g.bots[select.value]; };
    select.addEventListener('change', explain);
    explain();
    list.append(h('li', {}, h('label', {class: 'seat-label', for: id}, `Seat ${i + 1}`), select, doc));
  }
}

function drawRules() {
  const g = game();
  const box = byId('rules');
  const rulesPage = `/rules/${encodeURIComponent(g.name)}`;
  box.replaceChildren(h('p', {class: 'rules-page-link'},
    h('a', {href: rulesPage, target: '_blank', rel: 'noopener'}, `The rules of ${g.title}`), ': how to play, and every option.'),
  ...g.rules.map((o) => {
    const id = `rule-${o.name}`;
    let input;
    if (o.type === 'bool') {
      input = h('input', {type: 'checkbox', id, checked: !!o.default});
    } else if (o.choices.length) {
      input = h('select', {id}, o.choices.map((c) => h('option', {value: String(c), selected: c === o.default}, String(c).replaceAll('_', ' '))));
    } else if (o.type === 'int') {
      input = h('input', {type: 'number', id, value: o.default, step: 1});
    } else {
      input = h('input', {type: 'text', id, value: o.default ?? '', placeholder: o.type.includes('none') ? 'none' : ''});
    }
    input.dataset.rule = o.name;
    input.dataset.type = o.type;
    input.dataset.default = JSON.stringify(o.default);
    return h('div', {class: 'option'},
      h('label', {for: id}, o.label), input,
      h('span', {class: 'doc', id: `${id}-doc`}, `${o.doc}. `,
        h('a', {href: `${rulesPage}#option-${o.name}`, target: '_blank', rel: 'noopener'}, 'More in the rules')));
  }));
  for (const input of box.querySelectorAll('[data-rule]')) input.setAttribute('aria-describedby', `${input.id}-doc`);
  const summary = byId('rules-box').querySelector('summary');
  if (summary) summary.textContent = `Rule options (${g.rules.length}, each explained)`;
}

/** Only the options changed from their defaults, as JSON values the server reads. */
function chosenRules() {
  /** @type {Record<string, unknown>} */
  const rules = {};
  for (const input of /** @type {NodeListOf<HTMLInputElement | HTMLSelectElement>} */ (document.querySelectorAll('#rules [data-rule]'))) {
    const {default: stored = 'null', type = '', rule = ''} = input.dataset;
    const fallback = JSON.parse(stored);
    /** @type {unknown} */
    let value;
    if (input instanceof HTMLInputElement && input.type === 'checkbox') value = input.checked;
    else if (type === 'int') value = input.value === '' ? fallback : Number(input.value);
    else if (type.includes('none') && input.value.trim() === '') value = null;
    else value = input.value.trim();
    if (type.startsWith('int') && typeof value === 'string' && /^-?\d+$/.test(value)) value = Number(value);
    if (JSON.stringify(value) !== JSON.stringify(fallback)) rules[rule] = value;
  }
  return rules;
}

/** @param {SubmitEvent} event */
async function create(event) {
  event.preventDefault();
  const g = game();
  const error = byId('create-error');
  error.hidden = true;
  const n = Number(selectEl('players').value);
  /** @type {(string | null)[]} */
  const seats = [null];
  for (let i = 1; i < n; i++) {
    const value = selectEl(`seat-${i}`).value;
    seats.push(value === 'open' ? null : value);
  }
  const name = inputEl('name').value.trim();
  if (name) store.setPlayerName(name);
  const body = {
    game: g.name,
    players: n,
    seats,
    rules: chosenRules(),
    settings: {
      bot_delay: Number(selectEl('speed').value),
      listed: inputEl('listed').checked,
      spectator_chat: inputEl('spectator-chat').checked,
      turn_seconds: selectEl('turn-timer').value ? Number(selectEl('turn-timer').value) : null,
      next_hand_seconds: Number(selectEl('next-hand').value),
    },
  };
  const button = /** @type {HTMLButtonElement} */ (byId('create-button'));
  button.disabled = true;
  try {
    /** @type {{table: TableInfo, host_token: string, seats: {seat: number, token: string, invite: string}[]}} */
    const created = await api('/api/tables', {method: 'POST', body});
    const mine = created.seats.find((s) => s.seat === 0);
    if (!mine) throw new Error('the server kept no seat for you');
    /** @type {Record<string, string>} */
    const invites = {};
    // On this page's origin, whatever the server named (a relative link if it did not know its name).
    for (const s of created.seats) if (s.seat !== 0) invites[s.seat] = new URL(s.invite.replace(/^https?:\/\/[^/]+/, ''), location.origin).href;
    store.updateTable(created.table.id, {host: created.host_token, token: mine.token, invites, game: g.name});
    location.href = `/t/${created.table.id}#token=${encodeURIComponent(mine.token)}`;
  } catch (e) {
    error.textContent = `The table was not created: ${errorText(e)}`;
    error.hidden = false;
    button.disabled = false;
  }
}

/** @param {SeatInfo} seat */
function seatText(seat) {
  if (seat.kind === 'bot') return `${seat.label || seat.bot} (${seat.bot} bot)`;
  if (seat.kind === 'open') return 'open seat';
  return seat.name + (seat.away ? ' (away)' : '');
}

async function drawTables() {
  const list = byId('tables');
  /** @type {TableInfo[]} */
  let tables;
  try {
    tables = await api('/api/tables');
  } catch (e) {
    list.replaceChildren(h('li', {}, `Could not load the tables: ${errorText(e)}`));
    return;
  }
  const mine = store.myTables();
  // Your own tables first, then the rest, newest first (as the server sends them).
  tables.sort((a, b) => Number(!!(mine[b.id] && mine[b.id].token)) - Number(!!(mine[a.id] && mine[a.id].token)));
  const shown = tables.filter((t) => (filter === 'mine' ? mine[t.id] && mine[t.id].token : !filter || t.status === filter));
  if (!shown.length) {
    list.replaceChildren(h('li', {class: 'note'}, filter ? 'No such tables right now.' : 'No tables yet: create one.'));
    return;
  }
  list.replaceChildren(...shown.map((t) => {
    const record = mine[t.id];
    const open = t.seats.filter((s) => s.kind === 'open').length;
    const buttons = [];
    if (record && record.token) {
      buttons.push(h('a', {class: 'button primary', href: `/t/${t.id}#token=${encodeURIComponent(record.token)}`}, 'Play'));
    }
    buttons.push(h('a', {class: 'button', href: `/t/${t.id}#watch`}, 'Watch'));
    // A finished match replays step by step (a table still playing shows no hidden card).
    if (t.status === 'over') buttons.push(h('a', {class: 'button', href: `/t/${t.id}#replay=${t.match}&as=all`}, 'Replay'));
    const status = STATUS[t.status] || t.status;
    return h('li', {class: 'table-item', dataset: {table: t.id}},
      h('div', {class: 't-head'}, h('span', {class: 't-title'}, t.title),
        h('span', {class: 't-status'}, `${status}${open && t.status === 'waiting' ? `: ${plural(open, 'open seat')}` : ''}${t.match > 1 ? ` · game ${t.match}` : ''}`)),
      h('div', {class: 't-seats'}, t.seats.map(seatText).join(' · ')),
      t.outcome ? h('div', {class: 't-seats'}, t.outcome) : null,
      h('div', {class: 't-buttons'}, buttons));
  }));
}

async function start() {
  inputEl('name').value = store.playerName();
  try {
    games = await api('/api/games');
  } catch (e) {
    toast(`Could not load the games: ${errorText(e)}`);
    return;
  }
  drawGames();
  drawForm();
  byId('create').addEventListener('submit', create);
  for (const button of /** @type {NodeListOf<HTMLButtonElement>} */ (document.querySelectorAll('[data-filter]'))) {
    button.addEventListener('click', () => {
      filter = button.dataset.filter || '';
      for (const b of document.querySelectorAll('[data-filter]')) b.setAttribute('aria-pressed', String(b === button));
      drawTables();
    });
  }
  drawTables();
  setInterval(() => { if (document.visibilityState === 'visible') drawTables(); }, 5000);
}

start();
