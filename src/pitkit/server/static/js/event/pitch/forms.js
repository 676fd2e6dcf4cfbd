// @ts-check
// The entries of a Pitch tournament as forms: the rosters, seating a Go-Round, a
// table's judge and its cut for the deal, a hand on the score pad (and its
// correction), the judge's initials, a misdeal, an appeal and its ruling. Each form
// keeps what is picked in ctx.forms under its own key; the server decides, and a
// refusal is shown in words under the form (ui.js `note`).
import {capital, h, ordinal, plural} from '../../dom.js';
import {bind, button, names, note} from '../ui.js';
import {SUITS, biddingWords, countWords, eligible, gameByCounts, judgeName, lastRound, signed, tableCounts, tableWords, tkey, view} from './parts.js';

/** @typedef {import('../contract.js').EventContext} EventContext */
/** @typedef {import('./parts.js').PitchTable} PitchTable */
/** @typedef {import('./parts.js').PadLine} PadLine */
/** @typedef {import('./parts.js').Appeal} Appeal */
/** @typedef {import('./parts.js').Pending} Pending */
/** @typedef {import('../../dom.js').Child} Child */

/**
 * An element id from a form's key ("r1t2:pad" → "r1t2-pad").
 * @param {string} key
 */
function idOf(key) {
  return key.replace(/[^A-Za-z0-9_-]/g, '-');
}

/**
 * Forget what a form holds.
 * @param {EventContext} ctx
 * @param {string} key
 */
function clear(ctx, key) {
  for (const k of Object.keys(ctx.forms)) if (k.startsWith(`${key}:`)) delete ctx.forms[k];
}

/**
 * A labelled select bound to `ctx.forms[key]`.
 * @param {EventContext} ctx
 * @param {string} key
 * @param {string} label
 * @param {[string, string][]} options value and words; '' is "—" (nothing picked)
 * @param {{cls?: string}} [more]
 */
function picker(ctx, key, label, options, {cls = ''} = {}) {
  const id = idOf(key);
  return h('div', {class: `picker${cls ? ` ${cls}` : ''}`},
    h('label', {for: id}, label),
    bind(ctx, key, h('select', {id}, options.map(([value, words]) => h('option', {value}, words)))));
}

/**
 * The last words on a table's entries (`kinds`: cut, pad, fix, confirm, rule, appeal,
 * misdeal, judge). The forms themselves say nothing: a form goes once its entry is
 * made (the cut entered, the hand recorded), and the words must stay; each page puts
 * these where they stay in view.
 * @param {EventContext} ctx
 * @param {{round: number, table: number}} t
 * @param {string[]} kinds
 */
export function tableNotes(ctx, t, kinds) {
  return h('div', {class: 'table-notes', 'data-key': `notes-${tkey(t)}-${kinds.join('-')}`}, kinds.map((k) => note(ctx, `${tkey(t)}:${k}`)));
}

/**
 * A button that opens one of a table's forms (and closes it again).
 * @param {EventContext} ctx
 * @param {PitchTable} t
 * @param {string} which
 * @param {string} label
 * @param {{disabled?: boolean}} [options]
 */
export function opener(ctx, t, which, label, {disabled = false} = {}) {
  const key = `${tkey(t)}:open`;
  const open = ctx.forms[key] === which;
  const b = button(ctx, label, () => {
    ctx.forms[key] = open ? null : which;
    ctx.redraw();
  }, {action: `open-${which}`, disabled});
  b.setAttribute('aria-expanded', String(open));
  if (open) b.classList.add('pressed');
  return b;
}

/**
 * Add a player or a judge; the server makes their secret link, shown once (this
 * browser keeps it for the manager to copy). A judge's initials default to the
 * first letters of their name.
 * @param {EventContext} ctx
 * @param {'player' | 'judge'} role
 */
