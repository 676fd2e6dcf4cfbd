// @ts-check
// The replay of a finished match: the table page at #replay=<match>&as=<seat or all>.
// The server replays the stored match (GET /api/tables/{id}/matches/{n}/replay) and
// gives each step's events in words and the view after them, as the chosen seat saw
// it or all-seeing; the page draws each step with the table's own drawing, read-only
// (no socket: nothing can be played), and steps back and forth, plays and pauses.
import {api, errorText, h, morph} from '../dom.js';
import {cardEl, withSuits} from '../cards.js';
import {S, draw} from './state.js';
import {loadGame} from './game.js';
import {seatName} from './seats.js';

/** @typedef {import('../games/contract.js').View<any>} View */
/** @typedef {import('../wire.js').GameEvent} GameEvent */

/**
 * One step of a replay: a version, its events as the seat saw them, the view after
 * them (all-seeing: with every seat's cards in `hands`; its `match` only when it changed).
 * @typedef {import('../wire.js').ReplayStep} Step
 */

/** How long each step shows while the replay plays (ms). */
const PLAY_MS = 700;
/** The history keeps this many lines at most (the panel shows 400). */
const LOG_LINES = 400;

/** The replay's own state: its steps, the step shown, and the play timer. */
const R = {
  /** @type {Step[]} */
  steps: [],
  at: 0,
  /** @type {ReturnType<typeof setInterval> | null} */
  timer: null,
};

/**
 * The replay asked for in the address, if any: the match and whose eyes.
 * @returns {{match: number, as: number | null} | null}
 */
export function replayAsked() {
  const params = new URLSearchParams(location.hash.slice(1));
  const match = Number(params.get('replay'));
  if (!params.has('replay') || !Number.isInteger(match) || match < 1) return null;
  const as = params.get('as');
  return {match, as: as != null && /^\d+$/.test(as) ? Number(as) : null};
}

/**
 * Start the page as a replay (instead of joining the table).
 * @param {{match: number, as: number | null}} asked
 */
export async function startReplay(asked) {
  S.replay = asked;
  S.conn = 'replay';
  S.match = asked.match;
  S.overShown = asked.match; // the result is the replay's last step, not a window
  for (const id of ['invite', 'rename', 'sound']) {
    const button = document.getElementById(id);
    if (button) button.hidden = true;
  }
  document.getElementById('help')?.before(
    h('a', {class: 'button', href: `/t/${encodeURIComponent(S.tableId)}`}, 'Back to the table'));
  try {
    /** @type {import('../wire.js').TableInfo} */
    const table = await api(`/api/tables/${encodeURIComponent(S.tableId)}`);
    // Who is at the table now is not part of the match replayed: no "offline" or "away".
    S.table = {...table, seats: table.seats.map((s) => ({...s, connected: true, away: false}))};
  } catch (error) {
    S.final = `This table did not load: ${errorText(error)}.`;
    draw();
    return;
  }
  if (S.table) await loadGame(S.table.game);
  await watchAs(asked.as, 0);
}

/**
 * Load the replay as `seat` saw it (null: all-seeing) and show step `at`.
 * @param {number | null} seat
 * @param {number} at
 */
async function watchAs(seat, at) {
  const match = S.replay ? S.replay.match : 1;
  const query = seat == null ? 'all' : String(seat);
  try {
    /** @type {import('../wire.js').Replay} */
    const replay = await api(`/api/tables/${encodeURIComponent(S.tableId)}/matches/${match}/replay?seat=${query}`);
    R.steps = replay.steps;
    // A step's view leaves out the match's record when it did not change: carry it on.
    /** @type {View['match']} */
    let record;
    for (const step of R.steps) {
      if (step.view.match) record = step.view.match;
      else step.view.match = record;
    }
  } catch (error) {
    S.final = `The replay did not load: ${errorText(error)}.`;
    draw();
    return;
  }
  S.replay = {match, as: seat};
  history.replaceState(null, '', `#replay=${match}&as=${query}`);
  show(Math.min(at, R.steps.length - 1));
}

/**
 * Show step `at`: its view, the history up to it, its words.
 * @param {number} at
 */
function show(at) {
  const step = R.steps[at];
  if (!step) return;
  R.at = at;
  const view = step.view;
  S.seat = S.replay ? S.replay.as : null;
  S.view = view;
  S.version = step.version;
  S.viewVersion = step.version;
  S.legal = [];
  S.toAct = view.to_act || [];
  S.over = !!(view.match && view.match.outcome);
  S.lastScores = view.match ? view.match.scores : null;
  rebuildLog(at);
  if (at === R.steps.length - 1) pause();
  draw();
}

