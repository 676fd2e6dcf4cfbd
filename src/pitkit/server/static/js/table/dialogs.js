// @ts-check
// The table's windows: the end of a hand (with the pause before the next), the end of
// the match, help, invitations, the host's seat options; and the small requests made
// from them (rename, start now, the host's changes to a seat).
import {api, capital, copyText, errorText, h, morph, ordinal, sentence, tap, toast} from '../dom.js';
import {withSuits} from '../cards.js';
import * as store from '../store.js';
import {S} from './state.js';
import {seatName} from './seats.js';
import {ctx} from './ctx.js';
import {askRematch, sayReady} from './send.js';
import {awaitingMe, pauseLines} from './pace.js';
import {effectsControls} from './effects.js';

/** @typedef {import('../dom.js').Child} Child */
/** @typedef {import('../wire.js').GameEvent} GameEvent */

function dialogEl() {
  return /** @type {HTMLDialogElement} */ (document.getElementById('dialog'));
}

/**
 * Open the window (replacing what it showed); its main button takes the focus.
 * @param {NonNullable<import('./state.js').TableState['dialog']>} kind
 * @param {string} title
 * @param {Child} body
 * @param {Child} buttons
 */
function openDialog(kind, title, body, buttons) {
  const dialog = dialogEl();
  S.dialog = kind;
  dialog.dataset.kind = kind;
  dialog.replaceChildren(
    h('h2', {id: 'dialog-title'}, title),
    h('div', {class: 'dialog-body'}, body),
    h('div', {class: 'dialog-buttons'}, buttons));
  dialog.setAttribute('aria-labelledby', 'dialog-title');
  if (!dialog.open) dialog.showModal();
  const main = dialog.querySelector('.dialog-buttons .primary') || dialog.querySelector('button');
  if (main instanceof HTMLElement) main.focus();
}

export function closeDialog() {
  const dialog = dialogEl();
  if (dialog.open) dialog.close();
  S.dialog = null;
}

/** Wire the window to the state: closing it (Esc too) clears `S.dialog`. */
export function watchDialog() {
  dialogEl().addEventListener('close', () => { S.dialog = null; });
}

/** Click the open window's main button (Enter). */
export function confirmDialog() {
  const main = dialogEl().querySelector('.dialog-buttons .primary');
  if (main instanceof HTMLElement) main.click();
}

/** @param {number} i */
function nameOf(i) {
  return i === S.seat ? `${seatName(i)} (you)` : seatName(i);
}

/**
 * The scores after a hand, with what the hand changed.
 * @param {number[] | null} scores
 * @param {number[] | null} previous
 */
function totalsTable(scores, previous) {
  if (!scores || !S.game) return h('p', {}, 'The scores are hidden until the end of the game.');
  const rows = scores.map((total, i) => {
    const delta = previous ? total - previous[i] : null;
    return h('tr', {dataset: {seat: i, score: total}, class: i === S.seat ? 'me' : null},
      h('th', {scope: 'row'}, nameOf(i)),
      h('td', {class: 'delta'}, delta == null ? '' : delta > 0 ? `+${delta}` : delta < 0 ? `${delta}` : '±0'),
      h('td', {class: 'total'}, total));
  });
  return h('table', {class: 'score-table totals'},
    h('thead', {}, h('tr', {}, h('th', {scope: 'col'}, 'Player'), h('th', {scope: 'col'}, 'This hand'),
      h('th', {scope: 'col'}, capital(S.game.scoreLabel(ctx))))),
    h('tbody', {}, rows));
}

/**
 * A hand is over (and the match is not).
 * @param {number} hand
 * @param {GameEvent[]} events  the hand's events
 * @param {number[] | null} previous  the scores before it
 * @param {number[] | null} scores    the scores after it
 */
export function showSummary(hand, events, previous, scores) {
  if (!S.game) return;
  /** @type {Child[]} */
  const body = [];
  try {
    body.push(S.game.handSummary(events, ctx));
  } catch (error) {
    console.warn(error);
  }
  body.push(h('h3', {}, 'Score sheet'), totalsTable(scores, previous), h('div', {class: 'next-hand-box'}, pauseLines()));
  openDialog('summary', `Hand ${hand} is over`, body, summaryButtons());
}

