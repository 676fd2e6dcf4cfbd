// @ts-check
// The history panel: the match's events in the server's words (each event's `text`,
// already worded for this page's seat), a heading per hand, and the newest line
// announced to screen readers. After a sync the server gives the earlier hands too.
import {h} from '../dom.js';
import {withSuits} from '../cards.js';
import {S} from './state.js';

/** @typedef {import('../wire.js').GameEvent} GameEvent */

/** @param {GameEvent} event */
function lineOf(event) {
  return event.text ? {text: event.text, cls: `ev-${event.type}`} : null;
}

/**
 * An earlier hand as a sync gives it: its number, its result in words (a hand long
 * past), and its events (the last ones: `left_out` counts those left out).
 * @typedef {import('../wire.js').EarlierHand} EarlierHand
 */

/**
 * Start the history afresh from the server's: the earlier hands, then this hand's
 * events (a sync).
 * @param {GameEvent[]} events
 * @param {boolean} [resynced]  say that the page had fallen out of step
 * @param {EarlierHand[]} [earlier]
 */
export function resetLog(events, resynced = false, earlier = []) {
  S.log = [];
  S.logEpoch += 1;
  S.handEvents = [];
  for (const past of earlier) {
    S.log.push({text: `Hand ${past.hand}`, cls: 'hand-head'});
    if (past.summary) S.log.push({text: past.summary, cls: 'note'});
    if (past.left_out) S.log.push({text: `(${past.left_out} earlier lines of this hand left out)`, cls: 'note'});
    for (const event of past.events) {
      const line = lineOf(event);
      if (line) S.log.push(line);
    }
  }
  S.nextHand = S.view && S.view.match ? S.view.match.hand : 1;
  S.log.push({text: `Hand ${S.nextHand}`, cls: 'hand-head'});
  if (resynced) S.log.push({text: '(back in step with the table)', cls: 'note'});
  for (const event of events) {
    S.handEvents.push(event);
    const line = lineOf(event);
    if (line) S.log.push(line);
  }
}

/**
 * One new event: into this hand's events and the history, and announced.
 * @param {GameEvent} event
 */
export function addEvent(event) {
  if (event.type === 'deal') {
    S.handEvents = [];
    S.log.push({text: `Hand ${S.nextHand}`, cls: 'hand-head'});
  }
  S.handEvents.push(event);
  const line = lineOf(event);
  if (line) {
    S.log.push(line);
    announce(line.text);
  }
  if (event.type === 'scores') S.nextHand = event.hand + 1; // `hand` counts the hands played
}

/** @param {string} text */
function announce(text) {
  const live = document.getElementById('live');
  if (live) live.textContent = text;
}

let drawnEpoch = -1;
let drawnCount = 0;

/**
 * Whether the history panel is scrolled to its end. Asked before the page's redraw
 * writes anything: read after a write, the browser would lay the page out just to
 * answer, and again at the frame's end.
 */
export function logAtEnd() {
  const list = document.getElementById('log');
  return !!list && list.scrollHeight - list.scrollTop - list.clientHeight < 40;
}

/**
 * Append the new lines to the history panel (rebuilt when the log was reset).
 * @param {boolean} atBottom whether it was scrolled to its end (`logAtEnd`, asked first)
 */
export function drawLog(atBottom) {
  const list = document.getElementById('log');
  if (!list) return;
  if (drawnEpoch !== S.logEpoch) {
    list.replaceChildren();
    drawnEpoch = S.logEpoch;
    drawnCount = 0;
  }
  const fresh = S.log.slice(drawnCount).map((line) => h('li', {class: line.cls}, withSuits(line.text)));
  list.append(...fresh);
  drawnCount = S.log.length;
  while (list.children.length > 400) list.firstElementChild?.remove();
  if (atBottom || fresh.length) list.scrollTop = list.scrollHeight;
}
