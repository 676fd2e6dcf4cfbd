// @ts-check
// Small DOM helpers, so that the pages need no framework and no build step.

/**
 * What `h` and `s` take as children: nodes, text, numbers, nested lists; null,
 * undefined and false are skipped.
 * @typedef {Node | string | number | boolean | null | undefined | Children} Child
 */
/** @typedef {Array<Child>} Children */

/**
 * Attributes: `class`, `dataset` (an object), `style` (text or an object),
 * `on...` handlers (set as properties), true (present), null/false (absent).
 * @typedef {Record<string, unknown>} Attrs
 */

/**
 * An element: h('button', {class: 'act', onclick: f}, 'Pass').
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Attrs | null} [attrs]
 * @param {...Child} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

/**
 * An SVG element (they need their own namespace).
 * @param {string} tag
 * @param {Attrs | null} [attrs]
 * @param {...Child} children
 * @returns {SVGElement}
 */
export function s(tag, attrs, ...children) {
  const el = /** @type {SVGElement} */ (document.createElementNS('http://www.w3.org/2000/svg', tag));
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

/**
 * @param {HTMLElement | SVGElement} el
 * @param {Attrs | null | undefined} attrs
 */
function setAttrs(el, attrs) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value == null || value === false) continue;
    if (key === 'class') el.setAttribute('class', String(value));
    else if (key === 'dataset') Object.assign(el.dataset, value);
    else if (key === 'style' && typeof value === 'object') Object.assign(el.style, value);
    // Handlers are properties (not listeners) so that `morph` can carry them over.
    else if (key.startsWith('on') && typeof value === 'function') {
      /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (el))[key.toLowerCase()] = value;
    } else if (value === true) el.setAttribute(key, '');
    else el.setAttribute(key, String(value));
  }
}

/**
 * @param {Element} el
 * @param {Child[]} children
 */
function append(el, children) {
  for (const child of children) {
    if (Array.isArray(child)) append(el, child);
    else if (child != null && child !== false && child !== true) el.append(child instanceof Node ? child : String(child));
  }
}

const HANDLERS = ['onclick', 'onchange', 'oninput', 'onkeydown'];

/** Elements `morph` leaves alone: their owner fills them later (an answer from the server). */
export const unmorphed = new WeakSet();

/**
 * Make `live`'s children look like `fresh`'s, changing only what differs.
 *
 * The table redraws whenever the server says something, often while a player is
 * pointing at a card. Replacing the nodes would lose a click whose mousedown and
 * mouseup land on different nodes, and the keyboard focus; patching keeps them.
 * Children pair up by position, or by `data-key` where a list is keyed.
 * @param {Node} live
 * @param {Node} fresh
 */
export function morph(live, fresh) {
  const wanted = [...fresh.childNodes];
  wanted.forEach((want, i) => {
    const have = live.childNodes[i];
    if (!have) live.appendChild(want);
    else if (!sameKind(have, want)) live.replaceChild(want, have);
    else patch(have, want);
  });
  while (live.childNodes.length > wanted.length && live.lastChild) live.removeChild(live.lastChild);
}

/**
 * @param {Node} a
 * @param {Node} b
 */
function sameKind(a, b) {
  if (a.nodeType !== b.nodeType || a.nodeName !== b.nodeName) return false;
  if (!(a instanceof Element) || !(b instanceof Element)) return true;
  return (a.getAttribute('data-key') || '') === (b.getAttribute('data-key') || '');
}

/**
 * @param {Node} have
 * @param {Node} want
 */
function patch(have, want) {
  if (!(have instanceof Element) || !(want instanceof Element)) {
    if (have.nodeValue !== want.nodeValue) have.nodeValue = want.nodeValue;
    return;
  }
  if (unmorphed.has(have)) return;
  // Most of a page is the same markup redraw after redraw: the browser compares such a
  // subtree natively, and only the handlers, which markup does not hold, are carried over.
  if (have.isEqualNode(want)) {
    carryHandlers(have, want);
    const mine = have.getElementsByTagName('*');
    const theirs = want.getElementsByTagName('*');
    for (let i = 0; i < theirs.length; i++) carryHandlers(mine[i], theirs[i]);
    return;
  }
  for (const {name} of [...have.attributes]) if (!want.hasAttribute(name)) have.removeAttribute(name);
  for (const {name, value} of want.attributes) if (have.getAttribute(name) !== value) have.setAttribute(name, value);
  carryHandlers(have, want);
  morph(have, want);
}

/**
 * Give `have` the handlers of `want` (properties: see `setAttrs`).
 * @param {Element} have
 * @param {Element} want
 */
function carryHandlers(have, want) {
  const from = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (want));
  const to = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (have));
  for (const key of HANDLERS) if (to[key] !== from[key]) to[key] = from[key];
}

/**
 * A short message in the corner (text or nodes); errors stay longer and are announced at once.
 * @param {Child} text
 * @param {'error' | 'info'} [kind]
 * @param {number} [ms]
 */
export function toast(text, kind = 'error', ms = kind === 'error' ? 6000 : 3000) {
  let box = document.getElementById('toasts');
  if (!box) {
    box = h('div', {id: 'toasts', class: 'toasts'});
    document.body.append(box);
  }
  const item = h('div', {class: `toast ${kind}`, role: kind === 'error' ? 'alert' : 'status'}, text);
  item.addEventListener('click', () => item.remove());
  box.append(item);
  while (box.children.length > 4) box.firstElementChild?.remove();
  setTimeout(() => item.remove(), ms);
  return item;
}

