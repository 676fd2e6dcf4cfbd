// @ts-check
// The round clock (pitkit/tournaments/clock.py): how long the players of a Go-Round (or
// an evening's games) have left, set by the manager with `clock` entries (start with a
// length, pause, resume, add time, clear) and shown on the big screen, the desk and
// every player's and judge's page. The event says when it runs out (`ends`, by the
// server's clock); the news stream says the server's time now, and the page corrects
// its own clock by the difference, so every phone in the hall shows the same second.
// It counts down by itself, once a second, without drawing the page again; at zero it
// says "Time".
import {h} from '../dom.js';
import {bind, button, note, panel} from './ui.js';

/** @typedef {import('./contract.js').EventContext} EventContext */
/** @typedef {import('../wire.js').HallClock} HallClock */

/** The server's clock as this page knows it: the offset (ms) of the server's time from
 * this page's (0 until the news stream says the server's time). */
export const serverClock = {
  offset: 0,
  known: false,
  /**
   * The server said its time was `now` (seconds) just now.
   * @param {number} now
   */
  heard(now) {
    if (!Number.isFinite(now)) return;
    this.offset = now * 1000 - Date.now();
    this.known = true;
  },
  /** The server's time now, in seconds. */
  now() {
    return (Date.now() + this.offset) / 1000;
  },
};

/**
 * The seconds the clock has left now (by the server's clock).
 * @param {HallClock} c
 */
export function secondsLeft(c) {
  if (!c.running || c.ends === null) return Math.max(0, c.left || 0);
  return Math.max(0, c.ends - serverClock.now());
}

/**
 * Seconds as the clock shows them: "29:59", "1:02:03".
 * @param {number} seconds
 */
export function clockText(seconds) {
  const s = Math.ceil(seconds);
  const hours = Math.floor(s / 3600);
  const mm = String(Math.floor((s % 3600) / 60)).padStart(hours ? 2 : 1, '0');
  const ss = String(s % 60).padStart(2, '0');
  return hours ? `${hours}:${mm}:${ss}` : `${mm}:${ss}`;
}

/**
 * What a clock's face says now: the time left, "Time" once it is out, and how it stands.
 * @param {HallClock} c
 */
function faceWords(c) {
  const left = secondsLeft(c);
  if (left <= 0) return {time: 'Time', state: 'out'};
  return {time: clockText(left), state: c.running ? 'running' : 'paused'};
}

/** Bring every clock on the page to this second (the page is not drawn again). */
function tickFaces() {
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('[data-clock]'))) {
    /** @type {HallClock} */
    const c = JSON.parse(el.dataset.clock || 'null');
    if (!c) continue;
    const {time, state} = faceWords(c);
    const shown = /** @type {HTMLElement | null} */ (el.querySelector('.clock-time'));
    if (shown && shown.textContent !== time) shown.textContent = time;
    if (el.dataset.state !== state) el.dataset.state = state;
  }
}

let ticking = false;

/**
 * The round clock's face: its label, the time left (or "Time"), paused or not. Nothing
 * when there is no clock.
 * @param {EventContext} ctx
 * @param {{big?: boolean}} [options]
 */
export function clockFace(ctx, {big = false} = {}) {
  const c = ctx.event.hall ? ctx.event.hall.clock : null;
  if (!c) return null;
  if (!ticking) {
    ticking = true;
    setInterval(tickFaces, 250);
  }
  const {time, state} = faceWords(c);
  return h('div', {class: `round-clock${big ? ' big' : ''}`, 'data-clock': JSON.stringify(c), 'data-state': state,
    role: 'timer', 'aria-label': `${c.label || 'Round clock'}: time left`},
  h('span', {class: 'clock-label'}, c.label || 'Round clock'),
  h('span', {class: 'clock-time', 'aria-live': 'off'}, time),
  h('span', {class: 'clock-paused'}, 'paused'));
}

/**
 * Set the clock (a `clock` entry; the manager's alone).
 * @param {EventContext} ctx
 * @param {Record<string, unknown>} data
 * @param {string} done
 */
function setClock(ctx, data, done) {
  ctx.enter('clock', data, {where: 'clock', done});
}

/**
 * The manager's clock controls: start one of so many minutes (with a label), pause,
 * resume, add or take off a minute or five, clear.
 * @param {EventContext} ctx
 * @param {string} label what a new clock is called ("Go-Round 2"), as the kind suggests
 */
export function clockDesk(ctx, label) {
  const c = ctx.event.hall ? ctx.event.hall.clock : null;
  // What the fields show until the manager types otherwise (the shell fills bound fields).
  if (ctx.forms['clock:minutes'] === undefined) ctx.forms['clock:minutes'] = '30';
  if (ctx.forms['clock:label'] === undefined) ctx.forms['clock:label'] = label;
  const minutes = Number(ctx.forms['clock:minutes']);
  const named = String(ctx.forms['clock:label']);
  const start = () => setClock(ctx, {action: 'start', seconds: Math.round(minutes * 60), label: named.trim() || null},
    `The clock runs: ${minutes} min.`);
  /** @param {number} by */
  const add = (by) => button(ctx, `${by > 0 ? '+' : '−'}${Math.abs(by)} min`,
    () => setClock(ctx, {action: 'add', seconds: by * 60}, `${by > 0 ? 'Added' : 'Took off'} ${Math.abs(by)} min.`),
    {action: `clock-add-${by}`, disabled: !c});
  return panel('clock', 'Round clock',
    c ? clockFace(ctx) : h('p', {class: 'note'}, 'No clock yet: start one for the round, and it shows on the big screen and every phone.'),
    h('form', {class: 'entry-form clock-form', 'data-form': 'clock'},
      h('div', {class: 'form-row'},
        h('label', {for: 'clock-minutes'}, 'Minutes'),
        bind(ctx, 'clock:minutes', h('input', {id: 'clock-minutes', type: 'number', min: 1, max: 360, step: 1, value: String(minutes), class: 'num-input'})),
        h('label', {for: 'clock-label'}, 'For'),
        bind(ctx, 'clock:label', h('input', {id: 'clock-label', maxlength: 40, value: named})),
        button(ctx, c ? 'Start again' : 'Start the clock', start, {primary: !c, action: 'clock-start', disabled: !(minutes >= 1 && minutes <= 360)})),
      h('div', {class: 'button-row left'},
        c && c.running ? button(ctx, 'Pause', () => setClock(ctx, {action: 'pause'}, 'Paused.'), {action: 'clock-pause'}) : null,
        c && !c.running ? button(ctx, 'Resume', () => setClock(ctx, {action: 'resume'}, 'The clock runs again.'), {action: 'clock-resume'}) : null,
        add(1), add(5), add(-1),
        button(ctx, 'Clear', () => setClock(ctx, {action: 'clear'}, 'No clock now.'), {action: 'clock-clear', disabled: !c, danger: true}))),
    note(ctx, 'clock'));
}
