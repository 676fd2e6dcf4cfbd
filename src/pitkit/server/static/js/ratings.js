// @ts-check
// How the pages write a rating (docs/ratings.md): whole points with thousands marked,
// and the range that holds the player's strength about 19 times in 20.
import {h} from './dom.js';

/** @param {number} n a whole number, with thousands marked: 1,480 */
export function points(n) {
  return Math.round(n).toLocaleString('en');
}

/** @param {{rating: number, plus_minus: number}} r "1,480 ± 120" */
export function ratingText(r) {
  return `${points(r.rating)} ± ${points(r.plus_minus)}`;
}

/** @param {string} colour a profile's colour, as a dot beside its name */
export function swatch(colour) {
  return h('span', {class: 'swatch', 'aria-hidden': 'true', style: {background: colour}});
}
