// @ts-check
// Sounds and short animations for what happens at the table: a card played, a trade,
// a trick won, the pit opening, your turn. Both are the player's choice (kept in this
// browser); both start off when the device asks for reduced motion.
//
// The sounds are made here with Web Audio (a few notes each), so the page loads no
// sound files. The animations use the Web Animations API rather than classes: the
// felt is redrawn by `morph`, which puts every attribute back as the drawing says.
import {h} from '../dom.js';
import * as store from '../store.js';
import {S} from './state.js';

/** @typedef {import('../wire.js').GameEvent} GameEvent */

/** The device asks for less motion: sounds and animations start off. */
export const REDUCED = matchMedia('(prefers-reduced-motion: reduce)');

/** Whether sounds play. */
export function soundOn() {
  return store.effects().sound ?? !REDUCED.matches;
}

/** Whether plays, trades and tricks are animated. */
export function motionOn() {
  return store.effects().motion ?? !REDUCED.matches;
}

/**
 * Turn sounds or animations on or off, for this browser.
 * @param {'sound' | 'motion'} what
 * @param {boolean} on
 */
export function setEffect(what, on) {
  store.setEffects({...store.effects(), [what]: on});
  showSoundButton();
  showMotion();
}

/** The animations' choice where the stylesheet reads it (`body[data-motion]`): off, the
 * cards no longer lift and the corner button no longer pulses either. */
function showMotion() {
  document.body.dataset.motion = motionOn() ? 'on' : 'off';
}

// A speaker, with sound waves or struck through (drawn here: not every device has an
// emoji font). Fixed markup, never built from data.
const SPEAKER = '<path d="M3 9h4l5-4v14l-5-4H3z" fill="currentColor"/>';
const ICON_ON = `<svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">${SPEAKER}`
  + '<path d="M15.5 8.5a5 5 0 0 1 0 7M18 6a8.5 8.5 0 0 1 0 12" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/></svg>';
const ICON_OFF = `<svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">${SPEAKER}`
  + '<path d="M16 9l6 6M22 9l-6 6" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/></svg>';

/** The top bar's sound button: its state and its picture. */
export function showSoundButton() {
  const button = document.getElementById('sound');
  if (!button) return;
  const on = soundOn();
  button.setAttribute('aria-pressed', String(on));
  button.innerHTML = on ? ICON_ON : ICON_OFF;
  button.title = on ? 'Sounds on: press to turn them off' : 'Sounds off: press to turn them on';
}

/** The help window's switches for sounds and animations. */
export function effectsControls() {
  /**
   * @param {'sound' | 'motion'} what
   * @param {string} label
   * @param {boolean} on
   */
  const toggle = (what, label, on) => h('label', {class: 'check'},
    h('input', {type: 'checkbox', name: what, checked: on,
      onchange: (/** @type {Event} */ e) => setEffect(what, /** @type {HTMLInputElement} */ (e.target).checked)}),
    ' ', label);
  return h('fieldset', {class: 'effects'},
    h('legend', {}, 'Sounds and animations'),
    toggle('sound', 'Sounds for plays, trades, tricks and your turn', soundOn()),
    toggle('motion', 'Short animations of plays, trades and tricks', motionOn()),
    REDUCED.matches ? h('p', {class: 'note'}, 'Your device asks for less motion, so both start off here.') : null);
}

// -- sounds -----------------------------------------------------------------------------

/** @type {AudioContext | null} */
let audio = null;

/**
 * The page's audio, made at the first sound. Browsers keep it silent until the person
 * has pressed something on the page, which they have by the time there is a game.
 */
function context() {
  if (!audio) {
    const Ctor = window.AudioContext || /** @type {any} */ (window).webkitAudioContext;
    if (!Ctor) return null;
    audio = new Ctor();
  }
  if (audio.state === 'suspended') audio.resume().catch(() => {});
  return audio;
}

/**
 * Notes: [frequency Hz, start s, length s]; `wave` their sound, `loud` 0..1.
 * @typedef {{notes: [number, number, number][], wave: OscillatorType, loud: number}} Tune
 */

/** @type {Record<string, Tune>} */
const TUNES = {
  play: {notes: [[620, 0, 0.07]], wave: 'triangle', loud: 0.12},
  trade: {notes: [[880, 0, 0.08], [1320, 0.07, 0.12]], wave: 'sine', loud: 0.16},
  trick: {notes: [[523, 0, 0.25], [659, 0.04, 0.25], [784, 0.08, 0.3]], wave: 'triangle', loud: 0.14},
  turn: {notes: [[988, 0, 0.14], [1319, 0.12, 0.2]], wave: 'sine', loud: 0.14},
  bell: {notes: [[1568, 0, 0.9], [2093, 0, 0.6]], wave: 'sine', loud: 0.18},
  hand: {notes: [[392, 0, 0.2], [523, 0.15, 0.35]], wave: 'triangle', loud: 0.15},
  win: {notes: [[523, 0, 0.15], [659, 0.13, 0.15], [784, 0.26, 0.15], [1047, 0.39, 0.5]], wave: 'triangle', loud: 0.16},
};

/**
 * Play one of the tunes, if sounds are on.
 * @param {keyof typeof TUNES} name
 */
