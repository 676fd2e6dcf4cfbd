// @ts-check
// The event pages' shell: one page (event.html) for /e/<id> (the manager's desk, a
// player's page or the public view, by the link), /e/<id>/screen (the big screen),
// /e/<id>/print (the score sheets), /e/<id>/slips (the slips to hand out) and
// /e/<id>/code (where a player types the code on their slip). It reads the link from
// the address, keeps it in this browser (js/event/keep.js) and takes it out of the
// address bar, asks the server for the event, and has the event's kind draw it
// (js/event/<kind>.js, declared by js/event/contract.js; the slips and the code page
// are every kind's: js/event/hall.js). A player who opens their link is checked in
// (js/event/checkin.js). It follows the event through a stream of its news
// (js/event/news.js: a new entry is fetched and drawn within a second or two), or
// asks every few seconds where it has no stream. An entry made here is kept on the
// phone and sent under its own idempotency key (js/event/outbox.js): through a
// dropped network it waits, shown as "waiting to send", and lands once when the
// network is back. After every entry the page draws the event from the server's answer.
import {ApiError, api, errorText, h, morph, readIfChanged, sentence, toast} from './dom.js';
import {hallStrip} from './event/calls.js';
import {checkInOnOpen} from './event/checkin.js';
import {codePage, slipsPage} from './event/hall.js';
import * as keep from './event/keep.js';
import {News} from './event/news.js';
import {Outbox, waitingPanel} from './event/outbox.js';
import * as store from './store.js';

/** @typedef {import('./event/contract.js').EventContext} EventContext */
/** @typedef {import('./event/contract.js').EventData} EventData */
/** @typedef {import('./event/contract.js').EventModule} EventModule */
/** @typedef {import('./event/contract.js').Me} Me */
/** @typedef {import('./event/keep.js').Waiting} Waiting */
/** @typedef {import('./event/outbox.js').Outcome} Outcome */

// How often each page asks for news when it has no stream of them: the big screen in
// the hall, the others. (With a stream, a page asks only when there is news.)
const POLL_MS = {screen: 4000, main: 5000, print: 30000, slips: 30000, code: 60000};
/** @type {Record<string, 'screen' | 'print' | 'slips' | 'code'>} */
const PAGES = {screen: 'screen', print: 'print', slips: 'slips', code: 'code'};

/**
 * The element with this id (the page has it).
 * @param {string} id
 */
function byId(id) {
  return /** @type {HTMLElement} */ (document.getElementById(id));
}

const parts = location.pathname.split('/').filter(Boolean); // ['e', id, page?]
const eventId = decodeURIComponent(parts[1] || '');
/** @type {EventContext['page']} */
const pageName = PAGES[parts[2] || ''] || 'main';

/** @type {string | null} */
let token = null;
/** @type {EventModule | null} */
let kindModule = null;
// The ETag of the event as drawn: a refresh of the same event is answered 304, in bytes.
let lastTag = '';

/** @type {EventContext} */
const ctx = {
  id: eventId,
  page: pageName,
  event: /** @type {EventData} */ (/** @type {unknown} */ (null)),
  me: {role: 'public', name: null},
  forms: {},
  notes: {},
  busy: false,
  links: {},
  waiting: [],
  enter,
  seat,
  ask: (path, using = token) => api(path, {token: using}),
  redraw: draw,
  fresh: () => news.fresh(),
};

const news = new News(eventId, (seq) => { if (seq !== drawnSeq()) refresh(); }, POLL_MS[pageName]);
const outbox = new Outbox(eventId, told);

/** Whose link the page's entries go through, as this browser keeps it ("" : none). */
function label() {
  return token === null ? '' : keep.label(ctx.me);
}

/** The number of the last entry the page shows. */
function drawnSeq() {
  const log = ctx.event ? ctx.event.log : [];
  return log.length ? log[log.length - 1].seq : 0;
}

