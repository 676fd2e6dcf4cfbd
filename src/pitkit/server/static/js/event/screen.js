// @ts-check
// The big screen's frame, for every kind of event: a head (the event, how fresh the
// view is, the QR code of its page), a body of pages that turn by themselves every
// ten seconds, and a foot that says which page this is. A kind gives its parts (the
// standings, the tables now), each a list drawn a page at a time; how many lines or
// cards make a page is measured on the screen itself, so that nothing runs off it or
// over anything else, whatever its size (1280×720 to a 4K projector), and a name of
// up to 40 characters is cut with "…" where it does not fit. The round clock, when the
// manager has set one, stands in the head beside the QR code. The arrow keys turn
// the pages by hand (space holds the page, or lets it turn again).
import {h} from '../dom.js';
import {clockFace} from './clock.js';
import {hallQr} from './ui.js';

/** @typedef {import('./contract.js').EventContext} EventContext */
/** @typedef {import('../dom.js').Child} Child */

/**
 * A part of the big screen: its name, how many items it has, how they go (`row`: lines
 * of tables, `card`: cards in a grid), and how to draw page `page` with `per` items a
 * page (each table of a page may turn on its own: `per` is how many lines fit).
 * @typedef {{name: string, count: number, unit: 'row' | 'card', draw: (page: number, per: number) => Child}} Part
 */

/** How long a page stays before the next. */
export const PAGE_MS = 10000;

const turning = {
  /** @type {Record<string, number>} items that fit a page, by part, as measured */
  per: {},
  /** the screen's size they were measured at */
  size: '',
  page: 0,
  turned: Date.now(),
  held: false,
  /** @type {EventContext | null} */
  ctx: null,
};

/**
 * Items a page of `part` holds: as measured, or a first guess until it is.
 * @param {Part} part
 */
function perPage(part) {
  return turning.per[part.name] || (part.unit === 'row' ? 8 : 4);
}

/**
 * How many pages `part` takes.
 * @param {Part} part
 */
export function pagesOf(part) {
  return Math.max(1, Math.ceil(part.count / perPage(part)));
}

/**
 * Turn to another page (`by` pages on), and start its ten seconds afresh.
 * @param {number} by
 */
function turn(by) {
  turning.page += by;
  turning.turned = Date.now();
  if (turning.ctx) turning.ctx.redraw();
}

/** The clock and the keys that turn the pages, set up once. */
function startTurning() {
  if (turning.ctx) return;
  setInterval(() => {
    if (!turning.held && Date.now() - turning.turned >= PAGE_MS) turn(1);
  }, 500);
  addEventListener('keydown', (e) => {
    if (e.key === 'ArrowRight' || e.key === 'PageDown') turn(1);
    else if (e.key === 'ArrowLeft' || e.key === 'PageUp') turn(-1);
    else if (e.key === ' ') { turning.held = !turning.held; turn(0); }
    else return;
    e.preventDefault();
  });
  addEventListener('resize', () => turn(0));
}

/**
 * Measure how many items of `part` fit the screen's body (now drawn), and draw again
 * if that is not what the page was drawn with; else the screen is settled
 * (`data-fitted`). Lines and cards have one height each (nothing in them wraps), so
 * one measure is right for every page.
 * @param {Part} part
 */
function fit(part) {
  const body = document.querySelector('.screen-body');
  if (!body || !turning.ctx) return;
  const bottom = body.getBoundingClientRect().bottom;
  let per = 0;
  if (part.unit === 'row') {
    // The tables' first lines may start at different heights; a first line is a
    // little shorter than the others (it has no border above it).
    const firsts = [...body.querySelectorAll('tbody tr:first-child')].map((row) => row.getBoundingClientRect().top);
    const heights = [...body.querySelectorAll('tbody tr')].map((row) => row.getBoundingClientRect().height);
    if (firsts.length) per = Math.max(1, Math.floor((bottom - Math.max(...firsts)) / Math.max(...heights)));
  } else {
    const grid = body.querySelector('.screen-cards');
    const first = body.querySelector('.screen-card');
    if (grid && first) {
      const style = getComputedStyle(grid);
      const across = style.gridTemplateColumns.split(' ').filter(Boolean).length;
      const gap = parseFloat(style.rowGap) || 0;
      const box = first.getBoundingClientRect();
      per = across * Math.max(1, Math.floor((bottom - box.top + gap) / (box.height + gap)));
    }
  }
  if (per && per !== turning.per[part.name]) {
    turning.per[part.name] = per;
    turning.ctx.redraw();
  } else {
    document.body.dataset.fitted = 'true';
  }
}

