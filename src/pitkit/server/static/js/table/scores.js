// @ts-check
// The score panel: each seat's total (from the view's match record), the game's own
// score sheet or the sheet the server keeps of the scores after each hand (so a reload
// or a second device shows every hand), and the results.
import {h, morph} from '../dom.js';
import {S} from './state.js';
import {seatName} from './seats.js';
import {ctx} from './ctx.js';
import {toPlay} from './felt.js';

/** @typedef {import('../games/contract.js').View<any>} View */

export function drawScores() {
  const box = document.getElementById('scores');
  if (!box || !S.table) return;
  const view = S.view;
  const scores = view && view.match ? view.match.scores : null;
  const rows = [];
  for (let i = 0; i < S.table.players; i++) {
    rows.push(h('tr', {dataset: {seat: i, score: scores ? scores[i] : ''}, class: `${i === S.seat ? 'me' : ''} ${toPlay(i) ? 'to-act' : ''}`},
      h('th', {scope: 'row'}, seatName(i), i === S.seat ? ' (you)' : ''),
      h('td', {class: 'total'}, scores ? scores[i] : '–')));
  }
  /** @type {Node[]} */
  const parts = [h('h2', {}, 'Scores ', h('small', {}, S.game ? S.game.scoreLabel(ctx) : 'points'))];
  if (view && view.match && !scores) parts.push(h('p', {class: 'note'}, 'Hidden until the end of the game.'));
  parts.push(h('table', {class: 'score-table'}, h('tbody', {}, rows)));
  const sheet = S.game && view ? S.game.scoreSheet(view, ctx) : null;
  if (sheet) parts.push(sheet);
  else parts.push(...handSheet(view));
  morph(box, h('div', {}, parts));
}

/**
 * The scores after each hand (the view's `totals`), and each hand's result.
 * @param {View | null} view
 */
function handSheet(view) {
  const rows = (view && view.match && view.match.totals) || [];
  const results = view && view.match ? view.match.results : [];
  const players = S.table ? S.table.players : 0;
  /** @type {Node[]} */
  const out = [];
  if (rows.length) {
    out.push(h('details', {class: 'sheet', open: rows.length <= 12},
      h('summary', {}, 'Score sheet'),
      h('table', {class: 'score-table sheet-table'},
        h('thead', {}, h('tr', {}, h('th', {scope: 'col'}, 'Hand'),
          Array.from({length: players}, (_, i) => h('th', {scope: 'col'}, seatName(i))))),
        h('tbody', {}, rows.map((row, i) => h('tr', {}, h('th', {scope: 'row'}, i + 1),
          row.map((v) => h('td', {}, v))))))));
  }
  if (results.length) {
    out.push(h('details', {class: 'results'}, h('summary', {}, 'Hands so far'),
      h('ol', {}, results.map((r) => h('li', {}, r)))));
  }
  return out;
}
