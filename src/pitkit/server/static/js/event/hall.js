// @ts-check
// Handing the event out in the hall, for either kind of event: the slips the manager
// prints (/e/<id>/slips: one for each player and judge, with the QR code of their
// link and its code to type instead) and the page where a player types that code
// (/e/<id>/code). The server makes the codes and the QR codes
// (GET /api/events/<id>/slips, the manager's link only); a code is the link's secret.
import {ApiError, errorText, h, plural, sentence} from '../dom.js';
import * as keep from './keep.js';
import {bind, button, note, panel} from './ui.js';

/** @typedef {import('./contract.js').EventContext} EventContext */
/**
 * A slip as the server sends it: whose, where they sit now, their link's code (as
 * printed), the link and its QR code (SVG); no code for a link made before slips.
 * @typedef {{role: string, name: string, where: string | null, code: string | null, url: string | null, qr: string | null}} Slip
 */
/** @typedef {{base: string, page: string, code_page: string, slips: Slip[]}} Slips */

/**
 * The slips as last fetched, the log entry they are as of, and what went wrong.
 * @type {{slips: Slips | null, seq: number, loading: boolean, problem: string}}
 */
const fetched = {slips: null, seq: -1, loading: false, problem: ''};

/** @type {Map<string, Element>} each QR code, parsed once */
const parsed = new Map();

/**
 * An SVG the server made, as a node of this page (parsed once, then copied).
 * @param {string} svg
 */
function svgNode(svg) {
  let node = parsed.get(svg);
  if (!node) {
    node = new DOMParser().parseFromString(svg, 'image/svg+xml').documentElement;
    parsed.set(svg, node);
  }
  return document.importNode(node, true);
}

/** @param {EventContext} ctx */
function lastSeq(ctx) {
  const log = ctx.event.log;
  return log.length ? log[log.length - 1].seq : 0;
}

/**
 * Fetch the slips again when the event has moved on since (a player added, a new
 * link, a seat), then redraw.
 * @param {EventContext} ctx
 */
async function load(ctx) {
  const seq = lastSeq(ctx);
  if (fetched.loading || fetched.seq === seq) return;
  fetched.loading = true;
  try {
    fetched.slips = await ctx.ask(`/api/events/${encodeURIComponent(ctx.id)}/slips`);
    fetched.problem = '';
  } catch (e) {
    fetched.problem = e instanceof ApiError && e.status === 403
      ? 'Slips are printed from the manager\'s desk: open the desk with the manager\'s link in this browser, then come back.'
      : `The slips could not be loaded: ${sentence(errorText(e))}`;
  } finally {
    fetched.seq = seq;
    fetched.loading = false;
    ctx.redraw();
  }
}

/**
 * An address without its scheme, as people type it.
 * @param {string} url
 */
