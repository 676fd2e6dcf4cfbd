// @ts-check
// Cards drawn with HTML, CSS and a few SVG shapes (no images to load), each with a
// text alternative: "7 of hearts", "red Joker", "wheat, 100 points".
import {h, s} from './dom.js';

/** @type {Record<string, string>} */
export const RANK_NAMES = {
  2: 'two', 3: 'three', 4: 'four', 5: 'five', 6: 'six', 7: 'seven', 8: 'eight', 9: 'nine',
  T: 'ten', J: 'jack', Q: 'queen', K: 'king', A: 'ace',
};
/** @type {Record<string, string>} */
export const SUIT_NAMES = {C: 'clubs', D: 'diamonds', H: 'hearts', S: 'spades'};
/** @type {Record<string, string>} */
export const SUIT_SINGULAR = {C: 'club', D: 'diamond', H: 'heart', S: 'spade'};
/** @type {Record<string, string>} */
const RANK_TEXT = {T: '10'};

// Pit's commodity cards, highest value first (ruling T1), then the Bull and the Bear.
/** @type {Record<string, number>} */
export const COMMODITIES = {wheat: 100, barley: 85, corn: 75, rye: 70, oats: 60, hay: 50, flax: 40};
/** @type {Record<string, string>} */
const PIT_NAMES = {bull: 'the Bull', bear: 'the Bear'};

// One path per suit on a 100 x 100 box; drawn from a sprite so each card is tiny.
/** @type {Record<string, string>} */
const SUIT_PATHS = {
  H: 'M50 92C22 68 3 51 3 30 3 15 15 5 29 5c9 0 17 5 21 14C54 10 62 5 71 5c14 0 26 10 26 25 0 21-19 38-47 62z',
  D: 'M50 2 88 50 50 98 12 50z',
  S: 'M50 3C78 28 97 44 97 63c0 14-10 24-23 24-9 0-16-4-20-11 2 10 6 17 14 22H32c8-5 12-12 14-22-4 7-11 11-20 11C13 87 3 77 3 63 3 44 22 28 50 3z',
  C: 'M50 6a21 21 0 0 1 17 33 21 21 0 1 1-10 31c1 12 5 20 13 26H30c8-6 12-14 13-26a21 21 0 1 1-10-31A21 21 0 0 1 50 6z',
};

let spriteAdded = false;

/** Put the suit shapes into the page once; cards then refer to them with <use>. */
export function addSprite() {
  if (spriteAdded) return;
  spriteAdded = true;
  const sprite = s('svg', {width: 0, height: 0, style: 'position:absolute', 'aria-hidden': 'true', focusable: 'false'},
    s('defs', {}, Object.entries(SUIT_PATHS).map(([suit, d]) =>
      s('symbol', {id: `suit-${suit}`, viewBox: '0 0 100 100'}, s('path', {d}))),
    s('symbol', {id: 'star', viewBox: '0 0 100 100'},
      s('path', {d: 'M50 4 62 37h35L69 58l11 35-30-21-30 21 11-35L3 37h35z'}))));
  document.body.prepend(sprite);
}

/**
 * A suit's shape.
 * @param {string} suit  C, D, H or S
 * @param {string} [cls]
 */
export function suitIcon(suit, cls = 'suit') {
  return s('svg', {class: `${cls} suit-${suit}`, 'aria-hidden': 'true', focusable: 'false', viewBox: '0 0 100 100'},
    s('use', {href: `#suit-${suit}`}));
}

/**
 * Whether a code is a standard card or Joker (not a Pit card).
 * @param {string} code
 */
export function isStandard(code) {
  return /^(RJ|BJ|[2-9TJQKA][CDHS])$/.test(code);
}

/**
 * The card's name for people and screen readers: "7 of hearts", "10 of spades", "jack of
 * clubs", "red Joker", "wheat". A number card's name has the number it shows, so that
 * what a card button says is what it shows (to pick it by voice, one says what one sees).
 * @param {string} code
 */
