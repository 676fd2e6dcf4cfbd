// @ts-check
// Helpers the game modules share.
import {h} from '../dom.js';
import {cardEl, RANK_NAMES, withSuits} from '../cards.js';

/** @typedef {import('./contract.js').Ctx} Ctx */
/** @typedef {import('../wire.js').GameEvent} GameEvent */

/**
 * "sevens", "sixes", "aces".
 * @param {string} rank
 */
export function rankPlural(rank) {
  const name = RANK_NAMES[rank] || rank;
  return name === 'six' ? 'sixes' : `${name}s`;
}

/**
 * A card placed on the felt a fraction `r` of the way toward a seat, with a caption, and
 * who placed it (shown where the cards lie in a row rather than toward their players: phones).
 * @param {Ctx} ctx
 * @param {number} seat
 * @param {number} r
 * @param {Node} content
 * @param {string | null} caption
 * @param {string} [cls]
 */
export function placed(ctx, seat, r, content, caption, cls = '') {
  return h('div', {class: `placed ${cls}`.trim(), style: ctx.toward(seat, r)},
    content, caption ? h('span', {class: 'tag'}, caption) : null, h('span', {class: 'tag by'}, ctx.who(seat)));
}

/**
 * A clickable card in the centre of the table, for actions that take a card from there.
 * @param {string} code
 * @param {string} label
 * @param {() => void} onclick
 * @param {boolean} [disabled]
 */
export function cardButton(code, label, onclick, disabled = false) {
  const button = h('button', {type: 'button', class: 'act card-button', 'aria-label': label, disabled, onclick},
    cardEl(code, {size: 'md'}));
  button.dataset.card = code;
  return button;
}

/**
 * A list item for each seat: name and points, best first.
 * @param {number[]} points
 * @param {Ctx} ctx
 * @param {(p: number) => string} [format]
 */
export function pointsList(points, ctx, format = (p) => (p > 0 ? `+${p}` : `${p}`)) {
  const order = points.map((p, i) => i).sort((a, b) => points[b] - points[a]);
  return h('ul', {}, order.map((i) => h('li', {}, `${ctx.name(i)}${i === ctx.me ? ' (you)' : ''}: ${format(points[i])}`)));
}

/**
 * The server's words for the first of these events (by type) in a hand, as a paragraph,
 * with the cards they name drawn as cards ("A♠", read "ace of spades").
 * @param {GameEvent[]} events
 * @param {string[]} types
 * @param {string} [cls]
 */
export function told(events, types, cls = 'outcome') {
  const event = events.find((e) => types.includes(e.type) && e.text);
  return event && event.text ? h('p', {class: cls}, withSuits(event.text)) : null;
}