/** The end-of-hand window's button: "Ready" while the next hand waits for this player. */
function summaryButtons() {
  if (awaitingMe()) {
    return [h('button', {class: 'primary', type: 'button', onclick: sayReady}, 'Ready for the next hand ', h('kbd', {}, 'Enter'))];
  }
  return [h('button', {class: 'primary', type: 'button', onclick: closeDialog}, 'Continue ', h('kbd', {}, 'Enter'))];
}

/** Keep the end-of-hand window's pause up to date: the countdown, who is ready, its button. */
export function drawSummaryPace() {
  if (S.dialog !== 'summary') return;
  const dialog = dialogEl();
  const box = dialog.querySelector('.next-hand-box');
  const buttons = dialog.querySelector('.dialog-buttons');
  if (box) morph(box, h('div', {}, pauseLines()));
  if (buttons) morph(buttons, h('div', {}, summaryButtons()));
}

/**
 * The match is over: its outcome in the server's words, the last hand, the standings.
 * @param {GameEvent} end  the match_over event
 */
export function showOver(end) {
  /** @type {import('../wire.js').OutcomeView | null} */
  const result = end.result;
  if (!result || S.dialog === 'over' || !S.game) return;
  S.overShown = S.match;
  const scores = S.lastScores || result.points;
  const last = S.handEvents.some((e) => e.type === 'hand_end' || e.type === 'scores');
  /** @type {Child[]} */
  const body = [h('p', {class: 'outcome'}, withSuits(end.text || sentence(result.summary)))];
  if (last) {
    try {
      body.push(h('h3', {}, 'The last hand'), S.game.handSummary(S.handEvents, ctx));
    } catch (error) {
      console.warn(error);
    }
  }
  const order = scores.map((v, i) => i).sort((a, b) => (result.ranks ? result.ranks[a] - result.ranks[b] : 0));
  body.push(h('h3', {}, 'Final standings'),
    h('table', {class: 'score-table final-scores'},
      h('thead', {}, h('tr', {}, h('th', {scope: 'col'}, 'Place'), h('th', {scope: 'col'}, 'Player'),
        h('th', {scope: 'col'}, capital(S.game.scoreLabel(ctx))))),
      h('tbody', {}, order.map((i) => h('tr', {dataset: {seat: i, score: scores[i]}, class: i === S.seat ? 'me' : null},
        h('td', {}, result.ranks ? ordinal(result.ranks[i]) : ''),
        h('th', {scope: 'row'}, nameOf(i)),
        h('td', {class: 'total'}, scores[i]))))));
  /** @type {Child[]} */
  const buttons = [];
  if (S.seat != null) buttons.push(h('button', {class: 'primary', type: 'button', onclick: askRematch}, 'Play again'));
  buttons.push(h('a', {class: 'button', href: `#replay=${S.match}&as=${S.seat ?? 'all'}`}, 'Watch the replay'));
  buttons.push(h('a', {class: 'button', href: `/api/tables/${S.tableId}/matches/${S.match}/log`, download: `pitkit-${S.tableId}-${S.match}.jsonl`}, 'Download the log'));
  buttons.push(h('a', {class: 'button', href: '/'}, 'Lobby'));
  buttons.push(h('button', {type: 'button', onclick: closeDialog}, 'Close'));
  openDialog('over', 'Game over', body, buttons);
}