export function cardName(code) {
  if (code === 'RJ') return 'red Joker';
  if (code === 'BJ') return 'black Joker';
  if (code in COMMODITIES) return code;
  if (code in PIT_NAMES) return PIT_NAMES[code];
  const rank = /[2-9T]/.test(code[0]) ? RANK_TEXT[code[0]] || code[0] : RANK_NAMES[code[0]];
  const suit = SUIT_NAMES[code[1]];
  return rank && suit ? `${rank} of ${suit}` : code;
}

/**
 * What a Pit card shows beside its name: its value ("100"), "wild" (the Bull) or "−20"
 * (the Bear).
 * @param {string} code
 */
function pitValue(code) {
  return COMMODITIES[code] != null ? String(COMMODITIES[code]) : code === 'bull' ? 'wild' : '−20';
}

/**
 * A card's name as its button or picture says it: a Pit card's with what it shows beside
 * its name ("wheat, 100 points", "the Bull, wild"); any other card's name.
 * @param {string} code
 */
function cardLabel(code) {
  if (!(code in COMMODITIES || code in PIT_NAMES)) return cardName(code);
  return `${cardName(code)}, ${pitValue(code)}${code === 'bull' ? '' : ' points'}`;
}

/**
 * The names of some cards, for people and screen readers.
 * @param {string[]} codes
 */
export function cardsText(codes) {
  return codes.map(cardName).join(', ');
}

/**
 * A face-up card. `tag` 'button' makes it clickable; `size` is sm, md, lg or xl.
 * @param {string} code
 * @param {{tag?: 'div' | 'button', size?: string, cls?: string, attrs?: Record<string, unknown>}} [options]
 * @returns {HTMLElement}
 */
export function cardEl(code, {tag = 'div', size = 'md', cls = '', attrs = {}} = {}) {
  addSprite();
  const label = cardLabel(code);
  /** @type {Record<string, unknown>} */
  const base = {class: `card ${size} ${cls}`.trim(), 'data-card': code, ...attrs};
  if (tag === 'button') {
    base.type = 'button';
    base['aria-label'] = attrs['aria-label'] || label;
  } else {
    base.role = 'img';
    base['aria-label'] = label;
  }
  const el = h(tag, base);
  if (code === 'RJ' || code === 'BJ') {
    el.classList.add('joker', code === 'RJ' ? 'red' : 'black');
    el.append(
      h('span', {class: 'idx', 'aria-hidden': 'true'}, jokerStar('idx-star')),
      jokerStar('pip'),
      h('span', {class: 'jword', 'aria-hidden': 'true'}, code === 'RJ' ? 'RED' : 'BLACK', h('br'), 'JOKER'));
    return el;
  }
  if (code in COMMODITIES || code in PIT_NAMES) {
    el.classList.add('pit', `c-${code}`);
    // The name first: what the card shows reads "wheat 100", as its name says it.
    el.append(
      h('span', {class: 'pit-name', 'aria-hidden': 'true'}, code.toUpperCase()), ' ',
      h('span', {class: 'pit-value', 'aria-hidden': 'true'}, pitValue(code)));
    return el;
  }
  const rank = code[0];
  const suit = code[1];
  el.classList.add(`suit-${suit}`);
  const text = RANK_TEXT[rank] || rank;
  // The rank as text once, in the top corner; its repeats (the court card's picture, the
  // corner upside down) are drawn by the stylesheet from data-rank, so that what the
  // card says is "10", as its name "10 of spades" says it, not "10 10".
  el.append(h('span', {class: 'idx', 'aria-hidden': 'true'}, h('b', {}, text), suitIcon(suit, 'idx-suit')));
  if ('JQK'.includes(rank)) {
    el.append(h('span', {class: 'face', 'aria-hidden': 'true', dataset: {rank: text}}, suitIcon(suit, 'face-suit')));
  } else {
    el.append(suitIcon(suit, 'pip'));
  }
  el.append(h('span', {class: 'idx low', 'aria-hidden': 'true', dataset: {rank: text}}, suitIcon(suit, 'idx-suit')));
  return el;
}

