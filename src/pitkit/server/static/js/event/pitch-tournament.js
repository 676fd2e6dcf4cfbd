// @ts-check
// The Darrtown Pitch tournament's pages (pitkit/tournaments/pitch/; seeds/pitch.txt,
// tournament column): the manager's desk, a judge's page, a player's page, the public
// view, the big screen and the printable score pads. The pieces are in js/event/pitch/.
import {capital, h, ordinal, plural} from '../dom.js';
import {bind, clock, linkRow, names, newLink, note, onlineDesk, onlineSeat, panel} from './ui.js';
import {hallPanel} from './checkin.js';
import {pageHeading, pageOf, screenFrame} from './screen.js';
import {
  allStandings, describeAll, judgeName, lastRound, lineWords, logTable, outcomeWords, registerTable, roundName,
  signed, standingsTable, suit, tableAt, tableCard, tableName, tableWords, tkey, view, whereIs,
} from './pitch/parts.js';
import {
  addForm, appealForm, assignForm, confirmButton, cutForm, misdealForm, opener, padForm, rulingBox, seatForm, tableNotes,
} from './pitch/forms.js';

/** @typedef {import('./contract.js').EventContext} EventContext */
/** @typedef {import('./pitch/parts.js').PitchView} PitchView */
/** @typedef {import('./pitch/parts.js').PitchTable} PitchTable */
/** @typedef {import('./pitch/parts.js').Round} Round */
/** @typedef {import('./pitch/parts.js').Pending} Pending */
/** @typedef {import('../dom.js').Child} Child */

/**
 * Whether a table takes hands now: cut, its game not over, no appeal open.
 * @param {PitchTable} t
 */
function inPlay(t) {
  return t.cut !== null && !t.outcome && !t.appeal;
}

/**
 * A pending line in words, for whoever initials it.
 * @param {PitchView} v
 * @param {Pending} p
 */
function pendingWords(v, p) {
  const t = tableAt(v, p);
  const line = t.lines[p.line - 1];
  return h('p', {class: 'pending-what'}, h('strong', {}, `${tableName(v, t)}, line ${p.line}`), ` (${p.dealer} dealt): `, lineWords(line),
    h('br'), h('small', {}, 'On the pad: ', t.players.filter((n) => n in line.changes && line.seated.includes(n)).map((n) => `${n} ${signed(line.changes[n])}`).join(', ')));
}

/**
 * The state of the event in one line: what happens next, and what waits.
 * @param {PitchView} v
 */
function glance(v) {
  const r = lastRound(v);
  return h('p', {class: 'glance', 'data-key': 'glance'},
    h('strong', {class: 'glance-status'}, v.status.charAt(0).toUpperCase() + v.status.slice(1)), ' · ',
    h('span', {}, plural(v.players.length, 'player')), ' · ',
    h('span', {}, plural(v.judges.length, 'judge')),
    r ? [' · ', h('span', {}, `${plural(v.pending.length, 'line')} to initial`), ' · ',
      h('span', {}, `${plural(v.appeals.length, 'appeal')} open`), ' · ',
      h('span', {}, `${plural(v.register.length, 'misplay')} ruled`)] : null);
}

/**
 * The champion, large, once the final is over.
 * @param {PitchView} v
 */
function championPanel(v) {
  if (!v.champion) return null;
  const r = /** @type {Round} */ (lastRound(v));
  const t = r.tables[0];
  return h('section', {class: 'panel ev-panel ev-champion', 'data-key': 'champion', 'aria-labelledby': 'champion-title'},
    h('p', {class: 'champion-label'}, 'Champion'),
    h('h2', {id: 'champion-title', class: 'champion-name'}, v.champion),
    h('p', {class: 'note'}, `Winner of the final table (Go-Round ${r.round}): `, t.players.map((p) => `${p} ${t.scores[p] ?? 0}`).join(', '), '.'));
}

/**
 * Every Go-Round: how it was seated, each table's outcome, who goes on; the champion.
 * @param {PitchView} v
 */
