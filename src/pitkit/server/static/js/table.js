// The table page: one shell for every game. It keeps the connection and the state the
// server sent, and draws what every game shares (seats, your hand, legal actions,
// history, scores, the end of a hand); a small module per game (js/games/) draws the
// centre of the table, names the actions and describes the events.
//
// The server is the only authority. The page shows `view(seat)` exactly as sent: it asks
// in its hello for the view in every update (the events of a new version), so it never
// has to re-implement a game's rules, nor ask for the view again after each move.
import {api, copyText, h, morph, ordinal, plural, toast} from './dom.js';
import {addSprite, backsEl, cardEl, cardName} from './cards.js';
import {TableSocket} from './conn.js';
import {pick} from './picker.js';
import * as store from './store.js';

const MODULES = {'pitty-pat': 'pittypat', pits: 'pits', 'ace-pit': 'acepit', pitch: 'pitch', pit: 'pit'};
// Bots get a short name by seat, so that "Bix plays a pair" reads like a person at the table.
const BOT_NAMES = ['Ada', 'Bix', 'Cyd', 'Dee', 'Eko', 'Fen', 'Gil', 'Hal', 'Ivy', 'Jax'];
// At most one full view every 250 ms (when an update came without one): with the
// player's own actions this stays well inside the server's limit of 10 messages a second.
const SYNC_GAP_MS = 250;

const tableId = decodeURIComponent(location.pathname.split('/').filter(Boolean).pop() || '');

const S = {
  token: null,
  table: null,
  seat: null,
  game: null, // the game's module
  match: null,
  version: null, // the last version whose events we hold
  viewVersion: null, // the version of `view`
  view: null,
  legal: [],
  toAct: [],
  over: false,
  log: [], // history lines: {text, cls}
  logEpoch: 0,
  handEvents: [], // this hand's events, for the end-of-hand summary
  nextHand: 1, // the number of the hand being (or about to be) dealt
  lastScores: null,
  sheet: {}, // hand number -> scores after it
  selection: [], // indices into the sorted hand
  handNames: [],
  focus: 0,
  pending: null, // {id, text}
  conn: 'connecting',
  connDetail: null,
  syncing: false,
  syncWhy: null,
  syncTimer: null,
  lastSyncAt: 0,
  final: null,
  dialog: null, // 'summary' | 'over' | 'help' | 'invite'
};

let socket = null;
let actId = 0;
let drawQueued = false;

// -- names and words ---------------------------------------------------------------

function seatInfo(i) {
  return (S.table && S.table.seats[i]) || {seat: i, kind: 'open'};
}

/** The name shown for a seat (never "you"). */
function seatName(i) {
  const seat = seatInfo(i);
  if (seat.kind === 'player') return seat.name || `Player ${i + 1}`;
  if (seat.kind === 'bot') return BOT_NAMES[i % BOT_NAMES.length];
  return `Seat ${i + 1}`;
}

/** "You" for this page's own seat, else the seat's name. */
function who(i) {
  return i === S.seat ? 'You' : seatName(i);
}

/** The base form of a verb in the third person: plays -> play, passes -> pass. */
function baseVerb(verb) {
  if (verb === 'is') return 'are';
  if (verb === 'has') return 'have';
  if (/(ss|sh|ch|x|o)es$/.test(verb)) return verb.slice(0, -2);
  return verb.endsWith('s') ? verb.slice(0, -1) : verb;
}

/** "Bix plays" or "You play". */
function does(i, verb) {
  return i === S.seat ? `You ${baseVerb(verb)}` : `${seatName(i)} ${verb}`;
}

/** Server sentences name seats by number ("seat 1 wins"); show names instead. */
function withNames(text) {
  return String(text).replace(/\b([Ss])eat (\d+)\b/g, (_, s, n) => {
    const i = Number(n);
    if (!S.table || i >= S.table.players) return _;
    if (i === S.seat) return s === 'S' ? 'You' : 'you';
    return seatName(i);
  });
}

// Passed to the game modules: everything they need from the shell.
const ctx = {
  get me() { return S.seat; },
  get view() { return S.view; },
  get table() { return S.table; },
  get rules() { return (S.table && S.table.rules) || {}; },
  get players() { return S.table ? S.table.players : 0; },
  get legal() { return S.legal; },
  get events() { return S.handEvents; },
  get over() { return S.over; },
  get selected() { return S.selection.map((i) => S.handNames[i]); },
  name: seatName,
  who,
  does,
  verb: (i, verb) => (i === S.seat ? baseVerb(verb) : verb),
  withNames,
  act,
  judge,
  canAct: () => canAct(),
  selectCards: (names) => selectByNames(names),
  toward,
};

// -- the connection and the state --------------------------------------------------

