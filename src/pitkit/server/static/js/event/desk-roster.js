// @ts-check
// The desk's files: the roster imported from a CSV file of names (and clubs), or exported
// to one, and the results to publish (/e/<id>/publish: one HTML file for a club's
// website, and the same as CSV). An import is all or nothing: the server checks every
// row as a typed name first, and lists each bad row by its number if any is wrong
// (POST /api/events/<id>/roster, the manager's link; docs/tournaments.md).
import {errorText, h, plural, sentence} from '../dom.js';
import * as keep from './keep.js';
import {bind, button, note} from './ui.js';

/** @typedef {import('./contract.js').EventContext} EventContext */

/**
 * Send the file's text (or what was pasted) to the server as the roster to import.
 * @param {EventContext} ctx
 */
async function importRoster(ctx) {
  const token = keep.record(ctx.id).tokens[keep.label(ctx.me)] || '';
  const text = String(ctx.forms['roster:csv'] || '');
  /** @type {string[]} */
  let problems = [];
  try {
    const response = await fetch(`/api/events/${encodeURIComponent(ctx.id)}/roster`, {
      method: 'POST', headers: {'content-type': 'application/json', authorization: `Bearer ${token}`}, body: JSON.stringify({csv: text})});
    const answer = await response.json().catch(() => ({}));
    if (response.ok) {
      /** @type {{row: number, name: string}[]} */
      const added = answer.added;
      ctx.notes.roster = {kind: 'info', text: `Imported ${plural(added.length, 'player')}: ${added.map((a) => a.name).join(', ')}.`};
      ctx.forms['roster:csv'] = '';
    } else {
      // A list of problems (the first says what happened, then each row's), or one reason.
      const detail = answer.detail;
      problems = Array.isArray(detail) ? detail.map((/** @type {{msg: string}} */ d) => d.msg) : [String(detail || response.statusText)];
      ctx.notes.roster = {kind: 'error', text: sentence(problems[0])};
    }
  } catch (e) {
    ctx.notes.roster = {kind: 'error', text: `The server did not answer (${errorText(e)}); nothing was imported.`};
  }
  ctx.forms['roster:problems'] = problems.slice(1);
  ctx.redraw();
}

/**
 * Read a chosen file into the form.
 * @param {EventContext} ctx
 * @param {Event} event
 */
async function chosen(ctx, event) {
  const input = /** @type {HTMLInputElement} */ (event.currentTarget);
  const file = input.files && input.files[0];
  if (!file) return;
  ctx.forms['roster:csv'] = await file.text();
  ctx.redraw();
}

/**
 * The desk's files: import or export the roster, publish the results.
 * @param {EventContext} ctx
 */
export function deskFiles(ctx) {
  const base = `/api/events/${encodeURIComponent(ctx.id)}`;
  const page = `/e/${encodeURIComponent(ctx.id)}`;
  /** @type {string[]} */
  const problems = ctx.forms['roster:problems'] || [];
  const typed = String(ctx.forms['roster:csv'] || '').trim();
  return h('details', {class: 'ev-panel panel ev-files', 'data-key': 'desk-files'},
    h('summary', {}, h('h2', {}, 'Roster file and results')),
    h('form', {class: 'entry-form roster-form', 'data-form': 'roster'},
      h('p', {class: 'note'}, 'Import players from a CSV file: one name a row, and a club beside it if you like (a first row "name,club" is a header). If any row is wrong, nothing is imported and each wrong row is listed.'),
      h('div', {class: 'form-row'},
        h('label', {for: 'roster-file'}, 'CSV file'),
        h('input', {id: 'roster-file', type: 'file', accept: '.csv,text/csv,text/plain', onchange: (/** @type {Event} */ e) => chosen(ctx, e)})),
      h('div', {class: 'form-row'},
        h('label', {for: 'roster-csv'}, 'or paste it'),
        bind(ctx, 'roster:csv', h('textarea', {id: 'roster-csv', rows: 4, maxlength: 15000, placeholder: 'name,club\nAnn Lee,Leeds'})),
        button(ctx, 'Import the roster', () => importRoster(ctx), {primary: true, disabled: !typed, action: 'import-roster'})),
      note(ctx, 'roster'),
      problems.length ? h('ul', {class: 'roster-problems', role: 'alert'}, problems.map((p) => h('li', {}, p))) : null),
    h('p', {class: 'files-links'},
      h('a', {href: `${base}/roster.csv`, download: true, 'data-action': 'export-roster'}, 'Export the roster (CSV)'), ' · ',
      h('a', {href: `${page}/publish`, target: '_blank', rel: 'noopener', 'data-action': 'publish'}, 'Publish the results (HTML)'), ' · ',
      h('a', {href: `${page}/publish.csv`, download: true}, 'Results as CSV')));
}