export function showHelp() {
  const keys = [
    [`${capital(tap())} or Space`, 'pick a card; highlighted cards make a legal play'],
    ['← →', 'move between your cards'],
    ['Enter', 'make the highlighted play (the first gold button)'],
    ['Esc', 'clear your selection, close a window'],
    ['?', 'this help'],
    ...(S.game ? S.game.keys : []),
  ];
  const title = S.info ? S.info.title : S.table ? S.table.title : '';
  const body = [
    ...(S.game ? S.game.help.map((p) => h('p', {}, p)) : []),
    S.table ? h('p', {}, h('a', {class: 'rules-more', href: `/rules/${encodeURIComponent(S.table.game)}`, target: '_blank', rel: 'noopener'},
      `The rules of ${title || 'this game'}, and every option`)) : null,
    h('h3', {class: 'keyboard-only'}, 'Keyboard'),
    h('dl', {class: 'keys keyboard-only'}, keys.map(([k, what]) => [h('dt', {}, h('kbd', {}, k)), h('dd', {}, what)])),
    effectsControls(),
  ];
  openDialog('help', title ? `How to play ${title}` : 'How to play', body,
    [h('button', {class: 'primary', type: 'button', onclick: closeDialog}, 'Close')]);
}

export function showInvite() {
  const record = store.tableRecord(S.tableId) || {};
  const watch = `${location.origin}/t/${S.tableId}#watch`;
  const rows = [];
  for (const seat of (S.table ? S.table.seats : [])) {
    if (seat.kind !== 'open') continue;
    const link = record.invites && record.invites[seat.seat];
    if (link) rows.push(linkRow(seatName(seat.seat), link));
  }
  /** @type {Child[]} */
  const body = [];
  if (rows.length) {
    body.push(h('p', {}, 'Send each friend the link of one open seat. Whoever opens it takes that seat.'), ...rows);
  } else if (S.table && S.table.seats.some((s) => s.kind === 'open')) {
    body.push(h('p', {}, 'The host holds the invitation links of the open seats.'));
  }
  body.push(h('p', {}, 'Anyone can watch with this link:'), linkRow('Watch', watch));
  if (S.seat != null && S.token) {
    body.push(h('h3', {}, 'Continue on another device'),
      h('p', {class: 'continue-note'}, 'Open this link there (your phone, say) to play on from it. Keep it to yourself: it plays your seat.'),
      linkRow('Your seat', `${location.origin}/t/${S.tableId}#token=${encodeURIComponent(S.token)}&continue`));
  }
  if (['127.0.0.1', 'localhost', '[::1]'].includes(location.hostname)) {
    body.push(h('p', {class: 'note'}, 'These links use 127.0.0.1, which only works on this computer. For friends on your network, start the server with ',
      h('code', {}, 'pitkit serve --host 0.0.0.0'), ' and replace 127.0.0.1 with this computer\'s address.'));
  }
  openDialog('invite', 'Invite friends', body,
    [h('button', {class: 'primary', type: 'button', onclick: closeDialog}, 'Done')]);
}

/**
 * @param {string} label
 * @param {string} link
 */
function linkRow(label, link) {
  const field = h('input', {type: 'text', readonly: true, value: link, 'aria-label': `${label} link`, class: 'link'});
  return h('div', {class: 'link-row'}, h('span', {class: 'link-label'}, label), field,
    h('button', {type: 'button', onclick: async () => {
      field.select();
      toast((await copyText(link)) ? 'Link copied.' : 'Select the link and copy it.', 'info');
    }}, 'Copy'));
}

/**
 * Ask for the player's name in the page's own window (kept in this browser too).
 * Resolves to the name given, or null if they would rather not say.
 * @param {string} title
 * @param {string} intro
 * @param {string} confirm the main button's words
 * @returns {Promise<string | null>}
 */
export function askName(title, intro, confirm) {
  return new Promise((resolve) => {
    const field = /** @type {HTMLInputElement} */ (h('input', {id: 'name-field', type: 'text', maxlength: 40,
      autocomplete: 'nickname', value: S.seat != null ? seatName(S.seat) : store.playerName(), placeholder: 'Your name'}));
    let answered = false;
    /** @param {string | null} name */
    const answer = (name) => {
      if (answered) return;
      answered = true;
      const clean = name && name.trim() ? name.trim().slice(0, 40) : null;
      if (clean) store.setPlayerName(clean);
      closeDialog();
      resolve(clean);
    };
    const form = h('form', {class: 'name-form', onsubmit: (/** @type {Event} */ e) => { e.preventDefault(); answer(field.value); }},
      h('label', {for: 'name-field'}, 'Your name'), field);
    openDialog('name', title, [h('p', {}, intro), form],
      [h('button', {class: 'primary', type: 'button', 'data-action': 'name', onclick: () => answer(field.value)}, confirm),
        h('button', {type: 'button', onclick: () => answer(null)}, 'Cancel')]);
    dialogEl().addEventListener('close', () => answer(null), {once: true});
    field.focus();
    field.select();
  });
}