export function addForm(ctx, role) {
  const key = role === 'player' ? 'addp' : 'addj';
  const v = view(ctx);
  const name = String(ctx.forms[`${key}:name`] || '').trim();
  const initials = String(ctx.forms[`${key}:initials`] || '').trim();
  const closed = role === 'player' && v.rounds.length > 0;
  const submit = async () => {
    if (!name) return;
    /** @type {Record<string, unknown>} */
    const data = {name};
    if (initials) data.initials = initials;
    const ok = await ctx.enter(role === 'player' ? 'add_player' : 'add_judge', data, {where: key,
      done: role === 'player' ? `${name} is on the roster: hand them their link below.` : `${name} is a judge: hand them their link below.`});
    if (ok) { clear(ctx, key); ctx.redraw(); }
  };
  if (closed) return h('p', {class: 'note', 'data-key': key}, 'The roster closed when Go-Round 1 was seated.');
  const add = button(ctx, role === 'player' ? 'Add player' : 'Add judge', submit, {primary: true, disabled: !name, action: `add-${role}`});
  return h('form', {class: `entry-form add-form add-${role}`, 'data-key': key, 'data-form': `add-${role}`},
    h('div', {class: 'form-row'},
      h('label', {for: `add-${role}-name`}, role === 'player' ? 'Player' : 'Judge'),
      bind(ctx, `${key}:name`, h('input', {id: `add-${role}-name`, maxlength: 40, autocomplete: 'off', size: 14,
        placeholder: role === 'player' ? 'New player' : 'New judge'})),
      role === 'player' ? add : null),
    role === 'judge' ? h('div', {class: 'form-row'},
      h('label', {for: 'add-judge-initials'}, 'Initials'),
      bind(ctx, `${key}:initials`, h('input', {id: 'add-judge-initials', maxlength: 8, autocomplete: 'off', size: 5,
        placeholder: name ? name.split(/\s+/).map((w) => w[0] || '').join('').toUpperCase().slice(0, 8) : 'JD'})),
      h('small', {class: 'note'}, 'on the pads; blank: the name\'s first letters'),
      add) : null,
    note(ctx, key));
}

/**
 * Who is not seated for not being checked in, at an event that checks its players in.
 * @param {import('./parts.js').PitchView} v
 */
function absentNote(v) {
  const away = v.check_in.on ? v.check_in.absent.filter((p) => !v.disqualified.some((d) => d.player === p)) : [];
  return away.length ? h('p', {class: 'note absent-note'}, `Not checked in, so not seated: ${names(away)}.`) : null;
}

/**
 * Seat the next Go-Round: by standing (the best spread round the tables) or by
 * draw (the server shuffles, and keeps the draw in the log), how many tables, and
 * a judge for each. By standing, the tables are shown before they are seated. Its
 * words (`note(ctx, 'seat')`) are the desk's to show: the form goes once it is done.
 * @param {EventContext} ctx
 */
export function seatForm(ctx) {
  const v = view(ctx);
  const key = 'seat';
  const last = lastRound(v);
  const number = last ? last.round + 1 : 1;
  const players = eligible(v);
  const counts = tableCounts(v, players.length);
  const [least, most] = v.rules.seats;
  if (!counts.length) {
    return h('div', {'data-key': key}, h('p', {class: 'note'},
      `${plural(players.length, 'player')} to seat: Go-Round ${number} needs at least ${least}.`), absentNote(v));
  }
  // Go-Round 1 is drawn unless the manager picks roster order (the server seeds the draw).
  const by = (ctx.forms['seat:by'] || (number === 1 ? 'draw' : 'standing')) === 'draw' ? 'draw' : 'standing';
  ctx.forms['seat:by'] = by;
  const fewest = counts[0];
  const count = counts.includes(Number(ctx.forms['seat:tables'])) ? Number(ctx.forms['seat:tables']) : fewest;
  ctx.forms['seat:tables'] = String(count);
  const sizes = Array.from({length: count}, (_, i) => Math.floor(players.length / count) + (i < players.length % count ? 1 : 0));
  /** @param {number} c */
  const sizeWords = (c) => {
    const s = Array.from({length: c}, (_, i) => Math.floor(players.length / c) + (i < players.length % c ? 1 : 0));
    const big = s.filter((x) => x === s[0]).length;
    const rest = s.length - big;
    return c === 1 ? `one table of ${s[0]}: the final` : `${c} tables: ${big} of ${s[0]}${rest ? `, ${rest} of ${s[s.length - 1]}` : ''}`;
  };
  const judges = v.judges.map((j) => j.name);
  // A judge a table, in the roster's order, until the manager picks otherwise (and
  // again when the judges or the tables change).
  const plan = `${judges.join('|')}/${count}`;
  if (ctx.forms['seat:plan'] !== plan) {
    ctx.forms['seat:plan'] = plan;
    for (let i = 0; i < count; i++) ctx.forms[`seat:judge${i}`] = judges[i] || '';
  }
  const chosen = Array.from({length: count}, (_, i) => String(ctx.forms[`seat:judge${i}`] || ''));
  const preview = by === 'standing' ? Array.from({length: count}, (_, j) => players.filter((_, i) => i % count === j)) : null;
  const submit = async () => {
    /** @type {Record<string, unknown>} */
    const data = {by, tables: count, judges: chosen.map((j) => j || null)};
    const ok = await ctx.enter('seat_round', data, {where: key, done: `Go-Round ${number} is seated: each table's judge enters the cut for the deal.`});
    if (ok) { clear(ctx, key); ctx.redraw(); }
  };
  return h('form', {class: 'entry-form seat-form', 'data-key': key, 'data-form': 'seat-round'},
    h('p', {class: 'note'}, `${plural(players.length, 'player')} ${number === 1 ? (v.check_in.on ? 'checked in' : 'on the roster') : `go on from Go-Round ${number - 1}`}: ${names(players)}. Tables seat ${least} to ${most}.`),
    absentNote(v),
    h('div', {class: 'pickers seat-pickers'},
      picker(ctx, 'seat:by', 'Seat them', [['standing', number === 1 ? 'by standing (roster order)' : 'by standing'], ['draw', 'by draw']]),
      picker(ctx, 'seat:tables', 'Tables', counts.map((c) => [String(c), sizeWords(c)])),
      sizes.map((size, i) => picker(ctx, `seat:judge${i}`, `Judge, table ${i + 1}`,
        [['', 'no judge yet'], ...judges.map((j) => /** @type {[string, string]} */ ([j, judgeName(v, j)]))]))),
    preview
      ? h('ol', {class: 'seat-preview'}, preview.map((t, i) => h('li', {}, h('strong', {}, `Table ${i + 1}: `), t.join(', '),
        h('small', {}, ` · ${chosen[i] ? `judge ${chosen[i]}` : 'no judge yet'}`))))
      : h('p', {class: 'note'}, 'The server draws the tables and keeps the draw in the log, so it never changes.'),
    h('div', {class: 'form-row'},
      button(ctx, count === 1 ? `Seat the final (Go-Round ${number})` : `Seat Go-Round ${number}`, submit, {primary: true, action: 'seat-round'})));
}

