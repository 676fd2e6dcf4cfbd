// @ts-check
// The lobby: Play now, the tables to join, play at or watch (and those finished
// lately, to replay), your profile's tables, and a new table of your own (game,
// seats, rule options). Creating a table stores its tokens in this browser
// (js/store.js) and goes to your seat; Play now and Join are in js/play-now.js.
import {api, errorText, h, plural, toast} from './dom.js';
import {LEVEL_TITLES, drawMine, join, levelText, playNow, waitingText} from './play-now.js';
import {offerOwnPace, ownPaceSettings, showOwnPace} from './own-pace.js';
import * as store from './store.js';

/** @typedef {import('./wire.js').GameInfo} GameInfo */
/** @typedef {import('./wire.js').TableInfo} TableInfo */
/** @typedef {import('./wire.js').SeatInfo} SeatInfo */
/** @typedef {import('./play-now.js').Level} Level */
/** @typedef {import('./play-now.js').Waiting} Waiting */

/** @type {Record<string, string>} */
const STATUS = {waiting: 'waiting for players', playing: 'playing', over: 'over', broken: 'broken', closed: 'closed', expired: 'expired: nobody came'};

/** @type {GameInfo[]} */
let games = [];
/** Each game's easy, medium and hard bots. @type {Record<string, Level[]>} */
let levels = {};
let filter = '';
const FINISHED = ['over', 'closed', 'broken', 'expired'];

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
 * The bot a new seat gets: the game's medium one.
 * @param {GameInfo} g
 */
function defaultBot(g) {
  const medium = (levels[g.name] || []).find((l) => l.level === 'medium');
  return medium ? medium.bot : g.opponent;
}

/**
 * A seat's choices: open, the game's easy, medium and hard bots, and the rest by name.
 * @param {GameInfo} g
 * @param {string} id
 */
function seatSelect(g, id) {
  const chosen = levels[g.name] || [];
  const strengths = chosen.map((l) => h('option', {value: l.bot, title: l.why}, `Bot: ${(LEVEL_TITLES[l.level] || l.level).toLowerCase()}`));
  const others = Object.entries(g.bots).filter(([name]) => !chosen.some((l) => l.bot === name));
  return h('select', {id, name: id},
    h('option', {value: 'open'}, 'Open: invite a friend'), strengths,
    others.length ? h('optgroup', {label: 'More bots, by algorithm'},
      others.map(([name, doc]) => h('option', {value: name, title: doc}, `Bot: ${name}`))) : null);
}

/**
 * What the seat's choice is, in a line under it.
 * @param {GameInfo} g
 * @param {string} value
 */
