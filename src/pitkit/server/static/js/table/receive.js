// @ts-check
// What the page does with what the server sends (docs/protocol.md, "Server to
// client"): the messages that change the state (welcome, table, sync, update,
// next_hand, ack, error, notice, said), and the windows they open (the end of a hand
// or of the match). The socket's own news (connecting, down, final) comes here too.
//
// The server is the only authority. The page shows `view(seat)` exactly as sent: it
// asks in its hello for the view in every update, so it never re-implements a game's
// rules, nor asks for the view again after each move. Every message is declared in
// Python (pitkit.server.live.wire) and its type comes from js/wire.d.ts.
import {h, sentence, toast} from '../dom.js';
import {withSuits} from '../cards.js';
import * as store from '../store.js';
import {S, draw, link} from './state.js';
import {loadGame} from './game.js';
import {addEvent, resetLog} from './history.js';
import {closeDialog, showOver, showSummary} from './dialogs.js';
import {addSaid, setChat} from './chat.js';
import {react} from './effects.js';
import {hello, requestSync} from './send.js';
import {FINAL, IDLE_CLOSE} from '../conn.js';

/** @typedef {import('../wire.js').ErrorMessage} ErrorMessage */
/** @typedef {import('../wire.js').GameEvent} GameEvent */
/** @typedef {import('../wire.js').PauseInfo} PauseInfo */
/** @typedef {import('../wire.js').ServerMessage} ServerMessage */
/** @typedef {import('../wire.js').SyncMessage} SyncMessage */
/** @typedef {import('../wire.js').TableInfo} TableInfo */
/** @typedef {import('../wire.js').UpdateMessage} UpdateMessage */
/** @typedef {import('../wire.js').WelcomeMessage} WelcomeMessage */

/** The socket's own news: connecting, open, down (retrying) or final. @type {import('../conn.js').SocketHooks['state']} */
export function onState(state, detail) {
  S.conn = state;
  S.connDetail = detail;
  if (state === 'open') {
    S.syncing = false;
    if (S.syncTimer) clearTimeout(S.syncTimer);
    S.syncTimer = null;
  }
  if (state === 'down') S.pending = null;
  if (state === 'final') {
    const why = String(detail);
    if (S.token && /seat to someone else/.test(why)) {
      // The seat is not ours any more (the host gave it away, or it was opened on
      // another device): say why, as the server said it, and watch instead of staying stuck.
      watchInstead(`${sentence(S.letGo || why)} You are now watching.`);
      S.letGo = null;
      link.socket?.start();
      return;
    }
    S.final = why;
    S.idle = detail === FINAL[IDLE_CLOSE];
  }
  draw();
}

/** @param {string} message */
function watchInstead(message) {
  if (S.token) store.forgetSeat(S.tableId, S.token);
  S.token = null;
  history.replaceState(null, '', '#watch');
  toast(message);
}