/**
 * The manager gives a table a judge (or another one).
 * @param {EventContext} ctx
 * @param {PitchTable} t
 */
export function assignForm(ctx, t) {
  const v = view(ctx);
  const key = `${tkey(t)}:judge`;
  if (ctx.forms[`${key}:who`] === undefined) ctx.forms[`${key}:who`] = t.judge || '';
  const who = String(ctx.forms[`${key}:who`] || '');
  const submit = async () => {
    const ok = await ctx.enter('assign_judge', {round: t.round, table: t.table, judge: who || null},
      {where: key, done: who ? `${who} judges ${tableWords(v, t)}.` : `${capital(tableWords(v, t))} has no judge now.`});
    if (ok) { delete ctx.forms[`${key}:who`]; ctx.redraw(); }
  };
  return h('div', {class: 'inline-form', 'data-key': key, 'data-form': 'assign-judge'},
    h('label', {for: idOf(`${key}:who`)}, 'Judge'),
    bind(ctx, `${key}:who`, h('select', {id: idOf(`${key}:who`)}, h('option', {value: ''}, 'no judge'),
      v.judges.map((j) => h('option', {value: j.name}, judgeName(v, j.name))))),
    button(ctx, 'Assign', submit, {disabled: who === (t.judge || ''), action: 'assign-judge'}));
}

/**
 * The cut for the deal (C3): who won it deals the first hand.
 * @param {EventContext} ctx
 * @param {PitchTable} t
 */
export function cutForm(ctx, t) {
  const key = `${tkey(t)}:cut`;
  const dealer = String(ctx.forms[`${key}:dealer`] || '');
  const submit = async () => {
    const ok = await ctx.enter('cut', {round: t.round, table: t.table, dealer}, {where: key, done: `${dealer} won the cut and deals the first hand.`});
    if (ok) { clear(ctx, key); ctx.redraw(); }
  };
  return h('form', {class: 'entry-form', 'data-key': key, 'data-form': 'cut', 'data-round': t.round, 'data-table': t.table},
    h('h4', {}, 'Cut for the deal'),
    h('p', {class: 'note'}, 'Each player cuts the deck; the high card deals first. Who won the cut?'),
    h('div', {class: 'form-row'},
      h('label', {for: idOf(`${key}:dealer`)}, 'Deals first'),
      bind(ctx, `${key}:dealer`, h('select', {id: idOf(`${key}:dealer`)}, h('option', {value: ''}, '—'), t.players.map((p) => h('option', {value: p}, p)))),
      button(ctx, 'Enter the cut', submit, {primary: true, disabled: !dealer, action: 'cut'})));
}

/**
 * The calls tapped so far, in order, and whose turn it is: the calling order goes round
 * from the dealer's left to the dealer, and again after the dealer runs it (topics 13,
 * 18, 19). What each may call is only offered here; the server checks the bidding by
 * the game's rules and says, in words, what it refuses.
 * @param {string[]} order who calls, the dealer last
 * @param {string[]} calls
 */
