// @ts-check
// The score sheets on paper (/e/<id>/print), where they differ from the screen. A Pits
// sheet prints like the paper one it replaces: a row for every hand of the game, up to
// its length (ten hands, P10) or as many as were played, blank where a hand is still to
// be played, so that a table that loses its phone goes on in pen.
import {h} from '../dom.js';

/**
 * The blank rows of a Pits sheet: one for each hand after those played, up to `length`.
 * @param {{hands: unknown[]}} game
 * @param {number} length the game's length in hands
 * @param {number} players the sheet's player columns
 */
export function blankHandRows(game, length, players) {
  const played = game.hands.length;
  return Array.from({length: Math.max(0, length - played)}, (_, i) => h('tr', {class: 'blank', 'data-blank-hand': played + i + 1},
    h('th', {scope: 'row'}, played + i + 1),
    Array.from({length: players}, () => h('td', {})),
    h('td', {class: 'dealer'})));
}