/** Ask for a new name; seated, tell the table. */
export async function rename() {
  const name = await askName('Your name', 'The name the others see at this table.', 'Rename');
  if (!name) return;
  if (S.seat == null || !S.token) return;
  try {
    await api(`/api/tables/${S.tableId}/join`, {method: 'POST', body: {token: S.token, name: name.trim()}});
  } catch (error) {
    toast(errorText(error));
  }
}

/** The host closes the table for good (after asking): nobody can move there again. */
export async function closeTable() {
  const record = store.tableRecord(S.tableId);
  if (!confirm('Close this table for good? Nobody will be able to play here again.')) return;
  try {
    await api(`/api/tables/${S.tableId}`, {method: 'DELETE', token: record && record.host});
  } catch (error) {
    toast(errorText(error));
  }
}

/** The host starts the match at once; bots play the open seats. */
export async function startNow() {
  const record = store.tableRecord(S.tableId);
  try {
    await api(`/api/tables/${S.tableId}/start`, {method: 'POST', token: record && record.host});
  } catch (error) {
    toast(errorText(error));
  }
}

// -- the host's seat options --------------------------------------------------------

/** The host token this browser holds for the table, if any. */
export function hostToken() {
  const record = store.tableRecord(S.tableId);
  return (record && record.host) || null;
}

/** Whether this page may change the table's seats: it holds the host token, and the table takes changes. */
export function mayHost() {
  if (S.replay) return false; // a replay is watched: the table's seats are not changed from it
  return !!hostToken() && !!S.table && !['closed', 'expired', 'broken'].includes(S.table.status);
}

/**
 * A seat for people: "Seat 2: Bo", or "Seat 3 (open)".
 * @param {number} i
 */
function seatTitle(i) {
  const open = S.table && S.table.seats[i].kind === 'open';
  return open ? `Seat ${i + 1} (open)` : `Seat ${i + 1}: ${nameOf(i)}`;
}

/**
 * One of the host's requests about a seat; a refusal is shown, and resolves to null.
 * @param {string} path  after /api/tables/{id}/seats/
 * @param {string} method
 * @param {unknown} body
 */
async function hostCall(path, method, body) {
  try {
    return await api(`/api/tables/${S.tableId}/seats/${path}`, {method, body, token: hostToken()});
  } catch (error) {
    toast(sentence(errorText(error)));
    return null;
  }
}

/**
 * The host's options for a seat: rename its player, move it to another seat, put a bot
 * in it, or open it for someone else (with the new invitation link to copy). What the
 * host does, the seat's holder is told by the server, and so is everyone else.
 * @param {number} i
 */
