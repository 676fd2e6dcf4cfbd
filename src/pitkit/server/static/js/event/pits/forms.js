// @ts-check
// The entries of a Pits evening as forms: a hand's finishing order (and its
// correction), a new player, a new game, a quit, ruling a sheet off, signing it.
// Each form keeps what is picked in ctx.forms under its own key; the server decides,
// and a refusal is shown in words under the form (ui.js `note`).
import {h, ordinal, plural} from '../../dom.js';
import {bind, button, note} from '../ui.js';
import {PLACES, firstDealerWords, freePlayers, orderText, view} from './parts.js';

/** @typedef {import('../contract.js').EventContext} EventContext */
/** @typedef {import('./parts.js').Game} Game */

/**
 * An element id from a form's key ("g1:hand" → "g1-hand").
 * @param {string} key
 */
function idOf(key) {
  return key.replace(/[^A-Za-z0-9_-]/g, '-');
}

/**
 * The five pickers of a finishing order, 1st to 5th: each offers the five at the
 * table, and each name goes once: picking a name that another picker holds swaps the
 * two. When four are picked, the fifth fills itself.
 * @param {EventContext} ctx
 * @param {string} key
 * @param {string[]} players
 */
function pickers(ctx, key, players) {
  const picked = [0, 1, 2, 3, 4].map((i) => String(ctx.forms[`${key}:p${i}`] || ''));
  return h('div', {class: 'pickers', role: 'group', 'aria-label': 'Finishing order, 1st to 5th'},
    PLACES.map((place, i) => {
      const id = `${idOf(key)}-p${i}`;
      const select = h('select', {id},
        h('option', {value: ''}, '—'),
        players.map((p) => {
          const at = picked.indexOf(p);
          return h('option', {value: p}, at >= 0 && at !== i ? `${p} (${ordinal(at + 1)})` : p);
        }));
      bind(ctx, `${key}:p${i}`, select, (value) => {
        const other = picked.indexOf(value);
        if (value && other >= 0 && other !== i) ctx.forms[`${key}:p${other}`] = picked[i];
        const now = [0, 1, 2, 3, 4].map((j) => String(ctx.forms[`${key}:p${j}`] || ''));
        const empty = now.flatMap((name, j) => (name ? [] : [j]));
        const rest = players.filter((p) => !now.includes(p));
        if (empty.length === 1 && rest.length === 1) ctx.forms[`${key}:p${empty[0]}`] = rest[0];
        if (ctx.forms[`${key}:hand`] == null) ctx.forms[`${key}:hand`] = ctx.forms[`${key}:next`];
      });
      return h('div', {class: `picker${i === 2 ? ' deals' : ''}`},
        h('label', {for: id}, place), select);
    }));
}

/**
 * The order picked in a form's pickers (null until all five are).
 * @param {EventContext} ctx
 * @param {string} key
 */
function pickedOrder(ctx, key) {
  const order = [0, 1, 2, 3, 4].map((i) => String(ctx.forms[`${key}:p${i}`] || ''));
  return order.every(Boolean) && new Set(order).size === 5 ? order : null;
}

/**
 * @param {EventContext} ctx
 * @param {string} key
 */
function clearPicks(ctx, key) {
  for (const i of [0, 1, 2, 3, 4]) delete ctx.forms[`${key}:p${i}`];
  delete ctx.forms[`${key}:hand`];
}

/**
 * Who deals the first hand (seeds/pits-bga.txt: "chosen at random, usually the first
 * person to turn up a Jack"): the scorer picks who won the draw at the table, or asks
 * the server to draw, turning up the cards from a seeded shuffle until the first Jack.
 * Once recorded, it is said in a line.
 * @param {EventContext} ctx
 * @param {Game} g
 */