function typed(url) {
  return url.replace(/^https?:\/\//, '');
}

/**
 * One slip, to cut out: the event, whose it is and where they sit, the QR code of
 * their link, and the code to type instead.
 * @param {EventContext} ctx
 * @param {Slips} all
 * @param {Slip} slip
 */
function slipCard(ctx, all, slip) {
  const head = h('header', {class: 'slip-head'}, h('span', {}, ctx.event.name), h('small', {}, ctx.event.title));
  const who = h('p', {class: 'slip-name'}, h('strong', {}, slip.name), ' ', h('small', {}, slip.role));
  const where = h('p', {class: 'slip-where'}, slip.where ? ['Your seat: ', h('strong', {}, slip.where)] : 'Your table: on your page once you are seated.');
  const attrs = {class: 'slip', 'data-key': `slip-${slip.role}-${slip.name}`, 'data-name': slip.name, 'data-role': slip.role};
  if (!slip.code || !slip.qr) {
    return h('article', {...attrs, class: 'slip no-code'}, head, who,
      h('p', {class: 'slip-how'}, `This link was made before slips had codes: give ${slip.name} a new link at the desk, then print again.`));
  }
  return h('article', attrs, head,
    h('div', {class: 'slip-body'},
      h('div', {class: 'slip-qr', role: 'img', 'aria-label': `QR code of ${slip.name}'s link`}, svgNode(slip.qr)),
      h('div', {class: 'slip-text'}, who, where,
        h('p', {class: 'slip-how'}, 'Scan the QR code with your phone\'s camera: it opens your page and checks you in.'),
        h('p', {class: 'slip-how'}, 'No camera? Open this address and type the code:'),
        h('p', {class: 'slip-url'}, typed(all.code_page)),
        h('p', {class: 'slip-code', 'data-code': slip.code}, slip.code))),
    h('p', {class: 'slip-secret'}, 'Keep it to yourself: this slip opens your page, and only yours.'));
}

/**
 * The slips page: every player's and judge's slip, to print (several an A4 page,
 * with lines to cut along) or save as a PDF.
 * @param {EventContext} ctx
 */
export function slipsPage(ctx) {
  load(ctx);
  const all = fetched.slips;
  const intro = h('div', {class: 'print-intro slips-intro'},
    h('p', {}, all ? `${plural(all.slips.length, 'slip')}, eight an A4 page: print them and cut along the dashed lines, or save them as a PDF from the print dialogue. ` : 'Loading the slips… ',
      'Hand each one to its owner. A slip lost? Give that person a new link at the desk (the old slip stops working) and print theirs again.'),
    all && !all.base ? h('p', {class: 'ev-note error'}, 'The server does not know its own address, so these QR codes hold none: start it with --public-url.') : null,
    fetched.problem ? h('p', {class: 'ev-note error', role: 'alert'}, fetched.problem) : null);
  return h('div', {class: 'ev-slips'}, intro,
    all ? h('div', {class: 'slips'}, all.slips.map((slip) => slipCard(ctx, all, slip))) : null,
    all && !all.slips.length ? h('p', {class: 'note'}, 'Nobody on the roster yet.') : null);
}

/**
 * A code as typed, read as the server reads it: case, spaces and dashes ignored, O
 * as 0, I and L as 1 (pitkit/server/tournaments/codes.py `canonical`); null if it
 * cannot be one.
 * @param {string} text
 */
export function canonical(text) {
  const code = text.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
  return /^[0-9A-HJKMNP-TV-Z]{10}$/.test(code) ? code : null;
}

/**
 * Try the code typed: the server says whose link it is (without saying whose it
 * might have been if it is wrong); then this browser keeps it and opens the page.
 * @param {EventContext} ctx
 */
async function useCode(ctx) {
  const code = canonical(String(ctx.forms['code:text'] || ''));
  if (!code) {
    ctx.notes.code = {kind: 'error', text: 'A code has ten letters and digits, like ABCDE-FGHJK: check it on your slip.'};
    ctx.redraw();
    return;
  }
  delete ctx.notes.code;
  try {
    const event = await ctx.ask(`/api/events/${encodeURIComponent(ctx.id)}`, code);
    const label = keep.label(event.me);
    keep.update(ctx.id, (r) => { r.tokens[label] = code; r.current = label; });
    location.assign(`/e/${encodeURIComponent(ctx.id)}`);
  } catch (e) {
    const text = e instanceof ApiError && e.status === 403
      ? 'That code is not one of this event\'s. Check it against your slip (O and 0, I and 1 are the same), or ask the desk for a new slip.'
      : sentence(errorText(e));
    ctx.notes.code = {kind: 'error', text};
    ctx.redraw();
  }
}

/**
 * The page where a player types the code on their slip, to open their page.
 * @param {EventContext} ctx
 */
export function codePage(ctx) {
  const typedYet = !!String(ctx.forms['code:text'] || '').trim();
  return h('div', {class: 'ev-grid ev-code'},
    h('div', {class: 'ev-col'},
      panel('code', 'Type the code on your slip',
        h('p', {class: 'note'}, 'Your slip has a QR code and, beside it, a code of ten letters and digits. Type it here to open your page (the camera does the same).'),
        h('form', {class: 'entry-form code-form', 'data-form': 'code'},
          h('div', {class: 'form-row'},
            h('label', {for: 'code-text'}, 'Your code'),
            bind(ctx, 'code:text', h('input', {id: 'code-text', class: 'code-input', autocomplete: 'off', autocapitalize: 'characters',
              spellcheck: 'false', maxlength: 16, placeholder: 'ABCDE-FGHJK', 'aria-describedby': 'code-help'})),
            button(ctx, 'Open my page', () => useCode(ctx), {primary: true, disabled: !typedYet, action: 'use-code'})),
          h('p', {class: 'note', id: 'code-help'}, 'Capitals or not, with or without the dash.')),
        note(ctx, 'code'))));
}