export function showSeatOptions(i) {
  if (!S.table) return;
  const seat = S.table.seats[i];
  /** @type {Child[]} */
  const body = [];
  if (seat.kind === 'player') {
    const field = /** @type {HTMLInputElement} */ (h('input', {id: 'seat-name-field', type: 'text', maxlength: 40,
      autocomplete: 'off', value: seatName(i)}));
    const rename = async () => {
      if (await hostCall(`${i}/name`, 'PUT', {name: field.value.trim()})) closeDialog();
    };
    body.push(h('form', {class: 'seat-option', onsubmit: (/** @type {Event} */ e) => { e.preventDefault(); rename(); }},
      h('label', {for: 'seat-name-field'}, 'Name'), field,
      h('button', {type: 'submit', 'data-option': 'rename'}, 'Rename')));
  }
  // Somewhere to go: any other seat, except an open one when this one is open too.
  const targets = S.table.seats.filter((s) => s.seat !== i && !(seat.kind === 'open' && s.kind === 'open'));
  if (targets.length) {
    const where = /** @type {HTMLSelectElement} */ (h('select', {id: 'seat-move-field'},
      targets.map((s) => h('option', {value: s.seat}, seatTitle(s.seat)))));
    const move = async () => {
      const to = Number(where.value);
      if (!(await hostCall(`${i}/move`, 'POST', {to}))) return;
      swapInvites(i, to);
      closeDialog();
    };
    body.push(h('div', {class: 'seat-option'},
      h('label', {for: 'seat-move-field'}, 'Move to'), where,
      h('button', {type: 'button', 'data-option': 'move', onclick: move}, 'Move'),
      h('p', {class: 'note'}, 'Whoever sits there takes this seat in exchange; during a game the two swap hands.')));
  }
  const bots = S.info ? S.info.bots : {};
  const names = Object.keys(bots);
  if (names.length) {
    const level = /** @type {HTMLSelectElement} */ (h('select', {id: 'seat-bot-field'},
      names.map((name) => h('option', {value: name, title: bots[name]}, `Bot: ${name}`))));
    level.value = S.info && names.includes(S.info.opponent) ? S.info.opponent : names[names.length - 1];
    const about = h('p', {class: 'note'}, sentence(bots[level.value]));
    level.onchange = () => { about.textContent = sentence(bots[level.value]); };
    const putBot = async () => {
      if (!(await hostCall(`${i}`, 'PUT', {bot: level.value}))) return;
      forgetInvite(i);
      closeDialog();
    };
    body.push(h('div', {class: 'seat-option'},
      h('label', {for: 'seat-bot-field'}, 'Bot'), level,
      h('button', {type: 'button', 'data-option': 'bot', onclick: putBot}, 'Put a bot here'), about));
  }
  const reopen = async () => {
    /** @type {{invite: string} | null} */
    const answer = await hostCall(`${i}`, 'PUT', {bot: null});
    if (answer) showNewInvite(i, answer.invite);
  };
  body.push(h('div', {class: 'seat-option'},
    h('button', {type: 'button', 'data-option': 'open', onclick: reopen}, 'Open for someone else'),
    h('p', {class: 'note'}, seat.kind === 'player'
      ? `${seatName(i)} is let go (and told so), and you get a new invitation link for this seat to send to someone else.`
      : 'You get a new invitation link for this seat to send to whoever should take it.')));
  openDialog('seat', `Seat options · ${seatTitle(i)}`, body,
    [h('button', {type: 'button', class: 'primary', onclick: closeDialog}, 'Done')]);
}

/**
 * A seat was opened for someone else: its new invitation, to copy and send.
 * @param {number} i
 * @param {string} invite
 */
function showNewInvite(i, invite) {
  const record = store.tableRecord(S.tableId) || {};
  store.updateTable(S.tableId, {invites: {...(record.invites || {}), [i]: invite}});
  openDialog('seat', `Seat ${i + 1} is open for someone else`, [
    h('p', {}, 'Send this link to whoever should take the seat. The seat\'s old link no longer works.'),
    linkRow(`Seat ${i + 1}`, invite),
  ], [h('button', {type: 'button', class: 'primary', onclick: closeDialog}, 'Done')]);
}

/**
 * Two seats were swapped: so were their invitation links (a link opens its occupant's seat).
 * @param {number} a
 * @param {number} b
 */
function swapInvites(a, b) {
  const record = store.tableRecord(S.tableId);
  if (!record || !record.invites) return;
  const invites = {...record.invites};
  const [la, lb] = [invites[a], invites[b]];
  delete invites[a];
  delete invites[b];
  if (lb) invites[a] = lb;
  if (la) invites[b] = la;
  store.updateTable(S.tableId, {invites});
}

/** @param {number} i */
function forgetInvite(i) {
  const record = store.tableRecord(S.tableId);
  if (!record || !record.invites) return;
  const invites = {...record.invites};
  delete invites[i];
  store.updateTable(S.tableId, {invites});
}