export function firstDealerForm(ctx, g) {
  const key = `g${g.game}:first`;
  if (g.first_dealer) {
    return h('div', {class: 'first-dealer-done', 'data-key': key},
      h('p', {class: 'note'}, firstDealerWords(g.first_dealer), '.'), note(ctx, key));
  }
  const who = String(ctx.forms[`${key}:who`] || '');
  const players = g.hands.length ? g.seats.map((seat) => seat[0]) : g.at_table;
  /** @param {Record<string, unknown>} data @param {string} done */
  const record = async (data, done) => {
    const ok = await ctx.enter('first_dealer', {game: g.game, ...data}, {where: key, done});
    if (ok) { clear(ctx, key); ctx.redraw(); }
  };
  const id = `${idOf(key)}-who`;
  return h('div', {class: 'entry-form first-dealer-form', 'data-key': key, 'data-form': 'first-dealer', 'data-game': g.game},
    h('div', {class: 'form-row'},
      h('label', {for: id}, 'Deals the first hand'),
      bind(ctx, `${key}:who`, h('select', {id}, h('option', {value: ''}, '—'), players.map((p) => h('option', {value: p}, p)))),
      button(ctx, 'Record', () => record({dealer: who}, `${who} deals the first hand.`), {disabled: !who, action: 'first-dealer'}),
      g.hands.length ? null : button(ctx, 'Draw for me', () => record({draw: true}, 'Drawn: the first Jack turned up deals.'),
        {action: 'draw-dealer', title: 'The server turns up the cards of a shuffled pack one at a time round the table; the first Jack deals'})),
    note(ctx, key));
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
 * The scorer's form (the manager's too): the next hand's finishing order. The hand's
 * number is the one next when the first name is picked (after the hands waiting to
 * be sent from this phone): if someone enters it first, the server refuses this one
 * and says so.
 * @param {EventContext} ctx
 * @param {Game} g
 */
export function handForm(ctx, g) {
  const key = `g${g.game}:hand`;
  // Hands entered here that wait to be sent (no network) come before the next one.
  const queued = ctx.waiting.filter((w) => w.type === 'hand' && !w.corrects && w.data.game === g.game).map((w) => Number(w.data.hand));
  const next = Math.max(g.hands.length, ...queued) + 1;
  ctx.forms[`${key}:next`] = next;
  const hand = Number(ctx.forms[`${key}:hand`] ?? next);
  const order = pickedOrder(ctx, key);
  const submit = async () => {
    if (!order) return;
    // Entered or refused (entered meanwhile from elsewhere...), the picks are spent.
    await ctx.enter('hand', {game: g.game, hand, order}, {where: key, done: `Hand ${hand} is entered: ${orderText(order)}.`});
    clearPicks(ctx, key);
    ctx.redraw();
  };
  return h('form', {class: 'entry-form hand-form', 'data-key': key, 'data-form': 'hand', 'data-game': g.game},
    g.hands.length && g.first_dealer ? null : firstDealerForm(ctx, g),
    h('h4', {}, `Hand ${hand} of ${g.table}: the finishing order`),
    h('p', {class: 'note'}, 'Who went out 1st, 2nd, 3rd… The 3rd deals the next hand.'),
    pickers(ctx, key, g.at_table),
    h('div', {class: 'form-row'},
      button(ctx, `Enter hand ${hand}`, submit, {primary: true, disabled: !order, action: 'enter-hand'}),
      button(ctx, 'Clear', () => { clearPicks(ctx, key); delete ctx.notes[key]; ctx.redraw(); })),
    note(ctx, key));
}

/**
 * Correct a hand already entered: choose it, pick its order again. The new entry
 * names the old one (`corrects`), which the log keeps.
 * @param {EventContext} ctx
 * @param {Game} g
 */