/**
 * The history as it stood after step `at`: a heading for each hand, the lines.
 * @param {number} at
 */
function rebuildLog(at) {
  /** @type {import('./state.js').LogLine[]} */
  const log = [{text: 'Hand 1', cls: 'hand-head'}];
  /** @type {GameEvent[]} */
  let hand = [];
  let next = 0;
  for (const step of R.steps.slice(0, at + 1)) {
    for (const event of step.events) {
      if (next && event.type !== 'match_over') {
        log.push({text: `Hand ${next}`, cls: 'hand-head'});
        hand = [];
        next = 0;
      }
      hand.push(event);
      if (event.text) log.push({text: event.text, cls: `ev-${event.type}`});
      if (event.type === 'scores') next = event.hand + 1;
    }
  }
  S.log = log.slice(-LOG_LINES);
  S.logEpoch += 1;
  S.handEvents = hand;
}

function play() {
  if (R.timer) return;
  if (R.at >= R.steps.length - 1) show(0);
  R.timer = setInterval(() => show(R.at + 1), PLAY_MS);
  draw();
}

function pause() {
  if (R.timer) clearInterval(R.timer);
  R.timer = null;
}

/** @param {number} at */
function go(at) {
  pause();
  show(Math.max(0, Math.min(R.steps.length - 1, at)));
}

/** Draw the replay's bar: the buttons, the slider, whose eyes, the step's words, every hand. */
export function drawReplay() {
  const bar = document.getElementById('replay');
  if (!bar || !S.replay || !S.table) return;
  bar.hidden = false;
  const last = Math.max(0, R.steps.length - 1);
  const step = R.steps[R.at];
  const words = step ? step.events.map((e) => e.text).filter(Boolean) : [];
  const seat = S.replay.as;
  const hands = step && step.view.hands;
  morph(bar, h('div', {class: 'replay-inner'},
    h('div', {class: 'replay-controls', role: 'group', 'aria-label': 'Replay controls'},
      h('button', {type: 'button', title: 'To the deal', 'aria-label': 'To the start', disabled: R.at === 0, onclick: () => go(0)}, '|◀'),
      h('button', {type: 'button', title: 'One step back', 'aria-label': 'Back', disabled: R.at === 0, onclick: () => go(R.at - 1)}, '◀'),
      R.timer
        ? h('button', {type: 'button', class: 'primary play', onclick: () => { pause(); draw(); }}, 'Pause')
        : h('button', {type: 'button', class: 'primary play', onclick: play}, 'Play'),
      h('button', {type: 'button', title: 'One step forward', 'aria-label': 'Forward', disabled: R.at >= last, onclick: () => go(R.at + 1)}, '▶'),
      h('button', {type: 'button', title: 'To the end', 'aria-label': 'To the end', disabled: R.at >= last, onclick: () => go(last)}, '▶|'),
      h('input', {type: 'range', min: 0, max: last, value: R.at, 'aria-label': 'Step',
        oninput: (/** @type {Event} */ e) => go(Number(/** @type {HTMLInputElement} */ (e.target).value))}),
      h('span', {class: 'replay-count'}, `${R.at} of ${last}`),
      h('label', {class: 'replay-as'}, 'Watch as ',
        h('select', {onchange: (/** @type {Event} */ e) => {
          const value = /** @type {HTMLSelectElement} */ (e.target).value;
          pause();
          watchAs(value === 'all' ? null : Number(value), R.at);
        }},
        S.table.seats.map((s) => h('option', {value: String(s.seat), selected: seat === s.seat}, seatName(s.seat))),
        h('option', {value: 'all', selected: seat == null}, 'everyone (all cards)')))),
    h('p', {class: 'replay-words', 'aria-live': 'polite'},
      R.at === 0 ? 'The deal.' : words.length ? withSuits(words.join(' ')) : '(nothing to see from this seat)'),
    hands ? h('ul', {class: 'replay-hands', 'aria-label': 'Every hand'}, hands.map((cards, i) =>
      h('li', {dataset: {seat: i}}, h('strong', {}, seatName(i)),
        h('span', {class: 'cards-row'}, cards.length ? cards.map((c) => cardEl(c, {size: 'sm'})) : h('small', {}, 'no cards'))))) : null));
  // Once moved by hand, a slider and a menu follow their properties, not their attributes.
  const slider = /** @type {HTMLInputElement | null} */ (bar.querySelector('input[type=range]'));
  if (slider) slider.value = String(R.at);
  const menu = /** @type {HTMLSelectElement | null} */ (bar.querySelector('select'));
  if (menu) menu.value = seat == null ? 'all' : String(seat);
}
