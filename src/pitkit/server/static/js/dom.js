// Small DOM helpers, so that the pages need no framework and no build step.

/** An element: h('button', {class: 'act', onclick: f}, 'Pass'). Null children are skipped. */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

/** An SVG element (they need their own namespace). */
export function s(tag, attrs, ...children) {
  const el = document.createElementNS('http://www.w3.org/2000/svg', tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

function setAttrs(el, attrs) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value == null || value === false) continue;
    if (key === 'class') el.setAttribute('class', value);
    else if (key === 'dataset') Object.assign(el.dataset, value);
    else if (key === 'style' && typeof value === 'object') Object.assign(el.style, value);
    // Handlers are properties (not listeners) so that `morph` can carry them over.
    else if (key.startsWith('on') && typeof value === 'function') el[key.toLowerCase()] = value;
    else if (value === true) el.setAttribute(key, '');
    else el.setAttribute(key, String(value));
  }
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child == null || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
}

const HANDLERS = ['onclick', 'onchange', 'oninput', 'onkeydown'];

/**
 * Make `live`'s children look like `fresh`'s, changing only what differs.
 *
 * The table redraws whenever the server says something, often while a player is
 * pointing at a card. Replacing the nodes would lose a click whose mousedown and
 * mouseup land on different nodes, and the keyboard focus; patching keeps them.
 * Children pair up by position, or by `data-key` where a list is keyed.
 */
export function morph(live, fresh) {
  const wanted = [...fresh.childNodes];
  wanted.forEach((want, i) => {
    const have = live.childNodes[i];
    if (!have) live.append(want);
    else if (!sameKind(have, want)) live.replaceChild(want, have);
    else patch(have, want);
  });
  while (live.childNodes.length > wanted.length) live.lastChild.remove();
}

function sameKind(a, b) {
  if (a.nodeType !== b.nodeType || a.nodeName !== b.nodeName) return false;
  return a.nodeType !== 1 || (a.getAttribute('data-key') || '') === (b.getAttribute('data-key') || '');
}

function patch(have, want) {
  if (have.nodeType !== 1) {
    if (have.nodeValue !== want.nodeValue) have.nodeValue = want.nodeValue;
    return;
  }
  if (have.noMorph) return; // filled later by its owner (an answer from the server)
  for (const {name} of [...have.attributes]) if (!want.hasAttribute(name)) have.removeAttribute(name);
  for (const {name, value} of want.attributes) if (have.getAttribute(name) !== value) have.setAttribute(name, value);
  for (const key of HANDLERS) if (have[key] !== want[key]) have[key] = want[key];
  morph(have, want);
}

/** A short message in the corner (text or nodes); errors stay longer and are announced at once. */
export function toast(text, kind = 'error', ms = kind === 'error' ? 6000 : 3000) {
  let box = document.getElementById('toasts');
  if (!box) {
    box = h('div', {id: 'toasts', class: 'toasts'});
    document.body.append(box);
  }
  const item = h('div', {class: `toast ${kind}`, role: kind === 'error' ? 'alert' : 'status'}, text);
  item.addEventListener('click', () => item.remove());
  box.append(item);
  while (box.children.length > 4) box.firstElementChild.remove();
  setTimeout(() => item.remove(), ms);
  return item;
}

/** Copy text to the clipboard. The Clipboard API needs a secure origin, which a page
 *  opened at http://192.168.x.y is not, so fall back to selecting a text field. */
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

/** "1 card", "3 cards". */
export function plural(n, word, many = word + 's') {
  return `${n} ${n === 1 ? word : many}`;
}

/** "1st", "2nd", ... */
export function ordinal(n) {
  const tail = n % 100 >= 11 && n % 100 <= 13 ? 'th' : {1: 'st', 2: 'nd', 3: 'rd'}[n % 10] || 'th';
  return `${n}${tail}`;
}

/** JSON over HTTP; a refusal throws an Error carrying the server's reason. */
export async function api(path, {method = 'GET', body, token} = {}) {
  const headers = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  const response = await fetch(path, {method, headers, body: body === undefined ? undefined : JSON.stringify(body)});
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const detail = data.detail;
    const reason = typeof detail === 'string' ? detail
      : Array.isArray(detail) ? detail.map((d) => d.msg).join('; ') : response.statusText;
    const error = new Error(reason || `HTTP ${response.status}`);
    error.status = response.status;
    throw error;
  }
  return data;
}