export function correctForm(ctx, g) {
  const key = `g${g.game}:fix`;
  const which = Number(ctx.forms[`${key}:which`] || g.hands.length);
  const hand = g.hands[which - 1];
  const order = pickedOrder(ctx, key);
  const choose = h('select', {id: `${idOf(key)}-which`},
    g.hands.map((x) => h('option', {value: x.hand}, `Hand ${x.hand}: ${x.order.join(', ')}`)));
  bind(ctx, `${key}:which`, choose, (value) => {
    const chosen = g.hands[Number(value) - 1];
    chosen.order.forEach((p, i) => { ctx.forms[`${key}:p${i}`] = p; });
  });
  if (ctx.forms[`${key}:which`] == null && hand) {
    ctx.forms[`${key}:which`] = String(hand.hand);
    hand.order.forEach((p, i) => { ctx.forms[`${key}:p${i}`] ??= p; });
  }
  const players = [...new Set([...(hand ? hand.order : []), ...g.at_table])];
  const submit = async () => {
    if (!order || !hand) return;
    const ok = await ctx.enter('hand', {game: g.game, hand: hand.hand, order}, {corrects: hand.entry, where: key,
      done: `Hand ${hand.hand} is corrected: ${orderText(order)}.`});
    if (ok) {
      for (const k of Object.keys(ctx.forms)) if (k.startsWith(`${key}:`)) delete ctx.forms[k];
      ctx.redraw();
    }
  };
  return h('form', {class: 'entry-form', 'data-key': key, 'data-form': 'correct', 'data-game': g.game},
    h('h4', {}, `Correct a hand of ${g.table}`),
    h('div', {class: 'form-row'}, h('label', {for: `${idOf(key)}-which`}, 'Hand'), choose),
    hand ? h('p', {class: 'note'}, `Entered as entry #${hand.entry}: ${orderText(hand.order)}. Pick the right order; the log keeps both.`) : null,
    pickers(ctx, key, players),
    h('div', {class: 'form-row'},
      button(ctx, hand ? `Correct hand ${hand.hand}` : 'Correct', submit, {primary: true, disabled: !order || !hand, action: 'correct-hand'})),
    note(ctx, key));
}

/**
 * A player leaves a table. Before ten hands a replacement from the free players takes
 * the seat from 0 (the quitter's score freezes); from ten hands on the quit ends the
 * game and the sheet is ruled off. `who`: the quitter (a player quitting for
 * themselves), else the manager picks.
 * @param {EventContext} ctx
 * @param {Game} g
 * @param {string | null} who
 */
export function quitForm(ctx, g, who = null) {
  const v = view(ctx);
  const key = `g${g.game}:quit`;
  const player = who || String(ctx.forms[`${key}:who`] || '');
  const free = freePlayers(v);
  const replacement = String(ctx.forms[`${key}:by`] || '');
  const needs = !g.complete;
  if (who && needs && g.online) {
    // At an online table the manager records a quit before the last hand, and names
    // who takes the seat: the quitter's seat closes at once (a stand-in plays it).
    return h('div', {class: 'entry-form', 'data-form': 'quit', 'data-game': g.game},
      h('h4', {}, 'Quit this game'),
      h('p', {class: 'note'}, `This game is played online: ask the manager to record your quit. They choose who takes your seat, and a bot plays it meanwhile.`));
  }
  /** @type {import('../../dom.js').Child[]} */
  const fields = [];
  if (!who) {
    const pick = h('select', {id: `${idOf(key)}-who`}, h('option', {value: ''}, '—'), g.at_table.map((p) => h('option', {value: p}, p)));
    fields.push(h('label', {for: `${idOf(key)}-who`}, 'Who quits'), bind(ctx, `${key}:who`, pick));
  }
  if (needs) {
    const by = h('select', {id: `${idOf(key)}-by`}, h('option', {value: ''}, '—'), free.map((p) => h('option', {value: p}, p)));
    fields.push(h('label', {for: `${idOf(key)}-by`}, 'Replacement'), bind(ctx, `${key}:by`, by));
  }
  const ready = !!player && (!needs || !!replacement);
  const submit = async () => {
    /** @type {Record<string, unknown>} */
    const data = {game: g.game, player};
    if (needs) data.replacement = replacement;
    const ok = await ctx.enter('quit', data, {where: key,
      done: needs ? `${player} left; ${replacement} takes the seat from 0.` : `${player} left: the game is over and its sheet ruled off.`});
    if (ok) {
      for (const k of Object.keys(ctx.forms)) if (k.startsWith(`${key}:`)) delete ctx.forms[k];
      delete ctx.forms[`g${g.game}:open`];
      ctx.redraw();
    }
  };
  return h('form', {class: 'entry-form', 'data-key': key, 'data-form': 'quit', 'data-game': g.game},
    h('h4', {}, who ? 'Quit this game' : `A player quits ${g.table}`),
    h('p', {class: 'note'}, needs
      ? `Before ${v.rules.hands_a_game} hands the quitter's score freezes, and a replacement from the free players takes the seat from 0.`
      : `After ${v.rules.hands_a_game} hands a quit ends the game: the sheet is ruled off, and everyone at the table signs it.`),
    needs && !free.length ? h('p', {class: 'ev-note error'}, 'Nobody is free to take the seat: the manager adds a player first.') : null,
    fields.length ? h('div', {class: 'form-row'}, fields) : null,
    h('div', {class: 'form-row'},
      button(ctx, who ? 'Yes, I quit' : 'Record the quit', submit, {primary: true, disabled: !ready, action: 'quit'}),
      button(ctx, 'Cancel', () => { delete ctx.forms[`g${g.game}:open`]; delete ctx.notes[key]; ctx.redraw(); })),
    note(ctx, key));
}

