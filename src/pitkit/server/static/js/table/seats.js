// @ts-check
// Who sits where: each seat's name (the server's `label`), persons for this page's
// own seat, and where each seat sits on the felt.
import {S} from './state.js';

/**
 * The table's record of a seat.
 * @param {number} i
 * @returns {import('../games/contract.js').SeatInfo}
 */
export function seatInfo(i) {
  return (S.table && S.table.seats[i]) || {
    seat: i, kind: 'open', bot: null, name: null, connected: false, away: false, rematch: false,
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
 * Where a seat sits: you at the bottom, play going to your left (clockwise on screen).
 * @param {number} seat
 */
function seatAngle(seat) {
  const n = S.table ? S.table.players : 1;
  const me = S.seat ?? 0;
  const k = (seat - me + n) % n;
  return Math.PI / 2 + (2 * Math.PI * k) / n;
}

/**
 * CSS position (percent of the felt) a fraction `r` of the way from the centre to a seat.
 * @param {number} seat
 * @param {number} r
 */
export function toward(seat, r) {
  const a = seatAngle(seat);
  return {left: `${50 + 44 * r * Math.cos(a)}%`, top: `${50 + 40 * r * Math.sin(a)}%`};
}
