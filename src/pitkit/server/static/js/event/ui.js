// @ts-check
// Pieces every event kind draws with: panels, fields bound to the page's form state,
// the words after an entry, links to hand out, ranks, times and percentages.
import {copyText, h, toast} from '../dom.js';

/** @typedef {import('./contract.js').EventContext} EventContext */
/** @typedef {import('../dom.js').Child} Child */

/**
 * A panel with a heading; `key` keeps it paired with itself across redraws.
 * @param {string} key
 * @param {Child} title
 * @param {...Child} children
 */
export function panel(key, title, ...children) {
  return h('section', {class: `panel ev-panel ev-${key}`, 'data-key': key, 'aria-labelledby': `${key}-title`},
    h('h2', {id: `${key}-title`}, title), ...children);
}

/**
 * Bind a field to `ctx.forms[key]`: the field shows it (the shell sets it after each
 * redraw), and changing the field changes it and redraws.
 * @template {HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement} E
 * @param {EventContext} ctx
 * @param {string} key
 * @param {E} el
 * @param {(value: any) => void} [after] what else a change does (before the redraw)
 * @returns {E}
 */
export function bind(ctx, key, el, after) {
  el.dataset.bind = key;
  // The live field, not `el`: a redraw patches the page's fields with this handler,
  // and `el` is then a copy that is not on the page.
  /** @param {Event} event */
  const changed = (event) => {
    const live = /** @type {HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement} */ (event.currentTarget);
    ctx.forms[key] = live instanceof HTMLInputElement && live.type === 'checkbox' ? live.checked : live.value;
    if (after) after(ctx.forms[key]);
    ctx.redraw();
  };
  if (el instanceof HTMLSelectElement || (el instanceof HTMLInputElement && el.type === 'checkbox')) el.onchange = changed;
  else el.oninput = changed;
  return el;
}

/**
 * The last words on a form: the server's refusal, or what was done. Always there
 * (empty when there is nothing to say), so that the page around it keeps its shape.
 * @param {EventContext} ctx
 * @param {string} where
 */
export function note(ctx, where) {
  const said = ctx.notes[where];
  return h('p', {class: `ev-note ${said ? said.kind : 'none'}`, role: said && said.kind === 'error' ? 'alert' : 'status',
    'data-where': where}, said ? said.text : '');
}

/**
 * A secret link to hand out: its text to select, and a button that copies it.
 * @param {string} label
 * @param {string} url
 */
export function linkRow(label, url) {
  const field = h('input', {class: 'link', type: 'text', readonly: true, value: url, 'aria-label': `${label}'s link`,
    onclick: (/** @type {Event} */ e) => /** @type {HTMLInputElement} */ (e.currentTarget).select()});
  return h('div', {class: 'link-row', 'data-key': `link-${label}`},
    h('span', {class: 'link-label'}, label), field,
    h('button', {type: 'button', onclick: async () => {
      toast((await copyText(url)) ? `${label}'s link is copied.` : 'Select the link and copy it.', 'info');
    }}, 'Copy'));
}

/**
 * The desk's way to give someone a new link (a slip lost, or a link passed on): a
 * button that asks first, as the old link and its code stop working at once. The
 * new link shows in the roster, to copy, and on the slips page, to print.
 * @param {EventContext} ctx
 * @param {string} name
 * @param {'player' | 'judge'} role
 */
export function newLink(ctx, name, role) {
  const key = `link:${name}`;
  const cancel = () => { delete ctx.forms[key]; ctx.redraw(); };
  return h('div', {class: 'new-link', 'data-key': `new-link-${name}`},
    ctx.forms[key] === 'ask' ? h('p', {class: 'new-link-ask'}, `Give ${name} a new link? The old one stops working at once, and its slip with it.`, ' ',
      button(ctx, 'Make the new link', async () => {
        const ok = await ctx.enter('new_link', {role, name}, {where: key, done: `${name}'s new link is above: hand it to them, or print their new slip.`});
        if (ok) cancel();
      }, {danger: true, action: 'new-link'}),
      ' ', button(ctx, 'Cancel', cancel))
      : button(ctx, 'New link…', () => { ctx.forms[key] = 'ask'; ctx.redraw(); },
        {action: 'ask-new-link', title: `A slip lost, or a link passed on: give ${name} a new one`}),
    note(ctx, key));
}

/**
 * The QR code of the event's public page, large, for the big screen: the hall scans
 * it to follow the event, and a player without a slip's QR finds the code page there.
 * @param {EventContext} ctx
 */