function roundsList(v) {
  if (!v.rounds.length) return h('p', {class: 'note'}, 'No Go-Round yet.');
  return h('ol', {class: 'round-list'}, v.rounds.map((r) => {
    const on = r.tables.flatMap((t) => t.advancing);
    return h('li', {'data-round': r.round, 'data-key': `round-${r.round}`},
      h('strong', {}, capital(roundName(r, true))), h('small', {}, ` · seated by ${r.by} · ${plural(r.tables.length, 'table')}`),
      h('ul', {}, r.tables.map((t) => h('li', {'data-table': t.table},
        `${r.final ? 'Final table' : `Table ${t.table}`} (${names(t.players)}; ${judgeName(v, t.judge)}): `,
        t.over ? (t.outcome && t.outcome.winner ? h('strong', {}, `${t.outcome.winner} wins`) : 'over')
          : t.outcome ? 'over, lines to initial' : t.cut ? 'playing' : 'to cut for the deal',
        t.over && t.outcome ? ` with ${t.scores[t.outcome.winner || ''] ?? ''}` : ''))),
      r.over && !r.final ? h('p', {class: 'goes-on'}, `Going on to Go-Round ${r.round + 1}: `, h('strong', {}, names(on) || 'nobody'), '.') : null,
      r.final && v.champion ? h('p', {class: 'goes-on'}, 'Champion: ', h('strong', {}, v.champion), '.') : null);
  }));
}

/**
 * The roster: players and judges, where each is, and (on the desk) their links.
 * @param {EventContext} ctx
 * @param {boolean} withLinks
 */
function roster(ctx, withLinks) {
  const v = view(ctx);
  /**
   * @param {string} name
   * @param {'player' | 'judge'} role
   * @param {Child} where
   */
  const row = (name, role, where) => {
    const url = withLinks ? ctx.links[name] : null;
    return h('li', {'data-key': `person-${name}`, 'data-person': name},
      h('div', {class: 'roster-line'}, h('strong', {}, name), ' ', h('small', {}, where)),
      url ? linkRow(name, url) : withLinks ? h('small', {class: 'no-link'}, 'Link made in another browser') : null,
      withLinks ? newLink(ctx, name, role) : null);
  };
  return [
    h('h3', {}, `Players (${v.players.length})`),
    v.players.length ? h('ul', {class: 'roster', 'data-roster': 'players'}, v.players.map((p) => row(p, 'player', whereIs(v, p)))) : h('p', {class: 'note'}, 'Nobody yet.'),
    h('h3', {}, `Judges (${v.judges.length})`),
    v.judges.length ? h('ul', {class: 'roster', 'data-roster': 'judges'}, v.judges.map((j) => {
      const now = j.tables.filter((t) => t.round === (lastRound(v)?.round ?? 0));
      return row(j.name, 'judge', `initials ${j.initials}${now.length ? ` · ${names(now.map((t) => `table ${t.table}`))}` : ''}`);
    })) : h('p', {class: 'note'}, 'No judge yet: add one for each table.'),
  ];
}

/** @param {EventContext} ctx */
function files(ctx) {
  const base = `/api/events/${encodeURIComponent(ctx.id)}`;
  const page = `/e/${encodeURIComponent(ctx.id)}`;
  return h('ul', {class: 'file-list'},
    h('li', {}, h('a', {href: `${page}/print`, target: '_blank', rel: 'noopener'}, 'Score pads to print'), h('small', {}, ' (one a table, with the initials column)')),
    h('li', {}, h('a', {href: `${base}/pads.csv`, download: true}, 'pads.csv'), h('small', {}, ' every line of every pad')),
    h('li', {}, h('a', {href: `${base}/standings.csv`, download: true}, 'standings.csv'), h('small', {}, ' each Go-Round\'s places')),
    h('li', {}, h('a', {href: `${page}/screen`, target: '_blank', rel: 'noopener'}, 'The big screen'), h('small', {}, ' for the hall')),
    h('li', {}, h('a', {href: `${page}#public`, target: '_blank', rel: 'noopener'}, 'The public view'), h('small', {}, ' what anyone sees')));
}