/** @param {string} text */
function banner(text) {
  const box = byId('banner');
  box.textContent = text;
  box.hidden = !text;
}

/**
 * Ask for the event through `using` (null: the public view), unless it is still the
 * one drawn (`tag`: its ETag): then null.
 * @param {string | null} using
 * @param {string} [tag]
 * @returns {Promise<{data: EventData, tag: string} | null>}
 */
function readIfNew(using, tag = '') {
  return readIfChanged(`/api/events/${encodeURIComponent(eventId)}`, {token: using, tag});
}

/**
 * The event through `using` (null: the public view), and its ETag.
 * @param {string | null} using
 * @returns {Promise<{data: EventData, tag: string}>}
 */
async function read(using) {
  return /** @type {{data: EventData, tag: string}} */ (await readIfNew(using));
}

/**
 * The link to use: one just opened (#token=..., kept here and taken out of the
 * address), else the one this browser used last for this event; #public: none.
 * @returns {Promise<{data: EventData, tag: string}>}
 */
async function firstRead() {
  const params = new URLSearchParams(location.hash.slice(1));
  const opened = params.get('token');
  const manager = keep.record(eventId).tokens.manager;
  if (pageName === 'slips' && manager) {
    // Printed from the desk's browser: the slips' codes are made from the manager's link.
    token = manager;
    return read(manager).catch(() => { token = null; return read(null); });
  }
  if (pageName !== 'main' || params.has('public')) {
    if (opened) history.replaceState(null, '', location.pathname);
    return read(null);
  }
  if (opened) {
    history.replaceState(null, '', location.pathname); // a link is a secret: not in the bar
    try {
      const first = await read(opened);
      const label = keep.label(first.data.me);
      keep.update(eventId, (r) => { r.tokens[label] = opened; r.current = label; });
      token = opened;
      return first;
    } catch (e) {
      if (!(e instanceof ApiError) || e.status !== 403) throw e;
      banner(`${sentence(errorText(e))} You see the public view.`);
      return read(null);
    }
  }
  const r = keep.record(eventId);
  const stored = r.current ? r.tokens[r.current] : null;
  if (!stored) return read(null);
  try {
    token = stored;
    return await read(stored);
  } catch (e) {
    if (!(e instanceof ApiError) || e.status !== 403) throw e;
    keep.update(eventId, (rec) => { delete rec.tokens[rec.current]; rec.current = ''; });
    token = null;
    banner(`The link this browser kept is no longer one of this event's. You see the public view.`);
    return read(null);
  }
}

/**
 * Make an entry through the page's link: kept on this phone, then sent (js/event/
 * outbox.js). The server's answer redraws the page, its refusal is shown in words at
 * `where`; with no answer, the entry waits to be sent. True when the entry was made
 * or waits; false when it was refused.
 * @type {EventContext['enter']}
 */
async function enter(type, data, {corrects, where = 'main', done} = {}) {
  if (ctx.busy) return false;
  ctx.busy = true;
  delete ctx.notes[where];
  draw();
  try {
    const outcome = await outbox.enter(label(), {type, data, corrects: corrects || null, where, done: done || 'Entered.'});
    // Refused: the page may be behind (an entry made elsewhere): catch up, keeping the words.
    if (outcome.kind === 'refused') await refresh(true);
    return outcome.kind !== 'refused';
  } finally {
    ctx.busy = false;
    draw();
  }
}

/**
 * What became of an entry sent (now, or later from the phone's queue): the words
 * where it was made, the event as the server's answer shows it.
 * @param {string} whose the link it went through
 * @param {Waiting} item
 * @param {Outcome} outcome
 */
