// @ts-check
// The pause between hands at a table where people sit (docs/protocol.md, "Between
// hands"): the next hand is dealt, and starts when every person here is ready or its
// countdown runs out. Drawn in the end-of-hand window and, once that is closed, on the felt.
import {h, sentence} from '../dom.js';
import {S} from './state.js';
import {seatName} from './seats.js';
import {sayReady} from './send.js';

/**
 * Whole seconds left until `ends` (Date.now() ms), never below 0.
 * @param {number} ends
 */
export function secondsLeft(ends) {
  return Math.max(0, Math.ceil((ends - Date.now()) / 1000));
}

/**
 * "Ada", "Ada and Bix", "you, Ada and Bix".
 * @param {number[]} seats
 */
function names(seats) {
  const words = seats.map((i) => (i === S.seat ? 'you' : seatName(i)));
  return words.length > 1 ? `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}` : words.join('');
}

/** Whether this page's player is still awaited. */
export function awaitingMe() {
  return !!S.pause && S.seat != null && S.pause.waiting.includes(S.seat);
}

/** The pause in words: the countdown, who is ready, who is awaited. */
export function pauseLines() {
  const pause = S.pause;
  if (!pause) return [];
  const lines = [h('p', {class: 'next-hand-clock', role: 'timer'}, `The next hand starts in ${secondsLeft(pause.ends)} s, or as soon as everyone is ready.`)];
  if (pause.ready.length) lines.push(h('p', {class: 'next-hand-ready'}, sentence(`Ready: ${names(pause.ready)}`)));
  if (pause.waiting.length) lines.push(h('p', {class: 'next-hand-waiting'}, sentence(`Waiting for ${names(pause.waiting)}`)));
  return lines;
}

/** The Ready button (the player's own, while they are awaited). */
export function readyButton() {
  return h('button', {type: 'button', class: 'primary ready', dataset: {action: 'ready'}, onclick: sayReady}, 'Ready for the next hand');
}

/** The felt's centre during the pause (the end-of-hand window closed). */
export function pauseBox() {
  return h('div', {class: 'centre-box next-hand waiting'},
    h('h2', {}, 'Next hand'), ...pauseLines(), awaitingMe() ? readyButton() : null);
}