/** @param {string} cls */
function jokerStar(cls) {
  return s('svg', {class: cls, 'aria-hidden': 'true', focusable: 'false', viewBox: '0 0 100 100'}, s('use', {href: '#star'}));
}

/**
 * A face-down card.
 * @param {string} [size]
 * @param {string} [label]
 */
export function backEl(size = 'sm', label) {
  return h('div', {class: `card back ${size}`, role: label ? 'img' : null, 'aria-label': label || null, 'aria-hidden': label ? null : 'true'});
}

/**
 * A small fan of backs standing for a hidden hand of n cards.
 * @param {number} n
 * @param {number} [max]
 */
export function backsEl(n, max = 6) {
  const fan = h('span', {class: 'fan', 'aria-hidden': 'true'});
  for (let i = 0; i < Math.min(n, max); i++) fan.append(h('span', {class: 'mini-back'}));
  return fan;
}

/**
 * A row of face-up cards (not clickable).
 * @param {string[]} codes
 * @param {string} [size]
 * @param {string} [cls]
 */
export function cardsRow(codes, size = 'md', cls = '') {
  return h('div', {class: `cards-row ${cls}`.trim()}, codes.map((c) => cardEl(c, {size})));
}

/** @type {Record<string, string>} */
const SUIT_SIGNS = {C: '♣', D: '♦', H: '♥', S: '♠'};

/**
 * Card codes in a sentence (7H, TS, RJ) drawn as short coloured card names with their
 * full names for screen readers: "Ada plays 7♥".
 * @param {string} text
 * @returns {(string | HTMLElement)[]}
 */
export function withSuits(text) {
  /** @type {(string | HTMLElement)[]} */
  const parts = [];
  let last = 0;
  for (const m of text.matchAll(/\b(?:([2-9TJQKA])([CDHS])|(RJ|BJ))\b/g)) {
    const at = m.index ?? 0;
    parts.push(text.slice(last, at));
    if (m[3]) {
      parts.push(h('span', {class: `c joker-${m[3]}`}, m[3] === 'RJ' ? 'red Joker' : 'black Joker'));
    } else {
      const rank = m[1] === 'T' ? '10' : m[1];
      parts.push(h('span', {class: `c suit-${m[2]}`, 'aria-label': cardName(m[0])}, rank + SUIT_SIGNS[m[2]]));
    }
    last = at + m[0].length;
  }
  parts.push(text.slice(last));
  return parts;
}

// Sorting: each game passes its own rank order; suits alternate colours.
/** @type {Record<string, number>} */
const SUIT_ORDER = {S: 0, H: 1, C: 2, D: 3};
const HIGH_ACE = '23456789TJQKA';

/**
 * @param {string} code
 * @param {string} [order]
 */
export function rankIndex(code, order = HIGH_ACE) {
  if (code === 'BJ') return order.length;
  if (code === 'RJ') return order.length + 1;
  return order.indexOf(code[0]);
}

/**
 * By rank, then suit (matching and climbing games).
 * @param {string[]} cards
 * @param {string} [order]
 */
export function byRank(cards, order = HIGH_ACE) {
  return [...cards].sort((a, b) => rankIndex(a, order) - rankIndex(b, order)
    || (SUIT_ORDER[a[1]] ?? 9) - (SUIT_ORDER[b[1]] ?? 9));
}

/**
 * By suit, then rank (trick games); `first` puts one suit (trump) on the left.
 * @param {string[]} cards
 * @param {string | null} [first]
 */
export function bySuit(cards, first = null) {
  /** @param {string} c */
  const suitKey = (c) => (c[1] === first ? -1 : SUIT_ORDER[c[1]] ?? 9);
  return [...cards].sort((a, b) => suitKey(a) - suitKey(b) || rankIndex(a) - rankIndex(b));
}