function told(whose, item, outcome) {
  const here = whose === label();
  if (outcome.kind === 'landed') {
    news.heard();
    landed(outcome.answer);
    if (here) {
      ctx.notes[item.where] = {kind: 'info', text: outcome.answer.replayed ? `${item.done} (It had landed already: entered once.)` : item.done};
      accept(outcome.answer.event, outcome.answer.event_tag);
    } else {
      refresh(true);
    }
  } else if (outcome.kind === 'refused') {
    const text = `Refused: ${sentence(outcome.reason)}`;
    if (here) ctx.notes[item.where] = {kind: 'error', text};
    // An entry sent later from the queue: its form may be gone, so say so here too.
    if (!ctx.busy || !here) toast(`An entry made earlier was not taken. ${text}`, 'error', 12000);
  } else if (here) {
    ctx.notes[item.where] = {kind: 'wait', text: `Not sent yet (${outcome.reason}): kept on this phone, waiting to send. It goes by itself when the network is back.`};
  }
  draw();
}

/**
 * What an entry's answer makes besides the entry: a link to hand out, kept here (the
 * server shows it once); a table's host token, kept as the lobby keeps it, so the
 * table's page shows the host's buttons (start now, bot a seat, close).
 * @param {{link?: import('./event/contract.js').Link | null, table?: {id: string, host_token: string} | null}} answer
 */
function landed(answer) {
  if (answer.link) {
    const {name, url} = answer.link;
    // On this page's origin, whatever the server named (it may not know its public name).
    const here = new URL(url.replace(/^https?:\/\/[^/]+/, ''), location.origin).href;
    keep.update(eventId, (r) => { r.made[name || ''] = here; });
  }
  if (answer.table) store.updateTable(answer.table.id, {host: answer.table.host_token});
}

/**
 * Go to the player's seat at an online table: the server gives the seat a new token
 * for this player's link, and the table's page takes it from the address.
 * @type {EventContext['seat']}
 */
async function seat(tableId, where) {
  if (ctx.busy) return;
  ctx.busy = true;
  delete ctx.notes[where];
  draw();
  try {
    /** @type {{url: string}} */
    const answer = await api(`/api/tables/${encodeURIComponent(tableId)}/event-seat`, {method: 'POST', token});
    location.assign(new URL(answer.url.replace(/^https?:\/\/[^/]+/, ''), location.origin).href);
  } catch (e) {
    ctx.notes[where] = {kind: 'error', text: `Refused: ${sentence(errorText(e))}`};
  } finally {
    ctx.busy = false;
    draw();
  }
}

/**
 * @param {EventData} event
 * @param {string} tag its ETag ('': not known)
 */
function accept(event, tag) {
  lastTag = tag;
  ctx.event = event;
  ctx.me = event.me;
  ctx.links = keep.record(eventId).made;
}

/** What the printable page is called at this kind of event. */
function sheetsName() {
  return ctx.event.kind === 'pitch-tournament' ? 'Score pads' : 'Score sheets';
}

/** Who the page is for, in words. */
function pageTitle() {
  const {role, name} = ctx.me;
  if (pageName === 'screen') return 'Standings';
  if (pageName === 'print') return sheetsName();
  if (pageName === 'slips') return 'Slips';
  if (pageName === 'code') return 'Your code';
  if (role === 'manager') return "Manager's desk";
  if (role === 'player' || role === 'judge') return `${name}'s page`;
  return 'Public view';
}

/** The hook that draws this page for this link. */
function hook() {
  const m = /** @type {EventModule} */ (kindModule);
  if (pageName === 'slips') return slipsPage;
  if (pageName === 'code') return codePage;
  if (pageName === 'screen') return m.screen || m.public;
  if (pageName === 'print') return m.print || m.public;
  const byRole = {manager: m.desk, player: m.player, judge: m.judge}[ctx.me.role];
  return byRole || m.public;
}