export function sound(name) {
  if (!soundOn()) return;
  const ac = context();
  if (!ac) return;
  const tune = TUNES[name];
  const now = ac.currentTime;
  for (const [freq, start, length] of tune.notes) {
    const osc = ac.createOscillator();
    const gain = ac.createGain();
    osc.type = tune.wave;
    osc.frequency.value = freq;
    // A quick rise and a fall to silence: no click at either end.
    gain.gain.setValueAtTime(0.0001, now + start);
    gain.gain.exponentialRampToValueAtTime(tune.loud, now + start + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + start + length);
    osc.connect(gain).connect(ac.destination);
    osc.start(now + start);
    osc.stop(now + start + length + 0.02);
  }
}

// -- animations -------------------------------------------------------------------------

/** Set while an update's new cards are being drawn: they slide in. */
let arriving = false;

/**
 * After the next redraw (the page redraws on the next frame).
 * @param {() => void} then
 */
function afterDraw(then) {
  requestAnimationFrame(() => requestAnimationFrame(then));
}

/**
 * A seat's plate lights up for a moment: a ring around it, in `colour`, fades in and
 * out. Only the ring's opacity and size change, which the compositor animates without
 * painting the page again at every frame (a glow of the plate's own shadow did, for the
 * whole 0.7 s of each move). The colour is the felt's `--flash-<seat>` (pitkit.css),
 * which the redraw leaves alone: it redraws what is inside the felt.
 * @param {number} seat
 * @param {string} colour
 */
function flash(seat, colour) {
  if (!motionOn()) return;
  document.getElementById('felt')?.style.setProperty(`--flash-${seat}`, colour);
  afterDraw(() => {
    const plate = document.querySelector(`#felt .seat[data-seat="${seat}"]`);
    plate?.animate(
      [{opacity: 0, transform: 'scale(.94)'}, {opacity: 1, transform: 'none', offset: 0.3},
        {opacity: 0, transform: 'scale(1.03)'}],
      {duration: 700, easing: 'ease-out', pseudoElement: '::before'});
  });
}

/** New cards in the middle of the table slide in from a little way off. */
function watchFelt() {
  const felt = document.getElementById('felt');
  if (!felt) return;
  new MutationObserver((changes) => {
    if (!arriving || !motionOn()) return;
    for (const change of changes) {
      for (const node of change.addedNodes) {
        if (!(node instanceof HTMLElement) || node.closest('.seat')) continue;
        const cards = node.classList.contains('card') ? [node] : [...node.querySelectorAll('.card')];
        for (const card of cards) {
          card.animate([{opacity: 0, transform: 'translateY(12px) scale(.92)'}, {opacity: 1, transform: 'none'}],
            {duration: 220, easing: 'ease-out'});
        }
      }
    }
  }).observe(felt, {childList: true, subtree: true});
}

// -- what happened ----------------------------------------------------------------------

/**
 * The seat an action names, as Pit's acceptances spell it ("accept 2 #5").
 * @param {string} action
 */
function acceptedFrom(action) {
  const match = /^accept (\d+)/.exec(action);
  return match ? Number(match[1]) : null;
}

/**
 * The events of one update, as they happen: a sound for the most telling of them, and
 * the seats concerned lit up. (A sync, which redraws everything, is not news.)
 * @param {GameEvent[]} events
 * @param {boolean} wasMyTurn  whether this seat was to act before the update
 */
export function react(events, wasMyTurn) {
  /** @type {(keyof typeof TUNES)[]} */
  const heard = [];
  for (const event of events) {
    const e = /** @type {Record<string, any>} */ (event);
    if (event.type === 'action' && typeof e.seat === 'number') {
      const from = typeof e.action === 'string' ? acceptedFrom(e.action) : null;
      if (from != null) {
        heard.push('trade');
        flash(e.seat, 'rgba(120, 200, 255, .55)');
        flash(from, 'rgba(120, 200, 255, .55)');
      } else {
        if (e.seat !== S.seat) heard.push('play');
        flash(e.seat, 'rgba(255, 255, 255, .35)');
      }
    } else if (event.type === 'trick' && typeof e.winner === 'number') {
      heard.push('trick');
      flash(e.winner, 'rgba(255, 214, 102, .7)');
    } else if (event.type === 'exchanged') {
      heard.push('trade');
    } else if (event.type === 'open') {
      heard.push('bell');
    } else if (event.type === 'scores') {
      heard.push('hand');
    } else if (event.type === 'match_over') {
      heard.push('win');
    }
  }
  const myTurn = S.seat != null && S.toAct.includes(S.seat) && !S.over;
  if (myTurn && !wasMyTurn && !S.info?.realtime) heard.push('turn');
  // One sound per update: the last word on it is the most telling (a trick after its card).
  const order = ['play', 'trade', 'turn', 'trick', 'bell', 'hand', 'win'];
  const loudest = heard.sort((a, b) => order.indexOf(a) - order.indexOf(b)).pop();
  if (loudest) sound(loudest);
  if (events.length) {
    arriving = true;
    afterDraw(() => { arriving = false; });
  }
}

/** Start: the sound button, and the felt watched for new cards. */
export function startEffects() {
  const button = document.getElementById('sound');
  button?.addEventListener('click', () => {
    const on = !soundOn();
    setEffect('sound', on);
    if (on) sound('turn'); // hear what "on" means (and unlock the page's audio)
  });
  showSoundButton();
  showMotion();
  watchFelt();
}
