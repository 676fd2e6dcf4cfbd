// @ts-check
// Calls to the judge (pitkit/tournaments/calls.py). A player's page has a "Call the
// judge" button: it asks the server at once (never kept on the phone to go later: a call
// that lands ten minutes late is no call), and the server makes a `call_judge` entry
// naming the player's table and its judge. The judge's page follows the event's news,
// so the call is on it within a second or two: in the list of open calls, with a beep
// when the judge has allowed sound (a browser plays none before the page is touched, so
// the judge presses "Allow sound" once). The judge answers "On my way", then "Done"
// (`answer_call` entries). At a Pits game, which has no judge, the manager's desk gets
// the call. A table has one open call at a time; the server says so to a second one.
// `hallStrip` puts these above every event page, with the desk's files (desk-roster.js).
import {ApiError, api, errorText, h, sentence, toast} from '../dom.js';
import * as keep from './keep.js';
import {clockDesk, clockFace} from './clock.js';
import {deskFiles} from './desk-roster.js';
import {button, clock, note, panel} from './ui.js';

/** @typedef {import('./contract.js').EventContext} EventContext */
/** @typedef {import('../wire.js').HallCall} HallCall */

const sound = {
  /** @type {AudioContext | null} */
  audio: null,
  /** @type {Set<number>} the calls this page has announced */
  heard: new Set(),
  beeps: 0,
};

/** A short two-tone beep (WebAudio), if the judge allowed sound. */
function beep() {
  const audio = sound.audio;
  if (!audio) return;
  const at = audio.currentTime;
  for (const [i, freq] of [880, 1320].entries()) {
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, at + i * 0.18);
    gain.gain.exponentialRampToValueAtTime(0.3, at + i * 0.18 + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + i * 0.18 + 0.16);
    tone.connect(gain).connect(audio.destination);
    tone.start(at + i * 0.18);
    tone.stop(at + i * 0.18 + 0.17);
  }
  sound.beeps += 1;
  document.body.dataset.beeps = String(sound.beeps);
}

/**
 * Turn sound on (a press: the browser lets the page play from then on) or off.
 * @param {EventContext} ctx
 */
function toggleSound(ctx) {
  if (sound.audio) {
    sound.audio.close();
    sound.audio = null;
  } else {
    sound.audio = new AudioContext();
    beep(); // so the judge hears what a call sounds like
  }
  ctx.redraw();
}

/**
 * Announce the calls not heard yet: a beep and a message.
 * @param {HallCall[]} calls
 */
function announce(calls) {
  const fresh = calls.filter((c) => c.status === 'open' && !sound.heard.has(c.call));
  for (const c of calls) sound.heard.add(c.call);
  if (!fresh.length) return;
  beep();
  toast(`The judge is called to ${fresh.map((c) => c.where).join(', ')} (by ${fresh.map((c) => c.player).join(', ')}).`, 'info', 8000);
}

/**
 * The calls not done yet that the page's link answers (the judge's, or every call at
 * the desk), each with "On my way" and "Done"; and the sound toggle.
 * @param {EventContext} ctx
 */
export function callsPanel(ctx) {
  const calls = ctx.event.hall ? ctx.event.hall.calls : [];
  announce(calls);
  document.body.dataset.calls = String(calls.filter((c) => c.status === 'open').length);
  /** @param {HallCall} c @param {'coming' | 'done'} status @param {string} label */
  const answer = (c, status, label) => button(ctx, label,
    () => ctx.enter('answer_call', {call: c.call, status}, {where: 'calls', done: status === 'done' ? 'Call closed.' : `${c.player} is told you are on your way.`}),
    {primary: status === 'coming', action: `call-${status}`});
  const allowed = !!sound.audio;
  return panel('calls', calls.length ? `Calls to the judge (${calls.length})` : 'Calls to the judge',
    h('div', {class: 'button-row left'},
      h('button', {type: 'button', class: allowed ? 'pressed' : null, 'aria-pressed': String(allowed), 'data-action': 'allow-sound', onclick: () => toggleSound(ctx)},
        allowed ? 'Sound on' : 'Allow sound'),
      h('small', {class: 'note'}, allowed ? ' A call beeps.' : ' Press it once so that a call beeps (the browser plays no sound before).')),
    calls.length
      ? h('ul', {class: 'call-list'}, calls.map((c) => h('li', {class: `call ${c.status}`, 'data-key': `call-${c.call}`, 'data-call': c.call},
        h('strong', {}, c.where), ` · ${c.player} called at ${clock(c.at)}`,
        c.status === 'coming' ? h('span', {class: 'chip'}, ` ${c.answered_by} on the way`) : h('span', {class: 'chip warn'}, ' waiting'),
        h('span', {class: 'call-buttons'}, c.status === 'open' ? answer(c, 'coming', 'On my way') : null, answer(c, 'done', 'Done')))))
      : h('p', {class: 'note'}, 'No call open. A player\'s call shows here at once.'),
    note(ctx, 'calls'));
}

