// @ts-check
// The felt: a plate per seat (name, cards held, score, notes) around the centre of
// the table, which the game draws (its module's `centre`, else the generic one).
import {h, morph, plural} from '../dom.js';
import {backsEl} from '../cards.js';
import * as store from '../store.js';
import {S, realtime} from './state.js';
import {inRows, plateWide, seatInfo, seatName, seatPlace} from './seats.js';
import {ctx} from './ctx.js';
import {closeTable, mayHost, showInvite, showSeatOptions, startNow} from './dialogs.js';
import {pauseBox} from './pace.js';

/** @typedef {import('../games/contract.js').View<any>} View */

/** How the table says it takes no more moves, by status.
 * @type {Record<string, string>} */
const ENDED = {broken: 'This table is broken', closed: 'This table is closed', expired: 'This table has expired'};

export function drawFelt() {
  const felt = document.getElementById('felt');
  if (!felt || !S.table) return;
  const view = S.view;
  // Your plate, then the others in the order of play (to your left first).
  const n = S.table.players;
  const me = S.seat ?? 0;
  const [mine, ...others] = [...Array(n).keys()].map((k) => seatPlate((me + k) % n, view));
  const centre = h('div', {class: 'centre-layer'});
  const ended = ENDED[S.table.status];
  if (ended) centre.append(h('div', {class: 'centre-box ended', role: 'status'}, h('p', {}, `${ended}: ${S.table.problem}.`)));
  if (view && S.pause) {
    centre.append(pauseBox()); // the next hand is dealt, not started
  } else if (view && S.game) {
    centre.append(S.game.centre(view, ctx));
  } else if (S.table.status === 'waiting') {
    centre.append(waitingPanel());
  } else if (!ended) {
    centre.append(h('div', {class: 'centre-box'}, h('p', {}, 'Loading…')));
  }
  // The other plates share a row: a row of its own where the seats sit in rows; else
  // the row makes no box, and each plate sits around the oval (seats.js).
  const rows = inRows();
  felt.classList.toggle('rows', rows);
  // In rows (a phone) the middle scrolls when it is taller than its room: within
  // the keyboard's reach too, as a region of its own.
  if (rows) for (const box of centre.querySelectorAll(':scope > .centre-box:not([role])')) reachable(box);
  morph(felt, h('div', {}, h('div', {class: 'seat-row'}, others), centre, mine));
}

/**
 * Let the keyboard reach (and scroll) `box`, the middle of the table.
 * @param {Element} box
 */
function reachable(box) {
  box.setAttribute('tabindex', '0');
  box.setAttribute('role', 'region');
  box.setAttribute('aria-label', 'The middle of the table');
}

/**
 * Whether a seat is the one to act (in real time, everyone is: no one is marked).
 * @param {number} i
 */
export function toPlay(i) {
  return S.toAct.includes(i) && !(realtime() && S.toAct.length > 1) && !S.over && !S.pause;
}

/**
 * A seat's plate.
 * @param {number} i
 * @param {View | null} view
 */
function seatPlate(i, view) {
  const info = seatInfo(i);
  const player = view && view.players ? view.players.find((p) => p.seat === i) : null;
  const turn = toPlay(i);
  const status = S.table ? S.table.status : 'loading';
  const notes = [];
  if (view && view.dealer === i) notes.push(h('span', {class: 'chip dealer', title: 'dealer'}, 'dealer'));
  if (S.game && view && player) {
    for (const note of S.game.seatNotes(player, view, ctx) || []) notes.push(h('span', {class: 'chip'}, note));
  }
  if (info.kind === 'bot') notes.push(h('span', {class: 'chip bot'}, `${info.bot} bot`));
  if (info.kind === 'open') notes.push(h('span', {class: 'chip away'}, status === 'playing' || status === 'over' ? 'open: a bot plays' : 'open seat'));
  if (info.kind === 'player' && info.away) notes.push(h('span', {class: 'chip away'}, 'away: a bot plays'));
  else if (info.kind === 'player' && !info.connected && i !== S.seat) notes.push(h('span', {class: 'chip away'}, 'offline'));
  if (S.over && info.rematch) notes.push(h('span', {class: 'chip'}, 'wants another game'));
  const scores = view && view.match ? view.match.scores : null;
  const count = player ? player.cards : null;
  const label = [seatName(i), i === S.seat ? '(you)' : '', count != null ? plural(count, 'card') : '',
    turn ? 'to play' : ''].filter(Boolean).join(', ');
  return h('section', {
    class: `seat${turn ? ' turn' : ''}${i === S.seat ? ' me' : ''}${plateWide(i) ? ' wide' : ''}`,
    style: seatPlace(i), dataset: {seat: i}, 'aria-label': label,
  },
  seatHead(i),
  count != null ? h('div', {class: 'seat-count'}, backsEl(count), plural(count, 'card')) : null,
  scores && S.game ? h('div', {class: 'seat-score'}, `${scores[i]} ${S.game.scoreShort(ctx)}`) : null,
  notes.length ? h('div', {class: 'seat-notes'}, notes) : null,
  S.game && view && player ? S.game.seatExtra(player, view, ctx) : null);
}

/**
 * A plate's name; for the host, with the seat's options beside it.
 * @param {number} i
 */
function seatHead(i) {
  const name = h('div', {class: 'seat-name'}, seatName(i), i === S.seat ? h('span', {class: 'you'}, ' (you)') : null);
  if (!mayHost()) return name;
  // Enabled once the game's details (its bots among them) have come: opened before,
  // the options would lack "Put a bot here" on a slow connection.
  return h('div', {class: 'seat-head'}, name,
    h('button', {type: 'button', class: 'seat-menu', title: 'Seat options', 'aria-haspopup': 'dialog', disabled: !S.info,
      'aria-label': `Seat options: ${seatName(i)}`, dataset: {seatMenu: i}, onclick: () => showSeatOptions(i)}, '⋯'));
}

/** Before the match: how many seats are open, and the host's buttons. */
function waitingPanel() {
  const open = S.table ? S.table.seats.filter((s) => s.kind === 'open').length : 0;
  const record = store.tableRecord(S.tableId) || {};
  const box = h('div', {class: 'centre-box waiting'},
    h('h2', {}, 'Waiting for players'),
    h('p', {}, `${plural(open, 'seat')} still open. The game starts when every seat is taken.`));
  if (record.host) {
    box.append(
      h('div', {class: 'button-row'},
        h('button', {type: 'button', class: 'primary', onclick: showInvite}, 'Invite friends'),
        h('button', {type: 'button', class: 'start', onclick: startNow}, 'Start now: bots play the open seats'),
        h('button', {type: 'button', onclick: closeTable}, 'Close the table')));
  } else {
    box.append(h('p', {}, 'The host can start at once; bots then play the open seats until someone takes them.'));
  }
  return box;
}