/**
 * The manager's controls under a table: its judge, the cut, lines to initial, the
 * ruling of an open appeal, and (opened on demand) a hand, an appeal, a misdeal.
 * @param {EventContext} ctx
 * @param {PitchTable} t
 */
function deskControls(ctx, t) {
  const words = tableNotes(ctx, t, ['judge', 'cut', 'confirm', 'rule', 'pad', 'appeal', 'misdeal']);
  if (t.over) return h('div', {class: 'game-controls', 'data-key': `controls-${tkey(t)}`}, words);
  const v = view(ctx);
  const initials = String(ctx.forms['desk:initials'] || '').trim();
  const open = ctx.forms[`${tkey(t)}:open`];
  const pending = v.pending.filter((p) => p.round === t.round && p.table === t.table);
  /** @type {Record<string, () => Node>} */
  const forms = {
    pad: () => padForm(ctx, t),
    appeal: () => appealForm(ctx, t),
    misdeal: () => misdealForm(ctx, t, initials || null),
  };
  const playing = inPlay(t) && !t.online;
  return h('div', {class: 'game-controls', 'data-key': `controls-${tkey(t)}`},
    assignForm(ctx, t),
    onlineDesk(ctx, t.online, {round: t.round, table: t.table}, `${tkey(t)}:online`, t.cut === null),
    note(ctx, `${tkey(t)}:online`),
    t.cut === null && !t.online ? cutForm(ctx, t) : null,
    pending.length ? h('div', {class: 'button-row left confirm-row'}, pending.map((p) => confirmButton(ctx, p, initials, true))) : null,
    t.appeal ? rulingBox(ctx, t.appeal, t, initials || null) : null,
    t.cut !== null && !t.outcome ? h('div', {class: 'button-row left'},
      t.online ? null : opener(ctx, t, 'pad', `Record line ${t.next_line}`, {disabled: !playing}),
      opener(ctx, t, 'appeal', 'Appeal a misplay', {disabled: !inPlay(t)}),
      opener(ctx, t, 'misdeal', 'A misdeal')) : null,
    open && forms[open] && t.cut !== null && !t.outcome ? forms[open]() : null,
    words);
}

/** @param {EventContext} ctx */
function desk(ctx) {
  const v = view(ctx);
  const r = lastRound(v);
  const canSeat = !r || (r.over && !r.final);
  return h('div', {class: 'ev-grid ev-desk pitch-desk'},
    h('div', {class: 'ev-col'},
      glance(v),
      note(ctx, 'seat'),
      championPanel(v),
      r ? panel('tables', `Tables now: ${roundName(r, true)}`,
        h('div', {class: 'form-row desk-initials'},
          h('label', {for: 'desk-initials'}, 'Your initials'),
          bind(ctx, 'desk:initials', h('input', {id: 'desk-initials', maxlength: 8, size: 5, autocomplete: 'off', placeholder: 'TM'})),
          h('small', {class: 'note'}, 'for a line or a ruling you enter from the desk; each judge initials with their own.')),
        h('div', {class: 'game-grid'}, r.tables.map((t) => tableCard(ctx, t, {controls: deskControls(ctx, t)})))) : null,
      canSeat ? panel('seating', r ? `Seat Go-Round ${r.round + 1}` : 'Seat Go-Round 1', seatForm(ctx)) : null,
      panel('register', `Misplay register (${v.register.length})`,
        h('p', {class: 'note'}, 'Every misplay the judges rule, kept for the whole tournament. Two in one Go-Round disqualify.'),
        registerTable(v)),
      panel('rounds', 'Go-Rounds: who goes on', roundsList(v)),
      panel('log', 'Entry log', h('p', {class: 'note'}, 'Every entry, newest first: who made it, when. A correction replaces an entry and keeps it.'), logTable(ctx))),
    h('div', {class: 'ev-col side'},
      hallPanel(ctx, v.players),
      panel('roster', 'Roster',
        addForm(ctx, 'player'), addForm(ctx, 'judge'),
        h('p', {class: 'note'}, 'Each secret link opens that person\'s page: hand it to them (copy it into a message). The server shows it once; this browser keeps it.'),
        roster(ctx, true)),
      panel('standings', 'Standings', allStandings(v)),
      panel('files', 'Pads and files', files(ctx))));
}