function callState(order, calls) {
  const last = order.length - 1;
  let i = 0;
  let ran = false;
  let high = 0;
  /** @type {string | null} */
  let bidder = null;
  let over = false;
  /** @type {string[]} */
  const by = [];
  for (const call of calls) {
    if (over) break;
    by.push(order[i]);
    if (call === 'run') { ran = true; high = 2; bidder = order[last]; i = 0; continue; }
    if (/^[234]$/.test(call)) { high = Number(call); bidder = order[i]; }
    if (i === last) { over = true; break; }
    i += 1;
    // After the run, nobody outbid the dealer: the dealer pitches at 2 without a call.
    if (ran && i === last && bidder === order[last]) over = true;
  }
  return {who: over ? null : order[i], dealer: !over && i === last, ran, high, bidder, over, by};
}

/** The calls as buttons, in the seed's words: the call each sends, and when it may be made. */
const CALLS = /** @type {const} */ ([
  ['pass', 'Pass'], ['2', '2'], ['3', '3'], ['4', '4'],
  ['steal', 'Take it for one more'], ['take', 'Take it for 2'], ['run', 'Run it'], ['sell', 'Sell'],
]);

/**
 * Whether `call` is offered to whoever calls now.
 * @param {ReturnType<typeof callState>} at
 * @param {string} call
 */
function offered(at, call) {
  if (at.over) return false;
  const bid = /^[234]$/.test(call) ? Number(call) : 0;
  if (!at.dealer) return call === 'pass' || (bid > at.high && (!at.ran || bid >= 3));
  if (at.ran) return call === 'sell' || (call === 'steal' && at.high < 4);
  if (at.bidder === null) return call === 'take' || call === 'run';
  return call === 'pass' || (call === 'steal' && at.high < 4);
}

/**
 * The dealer's bidding recorder (topics 13-21): one tap per call, in the order made
 * (Pass, 2, 3, 4, Take it for one more, Take it for 2, Run it, Sell), an Undo, and
 * Record once the bidding is over. Recorded before play, it gives the pad its pitcher
 * and bid, and a misplay its highest bid.
 * @param {EventContext} ctx
 * @param {PitchTable} t
 */
export function biddingForm(ctx, t) {
  const key = `${tkey(t)}:bid`;
  if (t.bidding) {
    return h('div', {class: 'bidding-done', 'data-key': key, 'data-form': 'bidding-done', 'data-round': t.round, 'data-table': t.table},
      h('p', {}, h('strong', {}, 'Bidding: '), biddingWords(t.bidding), '. ',
        h('strong', {}, `${t.bidding.pitcher} pitches for ${t.bidding.bid}.`)));
  }
  const order = t.calling_order;
  /** @type {string[]} */
  const calls = Array.isArray(ctx.forms[`${key}:calls`]) ? ctx.forms[`${key}:calls`] : [];
  const at = callState(order, calls);
  /** @param {string[]} next */
  const set = (next) => { ctx.forms[`${key}:calls`] = next; ctx.redraw(); };
  const submit = async () => {
    const ok = await ctx.enter('bidding', {round: t.round, table: t.table, calls}, {where: key, done: 'The bidding is on the pad.'});
    if (ok) { clear(ctx, key); ctx.redraw(); }
  };
  const said = calls.map((call, n) => {
    const words = (CALLS.find(([c]) => c === call) || [call, call])[1];
    return h('li', {}, h('strong', {}, at.by[n] || ''), ` · ${words}`);
  });
  return h('form', {class: 'entry-form bidding-form', 'data-key': key, 'data-form': 'bidding', 'data-round': t.round, 'data-table': t.table},
    h('h4', {}, `The bidding of line ${t.next_line}`),
    h('p', {class: 'note'}, `Tap each call as it is made: ${order.join(', ')} (the dealer last).`),
    calls.length ? h('ol', {class: 'calls-made', 'aria-label': 'Calls so far'}, said) : null,
    h('p', {class: 'to-call', 'aria-live': 'polite'}, at.over ? 'The bidding is over: record it.' : h('span', {}, h('strong', {}, at.who), at.dealer ? ' (the dealer) calls:' : ' calls:')),
    h('div', {class: 'button-row left call-buttons', role: 'group', 'aria-label': 'Calls'},
      CALLS.map(([call, words]) => button(ctx, words, () => set([...calls, call]), {action: `call-${call}`, disabled: !offered(at, call)}))),
    h('div', {class: 'form-row'},
      button(ctx, 'Record the bidding', submit, {primary: true, disabled: !at.over, action: 'record-bidding'}),
      button(ctx, 'Undo', () => set(calls.slice(0, -1)), {disabled: !calls.length, action: 'undo-call'})),
    note(ctx, key));
}