/** The top bar: the event's name, whose page it is, the other pages and links. */
function drawBar() {
  const event = ctx.event;
  document.title = `${event.name}: ${pageTitle()} · pitkit`;
  byId('title').textContent = event.name;
  byId('subtitle').textContent = `${event.title} · ${pageTitle()}`;
  const base = `/e/${encodeURIComponent(eventId)}`;
  /** @type {import('./dom.js').Child[]} */
  const links = [];
  if (pageName === 'main') {
    links.push(h('a', {class: 'button', href: `${base}/screen`, target: '_blank', rel: 'noopener'}, 'Big screen'));
    links.push(h('a', {class: 'button', href: `${base}/print`, target: '_blank', rel: 'noopener'}, sheetsName()));
    const r = keep.record(eventId);
    const held = Object.keys(r.tokens);
    if (held.length && (held.length > 1 || r.current === '' || token === null)) {
      const select = h('select', {id: 'as', 'aria-label': 'See the event as', onchange: (/** @type {Event} */ e) => switchTo(/** @type {HTMLSelectElement} */ (e.currentTarget).value)},
        held.map((k) => h('option', {value: k, selected: k === r.current && token !== null},
          k === 'manager' ? "Manager's desk" : `${k.split(':').slice(1).join(':')}'s page`)),
        h('option', {value: '', selected: token === null}, 'Public view'));
      links.push(h('label', {class: 'as-label'}, h('span', {class: 'sr-only'}, 'See the event as'), select));
    }
    if (token === null) links.push(h('a', {class: 'button', href: `${base}/code`, 'data-action': 'type-code'}, 'Type your code'));
  } else if (pageName === 'print' || pageName === 'slips') {
    links.push(h('button', {type: 'button', class: 'primary', onclick: () => print()}, 'Print'));
    links.push(h('a', {class: 'button', href: base}, 'Back to the event'));
  } else if (pageName === 'code') {
    links.push(h('a', {class: 'button', href: `${base}#public`}, 'The event\'s page'));
  }
  morph(byId('links'), h('nav', {}, links));
}

/**
 * See the event through another link this browser holds ("" : the public view).
 * @param {string} label
 */
async function switchTo(label) {
  keep.update(eventId, (r) => { r.current = label; });
  history.replaceState(null, '', location.pathname + (label ? '' : '#public'));
  token = label ? keep.record(eventId).tokens[label] || null : null;
  ctx.forms = {};
  ctx.notes = {};
  await refresh(true);
}

let drawQueued = false;

/**
 * Redraw at the next frame. An entry asks for several (busy, answered, done, its form
 * cleared), and the whole page is built anew for each: in one frame they make one.
 */
function draw() {
  if (drawQueued) return;
  drawQueued = true;
  requestAnimationFrame(() => {
    drawQueued = false;
    drawNow();
  });
}

/** Draw the page from `ctx.event`: patch it, so the focus and what is typed stay. */
function drawNow() {
  if (!ctx.event || !kindModule) return;
  ctx.waiting = label() ? outbox.waiting(label()) : [];
  drawBar();
  morph(byId('outbox'), h('div', {}, waitingPanel(ctx.waiting, kindModule.describe, () => { outbox.flush(); })));
  const main = byId('main');
  const fresh = h('main', {}, hallStrip(ctx), hook()(ctx)); // the clock and calls, then the kind's page
  // A <details> the reader opened or closed stays so (morph would reset it).
  /** @type {Map<string, boolean>} */
  const folds = new Map([...main.querySelectorAll('details[data-key]')].map((d) => [d.getAttribute('data-key') || '', /** @type {HTMLDetailsElement} */ (d).open]));
  morph(main, fresh);
  for (const d of /** @type {NodeListOf<HTMLDetailsElement>} */ (main.querySelectorAll('details[data-key]'))) {
    const open = folds.get(d.getAttribute('data-key') || '');
    if (open !== undefined && d.open !== open) d.open = open;
  }
  // What is typed and picked lives in ctx.forms: show it in the fields bound to it.
  for (const el of /** @type {NodeListOf<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>} */ (main.querySelectorAll('[data-bind]'))) {
    const value = ctx.forms[el.dataset.bind || ''];
    if (el instanceof HTMLInputElement && el.type === 'checkbox') el.checked = !!value;
    else if (el.value !== String(value ?? '')) el.value = String(value ?? '');
  }
  const body = document.body;
  body.dataset.page = pageName === 'main' ? (hook() === kindModule?.public ? 'public' : ctx.me.role === 'manager' ? 'desk' : ctx.me.role) : pageName;
  body.dataset.role = ctx.me.role;
  body.dataset.busy = String(ctx.busy);
  body.dataset.seq = String(drawnSeq());
  body.dataset.waiting = String(outbox.count());
  body.dataset.ready = 'true';
  tick();
}