/**
 * Rule a sheet off: no more hands; it waits for the signatures. Before ten hands only
 * the manager may, and the game does not count as a full one.
 * @param {EventContext} ctx
 * @param {Game} g
 */
export function ruleOffForm(ctx, g) {
  const v = view(ctx);
  const key = `g${g.game}:rule`;
  const submit = async () => {
    const ok = await ctx.enter('rule_off', {game: g.game}, {where: key, done: `The sheet of ${g.table} is ruled off: now everyone signs it.`});
    if (ok) { delete ctx.forms[`g${g.game}:open`]; ctx.redraw(); }
  };
  return h('form', {class: 'entry-form', 'data-key': key, 'data-form': 'rule-off', 'data-game': g.game},
    h('h4', {}, `Rule off the sheet of ${g.table}`),
    h('p', {class: 'note'}, g.complete
      ? `${plural(g.hands.length, 'hand')} played: no more hands; each player at the table signs the sheet.`
      : `Only ${plural(g.hands.length, 'hand')} of ${v.rules.hands_a_game}: the game will not count as a full one for the percentage prize.`),
    h('div', {class: 'form-row'},
      button(ctx, 'Rule off', submit, {primary: true, action: 'rule-off'}),
      button(ctx, 'Cancel', () => { delete ctx.forms[`g${g.game}:open`]; ctx.redraw(); })),
    note(ctx, key));
}

/**
 * Sign a ruled-off sheet: a player for themselves, or the manager for a player.
 * @param {EventContext} ctx
 * @param {Game} g
 * @param {string} player
 * @param {boolean} forThem the manager signs on the player's behalf
 */
export function signButton(ctx, g, player, forThem) {
  const key = `g${g.game}:sign`;
  return button(ctx, forThem ? `Sign for ${player}` : `Sign the sheet of ${g.table}`, async () => {
    await ctx.enter('sign', {game: g.game, player}, {where: key, done: forThem ? `Signed for ${player}.` : 'You signed the sheet. Thank you.'});
  }, {primary: !forThem, action: 'sign', title: forThem ? `The manager signs game ${g.game}'s sheet on ${player}'s behalf` : undefined});
}

/**
 * Add a player to the roster; the server makes their secret link, shown once (this
 * browser keeps it for the manager to copy).
 * @param {EventContext} ctx
 */