/**
 * What a pad line would do to the scores (C8): each point to its winner; a pitcher
 * short of the bid loses it and scores none of the hand's points.
 * @param {{bid: number, pitcher: string, high: string, low: string, jack: string | null, game: string | null}} pad
 */
export function padChanges(pad) {
  /** @type {Record<string, number>} */
  const won = {};
  for (const who of [pad.high, pad.low, pad.jack, pad.game]) if (who) won[who] = (won[who] || 0) + 1;
  const made = (won[pad.pitcher] || 0) >= pad.bid;
  if (!made) won[pad.pitcher] = -pad.bid;
  return {made, changes: won};
}

/**
 * The dealer's score pad line for the hand just played (topic 35): the bid, the
 * pitcher, trump, who took high, low, Jack (or "not dealt") and game (or "a tie").
 * With `fix`, a pending line is corrected (the log keeps both). A line recorded here
 * that waits to be sent (no network) is said instead of the form.
 * @param {EventContext} ctx
 * @param {PitchTable} t
 * @param {PadLine | null} [fix]
 */
export function padForm(ctx, t, fix = null) {
  const key = `${tkey(t)}:${fix ? 'fix' : 'pad'}`;
  const queued = fix ? null : ctx.waiting.find((w) => w.type === 'hand' && !w.corrects && w.data.round === t.round && w.data.table === t.table);
  if (queued) {
    // Recorded here with no network: the next line is the next dealer's, once it lands.
    return h('p', {class: 'entry-form pad-waiting', 'data-key': key, 'data-form': 'pad-waiting', 'data-round': t.round, 'data-table': t.table},
      `Line ${queued.data.line} is recorded on this phone, waiting to send: it goes on the pad by itself when the network is back.`);
  }
  const players = fix ? fix.seated : t.seated;
  if (fix && fix.pad && ctx.forms[`${key}:of`] !== fix.line) {
    clear(ctx, key);
    const p = fix.pad;
    Object.assign(ctx.forms, {[`${key}:of`]: fix.line, [`${key}:bid`]: String(p.bid), [`${key}:pitcher`]: p.pitcher, [`${key}:trump`]: p.trump,
      [`${key}:high`]: p.high, [`${key}:low`]: p.low, [`${key}:jack`]: p.jack || 'none', [`${key}:game`]: p.game || 'tie'});
  }
  const line = fix ? fix.line : Number(ctx.forms[`${key}:line`] ?? t.next_line);
  /** @param {string} k */
  const got = (k) => String(ctx.forms[`${key}:${k}`] || '');
  // The bidding recorded for the hand in play gives its pitcher and bid.
  const bidding = fix ? null : t.bidding;
  if (bidding) Object.assign(ctx.forms, {[`${key}:bid`]: String(bidding.bid), [`${key}:pitcher`]: bidding.pitcher});
  const ready = ['bid', 'pitcher', 'trump', 'high', 'low', 'jack', 'game'].every((k) => got(k));
  const pad = ready ? {bid: Number(got('bid')), pitcher: got('pitcher'), trump: got('trump'), high: got('high'), low: got('low'),
    jack: got('jack') === 'none' ? null : got('jack'), game: got('game') === 'tie' ? null : got('game')} : null;
  /** @type {Child} */
  let preview = h('p', {class: 'pad-preview note'}, 'Pick every point: the pad shows what it scores before you record it.');
  if (pad) {
    const {made, changes} = padChanges(pad);
    preview = h('p', {class: `pad-preview ${made ? 'made' : 'set'}`, 'data-key': 'preview'},
      made ? `${pad.pitcher} makes the bid of ${pad.bid}. ` : `${pad.pitcher} is set back ${pad.bid}. `,
      'On the pad: ', players.map((p) => `${p} ${signed(changes[p] || 0)}`).join(', '), '.');
  }
  const judge = t.judge ? `judge ${t.judge}` : 'the judge';
  const submit = async () => {
    if (!pad) return;
    /** @type {Record<string, unknown>} */
    const data = {round: t.round, table: t.table, line, ...pad};
    if (bidding) { delete data.bid; delete data.pitcher; }
    const ok = await ctx.enter('hand', data, fix
      ? {corrects: fix.entry, where: key, done: `Line ${line} is corrected; it still waits for ${judge}'s initials.`}
      : {where: key, done: `Line ${line} is on the pad: call ${judge} to check the tricks and initial it.`});
    // Refused: the picks stay, and the form follows the pad again (its next line).
    if (ok) clear(ctx, key);
    else delete ctx.forms[`${key}:line`];
    if (ok && fix) delete ctx.forms[`${tkey(t)}:open`];
    ctx.redraw();
  };
  const remember = () => {
    if (!fix && ctx.forms[`${key}:line`] == null) ctx.forms[`${key}:line`] = t.next_line;
  };
  const who = /** @type {[string, string][]} */ ([['', '—'], ...players.map((p) => [p, p])]);
  const fields = [
    bidding ? null : picker(ctx, `${key}:bid`, 'Bid', [['', '—'], ['2', '2'], ['3', '3'], ['4', '4']]),
    bidding ? null : picker(ctx, `${key}:pitcher`, 'Pitcher', who),
    picker(ctx, `${key}:trump`, 'Trump', [['', '—'], ...SUITS.map(([l, sym, name]) => /** @type {[string, string]} */ ([l, `${sym} ${name}`]))]),
    picker(ctx, `${key}:high`, 'High', who),
    picker(ctx, `${key}:low`, 'Low', who),
    picker(ctx, `${key}:jack`, 'Jack', [['', '—'], ['none', 'not dealt'], ...players.map((p) => /** @type {[string, string]} */ ([p, p]))]),
    picker(ctx, `${key}:game`, 'Game', [['', '—'], ['tie', 'a tie: nobody'], ...players.map((p) => /** @type {[string, string]} */ ([p, p]))]),
  ];
  // Picking anything fixes the line this form is for (it may be entered meanwhile elsewhere).
  for (const f of fields) {
    if (!f) continue;
    const select = /** @type {HTMLSelectElement} */ (f.querySelector('select'));
    const changed = select.onchange;
    select.onchange = (e) => { remember(); if (changed) changed.call(select, e); };
  }
  const form = h('form', {class: 'entry-form pad-form', 'data-key': key, 'data-form': fix ? 'fix' : 'pad', 'data-round': t.round, 'data-table': t.table},
    h('h4', {}, fix ? `Correct line ${line} of the pad` : `Line ${line}: the hand ${t.dealer || 'the dealer'} dealt`),
    h('p', {class: 'note'}, fix ? `Entered as entry #${fix.entry}. It can change until the judge initials it; the log keeps both.`
      : `Once the hand is played: who pitched and for how much, trump, and who took each point. ${plural(players.length, 'player')} played: ${names(players)}.`),
    h('div', {class: 'pickers pad-pickers'}, fields),
    preview,
    h('div', {class: 'form-row'},
      button(ctx, fix ? `Correct line ${line}` : `Record line ${line}`, submit, {primary: true, disabled: !pad, action: fix ? 'correct-line' : 'record-hand'}),
      button(ctx, fix ? 'Cancel' : 'Clear', () => {
        clear(ctx, key);
        delete ctx.notes[key];
        if (fix) delete ctx.forms[`${tkey(t)}:open`];
        ctx.redraw();
      })));
  // The hand's bidding first, as it is made: a form of its own, beside the line's.
  return fix ? form : h('div', {class: 'pad-forms', 'data-key': `${key}:both`}, biddingForm(ctx, t), form);
}