function hello() {
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

function onState(state, detail) {
  S.conn = state;
  S.connDetail = detail;
  if (state === 'open') {
    S.syncing = false;
    clearTimeout(S.syncTimer);
    S.syncTimer = null;
  }
  if (state === 'down') S.pending = null;
  if (state === 'final') {
    if (S.token && /seat to someone else/.test(detail)) {
      // The host reopened or gave away our seat: watch instead of staying stuck.
      store.forgetSeat(tableId);
      S.token = null;
      history.replaceState(null, '', '#watch');
      toast(`${detail} You are now watching.`);
      socket.start();
      return;
    }
    S.final = detail;
  }
  draw();
}

function onMessage(m) {
  switch (m.type) {
    case 'welcome':
      S.seat = m.seat;
      setTable(m.table);
      // Back after a drop: the server sends the missed events, if any; the view may
      // still lag behind the events we had, so ask for it.
      if (S.view && S.viewVersion !== S.version) requestSync('gap');
      if (S.seat != null) store.updateTable(tableId, {token: S.token, game: m.table.game});
      break;
    case 'table':
      setTable(m.table);
      break;
    case 'sync':
      onSync(m);
      break;
    case 'update':
      onUpdate(m);
      break;
    case 'ack':
      if (S.pending && S.pending.id === m.id) {
        S.pending = null;
        S.selection = [];
      }
      break;
    case 'error':
      onError(m);
      break;
    default:
      break;
  }
  draw();
}

function setTable(table) {
  const first = !S.table;
  S.table = table;
  if (first) loadGame(table.game);
}

async function loadGame(name) {
  const module = MODULES[name];
  if (!module) {
    S.final = `This page does not know the game ${name}.`;
    draw();
    return;
  }
  S.game = (await import(`./games/${module}.js`)).default;
  document.title = `${S.game.title} — pitkit`;
  // Events that arrived while the module loaded are in the view's history.
  if (S.view) resetLog(S.view.history || []);
  draw();
}

function onSync(m) {
  const why = S.syncWhy;
  const newMatch = m.match !== S.match;
  S.syncing = false;
  S.syncWhy = null;
  S.match = m.match;
  S.version = m.version;
  S.viewVersion = m.version;
  S.view = m.view;
  S.legal = m.view.legal || [];
  S.toAct = m.view.to_act || [];
  S.over = !!(m.view.match && m.view.match.outcome);
  S.lastScores = m.view.match ? m.view.match.scores : null;
  if (newMatch) {
    S.sheet = store.sheet(tableId, m.match);
    S.selection = [];
    if (S.dialog === 'summary' || S.dialog === 'over') closeDialog();
  }
  // A refresh only brings the view up to date; any other sync (first, after a gap,
  // a new match) also replaces the history with the hand's history as the server has it.
  if (why !== 'refresh' || newMatch) resetLog(m.view.history || [], why === 'gap');
  if (S.over && newMatch === false && why === 'gap') showOver(m.view.match.outcome);
}

function onUpdate(m) {
  if (m.match !== S.match || m.from !== S.version) {
    requestSync('gap');
    return;
  }
  S.version = m.version;
  S.legal = m.legal;
  S.toAct = m.to_act;
  S.over = m.over;
  for (const event of m.events) addEvent(event);
  if (m.view) {
    // The update's view leaves out what we hold: the history (this hand's events) and,
    // unless it changed, the match's record.
    S.view = {match: (S.view || {}).match, ...m.view, history: S.handEvents.slice()};
    S.viewVersion = m.version;
  } else if (S.version > S.viewVersion) {
    requestSync('refresh');
  }
}

function onError(m) {
  if (m.id === 'sync') {
    S.syncing = false;
    if (m.code !== 'no_match') setTimeout(() => requestSync(S.syncWhy || 'refresh'), 500);
    return;
  }
  if (m.code === 'bad_token' && S.seat == null && S.token) {
    // The seat link no longer works (reopened by the host): watch instead.
    store.forgetSeat(tableId);
    S.token = null;
    history.replaceState(null, '', '#watch');
    toast('This seat link no longer works: the host gave the seat to someone else. You are watching.');
    socket.send(hello());
    return;
  }
  if (m.code === 'rate_limited') {
    // The server dropped one message without saying which: neither an action nor a
    // view request in flight will be answered.
    S.pending = null;
    if (S.syncing) {
      S.syncing = false;
      setTimeout(() => requestSync('gap'), 1000);
    }
    return;
  }
  if (S.pending && S.pending.id === m.id) S.pending = null;
  if (['stale', 'bad_version'].includes(m.code)) requestSync('gap');
  toast(withSuits(withNames(m.reason || m.code)));
}

function requestSync(why) {
  if (why === 'gap' || !S.syncWhy) S.syncWhy = why;
  if (S.syncing || S.syncTimer) return;
  const wait = why === 'gap' ? 0 : Math.max(0, S.lastSyncAt + SYNC_GAP_MS - Date.now());
  S.syncTimer = setTimeout(() => {
    S.syncTimer = null;
    if (!socket.isOpen) return;
    S.syncing = true;
    S.lastSyncAt = Date.now();
    socket.send({type: 'sync', id: 'sync'});
  }, wait);
}

/** Send an action. Turn-based games act on the version shown; Pit's market may be older. */
function act(text) {
  if (S.seat == null || !socket.isOpen) return;
  if (S.pending && !S.game.realtime) return;
  const id = ++actId;
  S.pending = {id, text, at: Date.now()};
  const version = S.game.realtime ? S.viewVersion : S.version;
  socket.send({type: 'act', action: text, version, id});
  draw();
}

/** Whether the page may send an action now. */
function canAct() {
  if (S.seat == null || S.conn !== 'open' || !S.view || !S.game) return false;
  if (S.game.realtime) return true;
  return !S.pending && S.viewVersion === S.version && !S.syncing;
}

const verdicts = new Map();

/** The game's rules judge (POST /api/games/{game}/judge), cached: a Promise of text. */
function judge(args) {
  const key = JSON.stringify(args);
  if (!verdicts.has(key)) {
    verdicts.set(key, api(`/api/games/${S.table.game}/judge`, {method: 'POST', body: {args}})
      .then((r) => ({ok: true, text: r.verdict}), (e) => ({ok: false, text: e.message})));
  }
  return verdicts.get(key);
}

// -- the history and the end of a hand ----------------------------------------------

function describe(event) {
  if (!S.game) return null;
  if (event.type === 'scores') {
    if (!event.scores) return null;
    return `Scores after hand ${event.hand}: ` + event.scores.map((v, i) => `${seatName(i)} ${v}`).join(', ') + '.';
  }
  if (event.type === 'match_over') return withNames(sentence(event.result.summary));
  try {
    const text = S.game.describe(event, ctx);
    return text ? withNames(text) : null;
  } catch (error) {
    console.warn('could not describe', event, error);
    return null;
  }
}

function sentence(text) {
  text = String(text);
  return text.charAt(0).toUpperCase() + text.slice(1) + (/[.!?]$/.test(text) ? '' : '.');
}

function resetLog(events, resynced = false) {
  S.log = [];
  S.logEpoch += 1;
  S.handEvents = [];
  S.nextHand = S.view && S.view.match ? S.view.match.hand : 1;
  S.log.push({text: `Hand ${S.nextHand}`, cls: 'hand-head'});
  if (resynced) S.log.push({text: '(back in step with the table)', cls: 'note'});
  for (const event of events) {
    S.handEvents.push(event);
    const text = describe(event);
    if (text) S.log.push({text, cls: `ev-${event.type}`});
  }
}

function addEvent(event) {
  if (event.type === 'deal') {
    S.handEvents = [];
    S.log.push({text: `Hand ${S.nextHand}`, cls: 'hand-head'});
  }
  S.handEvents.push(event);
  const text = describe(event);
  if (text) {
    S.log.push({text, cls: `ev-${event.type}`});
    announce(text);
  }
  if (event.type === 'scores') {
    S.nextHand = event.hand + 1; // `hand` counts the hands played so far
    const previous = S.lastScores;
    if (event.scores) {
      S.sheet[event.hand] = event.scores;
      store.saveSheet(tableId, S.match, S.sheet);
      S.lastScores = event.scores;
    }
    const ended = S.handEvents.find((e) => e.type === 'hand_end');
    if (ended) showSummary(event.hand, S.handEvents.slice(), previous, event.scores);
  }
  if (event.type === 'match_over') showOver(event.result);
}

function announce(text) {
  const live = document.getElementById('live');
  if (live) live.textContent = text;
}

// -- dialogs -----------------------------------------------------------------------

function dialogEl() {
  return document.getElementById('dialog');
}

function openDialog(kind, title, body, buttons) {
  const dialog = dialogEl();
  S.dialog = kind;
  dialog.dataset.kind = kind;
  dialog.replaceChildren(
    h('h2', {id: 'dialog-title'}, title),
    h('div', {class: 'dialog-body'}, body),
    h('div', {class: 'dialog-buttons'}, buttons));
  dialog.setAttribute('aria-labelledby', 'dialog-title');
  if (!dialog.open) dialog.showModal();
  const main = dialog.querySelector('.dialog-buttons .primary') || dialog.querySelector('button');
  if (main) main.focus();
}

function closeDialog() {
  const dialog = dialogEl();
  if (dialog.open) dialog.close();
  S.dialog = null;
}

function totalsTable(scores, previous, cls = 'totals') {
  if (!scores) return h('p', {}, 'The scores are hidden until the end of the game.');
  const rows = scores.map((total, i) => {
    const delta = previous ? total - previous[i] : null;
    return h('tr', {dataset: {seat: i, score: total}, class: i === S.seat ? 'me' : null},
      h('th', {scope: 'row'}, who(i) === 'You' ? `${seatName(i)} (you)` : seatName(i)),
      h('td', {class: 'delta'}, delta == null ? '' : delta > 0 ? `+${delta}` : delta < 0 ? `${delta}` : '±0'),
      h('td', {class: 'total'}, total));
  });
  return h('table', {class: `score-table ${cls}`},
    h('thead', {}, h('tr', {}, h('th', {scope: 'col'}, 'Player'), h('th', {scope: 'col'}, 'This hand'),
      h('th', {scope: 'col'}, S.game.scoreLabel ? S.game.scoreLabel(ctx) : 'Total'))),
    h('tbody', {}, rows));
}

function showSummary(hand, events, previous, scores) {
  if (S.over || events.some((e) => e.type === 'match_over')) return; // the final dialog says it all
  const body = [];
  try {
    body.push(S.game.handSummary(events, ctx));
  } catch (error) {
    console.warn(error);
  }
  body.push(h('h3', {}, 'Score sheet'), totalsTable(scores, previous));
  openDialog('summary', `Hand ${hand} is over`, body,
    [h('button', {class: 'primary', type: 'button', onclick: closeDialog}, 'Continue ', h('kbd', {}, 'Enter'))]);
}

function showOver(result) {
  if (!result || S.dialog === 'over') return;
  const scores = S.lastScores || (result.points || []).map((p) => p);
  const last = S.handEvents.some((e) => e.type === 'hand_end');
  const body = [h('p', {class: 'outcome'}, withNames(sentence(result.summary)))];
  if (last) {
    try {
      body.push(h('h3', {}, 'The last hand'), S.game.handSummary(S.handEvents, ctx));
    } catch (error) {
      console.warn(error);
    }
  }
  const order = scores.map((v, i) => i).sort((a, b) => (result.ranks ? result.ranks[a] - result.ranks[b] : 0));
  body.push(h('h3', {}, 'Final standings'),
    h('table', {class: 'score-table final-scores'},
      h('thead', {}, h('tr', {}, h('th', {scope: 'col'}, 'Place'), h('th', {scope: 'col'}, 'Player'),
        h('th', {scope: 'col'}, S.game.scoreLabel ? S.game.scoreLabel(ctx) : 'Score'))),
      h('tbody', {}, order.map((i) => h('tr', {dataset: {seat: i, score: scores[i]}, class: i === S.seat ? 'me' : null},
        h('td', {}, result.ranks ? ordinal(result.ranks[i]) : ''),
        h('th', {scope: 'row'}, i === S.seat ? `${seatName(i)} (you)` : seatName(i)),
        h('td', {class: 'total'}, scores[i]))))));
  const buttons = [];
  if (S.seat != null) {
    buttons.push(h('button', {class: 'primary', type: 'button', onclick: askRematch}, 'Play again'));
  }
  buttons.push(h('a', {class: 'button', href: `/api/tables/${tableId}/matches/${S.match}/log`, download: `pitkit-${tableId}-${S.match}.jsonl`}, 'Download the log'));
  buttons.push(h('a', {class: 'button', href: '/'}, 'Lobby'));
  buttons.push(h('button', {type: 'button', onclick: closeDialog}, 'Close'));
  openDialog('over', 'Game over', body, buttons);
}

function askRematch() {
  socket.send({type: 'rematch', id: 'rematch'});
  const record = store.tableRecord(tableId);
  if (record && record.host) {
    // The host need not wait for everyone's yes.
    api(`/api/tables/${tableId}/rematch`, {method: 'POST', token: record.host}).catch(() => {});
  }
  toast('Asked for another game: it starts when every player agrees.', 'info');
}

function showHelp() {
  const keys = [
    ['Click or Space', 'pick a card; highlighted cards make a legal play'],
    ['← →', 'move between your cards'],
    ['Enter', 'make the highlighted play (the first gold button)'],
    ['Esc', 'clear your selection, close a window'],
    ['?', 'this help'],
    ...((S.game && S.game.keys) || []),
  ];
  const body = [
    ...(S.game ? S.game.help.map((p) => h('p', {}, p)) : []),
    h('h3', {}, 'Keyboard'),
    h('dl', {class: 'keys'}, keys.map(([k, what]) => [h('dt', {}, h('kbd', {}, k)), h('dd', {}, what)])),
  ];
  openDialog('help', S.game ? `How to play ${S.game.title}` : 'How to play', body,
    [h('button', {class: 'primary', type: 'button', onclick: closeDialog}, 'Close')]);
}

function showInvite() {
  const record = store.tableRecord(tableId) || {};
  const watch = `${location.origin}/t/${tableId}#watch`;
  const rows = [];
  for (const seat of (S.table ? S.table.seats : [])) {
    if (seat.kind !== 'open') continue;
    const link = record.invites && record.invites[seat.seat];
    if (link) rows.push(linkRow(`Seat ${seat.seat + 1}`, link));
  }
  const body = [];
  if (rows.length) {
    body.push(h('p', {}, 'Send each friend the link of one open seat. Whoever opens it takes that seat.'), ...rows);
  } else if (S.table && S.table.seats.some((s) => s.kind === 'open')) {
    body.push(h('p', {}, 'The host holds the invitation links of the open seats.'));
  }
  body.push(h('p', {}, 'Anyone can watch with this link:'), linkRow('Watch', watch));
  if (S.seat != null) {
    body.push(h('p', {class: 'note'}, 'Your address bar holds your own seat\'s private link: keep it to yourself.'));
  }
  if (['127.0.0.1', 'localhost', '[::1]'].includes(location.hostname)) {
    body.push(h('p', {class: 'note'}, 'These links use 127.0.0.1, which only works on this computer. For friends on your network, start the server with ',
      h('code', {}, 'pitkit serve --host 0.0.0.0'), ' and replace 127.0.0.1 with this computer\'s address.'));
  }
  openDialog('invite', 'Invite friends', body,
    [h('button', {class: 'primary', type: 'button', onclick: closeDialog}, 'Done')]);
}

function linkRow(label, link) {
  const field = h('input', {type: 'text', readonly: true, value: link, 'aria-label': `${label} link`, class: 'link'});
  return h('div', {class: 'link-row'}, h('span', {class: 'link-label'}, label), field,
    h('button', {type: 'button', onclick: async () => {
      field.select();
      toast((await copyText(link)) ? 'Link copied.' : 'Select the link and copy it.', 'info');
    }}, 'Copy'));
}

async function rename() {
  const name = prompt('Your name at the table:', S.seat != null ? seatName(S.seat) : store.playerName());
  if (!name || !name.trim()) return;
  store.setPlayerName(name.trim());
  if (S.seat == null || !S.token) return;
  try {
    await api(`/api/tables/${tableId}/join`, {method: 'POST', body: {token: S.token, name: name.trim()}});
  } catch (error) {
    toast(error.message);
  }
}

async function startNow() {
  const record = store.tableRecord(tableId);
  try {
    await api(`/api/tables/${tableId}/start`, {method: 'POST', token: record && record.host});
  } catch (error) {
    toast(error.message);
  }
}

// -- drawing -------------------------------------------------------------------------

/** Redraw on the next frame: many messages in a burst make one redraw. */
function draw() {
  if (drawQueued) return;
  drawQueued = true;
  requestAnimationFrame(() => {
    drawQueued = false;
    try {
      drawAll();
    } catch (error) {
      console.error(error);
    }
  });
}

function drawAll() {
  const body = document.body;
  const status = S.table ? S.table.status : 'loading';
  body.dataset.state = status;
  body.dataset.conn = S.conn;
  body.dataset.match = S.match ?? '';
  body.dataset.version = S.version ?? '';
  body.dataset.seat = S.seat ?? '';
  body.dataset.busy = String(!!S.pending || S.viewVersion !== S.version || S.syncing);
  body.dataset.turn = S.legal.length && canAct() ? 'me' : 'other';
  body.dataset.game = S.table ? S.table.game : '';
  if (S.game && !S.game.realtime) {
    document.title = `${body.dataset.turn === 'me' ? '● Your turn · ' : ''}${S.game.title} — pitkit`;
  }
  drawHeader();
  drawConnection();
  drawFelt();
  drawMine();
  drawScores();
  drawLog();
}

function drawHeader() {
  const title = document.getElementById('title');
  const sub = document.getElementById('subtitle');
  if (!S.table) return;
  title.textContent = S.table.title;
  const parts = [`table ${S.table.id}`];
  if (S.view && S.view.match) {
    const hands = S.game && S.game.handsInMatch ? S.game.handsInMatch(ctx) : null;
    parts.push(`hand ${S.view.match.hand}${hands ? ` of ${hands}` : ''}`);
  }
  if (S.table.match > 1) parts.push(`game ${S.table.match}`);
  parts.push(S.seat == null ? 'watching' : `you are ${seatName(S.seat)}`);
  if (S.table.spectators) parts.push(plural(S.table.spectators, 'spectator'));
  sub.textContent = parts.join(' · ');
  document.getElementById('rename').hidden = S.seat == null;
}

function drawConnection() {
  const pill = document.getElementById('conn');
  const banner = document.getElementById('banner');
  const texts = {
    connecting: 'Connecting…',
    open: 'Connected',
    down: 'Connection lost: reconnecting…',
    final: 'Disconnected',
  };
  pill.className = `conn ${S.conn}`;
  pill.textContent = texts[S.conn] || S.conn;
  let message = null;
  if (S.final) message = `${S.final} `;
  else if (S.conn === 'down') message = `Connection lost. Reconnecting in ${Math.max(1, Math.round(S.connDetail || 1))} s…`;
  else if (S.conn === 'connecting' && S.view) message = 'Reconnecting…';
  banner.hidden = !message;
  if (message) {
    banner.replaceChildren(message, S.final ? h('a', {href: '/'}, 'Back to the lobby') : h('button', {
      type: 'button', onclick: () => socket.retryNow(),
    }, 'Try now'));
  }
}

/** Where a seat sits: you at the bottom, play going to your left (clockwise on screen). */
function seatAngle(seat) {
  const n = S.table.players;
  const me = S.seat ?? 0;
  const k = (seat - me + n) % n;
  return Math.PI / 2 + (2 * Math.PI * k) / n;
}

/** CSS position (percent of the felt) a fraction `r` of the way from the centre to a seat. */
function toward(seat, r) {
  const a = seatAngle(seat);
  return {left: `${50 + 44 * r * Math.cos(a)}%`, top: `${50 + 40 * r * Math.sin(a)}%`};
}

function drawFelt() {
  const felt = document.getElementById('felt');
  if (!S.table) return;
  const view = S.view;
  const seats = [];
  for (let i = 0; i < S.table.players; i++) seats.push(seatPlate(i, view));
  const centre = h('div', {class: 'centre-layer'});
  if (view && S.game) {
    centre.append(S.game.centre(view, ctx));
  } else if (S.table.status === 'waiting') {
    centre.append(waitingPanel());
  } else if (S.table.status === 'broken') {
    centre.append(h('div', {class: 'centre-box'}, h('p', {}, `This table is broken: ${S.table.problem}`)));
  } else {
    centre.append(h('div', {class: 'centre-box'}, h('p', {}, 'Loading…')));
  }
  morph(felt, h('div', {}, centre, ...seats));
}

function seatPlate(i, view) {
  const info = seatInfo(i);
  const player = view && view.players ? view.players.find((p) => p.seat === i) : null;
  const turn = S.toAct.includes(i) && !(S.game && S.game.realtime && S.toAct.length > 1) && !S.over;
  const notes = [];
  if (view && view.dealer === i) notes.push(h('span', {class: 'chip dealer', title: 'dealer'}, 'dealer'));
  if (S.game && view && player) {
    for (const note of S.game.seatNotes(player, view, ctx) || []) notes.push(h('span', {class: 'chip'}, note));
  }
  if (info.kind === 'bot') notes.push(h('span', {class: 'chip bot'}, `${info.bot} bot`));
  if (info.kind === 'open') notes.push(h('span', {class: 'chip away'}, S.table.status === 'waiting' ? 'open seat' : 'open: a bot plays'));
  if (info.kind === 'player' && info.away) notes.push(h('span', {class: 'chip away'}, 'away: a bot plays'));
  else if (info.kind === 'player' && !info.connected && i !== S.seat) notes.push(h('span', {class: 'chip away'}, 'offline'));
  if (S.over && info.rematch) notes.push(h('span', {class: 'chip'}, 'wants another game'));
  const scores = view && view.match ? view.match.scores : null;
  const count = player ? player.cards : null;
  const label = [seatName(i), i === S.seat ? '(you)' : '', count != null ? plural(count, 'card') : '',
    turn ? 'to play' : ''].filter(Boolean).join(', ');
  const pos = toward(i, 1);
  return h('section', {
    class: `seat${turn ? ' turn' : ''}${i === S.seat ? ' me' : ''}`,
    style: pos, dataset: {seat: i}, 'aria-label': label,
  },
  h('div', {class: 'seat-name'}, seatName(i), i === S.seat ? h('span', {class: 'you'}, ' (you)') : null),
  count != null ? h('div', {class: 'seat-count'}, backsEl(count), plural(count, 'card')) : null,
  scores ? h('div', {class: 'seat-score'}, `${scores[i]} ${S.game && S.game.scoreShort ? S.game.scoreShort(ctx) : 'pts'}`) : null,
  notes.length ? h('div', {class: 'seat-notes'}, notes) : null,
  S.game && S.game.seatExtra && view && player ? S.game.seatExtra(player, view, ctx) : null);
}

function waitingPanel() {
  const open = S.table.seats.filter((s) => s.kind === 'open').length;
  const record = store.tableRecord(tableId) || {};
  const box = h('div', {class: 'centre-box waiting'},
    h('h2', {}, 'Waiting for players'),
    h('p', {}, `${plural(open, 'seat')} still open. The game starts when every seat is taken.`));
  if (record.host) {
    box.append(
      h('div', {class: 'button-row'},
        h('button', {type: 'button', class: 'primary', onclick: showInvite}, 'Invite friends'),
        h('button', {type: 'button', class: 'start', onclick: startNow}, 'Start now: bots play the open seats')));
  } else {
    box.append(h('p', {}, 'The host can start at once; bots then play the open seats until someone takes them.'));
  }
  return box;
}

function parsedActions() {
  if (!S.game || !S.view) return [];
  return S.legal.map((text) => ({text, ...S.game.parseAction(text, S.view, ctx)}));
}

function drawMine() {
  const hint = document.getElementById('hint');
  const bar = document.getElementById('actions');
  const handBox = document.getElementById('hand');
  const mine = document.getElementById('mine');
  if (!S.view || !S.game) {
    hint.textContent = S.table && S.table.status === 'waiting' ? 'Your cards appear here when the game starts.' : '';
    bar.replaceChildren();
    handBox.replaceChildren();
    return;
  }
  const view = S.view;
  const actions = parsedActions();
  const spectator = S.seat == null;
  mine.classList.toggle('spectator', spectator);

  // The hand, sorted the game's way; the selection survives a redraw by card names.
  const names = spectator ? [] : S.game.sortHand(view.hand || [], view, ctx);
  if (names.join(' ') !== S.handNames.join(' ')) {
    const keep = S.selection.map((i) => S.handNames[i]);
    S.handNames = names;
    S.selection = [];
    selectByNames(keep, false);
  }
  const cardActions = actions.filter((a) => a.cards && a.cards.length && a.place !== 'centre');
  const picked = pick(names, S.selection, cardActions, !!S.game.ordered);
  const ready = canAct();

  // The line above the hand: whose turn, and what to do.
  let text;
  if (S.over) text = 'The game is over.';
  else if (spectator) text = `You are watching. ${waitingFor()}`;
  else if (S.legal.length && ready) text = S.game.hint(view, ctx, actions) || 'Your turn.';
  else if (S.legal.length) text = 'Sending…';
  else text = waitingFor();
  hint.textContent = text;
  hint.classList.toggle('your-turn', !!(S.legal.length && !S.game.realtime && !spectator));

  // The action bar: completed selections first (gold), then the other actions.
  const items = [];
  picked.exact.forEach((a, n) => items.push(actionButton(a, {exact: true, first: n === 0, ready})));
  if (S.selection.length && !picked.exact.length && S.game.tryPlay && S.legal.length) {
    const tried = S.game.tryPlay(S.selection.map((i) => names[i]), view, ctx);
    if (tried) items.push(actionButton({text: tried, label: 'Play', title: 'Not a legal play: the server will say why'}, {ready, cls: 'try'}));
  }
  for (const a of actions) {
    if ((a.cards && a.cards.length) || a.place === 'centre') continue;
    items.push(actionButton(a, {ready}));
  }
  if (S.selection.length) {
    items.push(h('button', {type: 'button', class: 'clear', onclick: () => clearSelection()}, 'Clear ', h('kbd', {}, 'Esc')));
  }
  morph(bar, h('div', {}, h('div', {class: 'buttons'}, items), h('div', {class: 'selection-info', 'aria-live': 'polite'})));
  // What the selection makes, from the game (perhaps from the server's judge): drawn
  // into the live element, and only when the selection or the position changed.
  const info = bar.querySelector('.selection-info');
  info.noMorph = true;
  const infoKey = `${S.viewVersion}|${S.selection.map((i) => names[i]).join(' ')}|${S.legal.length}`;
  if (info.dataset.for !== infoKey) {
    info.dataset.for = infoKey;
    info.replaceChildren();
    if (S.game.selectionInfo && !spectator) {
      fill(info, S.game.selectionInfo(S.selection.map((i) => names[i]), picked.exact, view, ctx));
    }
  }

  // The cards.
  const focusedCard = document.activeElement && document.activeElement.closest && document.activeElement.closest('#hand .card');
  S.focus = Math.min(S.focus, Math.max(0, names.length - 1));
  const cards = names.map((name, i) => {
    const selected = S.selection.includes(i);
    const playable = picked.next.has(i) && !!S.legal.length;
    const el = cardEl(name, {
      tag: 'button', size: 'lg',
      cls: `${selected ? 'selected' : ''} ${playable ? 'playable' : ''}`,
      attrs: {
        'aria-pressed': String(selected),
        tabindex: i === S.focus ? '0' : '-1',
        'aria-describedby': playable ? 'playable-note' : null,
      },
    });
    el.onclick = () => {
      S.focus = i;
      onCardClick(i, names, cardActions);
    };
    return el;
  });
  morph(handBox, h('div', {}, cards));
  handBox.setAttribute('aria-label', spectator ? 'No hand: you are watching' : `Your hand, ${plural(names.length, 'card')}`);
  const live = handBox.querySelectorAll('.card');
  if (focusedCard && live[S.focus] && document.activeElement !== live[S.focus]) live[S.focus].focus();
}

/** Put a game's content (an element, a text, or a Promise of either) into `box`. */
function fill(box, content) {
  if (content == null) return;
  if (content instanceof Promise) {
    const token = {};
    box.dataset.wait = '1';
    box.pending = token;
    content.then((result) => {
      if (box.pending !== token) return;
      delete box.dataset.wait;
      box.replaceChildren();
      fill(box, result);
    });
    return;
  }
  box.append(content instanceof Node ? content : String(content));
}

function actionButton(a, {exact = false, first = false, ready = true, cls = ''} = {}) {
  const key = first ? 'Enter' : a.key;
  return h('button', {
    type: 'button',
    class: `act ${exact ? 'exact primary' : ''} ${a.primary ? 'primary' : ''} ${cls}`.trim(),
    disabled: !ready,
    title: a.title || null,
    dataset: {action: a.text},
    onclick: () => act(a.text),
  }, a.label || a.text, key ? h('kbd', {}, key.length === 1 ? key.toUpperCase() : key) : null);
}

function waitingFor() {
  if (!S.view) return '';
  if (S.game && S.game.waitingText) {
    const text = S.game.waitingText(S.view, ctx);
    if (text) return text;
  }
  const names = S.toAct.filter((i) => i !== S.seat).map(seatName);
  if (!names.length) return '';
  return `Waiting for ${names.join(' and ')}…`;
}

function onCardClick(i, names, cardActions) {
  if (S.seat == null) return;
  const ordered = !!S.game.ordered;
  if (S.selection.includes(i)) {
    // Unpicking a card of an ordered pick drops what was picked after it.
    const at = S.selection.indexOf(i);
    S.selection = ordered ? S.selection.slice(0, at) : S.selection.filter((j) => j !== i);
    draw();
    return;
  }
  const now = pick(names, S.selection, cardActions, ordered);
  if (!now.next.has(i)) {
    if (canAct() && S.legal.length && S.game.tryCard) {
      // Not a legal play: send it anyway so that the server says why (it changes nothing).
      const text = S.game.tryCard(names[i], S.selection.map((j) => names[j]), S.view, ctx);
      if (text) {
        act(text);
        return;
      }
    }
    if (!S.game.multi) {
      if (!S.legal.length) toast(waitingFor() || 'It is not your turn.', 'info', 2000);
      return;
    }
  }
  S.selection = [...S.selection, i];
  const after = pick(names, S.selection, cardActions, ordered);
  const auto = typeof S.game.autoPlay === 'function' ? S.game.autoPlay(S.view) : S.game.autoPlay;
  if (auto && after.exact.length === 1 && !after.partial && canAct()) {
    act(after.exact[0].text);
    return;
  }
  draw();
}

function selectByNames(wanted, redraw = true) {
  const selection = [];
  for (const name of wanted) {
    const i = S.handNames.findIndex((n, j) => n === name && !selection.includes(j));
    if (i >= 0) selection.push(i);
  }
  S.selection = selection;
  if (redraw) draw();
}

function clearSelection() {
  S.selection = [];
  draw();
}

function drawScores() {
  const box = document.getElementById('scores');
  if (!S.table) return;
  const view = S.view;
  const scores = view && view.match ? view.match.scores : null;
  const label = S.game && S.game.scoreLabel ? S.game.scoreLabel(ctx) : 'points';
  const rows = [];
  for (let i = 0; i < S.table.players; i++) {
    const toAct = S.toAct.includes(i) && !(S.game && S.game.realtime && S.toAct.length > 1);
    rows.push(h('tr', {dataset: {seat: i, score: scores ? scores[i] : ''}, class: `${i === S.seat ? 'me' : ''} ${toAct ? 'to-act' : ''}`},
      h('th', {scope: 'row'}, seatName(i), i === S.seat ? ' (you)' : ''),
      h('td', {class: 'total'}, scores ? scores[i] : '–')));
  }
  const parts = [h('h2', {}, 'Scores ', h('small', {}, label))];
  if (view && view.match && !scores) parts.push(h('p', {class: 'note'}, 'Hidden until the end of the game.'));
  parts.push(h('table', {class: 'score-table'}, h('tbody', {}, rows)));
  const sheet = S.game && S.game.scoreSheet && view ? S.game.scoreSheet(view, ctx) : null;
  if (sheet) parts.push(sheet);
  else parts.push(...genericSheet(view));
  morph(box, h('div', {}, parts));
}

function genericSheet(view) {
  const hands = Object.keys(S.sheet).map(Number).sort((a, b) => a - b);
  const results = view && view.match ? view.match.results : [];
  if (!hands.length && !results.length) return [];
  const out = [];
  if (hands.length) {
    out.push(h('details', {class: 'sheet', open: hands.length <= 12},
      h('summary', {}, 'Score sheet'),
      h('table', {class: 'score-table sheet-table'},
        h('thead', {}, h('tr', {}, h('th', {scope: 'col'}, 'Hand'),
          Array.from({length: S.table.players}, (_, i) => h('th', {scope: 'col'}, seatName(i))))),
        h('tbody', {}, hands.map((n) => h('tr', {}, h('th', {scope: 'row'}, n),
          S.sheet[n].map((v) => h('td', {}, v))))))));
  }
  if (results.length) {
    out.push(h('details', {class: 'results'}, h('summary', {}, 'Hands so far'),
      h('ol', {}, results.map((r) => h('li', {}, withNames(sentence(r)))))));
  }
  return out;
}

let drawnEpoch = -1;
let drawnCount = 0;

function drawLog() {
  const list = document.getElementById('log');
  const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
  if (drawnEpoch !== S.logEpoch) {
    list.replaceChildren();
    drawnEpoch = S.logEpoch;
    drawnCount = 0;
  }
  const fresh = S.log.slice(drawnCount).map((line) => h('li', {class: line.cls}, withSuits(line.text)));
  list.append(...fresh);
  drawnCount = S.log.length;
  while (list.children.length > 400) list.firstElementChild.remove();
  if (atBottom || fresh.length) list.scrollTop = list.scrollHeight;
}

const SUIT_SIGNS = {C: '♣', D: '♦', H: '♥', S: '♠'};

/** Card codes in a sentence (7H, TS, RJ) drawn as short coloured card names. */
function withSuits(text) {
  const parts = [];
  let last = 0;
  for (const m of text.matchAll(/\b(?:([2-9TJQKA])([CDHS])|(RJ|BJ))\b/g)) {
    parts.push(text.slice(last, m.index));
    if (m[3]) {
      parts.push(h('span', {class: `c joker-${m[3]}`}, m[3] === 'RJ' ? 'red Joker' : 'black Joker'));
    } else {
      const rank = m[1] === 'T' ? '10' : m[1];
      parts.push(h('span', {class: `c suit-${m[2]}`, 'aria-label': cardName(m[0])}, rank + SUIT_SIGNS[m[2]]));
    }
    last = m.index + m[0].length;
  }
  parts.push(text.slice(last));
  return parts;
}

// -- keyboard ------------------------------------------------------------------------

function onKey(event) {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  if (target && (target.matches('input, textarea, select') || target.isContentEditable)) return;
  if (S.dialog) {
    if (event.key === 'Enter' && !target.matches('button, a')) {
      const main = dialogEl().querySelector('.dialog-buttons .primary');
      if (main) main.click();
      event.preventDefault();
    }
    return;
  }
  const key = event.key;
  if (key === '?') {
    showHelp();
    event.preventDefault();
    return;
  }
  if (key === 'Escape') {
    clearSelection();
    return;
  }
  const inHand = target && target.closest && target.closest('#hand');
  if (key === 'ArrowLeft' || key === 'ArrowRight') {
    const cards = [...document.querySelectorAll('#hand .card')];
    if (!cards.length) return;
    S.focus = inHand ? (S.focus + (key === 'ArrowRight' ? 1 : -1) + cards.length) % cards.length : S.focus;
    cards.forEach((c, i) => c.setAttribute('tabindex', i === S.focus ? '0' : '-1'));
    cards[S.focus].focus();
    event.preventDefault();
    return;
  }
  if (key === 'Enter') {
    // Enter makes the picked play, even from a focused card (Space picks cards);
    // on any other button it is that button's own click.
    const first = document.querySelector('#actions .act.exact:not(:disabled), #actions .act.primary:not(:disabled)');
    if (target && target.matches('button, a') && !(inHand && first)) return;
    if (first) {
      first.click();
      event.preventDefault();
    }
    return;
  }
  if (key.length === 1 && S.view && S.game) {
    const wanted = key.toLowerCase();
    const action = parsedActions().find((a) => a.key && a.key.toLowerCase() === wanted);
    if (action && canAct()) {
      act(action.text);
      event.preventDefault();
    }
  }
}

/** Never stay stuck waiting for an answer that will not come. */
function watchdog() {
  const now = Date.now();
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

// -- start ---------------------------------------------------------------------------

function readToken() {
  const params = new URLSearchParams(location.hash.slice(1));
  if (params.has('watch')) return null;
  let token = params.get('token');
  const record = store.tableRecord(tableId);
  if (!token && record && record.token) token = record.token;
  if (token) {
    store.updateTable(tableId, {token});
    // Keep the seat in the address too, so that a bookmark or a reload keeps it.
    if (params.get('token') !== token) history.replaceState(null, '', `#token=${encodeURIComponent(token)}`);
  }
  return token;
}

function start() {
  addSprite();
  S.token = readToken();
  document.getElementById('help').addEventListener('click', showHelp);
  document.getElementById('invite').addEventListener('click', showInvite);
  document.getElementById('rename').addEventListener('click', rename);
  dialogEl().addEventListener('close', () => { S.dialog = null; });
  document.addEventListener('keydown', onKey);
  window.addEventListener('hashchange', () => location.reload());
  socket = new TableSocket(tableId, {hello, message: onMessage, state: onState});
  setInterval(watchdog, 1000);
  // For tests and the curious: the state, and a way to drop the connection.
  window.pitkit = {state: S, socket};
  socket.start();
}

start();