/**
 * "1–15 of 60": the items of page `page`.
 * @param {Part} part
 * @param {number} page
 */
function span(part, page) {
  const per = perPage(part);
  if (part.count <= per) return '';
  return ` ${page * per + 1}–${Math.min(part.count, (page + 1) * per)} of ${part.count}`;
}

/**
 * The big screen: `head` under the event's name, the page now showing of `parts`,
 * and the foot (which page of how many, and `legend`).
 * @param {EventContext} ctx
 * @param {{kind: string, head: Child, parts: Part[], legend: Child}} options
 */
export function screenFrame(ctx, {kind, head, parts, legend}) {
  startTurning();
  turning.ctx = ctx;
  const size = `${innerWidth}x${innerHeight}`;
  if (size !== turning.size) {
    turning.size = size;
    turning.per = {};
  }
  document.body.dataset.fitted = 'false';
  const pages = parts.flatMap((part) => Array.from({length: pagesOf(part)}, (_, page) => ({part, page})));
  const at = ((turning.page % pages.length) + pages.length) % pages.length;
  const {part, page} = pages[at];
  requestAnimationFrame(() => fit(part));
  const fresh = ctx.fresh();
  return h('div', {class: `ev-screen ${kind}`, 'data-part': part.name, 'data-part-page': page + 1, 'data-page': at + 1, 'data-pages': pages.length},
    h('header', {class: 'screen-head'},
      h('div', {class: 'screen-titles'},
        h('h1', {}, ctx.event.name),
        h('p', {}, head),
        h('p', {class: `screen-fresh${fresh.stale ? ' stale' : ''}`, 'data-fresh': '', role: 'status'}, fresh.text)),
      clockFace(ctx, {big: true}),
      hallQr(ctx)),
    h('div', {class: 'screen-body', 'data-key': `${part.name}-${page}`}, part.draw(page, perPage(part))),
    h('footer', {class: 'screen-foot'},
      h('p', {class: 'screen-pager'},
        pages.length > 1 ? h('span', {class: 'dots', 'aria-hidden': 'true'}, pages.map((_, i) => h('span', {class: i === at ? 'dot on' : 'dot'}))) : null,
        h('span', {class: 'page-words'}, `${part.name}${span(part, page)}`, pages.length > 1 ? ` · page ${at + 1} of ${pages.length}` : ''),
        turning.held ? h('span', {class: 'held'}, ' · held (space turns again)') : null),
      h('p', {class: 'screen-legend'}, legend)));
}

/** Whether the screen is too narrow for two tables side by side (a phone). */
export function narrowScreen() {
  return matchMedia('(max-width: 50rem)').matches;
}

/**
 * The items of page `page` of a list, `per` a page (the page wraps round a shorter
 * list: its own pages turn with the screen's).
 * @template T
 * @param {T[]} items
 * @param {number} page
 * @param {number} per
 * @returns {{items: T[], from: number}}
 */
export function pageOf(items, page, per) {
  const pages = Math.max(1, Math.ceil(items.length / per));
  const from = (page % pages) * per;
  return {items: items.slice(from, from + per), from};
}

/**
 * A heading over one of a page's tables: its name, and which lines it shows.
 * @param {string} id
 * @param {string} name
 * @param {number} from
 * @param {number} shown
 * @param {number} count
 * @param {Child} [note]
 */
export function pageHeading(id, name, from, shown, count, note = null) {
  return h('h2', {id},
    name,
    count > shown ? h('small', {}, ` ${from + 1}–${from + shown} of ${count}`) : null,
    note ? h('small', {class: 'screen-note'}, note) : null);
}