/**
 * A judge's own controls under one of their tables: the cut, and (opened on demand)
 * a misdeal, an appeal, the correction of a pending line.
 * @param {EventContext} ctx
 * @param {PitchTable} t
 */
function judgeControls(ctx, t) {
  const words = tableNotes(ctx, t, ['misdeal', 'appeal', 'fix']);
  const open = ctx.forms[`${tkey(t)}:open`];
  // The cut waits in "Waiting for you"; a game that is over takes nothing more.
  if (t.cut === null || t.outcome) return h('div', {class: 'game-controls', 'data-key': `controls-${tkey(t)}`}, words);
  const fixable = t.lines.filter((l) => l.pending);
  const fix = fixable.length ? fixable[fixable.length - 1] : null;
  return h('div', {class: 'game-controls', 'data-key': `controls-${tkey(t)}`},
    h('div', {class: 'button-row left'},
      opener(ctx, t, 'misdeal', 'A misdeal'),
      opener(ctx, t, 'appeal', 'Appeal a misplay', {disabled: !inPlay(t)}),
      fix ? opener(ctx, t, 'fix', `Correct line ${fix.line}`) : null),
    open === 'misdeal' ? misdealForm(ctx, t) : null,
    open === 'appeal' && inPlay(t) ? appealForm(ctx, t) : null,
    open === 'fix' && fix ? padForm(ctx, t, fix) : null,
    words);
}

/** @param {EventContext} ctx */
function judge(ctx) {
  const v = view(ctx);
  const me = ctx.me.name || '';
  const mine = v.mine || {tables: [], pending: [], appeals: []};
  const initials = (v.judges.find((j) => j.name === me) || {initials: ''}).initials;
  const r = lastRound(v);
  const tables = mine.tables.map((w) => tableAt(v, w));
  const others = r ? r.tables.filter((t) => t.judge !== me) : [];
  const toCut = tables.filter((t) => t.cut === null && !t.online); // an online table cuts by itself
  const waiting = mine.pending.length + mine.appeals.length + toCut.length;
  /** @type {Child} */
  const line = !r ? 'Go-Round 1 is not seated yet: the manager will give you a table.'
    : tables.length ? [`You judge ${r.final ? tableWords(v, tables[0]) : `${names(tables.map((t) => `table ${t.table}`))} of Go-Round ${r.round}`}. Your initials: `, h('strong', {}, initials), '.']
      : `You judge no table of ${roundName(r, true)}: the manager assigns the tables.`;
  return h('div', {class: 'ev-grid ev-judge'},
    h('div', {class: 'ev-col'},
      h('p', {class: 'big-line glance', 'data-key': 'glance'}, line),
      championPanel(v),
      tables.length ? panel('todo', waiting ? `Waiting for you (${waiting})` : 'Waiting for you',
        waiting ? null : h('p', {class: 'note'}, 'Nothing now. After each hand the dealer records it on the pad; you check the tricks and initial the line here.'),
        toCut.map((t) => h('div', {class: 'todo-item', 'data-key': `cut-${tkey(t)}`}, h('p', {}, h('strong', {}, tableName(v, t)), ': the players cut for the deal.'), cutForm(ctx, t))),
        mine.appeals.map((a) => rulingBox(ctx, a, tableAt(v, a))),
        mine.pending.map((p) => h('div', {class: 'todo-item', 'data-key': `pending-${tkey(p)}-${p.line}`, 'data-round': p.round, 'data-table': p.table, 'data-line': p.line},
          pendingWords(v, p),
          h('div', {class: 'button-row left'}, confirmButton(ctx, p, initials, false)))),
        tables.map((t) => tableNotes(ctx, t, ['cut', 'rule', 'confirm']))) : null,
      tables.length ? panel('tables', tables.length === 1 ? 'Your table' : 'Your tables',
        h('div', {class: 'game-grid one'}, tables.map((t) => tableCard(ctx, t, {controls: judgeControls(ctx, t), padOpen: true, mine: true})))) : null,
      others.length ? panel('others', 'Other tables',
        h('p', {class: 'note'}, 'Judged by others: to read only.'),
        h('div', {class: 'game-grid'}, others.map((t) => tableCard(ctx, t)))) : null),
    h('div', {class: 'ev-col side'},
      panel('standings', 'Standings', allStandings(v)),
      panel('rounds', 'Go-Rounds', roundsList(v))));
}