function seatDoc(g, value) {
  if (value === 'open') return 'a friend takes this seat with its link, or anyone from the table list';
  const level = (levels[g.name] || []).find((l) => l.bot === value);
  return level ? levelText(level) : `${value}: ${g.bots[value]}`;
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
  offerOwnPace(g.realtime);
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
    const select = seatSelect(g, id);
    select.value = before[i - 1] && [...select.options].some((o) => o.value === before[i - 1]) ? before[i - 1] : defaultBot(g);
    const doc = h('small', {class: 'bot-doc'});
    const explain = () => { doc.textContent = seatDoc(g, select.value); };
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
      turn_seconds: selectEl('turn-timer').value && !inputEl('own-pace').checked ? Number(selectEl('turn-timer').value) : null,
      next_hand_seconds: Number(selectEl('next-hand').value),
      ...ownPaceSettings(),
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

/**
 * A seat as the list shows it: a player's name, a bot's strength, an open seat.
 * @param {string} game
 * @param {SeatInfo} seat
 */
function seatText(game, seat) {
  if (seat.kind === 'bot') {
    const level = (levels[game] || []).find((l) => l.bot === seat.bot);
    return `${seat.label} (${level ? `${level.level} bot` : `bot: ${seat.bot}`})`;
  }
  if (seat.kind === 'open') return 'open seat';
  return seat.name + (seat.away ? ' (away)' : '');
}

/**
 * One table of the list, with what you may do there: play at your seat, join an
 * open seat, watch, or replay a finished match.
 * @param {TableInfo} t
 * @param {Waiting | undefined} waiting its Play now wait, if any
 */
function tableItem(t, waiting) {
  const record = store.tableRecord(t.id);
  const open = t.seats.filter((s) => s.kind === 'open').length;
  const buttons = [];
  if (record && record.token) {
    buttons.push(h('a', {class: 'button primary', href: `/t/${t.id}#token=${encodeURIComponent(record.token)}`}, 'Play'));
  } else if (open && (t.status === 'waiting' || t.status === 'playing')) {
    buttons.push(h('button', {type: 'button', class: 'primary', onclick: (/** @type {Event} */ e) => joinTable(t, e)}, 'Join'));
  }
  buttons.push(h('a', {class: 'button', href: `/t/${t.id}#watch`}, 'Watch'));
  // A finished match replays step by step (a table still playing shows no hidden card).
  if (t.status === 'over') buttons.push(h('a', {class: 'button', href: `/t/${t.id}#replay=${t.match}&as=all`}, 'Replay'));
  const status = STATUS[t.status] || t.status;
  const seats = open && (t.status === 'waiting' || t.status === 'playing') ? `: ${plural(open, 'open seat')}` : '';
  return h('li', {class: 'table-item', dataset: {table: t.id}},
    h('div', {class: 't-head'}, h('span', {class: 't-title'}, t.title),
      h('span', {class: 't-status'}, `${status}${seats}${t.match > 1 ? ` · game ${t.match}` : ''}`)),
    h('div', {class: 't-seats'}, t.seats.map((seat) => seatText(t.game, seat)).join(' · ')),
    waiting ? h('div', {class: 't-seats play-soon'}, waitingText(waiting)) : null,
    t.outcome ? h('div', {class: 't-seats'}, t.outcome) : null,
    h('div', {class: 't-buttons'}, buttons));
}

/**
 * Join a table's first open seat under the name given above.
 * @param {TableInfo} t
 * @param {Event} event
 */
async function joinTable(t, event) {
  const button = /** @type {HTMLButtonElement} */ (event.currentTarget);
  button.disabled = true;
  const name = inputEl('name').value.trim();
  if (name) store.setPlayerName(name);
  try {
    await join(t.id, t.game, name);
  } catch (e) {
    toast(`You could not join: ${errorText(e)}`);
    button.disabled = false;
    drawTables();
  }
}

async function drawTables() {
  const list = byId('tables');
  /** @type {TableInfo[]} */
  let tables;
  /** @type {Waiting[]} */
  let waiting;
  try {
    [tables, waiting] = await Promise.all([api('/api/tables'), api('/api/play-now')]);
  } catch (e) {
    list.replaceChildren(h('li', {}, `Could not load the tables: ${errorText(e)}`));
    return;
  }
  const mine = store.myTables();
  const held = (/** @type {TableInfo} */ t) => Number(!!(mine[t.id] && mine[t.id].token));
  // Your own tables first, then the rest, newest first (as the server sends them).
  tables.sort((a, b) => held(b) - held(a));
  const finished = tables.filter((t) => FINISHED.includes(t.status));
  const shown = tables.filter((t) => !FINISHED.includes(t.status)
    && (filter === 'mine' ? held(t) : !filter || t.status === filter));
  const byTable = new Map(waiting.map((w) => [w.table, w]));
  list.replaceChildren(...(shown.length ? shown.map((t) => tableItem(t, byTable.get(t.id)))
    : [h('li', {class: 'note'}, filter ? 'No such tables right now.' : 'No tables playing or waiting: press Play now, or create one.')]));
  const box = byId('finished-box');
  box.hidden = !finished.length;
  const summary = box.querySelector('summary');
  if (summary) summary.textContent = `Finished lately (${finished.length})`;
  byId('finished').replaceChildren(...finished.map((t) => tableItem(t, undefined)));
}

/** The Play now form: its game and strength choices, and what each strength is. */
function drawPlayNow() {
  const game = selectEl('play-game');
  const level = selectEl('play-level');
  game.replaceChildren(...games.map((g) => h('option', {value: g.name}, g.title)));
  const explain = () => {
    const chosen = (levels[game.value] || []).find((l) => l.level === level.value);
    byId('play-level-doc').textContent = chosen ? levelText(chosen) : '';
  };
  const strengths = () => {
    const was = level.value || 'medium';
    level.replaceChildren(...(levels[game.value] || []).map((l) => h('option', {value: l.level}, LEVEL_TITLES[l.level] || l.level)));
    level.value = [...level.options].some((o) => o.value === was) ? was : 'medium';
    explain();
  };
  game.onchange = strengths;
  level.onchange = explain;
  strengths();
}

/** @param {SubmitEvent} event */
async function pressPlayNow(event) {
  event.preventDefault();
  const error = byId('play-error');
  const button = /** @type {HTMLButtonElement} */ (byId('play-now-button'));
  error.hidden = true;
  button.disabled = true;
  const name = inputEl('name').value.trim();
  if (name) store.setPlayerName(name);
  const game = selectEl('play-game').value;
  try {
    await playNow(game, selectEl('play-level').value, name, byId('play-wait'));
  } catch (e) {
    error.textContent = `Play now did not work: ${errorText(e)}`;
    error.hidden = false;
    button.disabled = false;
  }
}

/**
 * A form's handler that runs once the games are known. Forms are wired before they load,
 * so that a click meanwhile (a slow connection) never sends one as a plain page load.
 * @param {(event: SubmitEvent) => Promise<void>} handler
 */
function onceLoaded(handler) {
  return (/** @type {SubmitEvent} */ event) => {
    event.preventDefault();
    if (games.length) handler(event);
  };
}

async function start() {
  inputEl('name').value = store.playerName();
  byId('create').addEventListener('submit', onceLoaded(create));
  byId('play-now').addEventListener('submit', onceLoaded(pressPlayNow));
  try {
    [games, levels] = await Promise.all([api('/api/games'), api('/api/levels')]);
  } catch (e) {
    toast(`Could not load the games: ${errorText(e)}`);
    return;
  }
  drawGames();
  drawForm();
  drawPlayNow();
  inputEl('own-pace').addEventListener('change', showOwnPace);
  drawMine(byId('mine-panel'), byId('my-tables')).catch((e) => toast(`Could not load your tables: ${errorText(e)}`));
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