/**
 * The judge initials a pending pad line: one click, the judge's own initials. The
 * manager types theirs (`initials`) once on the desk.
 * @param {EventContext} ctx
 * @param {Pending} p
 * @param {string} initials
 * @param {boolean} given the initials go with the entry (the manager's)
 */
export function confirmButton(ctx, p, initials, given) {
  const where = `${tkey(p)}:confirm`;
  const key = `${where}:${p.line}`;
  /** @type {Record<string, unknown>} */
  const data = {round: p.round, table: p.table, line: p.line};
  if (given) data.initials = initials;
  // Each player's counted game points (topic 31): typed by the judge, or those the line
  // was recorded with; all of them or none.
  const typed = p.players.map((who) => String(ctx.forms[`${key}:${who}`] ?? ''));
  /** @type {Record<string, number> | null} */
  let counts = p.counts;
  if (!counts && typed.every((x) => /^\d+$/.test(x))) counts = Object.fromEntries(p.players.map((who, i) => [who, Number(typed[i])]));
  if (counts) data.counts = counts;
  const follows = counts ? gameByCounts(counts) : undefined;
  const against = follows !== undefined && follows !== p.game;
  // Initialled here with no network: it waits to be sent, and is not initialled twice.
  const queued = ctx.waiting.some((w) => w.type === 'confirm' && w.data.round === p.round && w.data.table === p.table && w.data.line === p.line);
  const b = button(ctx, queued ? `Line ${p.line}: initialled, waiting to send` : initials ? `Initial line ${p.line} · ${initials}` : `Initial line ${p.line}`, () => {
    ctx.enter('confirm', data, {where, done: `Line ${p.line} is initialled ${initials}${counts ? `, with the game points counted (${countWords(counts)})` : ''}.`});
  }, {primary: !queued, action: 'confirm', disabled: !initials || queued, title: initials ? `Confirm line ${p.line} with the initials ${initials}` : 'Type your initials first'});
  b.dataset.line = String(p.line);
  const fields = p.counts ? h('p', {class: 'note'}, `Counted when recorded: ${countWords(p.counts)}.`)
    : h('div', {class: 'pickers count-fields'}, p.players.map((who) => {
      const id = idOf(`${key}:${who}`);
      return h('div', {class: 'picker count-field'}, h('label', {for: id}, who),
        bind(ctx, `${key}:${who}`, h('input', {id, type: 'number', inputmode: 'numeric', min: 0, max: 80, size: 3, autocomplete: 'off'})));
    }));
  return h('div', {class: 'confirm-box', 'data-key': `confirm-${key}`, 'data-line': p.line},
    h('fieldset', {class: 'counts'},
      h('legend', {}, `Line ${p.line}: game points counted in each player's tricks`),
      fields,
      counts ? h('p', {class: `count-verdict${against ? ' error' : ''}`, 'data-verdict': p.line},
        follows ? `${follows} takes the game point` : 'A tie: nobody takes the game point',
        against ? `, but the line says ${p.game || 'a tie'}: have the line corrected first.` : ', as the line says.') : null),
    b);
}