/**
 * Copy text to the clipboard. The Clipboard API needs a secure origin, which a page
 * opened at http://192.168.x.y is not, so fall back to selecting a text field.
 * @param {string} text
 * @returns {Promise<boolean>}
 */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const field = h('textarea', {style: {position: 'fixed', opacity: '0'}, 'aria-hidden': 'true'});
    field.value = text;
    document.body.append(field);
    field.select();
    let done = false;
    try { done = document.execCommand('copy'); } catch { done = false; }
    field.remove();
    return done;
  }
}

// Made once: a list of matches draws a date for each.
const DAY_AND_TIME = new Intl.DateTimeFormat(undefined, {dateStyle: 'medium', timeStyle: 'short'});

/**
 * A day and time from seconds since 1970, in the reader's words: "29 Nov 2026, 20:15".
 * @param {number} seconds
 */
export function when(seconds) {
  return DAY_AND_TIME.format(new Date(seconds * 1000));
}

/**
 * "1 card", "3 cards".
 * @param {number} n
 * @param {string} word
 * @param {string} [many]
 */
export function plural(n, word, many = word + 's') {
  return `${n} ${n === 1 ? word : many}`;
}

/** Whether the page is pointed at with a finger (a phone, a tablet): hints say "tap". */
const TOUCH = typeof matchMedia === 'function' ? matchMedia('(pointer: coarse)') : null;

/**
 * The word for pressing on the page: "click", or "tap" on a touch screen.
 * @param {'click' | 'clicking'} [form]
 */
export function tap(form = 'click') {
  const touch = !!(TOUCH && TOUCH.matches);
  return form === 'clicking' ? (touch ? 'tapping' : 'clicking') : touch ? 'tap' : 'click';
}

/**
 * "1st", "2nd", ...
 * @param {number} n
 */
export function ordinal(n) {
  /** @type {Record<number, string>} */
  const tails = {1: 'st', 2: 'nd', 3: 'rd'};
  const tail = n % 100 >= 11 && n % 100 <= 13 ? 'th' : tails[n % 10] || 'th';
  return `${n}${tail}`;
}

/**
 * A text with a capital first letter.
 * @param {string} text
 */
export function capital(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * A text as a sentence: a capital first letter and a full stop.
 * @param {string} text
 */
export function sentence(text) {
  text = String(text);
  return capital(text) + (/[.!?]$/.test(text) ? '' : '.');
}

/** An HTTP refusal, with the server's reason as its message. */
export class ApiError extends Error {
  /**
   * @param {string} message
   * @param {number} status
   */
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

/**
 * One request, asked again a few times while the server answers 503 with Retry-After:
 * the table is moving between the server's workers (docs/deploy.md), and nothing was done.
 * @param {string} path
 * @param {RequestInit} init
 */
async function send(path, init) {
  let response = await fetch(path, init);
  for (let tries = 0; response.status === 503 && response.headers.has('retry-after') && tries < 4; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 1000 * Math.min(3, Number(response.headers.get('retry-after')) || 1)));
    response = await fetch(path, init);
  }
  return response;
}

/**
 * The server's reason for a refusal, in words, from its answer's JSON: FastAPI's
 * `detail`, a sentence or a list of what was wrong; else (or if that is empty) the
 * status's own words. Never empty.
 * @param {any} data
 * @param {Response} response
 */
export function reasonOf(data, response) {
  const detail = data && data.detail;
  const said = typeof detail === 'string' ? detail
    : Array.isArray(detail) ? detail.map((d) => d.msg).join('; ') : '';
  return said || response.statusText || `HTTP ${response.status}`;
}

/**
 * An answer's JSON; a refusal throws an ApiError carrying the server's reason.
 * @param {Response} response
 * @returns {Promise<any>}
 */
async function answerOf(response) {
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new ApiError(reasonOf(data, response), response.status);
  return data;
}

/**
 * JSON over HTTP; a refusal throws an ApiError carrying the server's reason.
 * @param {string} path
 * @param {{method?: string, body?: unknown, token?: string | null}} [options]
 * @returns {Promise<any>}
 */
export async function api(path, {method = 'GET', body, token} = {}) {
  /** @type {Record<string, string>} */
  const headers = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  return answerOf(await send(path, {method, headers, body: body === undefined ? undefined : JSON.stringify(body)}));
}

/**
 * A read the server may answer with "unchanged" (304) and nothing more: `tag` is the
 * ETag of what the page holds ('': nothing yet). Null while it is the same; else the
 * JSON and its tag. A refusal throws as `api` does.
 * @param {string} path
 * @param {{token?: string | null, tag?: string}} [options]
 * @returns {Promise<{data: any, tag: string} | null>}
 */
export async function readIfChanged(path, {token, tag = ''} = {}) {
  /** @type {Record<string, string>} */
  const headers = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (tag) headers['if-none-match'] = tag;
  // no-store: the browser's cache neither answers for the server nor adds its own tags.
  const response = await send(path, {headers, cache: 'no-store'});
  if (response.status === 304) return null;
  return {data: await answerOf(response), tag: response.headers.get('etag') || ''};
}

/**
 * The message of anything thrown.
 * @param {unknown} error
 */
export function errorText(error) {
  return error instanceof Error ? error.message : String(error);
}