/**
 * Where a player stands, in words: their seat, their deal, or how it ended.
 * @param {PitchView} v
 * @param {string} me
 * @returns {{words: Child, t: PitchTable | null}}
 */
function playerState(v, me) {
  const r = lastRound(v);
  const dq = v.disqualified.find((d) => d.player === me);
  if (v.champion === me) return {words: [h('strong', {}, 'You are the champion!'), ' You won the final table. Congratulations.'], t: null};
  if (dq) {
    return {words: [h('strong', {}, 'You are disqualified'), `: two misplays in Go-Round ${dq.round} (table ${dq.table}, entry #${dq.entry}). You take no further part.`], t: null};
  }
  if (!r) return {words: 'Go-Round 1 is not seated yet: the manager will give you a table.', t: null};
  const t = r.tables.find((x) => x.players.includes(me)) || null;
  if (!t) {
    const out = [...v.rounds].reverse().find((x) => x.standings.some((l) => l.player === me));
    const line = out ? out.standings.find((l) => l.player === me) : null;
    return {words: out && line ? [h('strong', {}, `You are out after ${roundName(out, true)}`), ` (${ordinal(line.place)} at table ${line.table}, ${plural(line.points, 'point')}). Thank you for playing.`]
      : `You are not seated in ${roundName(r, true)}.`, t: null};
  }
  const where = r.final ? `the final table (Go-Round ${r.round})` : `table ${t.table} of Go-Round ${r.round}`;
  const standing = r.standings.find((l) => l.player === me);
  if (t.over && standing) {
    const how = `${ordinal(standing.place)} at ${where}, ${plural(standing.points, 'point')}`;
    return {words: standing.status === 'advances'
      ? [h('strong', {}, `You go on to Go-Round ${r.round + 1}`), ` (${how}). Wait for the manager to seat it.`]
      : [h('strong', {}, `You are out after ${roundName(r, true)}`), ` (${how}). Thank you for playing.`], t};
  }
  /** @type {Child} */
  let now;
  if (t.outcome) now = 'The game is over: the judge initials the last lines.';
  else if (t.online) now = `Your table plays online: the pad fills in by itself, and ${t.judge ? `judge ${t.judge}` : 'the judge'} initials each line.`;
  else if (t.cut === null) now = `The players cut for the deal; ${t.judge ? `judge ${t.judge}` : 'the judge'} enters who won it.`;
  else if (t.appeal) now = `An appeal is open (${t.appeal.offender}): play waits for the judge's ruling.`;
  else if (t.dealer === me) now = [h('strong', {}, 'You deal this hand.'), ` Once it is played, record it on the pad below and call ${t.judge ? `judge ${t.judge}` : 'the judge'} to initial it.`];
  else if (t.sitting_out.includes(me)) now = `You sit out this hand (a misplay that could not be corrected). ${t.dealer} deals.`;
  else now = `${t.dealer} deals this hand and records it on the pad.`;
  return {words: [`You play at ${where}, with ${names(t.players.filter((p) => p !== me))}. `, now], t};
}

