// @ts-check
// Who sits where: each seat's name (the server's `label`), persons for this page's
// own seat, and where each seat sits on the felt.
import {S, realtime} from './state.js';

/**
 * The table's record of a seat.
 * @param {number} i
 * @returns {import('../wire.js').SeatInfo}
 */
export function seatInfo(i) {
  return (S.table && S.table.seats[i]) || {
    seat: i, kind: 'open', bot: null, name: null, label: `Seat ${i + 1}`, connected: false, away: false, rematch: false,
  };
}

/**
 * The name shown for a seat (never "you"): the server's label.
 * @param {number} i
 */
export function seatName(i) {
  const seat = seatInfo(i);
  return seat.label || seat.name || `Seat ${i + 1}`;
}

/**
 * "You" for this page's own seat, else the seat's name.
 * @param {number} i
 */
export function who(i) {
  return i === S.seat ? 'You' : seatName(i);
}

/**
 * The base form of a verb in the third person: plays -> play, passes -> pass.
 * @param {string} verb
 */
function baseVerb(verb) {
  if (verb === 'is') return 'are';
  if (verb === 'has') return 'have';
  if (/(ss|sh|ch|x|o)es$/.test(verb)) return verb.slice(0, -2);
  return verb.endsWith('s') ? verb.slice(0, -1) : verb;
}

/**
 * `verb` (third person) agreeing with the seat: "play" for this page's seat, else "plays".
 * @param {number} i
 * @param {string} verb
 */
export function verb(i, verb) {
  return i === S.seat ? baseVerb(verb) : verb;
}

/**
 * "You play" or "Bix plays".
 * @param {number} i
 * @param {string} verbText
 */
export function does(i, verbText) {
  return `${who(i)} ${verb(i, verbText)}`;
}

/**
 * Phones, upright or on their side: the stylesheet's condition for everything smaller.
 */
export const COMPACT = matchMedia('(max-width: 40rem), (max-height: 32rem)');

/**
 * Whether the seats sit in rows rather than around an oval: the other seats in a row (or
 * two) along the top, yours along the bottom (the felt's class "rows"). On a phone there
 * is no room around an oval: plates there would cover the middle of the table or its
 * buttons; nor at six seats or more. In real time (Pit) nobody's turn goes round the
 * table, and its middle (the offers) wants all the room.
 */
export function inRows() {
  return COMPACT.matches || realtime() || (!!S.table && S.table.players >= 6);
}

/**
 * Where a seat sits: you at the bottom, play going to your left (clockwise on screen).
 * `x`, `y`: the seat's point on the felt's edge (percent of the felt); `dx`, `dy`: the
 * direction from the middle toward it (-1 to 1).
 * @param {number} seat
 */
function seatSpot(seat) {
  const n = S.table ? S.table.players : 1;
  const me = S.seat ?? 0;
  const k = (seat - me + n) % n;
  if (inRows()) {
    if (k === 0) return {x: 50, y: 100, dx: 0, dy: 1};
    // In the row: left to right, in the order of play.
    const x = n > 2 ? (100 * (k - 0.5)) / (n - 1) : 50;
    return {x, y: 0, dx: x / 50 - 1, dy: -1};
  }
  const a = Math.PI / 2 + (2 * Math.PI * k) / n;
  const [dx, dy] = [Math.cos(a), Math.sin(a)];
  // Around an oval pushed toward a rectangle's corners: a seat at a slant sits nearer its
  // corner (over the rim), away from the middle of the table.
  const out = (/** @type {number} */ v) => Math.sign(v) * Math.abs(v) ** 0.6;
  return {x: 50 + 48 * out(dx), y: 50 + 47 * out(dy), dx, dy};
}

/**
 * Where a seat's plate sits on the oval: at the seat's point on the felt's edge, the
 * plate on the inner side of that point (a top seat hangs down from it, a left seat
 * reaches right), so that a plate stays on the felt, and on the screen, whatever the
 * felt's size. On a phone, nothing: the plates are in rows.
 * @param {number} seat
 * @returns {Partial<CSSStyleDeclaration>}
 */
export function seatPlace(seat) {
  if (inRows()) return {};
  const {x, y, dx, dy} = seatSpot(seat);
  return {left: `${x}%`, top: `${y}%`, translate: `${-50 - 50 * dx}% ${-50 - 50 * dy}%`};
}

/**
 * Whether a seat's plate is low and wide (all on a line or two): yours, and a seat
 * straight across the table, where there is room sideways but not in height. The
 * others stack their lines, narrow, beside the middle of the table.
 * @param {number} seat
 */
export function plateWide(seat) {
  const {dx, dy} = seatSpot(seat);
  return dy > 0.5 || (Math.abs(dx) < 0.3 && !inRows());
}

/**
 * CSS position (percent of the table's middle) a fraction `r` of the way from the centre
 * toward a seat's plate: where the cards it plays land.
 * @param {number} seat
 * @param {number} r
 */
export function toward(seat, r) {
  const {x, y, dx, dy} = seatSpot(seat);
  const [px, py] = inRows() ? [x, y] : [50 + 44 * dx, 50 + 40 * dy];
  return {left: `${50 + r * (px - 50)}%`, top: `${50 + r * (py - 50)}%`};
}