/**
 * An open appeal, and the judge's three rulings (topic 37): correctable (the cards
 * are replayed), not correctable (the offender loses the hand's highest bid and
 * sits out the next hand; the hand is dealt again), or no misplay. A second misplay
 * in the Go-Round disqualifies, whichever the ruling (topic 38).
 * @param {EventContext} ctx
 * @param {Appeal} a
 * @param {PitchTable} t
 * @param {string | null} initials the manager's, when the desk rules
 */
export function rulingBox(ctx, a, t, initials = null) {
  const where = `${tkey(t)}:rule`;
  const bidKey = `a${a.appeal}:rule:bid`;
  // The bidding recorded for the misplayed hand gives its highest bid (topic 37).
  const recorded = t.bidding;
  const bid = recorded ? String(recorded.highest) : String(ctx.forms[bidKey] || '');
  const earlier = t.misplays[a.offender] || 0;
  /** @param {Record<string, unknown>} data */
  const signedBy = (data) => (initials ? {...data, initials} : data);
  const out = earlier + 1 >= 2;
  const rule = (/** @type {boolean} */ correctable) => ctx.enter('rule_misplay',
    signedBy(correctable || recorded ? {appeal: a.appeal, correctable} : {appeal: a.appeal, correctable, highest_bid: Number(bid)}),
    {where, done: out ? `${a.offender}'s second misplay in Go-Round ${t.round}: ${a.offender} is disqualified.`
      : correctable ? `A correctable misplay by ${a.offender}: the cards are replayed.`
        : `${a.offender} loses ${bid} and sits out the next hand; the hand is dealt again.`});
  return h('div', {class: 'ruling-box', 'data-key': `appeal-${a.appeal}`, 'data-appeal': a.appeal, 'data-round': a.round, 'data-table': a.table},
    h('p', {class: 'ruling-what'}, h('strong', {}, `Appeal #${a.appeal}`), ` at ${tableWords(view(ctx), t)}: ${a.by} says `, h('strong', {}, a.offender), ' misplayed',
      a.note ? ` (“${a.note}”)` : '', '.'),
    out ? h('p', {class: 'ev-note error'}, `This would be ${a.offender}'s ${ordinal(earlier + 1)} misplay in Go-Round ${t.round}: either misplay ruling disqualifies ${a.offender}.`)
      : earlier ? null : h('p', {class: 'note'}, `${a.offender} has no misplay in this Go-Round yet. Rule it correctable if the cards can be replayed as they should have been.`),
    h('div', {class: 'ruling-buttons'},
      button(ctx, 'Correctable: replay the cards', () => rule(true), {primary: true, action: 'rule-correctable'}),
      h('span', {class: 'ruling-not'},
        recorded
          ? h('span', {class: 'highest-bid', 'data-highest': recorded.highest}, `Highest bid in the hand: ${recorded.highest} (from the bidding recorded: ${biddingWords(recorded)})`)
          : [h('label', {for: idOf(bidKey)}, 'Highest bid in the hand'),
            bind(ctx, bidKey, h('select', {id: idOf(bidKey)}, h('option', {value: ''}, '—'), ['2', '3', '4'].map((n) => h('option', {value: n}, n))))],
        button(ctx, bid ? `Not correctable: ${a.offender} loses ${bid}` : 'Not correctable', () => rule(false),
          {danger: true, disabled: !bid, action: 'rule-uncorrectable', title: bid ? undefined : 'Pick the highest bid made in the misplayed hand first'})),
      button(ctx, 'Dismiss: no misplay', () => ctx.enter('dismiss_appeal', {appeal: a.appeal}, {where, done: `Appeal #${a.appeal} is dismissed: no misplay.`}),
        {action: 'dismiss-appeal'})));
}