export function hallQr(ctx) {
  const page = `${location.origin}/e/${encodeURIComponent(ctx.id)}`;
  return h('figure', {class: 'hall-qr', 'data-key': 'hall-qr'},
    h('img', {src: `/api/events/${encodeURIComponent(ctx.id)}/qr.svg`, alt: `QR code of the event's page, ${page}`, width: 200, height: 200}),
    h('figcaption', {}, 'Follow the event: ', h('strong', {}, page.replace(/^https?:\/\//, '')),
      h('br'), h('small', {}, 'Lost your slip\'s QR code? Open the page and type your code.')));
}

/**
 * A check-in entry in words, as the log shows it.
 * @param {import('./contract.js').LogEntry} e
 */
export function checkInWords(e) {
  const player = String(e.data.player || '');
  if (e.data.present === false) return `marked ${player} absent`;
  return e.role === 'player' ? 'checked in (opened their link)' : `checked ${player} in`;
}

/**
 * A rank, with "=" before it when others share it: "1", "=2".
 * @param {{rank: number, tied: boolean}} line
 */
export function rankText(line) {
  return `${line.tied ? '=' : ''}${line.rank}`;
}

// Made once: a page draws a time for every line of a long log at each redraw, and
// `toLocaleTimeString` with options makes a formatter for every call.
const TIME_OF_DAY = new Intl.DateTimeFormat([], {hour: '2-digit', minute: '2-digit', second: '2-digit'});

/**
 * A time of day from seconds since 1970: "20:15:07".
 * @param {number} at
 */
export function clock(at) {
  return TIME_OF_DAY.format(new Date(at * 1000));
}

/**
 * A percentage to one decimal: "62.5%".
 * @param {number} value
 */
export function percent(value) {
  return `${value.toFixed(1)}%`;
}

/**
 * A list of names in words: "Ann", "Ann and Bob", "Ann, Bob and Cat".
 * @param {string[]} names
 */
export function names(names) {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/**
 * A button for `ctx`'s entries: disabled while one is on its way.
 * @param {EventContext} ctx
 * @param {Child} label
 * @param {() => void} onclick
 * @param {{primary?: boolean, danger?: boolean, disabled?: boolean, action?: string, title?: string}} [options]
 */
export function button(ctx, label, onclick, {primary = false, danger = false, disabled = false, action, title} = {}) {
  const classes = [primary ? 'primary' : '', danger ? 'danger' : ''].filter(Boolean).join(' ');
  return h('button', {type: 'button', class: classes || null, disabled: ctx.busy || disabled, onclick,
    'data-action': action || null, title: title || null}, label);
}

/**
 * The manager's view of a game's online table: a link to watch it (with the host's
 * buttons, on the browser that opened it); or, while the game may still go online
 * (`canOpen`), a button that opens a pitkit table for it (an `open_table` entry).
 * @param {EventContext} ctx
 * @param {string | null} tableId
 * @param {Record<string, unknown>} data what names the game in the entry
 * @param {string} where the key for the words after it
 * @param {boolean} canOpen
 */
export function onlineDesk(ctx, tableId, data, where, canOpen) {
  if (tableId) {
    return h('p', {class: 'online-line', 'data-key': `online-${where}`},
      h('span', {class: 'chip good'}, 'online'), ' Played at a pitkit table: its hands come in by themselves. ',
      h('a', {href: `/t/${encodeURIComponent(tableId)}#watch`, target: '_blank', rel: 'noopener', 'data-action': 'watch'}, 'Watch the table'));
  }
  if (!canOpen) return null;
  return h('div', {class: 'online-line', 'data-key': `online-${where}`},
    button(ctx, 'Play it online', () => ctx.enter('open_table', data, {where, done: 'The table is open: each player takes their seat from their own page.'}),
      {action: 'open-table', title: 'Open a pitkit table for these players; each takes their seat with their own link'}),
    h('small', {class: 'note'}, ' or play with cards and enter each hand here.'));
}

/**
 * A player's way to their seat at their game's online table.
 * @param {EventContext} ctx
 * @param {string} tableId
 * @param {string} where the key for the words after it
 */
export function onlineSeat(ctx, tableId, where) {
  return h('div', {class: 'online-line', 'data-key': `seat-${where}`},
    h('p', {}, 'Your game is played online, at a pitkit table. Its hands go on the sheet by themselves.'),
    button(ctx, 'Take your seat at the table', () => ctx.seat(tableId, where), {primary: true, action: 'take-seat'}),
    note(ctx, where));
}