/** How fresh the page is, where it says so (the bar; the big screen's head). */
function tick() {
  const {stale, text} = news.fresh();
  document.body.dataset.stale = String(stale);
  for (const el of document.querySelectorAll('[data-fresh]')) {
    if (el.textContent !== text) el.textContent = text;
    el.classList.toggle('stale', stale);
  }
}

/**
 * Ask the server for the event; redraw if anything changed (or `always`).
 * @param {boolean} [always]
 */
async function refresh(always = false) {
  try {
    const fresh = await readIfNew(token, always ? '' : lastTag);
    news.heard();
    banner('');
    if (!fresh) return; // the event as drawn: the server said so, and sent nothing
    accept(fresh.data, fresh.tag);
    draw();
  } catch (e) {
    if (e instanceof ApiError && e.status === 403 && token) {
      keep.update(eventId, (r) => { delete r.tokens[r.current]; r.current = ''; });
      token = null;
      banner('This link is no longer one of the event\'s. You see the public view.');
      return;
    }
    banner(`The server did not answer (${errorText(e)}); trying again…`);
  }
}

/** @param {string} kind */
async function loadKind(kind) {
  if (/^[a-z0-9-]+$/.test(kind)) {
    try {
      return /** @type {EventModule} */ ((await import(`./event/${kind}.js`)).default);
    } catch {
      // Not a kind this page knows: say so below.
    }
  }
  return {
    public: () => h('p', {class: 'note'}, `This page cannot show events of this kind (${kind}) yet.`),
  };
}

async function start() {
  document.body.dataset.page = pageName;
  if (!eventId) {
    byId('main').replaceChildren(h('p', {class: 'note'}, 'No event named in the address.'));
    return;
  }
  /** @type {{data: EventData, tag: string}} */
  let first;
  try {
    first = await firstRead();
  } catch (e) {
    byId('title').textContent = 'Event';
    const words = e instanceof ApiError && e.status === 404 ? 'There is no such event: check the address.' : `The event could not be loaded: ${errorText(e)}`;
    byId('main').replaceChildren(h('p', {class: 'note', role: 'alert'}, words));
    document.body.dataset.ready = 'error';
    return;
  }
  kindModule = await loadKind(first.data.kind);
  document.body.classList.add(`kind-${first.data.kind}`);
  accept(first.data, first.tag);
  // Enter in a field presses its form's main button (no form posts by itself).
  byId('main').addEventListener('submit', (e) => {
    e.preventDefault();
    const form = /** @type {HTMLFormElement} */ (e.target);
    /** @type {HTMLButtonElement | null} */ (form.querySelector('button.primary:not(:disabled)'))?.click();
  });
  window.addEventListener('hashchange', () => location.reload());
  drawNow();
  if (outbox.count()) outbox.flush(); // entries kept here before a reload
  if (pageName === 'main' && await checkInOnOpen(ctx)) toast('You are checked in. Welcome!', 'info');
  // A stream brings the news to the pages that follow the event live; the others (and
  // these, while they have no stream) ask every few seconds.
  if (pageName === 'main' || pageName === 'screen') news.start();
  setInterval(() => { if (document.visibilityState === 'visible' && !news.live()) refresh(); }, POLL_MS[pageName]);
  setInterval(tick, 1000);
  // For tests and the curious: the event as drawn.
  /** @type {any} */ (window).pitkitEvent = ctx;
}

start();