/**
 * A player's controls under their table: the pad when they deal, an appeal, the
 * correction of a line they recorded that is not initialled yet.
 * @param {EventContext} ctx
 * @param {PitchTable} t
 * @param {string} me
 */
function playerControls(ctx, t, me) {
  const words = tableNotes(ctx, t, ['pad', 'appeal', 'fix']);
  if (!inPlay(t) || t.disqualified.includes(me)) return h('div', {class: 'game-controls', 'data-key': `controls-${tkey(t)}`}, words);
  const open = ctx.forms[`${tkey(t)}:open`];
  const mineToFix = t.lines.filter((l) => l.pending && l.dealer === me);
  const fix = mineToFix.length ? mineToFix[mineToFix.length - 1] : null;
  return h('div', {class: 'game-controls', 'data-key': `controls-${tkey(t)}`},
    t.dealer === me && !t.online ? padForm(ctx, t) : null,
    h('div', {class: 'button-row left'},
      opener(ctx, t, 'appeal', 'Appeal a misplay…'),
      fix ? opener(ctx, t, 'fix', `Correct line ${fix.line}`) : null),
    open === 'appeal' ? appealForm(ctx, t, me) : null,
    open === 'fix' && fix ? padForm(ctx, t, fix) : null,
    words);
}

/** @param {EventContext} ctx */
function player(ctx) {
  const v = view(ctx);
  const me = ctx.me.name || '';
  const {words, t} = playerState(v, me);
  const mine = v.rounds.flatMap((r) => r.standings.filter((l) => l.player === me).map((l) => ({r, l})));
  return h('div', {class: 'ev-grid ev-player'},
    h('div', {class: 'ev-col'},
      championPanel(v),
      panel('seat', 'Your seat',
        h('p', {class: 'big-line', 'data-key': 'state'}, words),
        t && t.online && !t.outcome ? onlineSeat(ctx, t.online, `${tkey(t)}:seat`) : null,
        t ? tableCard(ctx, t, {me, padOpen: true, mine: true, controls: playerControls(ctx, t, me)}) : null),
      panel('me', 'Your tournament', mine.length
        ? h('ul', {class: 'my-games'}, mine.map(({r, l}) => h('li', {'data-round': r.round},
          h('strong', {}, capital(roundName(r, true))), `, table ${l.table}: ${plural(l.points, 'point')}, ${l.final ? ordinal(l.place) : `${ordinal(l.place)} so far`}`,
          l.misplays ? `, ${plural(l.misplays, 'misplay')}` : '', ' · ', h('span', {class: `chip ${l.status === 'advances' || l.status === 'champion' ? 'good' : l.status === 'disqualified' ? 'bad' : ''}`},
            {playing: 'playing', advances: 'goes on', eliminated: 'out', disqualified: 'disqualified', champion: 'champion'}[l.status] || l.status))))
        : h('p', {class: 'note'}, 'Not seated yet.'))),
    h('div', {class: 'ev-col side'},
      panel('standings', 'Standings', allStandings(v, me)),
      panel('rounds', 'Go-Rounds', roundsList(v))));
}

/** @param {EventContext} ctx */
function publicView(ctx) {
  const v = view(ctx);
  const r = lastRound(v);
  return h('div', {class: 'ev-grid ev-public'},
    h('div', {class: 'ev-col'},
      glance(v),
      championPanel(v),
      panel('tables', r ? `Tables now: ${roundName(r, true)}` : 'Tables',
        r ? h('div', {class: 'game-grid'}, r.tables.map((t) => tableCard(ctx, t))) : h('p', {class: 'note'}, 'Go-Round 1 is not seated yet.')),
      panel('rounds', 'Go-Rounds: who goes on', roundsList(v))),
    h('div', {class: 'ev-col side'},
      panel('standings', 'Standings', allStandings(v)),
      panel('roster', 'Players and judges', roster(ctx, false))));
}

/**
 * A table of the Go-Round being played, in words: over, cutting, which line.
 * @param {PitchTable} t
 */