/**
 * Call the judge now, through the page's own link (never queued).
 * @param {EventContext} ctx
 */
async function callJudge(ctx) {
  const token = keep.record(ctx.id).tokens[keep.label(ctx.me)] || null;
  try {
    await api(`/api/events/${encodeURIComponent(ctx.id)}/calls`, {method: 'POST', token});
    ctx.notes['call'] = {kind: 'info', text: 'The judge is called: they are on their way.'};
  } catch (e) {
    const words = e instanceof ApiError ? sentence(errorText(e)) : 'No network: the call did not go. Try again, or raise your hand for the judge.';
    ctx.notes['call'] = {kind: e instanceof ApiError && e.status === 409 ? 'info' : 'error', text: words};
  }
  ctx.redraw();
}

/**
 * A player's "Call the judge" button, and how their table's call stands.
 * @param {EventContext} ctx
 */
export function callButton(ctx) {
  const calls = ctx.event.hall ? ctx.event.hall.calls : [];
  const open = calls[0];
  const status = open ? (open.status === 'coming' ? `${open.answered_by} is on the way (called by ${open.player} at ${clock(open.at)}).`
    : `The judge is called (by ${open.player} at ${clock(open.at)}): they are on their way.`) : null;
  return h('div', {class: 'call-judge', 'data-key': 'call-judge'},
    button(ctx, 'Call the judge', () => callJudge(ctx), {primary: !open, action: 'call-judge', title: 'Ask the judge to come to your table'}),
    status ? h('p', {class: 'note', 'data-call-status': open.status}, status) : null,
    note(ctx, 'call'));
}

/**
 * What a new clock is called: the Go-Round being played (or the next), or the evening.
 * @param {EventContext} ctx
 */
function clockLabel(ctx) {
  const view = /** @type {{rounds?: {round: number, over: boolean}[]}} */ (ctx.event.view);
  if (ctx.event.kind !== 'pitch-tournament') return 'The evening';
  const last = view.rounds && view.rounds.length ? view.rounds[view.rounds.length - 1] : null;
  return `Go-Round ${last ? (last.over ? last.round + 1 : last.round) : 1}`;
}

/**
 * The hall's strip above an event page: the round clock (the manager's controls at the
 * desk), the calls to answer (a judge's, or the desk's), a player's call button.
 * @param {EventContext} ctx
 */
export function hallStrip(ctx) {
  const role = ctx.me.role;
  if (ctx.page !== 'main') return null;
  if (role === 'manager') {
    return h('div', {class: 'hall-strip desk', 'data-key': 'hall-strip'}, clockDesk(ctx, clockLabel(ctx)), callsPanel(ctx), deskFiles(ctx));
  }
  const face = clockFace(ctx);
  if (role === 'judge') return h('div', {class: 'hall-strip', 'data-key': 'hall-strip'}, face, callsPanel(ctx));
  if (role === 'player') return h('div', {class: 'hall-strip', 'data-key': 'hall-strip'}, face, callButton(ctx));
  return face ? h('div', {class: 'hall-strip', 'data-key': 'hall-strip'}, face) : null;
}