export function addPlayerForm(ctx) {
  const key = 'add';
  const name = String(ctx.forms['add:name'] || '').trim();
  const submit = async () => {
    if (!name) return;
    const ok = await ctx.enter('add_player', {name}, {where: key, done: `${name} is on the roster: hand them their link below.`});
    if (ok) { ctx.forms['add:name'] = ''; ctx.redraw(); }
  };
  return h('form', {class: 'entry-form add-form', 'data-key': key, 'data-form': 'add-player'},
    h('div', {class: 'form-row'},
      h('label', {for: 'add-name'}, 'Name'),
      bind(ctx, 'add:name', h('input', {id: 'add-name', maxlength: 40, autocomplete: 'off', placeholder: 'New player'})),
      button(ctx, 'Add player', submit, {primary: true, disabled: !name, action: 'add-player'})),
    note(ctx, key));
}

/**
 * Start a game: five of the free players (in seat order), a table's name, the scorer.
 * @param {EventContext} ctx
 */
export function startForm(ctx) {
  const v = view(ctx);
  const key = 'start';
  const free = freePlayers(v);
  const chosen = free.filter((p) => ctx.forms[`start:${p}`]);
  const scorer = chosen.includes(String(ctx.forms['start:scorer'] || '')) ? String(ctx.forms['start:scorer']) : chosen[0] || '';
  const labels = [...new Set(v.games.map((g) => g.table))];
  const table = String(ctx.forms['start:table'] || '').trim();
  const submit = async () => {
    if (chosen.length !== 5) return;
    /** @type {Record<string, unknown>} */
    const data = {players: chosen, scorer};
    if (table) data.table = table;
    const ok = await ctx.enter('start_game', data, {where: key, done: `The game has started${table ? ` at ${table}` : ''}: ${chosen.join(', ')}.`});
    if (ok) {
      for (const k of Object.keys(ctx.forms)) if (k.startsWith('start:')) delete ctx.forms[k];
      ctx.redraw();
    }
  };
  const scorerSelect = h('select', {id: 'start-scorer', disabled: !chosen.length || null},
    chosen.length ? chosen.map((p) => h('option', {value: p}, p)) : h('option', {value: ''}, 'pick players first'));
  ctx.forms['start:scorer'] = scorer;
  return h('form', {class: 'entry-form start-form', 'data-key': key, 'data-form': 'start-game'},
    free.length < 5
      ? h('p', {class: 'note'}, `${plural(free.length, 'player is', 'players are')} free; a game needs 5.`)
      : h('p', {class: 'note'}, `Pick five of the ${free.length} free players, in seat order (${chosen.length} of 5 picked).`),
    v.check_in.on && v.check_in.absent.length
      ? h('p', {class: 'note absent-note'}, `Not checked in, so not offered: ${v.check_in.absent.join(', ')}.`) : null,
    h('fieldset', {class: 'free-players'}, h('legend', {class: 'sr-only'}, 'Players'),
      free.map((p) => {
        const id = `start-${p.replace(/\W+/g, '-')}`;
        return h('label', {class: 'pick', for: id, 'data-key': `pick-${p}`},
          bind(ctx, `start:${p}`, h('input', {type: 'checkbox', id, disabled: (!ctx.forms[`start:${p}`] && chosen.length >= 5) || null})), ' ', p);
      })),
    h('div', {class: 'form-row'},
      h('label', {for: 'start-table'}, 'Table'),
      bind(ctx, 'start:table', h('input', {id: 'start-table', maxlength: 40, list: 'table-names', placeholder: `Table ${v.games.length + 1}`, size: 12})),
      h('datalist', {id: 'table-names'}, labels.map((l) => h('option', {value: l}))),
      h('label', {for: 'start-scorer'}, 'Scorer'),
      bind(ctx, 'start:scorer', scorerSelect)),
    h('div', {class: 'form-row'},
      button(ctx, 'Start the game', submit, {primary: true, disabled: chosen.length !== 5, action: 'start-game'})),
    note(ctx, key));
}