/** When a misdeal was found (topic 11), and what follows. */
const FOUND = /** @type {const} */ ([
  ['before_play', 'before any card was played: the dealer deals again'],
  ['during_play', 'during play: the hand is void, the dealer forfeits the deal'],
  ['after_hand', 'after the hand: the last line is void, the dealer forfeits the deal'],
]);

/**
 * The judge rules a misdeal (topic 11).
 * @param {EventContext} ctx
 * @param {PitchTable} t
 * @param {string | null} initials the manager's, when the desk rules
 */
export function misdealForm(ctx, t, initials = null) {
  const key = `${tkey(t)}:misdeal`;
  const found = String(ctx.forms[`${key}:found`] || '');
  const submit = async () => {
    /** @type {Record<string, unknown>} */
    const data = {round: t.round, table: t.table, found};
    if (initials) data.initials = initials;
    const ok = await ctx.enter('misdeal', data, {where: key, done: `The misdeal is on the pad (${(FOUND.find(([f]) => f === found) || ['', ''])[1]}).`});
    if (ok) { clear(ctx, key); delete ctx.forms[`${tkey(t)}:open`]; ctx.redraw(); }
  };
  return h('form', {class: 'entry-form', 'data-key': key, 'data-form': 'misdeal', 'data-round': t.round, 'data-table': t.table},
    h('h4', {}, `A misdeal at ${tableWords(view(ctx), t)}`),
    h('p', {class: 'note'}, 'A player received the wrong number of cards. When was it found?'),
    h('div', {class: 'form-row'},
      h('label', {for: idOf(`${key}:found`)}, 'Found'),
      bind(ctx, `${key}:found`, h('select', {id: idOf(`${key}:found`)}, h('option', {value: ''}, '—'),
        FOUND.map(([value, words]) => h('option', {value}, words)))),
      button(ctx, 'Rule the misdeal', submit, {primary: true, disabled: !found, action: 'misdeal'})));
}

/**
 * Appeal to the table's judge: someone playing this hand misplayed (topic 37).
 * @param {EventContext} ctx
 * @param {PitchTable} t
 * @param {string | null} me a player does not name themselves
 */
export function appealForm(ctx, t, me = null) {
  const key = `${tkey(t)}:appeal`;
  const offender = String(ctx.forms[`${key}:who`] || '');
  const text = String(ctx.forms[`${key}:note`] || '').trim();
  const judge = t.judge ? `judge ${t.judge}` : 'the judge';
  const submit = async () => {
    /** @type {Record<string, unknown>} */
    const data = {round: t.round, table: t.table, offender};
    if (text) data.note = text;
    const ok = await ctx.enter('appeal', data, {where: key, done: `Your appeal is with ${judge}: play stops until the ruling.`});
    if (ok) { clear(ctx, key); delete ctx.forms[`${tkey(t)}:open`]; ctx.redraw(); }
  };
  return h('form', {class: 'entry-form', 'data-key': key, 'data-form': 'appeal', 'data-round': t.round, 'data-table': t.table},
    h('h4', {}, `Appeal a misplay to ${judge}`),
    h('p', {class: 'note'}, 'A player did not play by the rules (say, did not follow suit). The judge rules whether the cards can be replayed.'),
    h('div', {class: 'form-row'},
      h('label', {for: idOf(`${key}:who`)}, 'Who misplayed'),
      bind(ctx, `${key}:who`, h('select', {id: idOf(`${key}:who`)}, h('option', {value: ''}, '—'),
        t.seated.filter((p) => p !== me).map((p) => h('option', {value: p}, p))))),
    h('div', {class: 'form-row'},
      h('label', {for: idOf(`${key}:note`)}, 'What happened'),
      bind(ctx, `${key}:note`, h('input', {id: idOf(`${key}:note`), maxlength: 200, autocomplete: 'off', placeholder: 'optional, e.g. did not follow suit'}))),
    h('div', {class: 'form-row'},
      button(ctx, `Appeal to ${judge}`, submit, {primary: true, disabled: !offender, action: 'appeal'}),
      button(ctx, 'Cancel', () => { clear(ctx, key); delete ctx.notes[key]; delete ctx.forms[`${tkey(t)}:open`]; ctx.redraw(); })));
}