function tableState(t) {
  return t.over ? 'over' : t.cut === null ? 'cutting for the deal' : t.outcome ? 'last lines to initial' : `line ${t.next_line}`;
}

/**
 * The big screen: the champion when known, the Go-Round's standings in large type a
 * page of lines at a time, then its tables (each one's scores and dealer) a page of
 * cards at a time (js/event/screen.js); who went on from the earlier Go-Rounds.
 * @param {EventContext} ctx
 */
function screen(ctx) {
  const v = view(ctx);
  const r = lastRound(v);
  const log = ctx.event.log;
  const at = log.length ? log[log.length - 1].at : ctx.event.created;
  const lines = r ? r.standings : [];
  /** @type {import('./screen.js').Part[]} */
  const parts = [{
    name: r ? (r.final ? 'The final' : `Go-Round ${r.round}`) : 'Standings',
    count: lines.length,
    unit: 'row',
    draw: (page, per) => {
      const shown = pageOf(lines, page, per);
      return h('section', {class: 'screen-table', 'aria-labelledby': 'st-title'},
        v.champion ? h('div', {class: 'screen-champion'}, h('p', {class: 'champion-label'}, 'Champion'),
          h('p', {class: 'champion-name'}, v.champion)) : null,
        r ? [pageHeading('st-title', r.final ? 'The final' : `Go-Round ${r.round}`, shown.from, shown.items.length, lines.length),
          standingsTable(r, {big: true, lines: shown.items})]
          : h('p', {class: 'screen-note', id: 'st-title'}, 'The players are being added; Go-Round 1 starts soon.'));
    },
  }];
  if (r && !v.champion) {
    parts.push({
      name: 'Tables',
      count: r.tables.length,
      unit: 'card',
      draw: (page, per) => h('div', {class: 'screen-cards', style: '--lines: 4'}, pageOf(r.tables, page, per).items.map((t) =>
        h('article', {class: 'screen-card screen-pitch-table', 'data-table': t.table},
          h('h2', {}, r.final ? 'Final table' : `Table ${t.table}`, h('small', {}, ` · ${tableState(t)}`)),
          h('ol', {}, t.players.map((p) => h('li', {class: [t.dealer === p && !t.outcome ? 'deals' : '', t.disqualified.includes(p) ? 'out' : ''].filter(Boolean).join(' ') || null},
            h('span', {class: 'name'}, p), h('strong', {}, t.scores[p] ?? 0))))))),
    });
  }
  const earlier = v.rounds.slice(0, -1).map((x) => `Go-Round ${x.round}: ${names(x.tables.flatMap((t) => t.advancing))} went on`);
  const brackets = r && r.standings.some((l) => !l.final)
    ? `Places in brackets: the table still plays, until everyone has dealt ${v.rules.deals_each === 2 ? 'twice' : plural(v.rules.deals_each, 'time')}; tied leaders play on. Underlined: deals now.` : '';
  return screenFrame(ctx, {
    kind: 'pitch-screen',
    head: `${ctx.event.title} · ${r ? roundName(r, true) : 'not seated yet'} · last entry ${clock(at)}`,
    parts,
    legend: [brackets, ...earlier].filter(Boolean).join(' · '),
  });
}

/**
 * One table's score pad for paper: every line (the bid, the pitcher, trump, who took
 * each point, or the ruling), each player's score after it, the judge's initials,
 * the totals; blank lines to go on by hand while the game is played.
 * @param {EventContext} ctx
 * @param {PitchTable} t
 */