/** Each message from the server. @param {ServerMessage} m */
export function onMessage(m) {
  switch (m.type) {
    case 'welcome':
      onWelcome(m);
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
    case 'next_hand':
      if (m.match === S.match) startClocks(m);
      break;
    case 'timed_out':
    case 'notice':
      // The turn timer ran out, or the host changed a seat: a line in the history, and said.
      S.log.push({text: m.text, cls: 'note'});
      toast(m.text, 'info', 6000);
      break;
    case 'said':
      addSaid(m);
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

/** This socket's seat, the table, the chat and the pause. @param {WelcomeMessage} m */
function onWelcome(m) {
  // Another seat than before (the host moved us): nothing of the old seat's hand
  // may stay on the page; the new seat's view follows.
  if (S.seat != null && m.seat !== S.seat) forgetView();
  S.seat = m.seat;
  if (m.token) {
    // The seat is ours now: its own secret replaces the invitation, which opens
    // nothing any more (the host's copy included). Keep it here and in the address.
    S.token = m.token;
    history.replaceState(null, '', `#token=${encodeURIComponent(m.token)}`);
  }
  setTable(m.table);
  setChat(m.chat);
  setPause(m.next_hand, Date.now());
  // Back after a drop: the server sends the missed events, if any; the view may
  // still lag behind the events we had, so ask for it.
  if (S.view && S.viewVersion !== S.version) requestSync('gap');
  if (S.seat != null) store.updateTable(S.tableId, {token: S.token || undefined, game: m.table.game});
}

/** Drop the view and all that came with it (the hand, a selection, a move in flight). */
function forgetView() {
  S.view = null;
  S.viewVersion = null;
  S.legal = [];
  S.handNames = [];
  S.selection = [];
  S.pending = null;
  resetLog([]);
}

/** @param {TableInfo} table */
function setTable(table) {
  const first = !S.table;
  S.table = table;
  if (first) loadGame(table.game);
}

/** A full view: the first, after a gap, a refresh, or a new match. @param {SyncMessage} m */
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
  S.over = m.over ?? !!(m.view.match && m.view.match.outcome);
  startClocks(m);
  S.lastScores = m.view.match ? m.view.match.scores : null;
  if (newMatch) {
    S.selection = [];
    if (S.dialog === 'summary' || S.dialog === 'over') closeDialog();
  }
  // A refresh only brings the view up to date; any other sync (first, after a gap,
  // a new match) also replaces the history with the match's as the server has it: the
  // earlier hands, then this one's.
  if (why !== 'refresh' || newMatch) resetLog(m.view.history || [], why === 'gap', m.earlier || []);
  // Back after a drop, or arriving (a reload, a spectator) once the match is over: the
  // result and, for a player, "Play again" (paint.js opens it once the game is loaded).
  if (S.over && (why === 'gap' || S.overShown !== S.match)) {
    S.overShown = null;
    overFromView();
  }
}

/** The end-of-match window from the view (for a page that did not see the match end). */
export function overFromView() {
  if (!S.over || !S.game || !S.view || S.overShown === S.match) return;
  const end = S.handEvents.find((e) => e.type === 'match_over');
  const result = end ? end.result : S.view.match && S.view.match.outcome;
  showOver(end || {type: 'match_over', result, text: null});
}

/** The events of new versions (and, as asked in the hello, the view). @param {UpdateMessage} m */
function onUpdate(m) {
  if (m.match !== S.match || m.from !== S.version) {
    requestSync('gap');
    return;
  }
  const wasMyTurn = S.seat != null && S.toAct.includes(S.seat);
  S.version = m.version;
  S.legal = m.legal;
  S.toAct = m.to_act;
  S.over = m.over;
  startClocks(m);
  // The end of a hand or of the match opens a window once the whole update is in.
  /** @type {(() => void)[]} */
  const windows = [];
  for (const event of m.events) {
    addEvent(event);
    if (event.type === 'scores') windows.push(scored(event));
    if (event.type === 'match_over') windows.push(() => showOver(event));
  }
  if (m.view) {
    // The update's view leaves out what we hold: the history (this hand's events) and,
    // unless it changed, the match's record.
    S.view = {match: S.view ? S.view.match : undefined, ...m.view, history: S.handEvents.slice()};
    S.viewVersion = m.version;
  } else if (S.viewVersion == null || m.version > S.viewVersion) {
    requestSync('refresh');
  }
  react(m.events, wasMyTurn);
  for (const open of windows) open();
}

/**
 * A hand was scored: keep its scores; the end-of-hand window, unless the match is over
 * (then the final window says it all).
 * @param {GameEvent} event
 * @returns {() => void}
 */
function scored(event) {
  const previous = S.lastScores;
  const events = S.handEvents.slice();
  if (event.scores) S.lastScores = event.scores;
  return () => {
    if (!S.over) showSummary(event.hand, events, previous, event.scores);
  };
}

/**
 * The clocks a message gives, as seconds left when the server sent it (our clock may
 * differ from the server's, so no time of day): the turn timer, Pit's sorting period,
 * and the pause before the next hand. The end of a pause closes the end-of-hand window:
 * the next hand is on, and no window hides it.
 * @param {{turn_left: number | null, sorting_left: number | null, next_hand: PauseInfo | null}} m
 */
function startClocks(m) {
  const at = Date.now();
  /** @param {number | null} left */
  const ends = (left) => (left == null ? null : at + left * 1000);
  S.turnEnds = ends(m.turn_left);
  S.sortingEnds = ends(m.sorting_left);
  setPause(m.next_hand, at);
}

/**
 * The pause between hands as the server says it is (null: none); its end closes the
 * end-of-hand window.
 * @param {PauseInfo | null} pause
 * @param {number} at  when the message came (Date.now() ms)
 */
function setPause(pause, at) {
  const was = S.pause;
  S.pause = pause ? {ends: at + pause.left * 1000, ready: pause.ready, waiting: pause.waiting} : null;
  if (was && !S.pause && S.dialog === 'summary') closeDialog();
}

/** A refusal. @param {ErrorMessage} m */
function onError(m) {
  if (m.id === 'sync') {
    S.syncing = false;
    if (m.code !== 'no_match') setTimeout(() => requestSync(S.syncWhy || 'refresh'), 500);
    return;
  }
  if (m.code === 'bad_token' && S.seat != null && m.id == null) {
    // The server lets our seat go (the socket closes next): keep its words for then.
    S.letGo = m.reason;
    return;
  }
  if (m.code === 'bad_token' && S.seat == null && S.token) {
    // The seat link no longer works (claimed by someone else, or reopened by the host): watch instead.
    const taken = m.reason.includes('taken');
    // A server restarted since forgets whose the seat is: say both ways it can be gone.
    watchInstead(taken ? sentence(m.reason)
      : 'This seat link no longer opens a seat: the player invited took it, or the host gave it to someone else. You are watching.');
    link.socket?.send(hello());
    return;
  }
  if (m.code === 'idle') return; // the socket closes next, and the banner says why
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
  if (m.code === 'no_pause') { // ready just as the hand started: nothing to say
    setPause(null, Date.now());
    return;
  }
  if (S.pending && S.pending.id === m.id) S.pending = null;
  if (['stale', 'bad_version'].includes(m.code)) requestSync('gap');
  // A refusal may name cards by their codes ("you do not hold KH"): show them as cards.
  toast(h('span', {}, withSuits(sentence(m.reason || m.code))));
}