function padSheet(ctx, t) {
  const v = view(ctx);
  const firstDealer = t.lines.length ? t.lines[0].dealer : t.dealer;
  const blank = t.outcome ? 0 : Math.max(3, t.players.length * v.rules.deals_each + 2 - t.lines.length);
  const cols = t.players.length;
  return h('article', {class: 'sheet pad-sheet', 'data-round': t.round, 'data-table': t.table},
    h('header', {class: 'sheet-head'},
      h('h2', {}, tableName(v, t)),
      h('p', {}, `${ctx.event.name} · ${ctx.event.title} · score pad`),
      h('p', {}, `Judge: ${judgeName(v, t.judge)} · players clockwise from seat 1: ${t.players.join(', ')}`,
        firstDealer ? ` · ${firstDealer} won the cut and dealt first` : ' · not cut for the deal yet')),
    h('table', {class: 'sheet-grid pad-grid'},
      h('thead', {}, h('tr', {},
        ['Line', 'Dealer', 'Bid', 'Pitcher', 'Trump', 'High', 'Low', 'Jack', 'Game'].map((c) => h('th', {scope: 'col'}, c)),
        t.players.map((p) => h('th', {scope: 'col', class: 'who'}, p)),
        h('th', {scope: 'col'}, 'Initials'))),
      h('tbody', {},
        t.lines.map((line) => h('tr', {class: line.voided ? 'voided' : line.kind !== 'hand' ? 'ruling' : null},
          h('th', {scope: 'row'}, line.line),
          h('td', {}, line.dealer),
          line.kind === 'hand' && line.pad
            ? [h('td', {}, line.pad.bid), h('td', {}, line.pad.pitcher), h('td', {}, suit(line.pad.trump)), h('td', {}, line.pad.high),
              h('td', {}, line.pad.low), h('td', {}, line.pad.jack || 'not dealt'), h('td', {}, line.pad.game || 'tie')]
            : h('td', {colspan: 7, class: 'what'}, line.kind === 'misplay' ? 'Misplay: ' : 'Misdeal: ', line.note),
          t.players.map((p) => h('td', {class: 'num'}, line.scores[p], line.changes[p] ? h('small', {}, ` (${signed(line.changes[p])})`) : null)),
          h('td', {class: 'initials'}, line.voided ? 'void' : line.initials || ''))),
        Array.from({length: blank}, (_, i) => h('tr', {class: 'blank'},
          h('th', {scope: 'row'}, t.lines.length + i + 1), Array.from({length: 8 + cols + 1}, () => h('td', {}))))),
      h('tfoot', {}, h('tr', {},
        h('th', {scope: 'row', colspan: 9}, t.outcome ? 'Total' : 'Total so far'),
        t.players.map((p) => h('td', {class: 'num'}, t.scores[p] ?? 0)),
        h('td', {})))),
    t.outcome ? h('p', {class: 'sheet-note'}, outcomeWords(t)) : null,
    t.disqualified.length ? h('p', {class: 'sheet-note'}, `Disqualified at this table: ${names(t.disqualified)} (two misplays in the Go-Round).`) : null,
    h('div', {class: 'signatures'},
      h('div', {class: 'signature'},
        h('span', {class: 'sig-name'}, 'Judge'),
        h('span', {class: 'sig-line'}, t.over ? `✓ every line initialled (${judgeName(v, t.judge)})` : ''),
        h('span', {class: 'sig-points'}, plural(t.lines.length, 'line')))));
}

/** @param {EventContext} ctx */
function printPage(ctx) {
  const v = view(ctx);
  const base = `/api/events/${encodeURIComponent(ctx.id)}`;
  const tables = v.rounds.flatMap((r) => r.tables);
  return h('div', {class: 'ev-print'},
    h('p', {class: 'print-intro'}, `One A4 score pad a table, every Go-Round: ${plural(tables.length, 'pad')}. Print, or save as PDF from the print dialogue. `,
      'Also as ', h('a', {href: `${base}/pads.csv`, download: true}, 'pads.csv'), ' and ',
      h('a', {href: `${base}/standings.csv`, download: true}, 'standings.csv'), '.'),
    tables.length ? tables.map((t) => padSheet(ctx, t)) : h('p', {class: 'note'}, 'No Go-Round is seated yet.'));
}

/** @type {import('./contract.js').EventModule} */
export default {
  public: publicView,
  desk,
  judge,
  player,
  screen,
  print: printPage,
  describe: describeAll,
};
