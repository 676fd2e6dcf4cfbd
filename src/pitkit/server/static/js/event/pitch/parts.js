// @ts-check
// The Darrtown Pitch tournament's pieces (pitkit/tournaments/pitch/): what its view
// holds, a table at a glance and its score pad, the standings of a Go-Round, the
// misplay register, the log in words. Everything is said in words: suits by name,
// "not dealt", "a tie", never the API's letters or nulls.
import {capital, h, ordinal, plural} from '../../dom.js';
import {checkInWords, clock, names} from '../ui.js';

/** @typedef {import('../contract.js').EventContext} EventContext */
/** @typedef {import('../contract.js').LogEntry} LogEntry */
/** @typedef {import('../../dom.js').Child} Child */

/**
 * A hand as its dealer wrote it on the pad (topic 35): `jack` null when the Jack of
 * trump was not dealt, `game` null for a tie.
 * @typedef {import('../../wire.js').PitchPad} Pad
 */
/**
 * One line of a table's pad: a hand (pending until its judge initials it), a hand
 * voided or dealt again after a misdeal, or a misplay ruled.
 * @typedef {import('../../wire.js').PitchPadLine} PadLine
 */
/** @typedef {import('../../wire.js').PitchAppeal} Appeal */
/**
 * A hand's bidding as its dealer recorded it, each call in the seed's words, and what
 * it decided: the pitcher, the bid, the highest bid made.
 * @typedef {import('../../wire.js').PitchBidding} Bidding
 */
/**
 * A table of a Go-Round: its players in seat order (clockwise), its judge, the cut,
 * who deals and who plays the hand now, the scores and deals, its pad, an open
 * appeal, and once its game is over, the outcome and who goes on. `online`: the pitkit
 * table it is played at, which enters the cut and the pad's lines.
 * @typedef {import('../../wire.js').PitchTournamentTable} PitchTable
 */
/** @typedef {import('../../wire.js').PitchStanding} Standing */
/** @typedef {import('../../wire.js').PitchGoRound} Round */
/**
 * One line of the manager's misplay register (topic 37).
 * @typedef {import('../../wire.js').PitchMisplay} Misplay
 */
/** @typedef {import('../../wire.js').PitchPending} Pending */
/**
 * The event's view: rosters, Go-Rounds, what waits for a judge, the register, the
 * champion; `mine`: a judge's tables (or a player's table) in the Go-Round now.
 * @typedef {import('../../wire.js').PitchTournamentView} PitchView
 */

/** The suits by the pad's letter: symbol and name. */
export const SUITS = /** @type {const} */ ([['C', '♣', 'clubs'], ['D', '♦', 'diamonds'], ['H', '♥', 'hearts'], ['S', '♠', 'spades']]);

/** @param {EventContext} ctx */
export function view(ctx) {
  return /** @type {PitchView} */ (ctx.event.view);
}

/**
 * The Go-Round being played (or the last one), if any.
 * @param {PitchView} v
 */
export function lastRound(v) {
  return v.rounds.length ? v.rounds[v.rounds.length - 1] : null;
}

/**
 * A table's key in forms and elements: "r1t2".
 * @param {{round: number, table: number}} t
 */
export function tkey(t) {
  return `r${t.round}t${t.table}`;
}

/**
 * The table a view names.
 * @param {PitchView} v
 * @param {{round: number, table: number}} where
 */
export function tableAt(v, where) {
  return v.rounds[where.round - 1].tables[where.table - 1];
}

/**
 * A Go-Round's name: "Go-Round 1", "the final (Go-Round 2)".
 * @param {Round} r
 * @param {boolean} [long]
 */
export function roundName(r, long = false) {
  if (!r.final) return `Go-Round ${r.round}`;
  return long ? `the final (Go-Round ${r.round})` : 'the final';
}

/**
 * A table's name: "Table 2 · Go-Round 1", "The final table".
 * @param {PitchView} v
 * @param {{round: number, table: number}} t
 */
export function tableName(v, t) {
  const r = v.rounds[t.round - 1];
  return r && r.final ? `The final table (Go-Round ${t.round})` : `Table ${t.table} · Go-Round ${t.round}`;
}

/**
 * A table in a sentence: "table 2 of Go-Round 1", "the final table (Go-Round 2)".
 * @param {PitchView} v
 * @param {{round: number, table: number}} t
 */
export function tableWords(v, t) {
  const r = v.rounds[t.round - 1];
  return r && r.final ? `the final table (Go-Round ${t.round})` : `table ${t.table} of Go-Round ${t.round}`;
}

/**
 * A judge's name with their initials: "Jo Dee (JD)"; "no judge".
 * @param {PitchView} v
 * @param {string | null} judge
 */
export function judgeName(v, judge) {
  if (!judge) return 'no judge';
  const found = v.judges.find((j) => j.name === judge);
  return found ? `${judge} (${found.initials})` : judge;
}

/**
 * A suit in words, with its symbol on a light chip: "♥ hearts".
 * @param {string} letter
 */
export function suit(letter) {
  const found = SUITS.find(([l]) => l === letter);
  if (!found) return letter;
  return h('span', {class: 'suit-name'}, h('span', {class: `c suit-${found[0]}`, 'aria-hidden': 'true'}, found[1]), ` ${found[2]}`);
}

/**
 * A change of score: "+2", "−3", "0".
 * @param {number} n
 */
export function signed(n) {
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : '0';
}

/**
 * What a hand's pad line says, in words: "Ann bid 2 in ♥ hearts and made it ·
 * high Ann, low Bob, Jack not dealt, game a tie".
 * @param {Pad} pad
 * @param {Record<string, number> | null} changes
 */
export function padWords(pad, changes) {
  const made = changes ? (changes[pad.pitcher] ?? 0) >= 0 : null;
  return [
    h('strong', {}, pad.pitcher), ` bid ${pad.bid} in `, suit(pad.trump),
    made === null ? '' : made ? ' and made it' : h('span', {class: 'set-back'}, ` and was set back ${pad.bid}`),
    h('span', {class: 'pad-points'}, ` · high ${pad.high}, low ${pad.low}, Jack ${pad.jack || 'not dealt'}, game ${pad.game || 'a tie'}`),
  ];
}

/**
 * A hand's bidding in words: "Ann passed · Bob bid 3 · Cat passed · Dan took it for
 * one more (4)".
 * @param {Bidding} bidding
 */
export function biddingWords(bidding) {
  return bidding.calls.map((c) => `${c.player} ${c.words}`).join(' · ');
}

/**
 * Each player's counted game points, best first: "Bob 14, Ann 10, Dan 7, Cat 3".
 * @param {Record<string, number>} counts
 */
export function countWords(counts) {
  return Object.entries(counts).sort((a, b) => b[1] - a[1]).map(([p, n]) => `${p} ${n}`).join(', ');
}

/**
 * Who takes the game point by the counts (topic 32), or null for a tie (topic 33).
 * Only to show the judge what their counts say; the server decides.
 * @param {Record<string, number>} counts
 */
export function gameByCounts(counts) {
  const top = Math.max(...Object.values(counts));
  const leaders = Object.keys(counts).filter((p) => counts[p] === top);
  return leaders.length === 1 ? leaders[0] : null;
}

/**
 * A pad line in words, whatever its kind.
 * @param {PadLine} line
 */
export function lineWords(line) {
  const bid = line.bidding ? h('small', {class: 'pad-bidding', 'data-bidding': line.line}, h('br'), `Bidding: ${biddingWords(line.bidding)}`) : null;
  if (line.kind === 'hand' && line.pad) {
    return [padWords(line.pad, line.changes), line.voided ? h('span', {class: 'voided-why'}, ' · void: a misdeal') : null, bid,
      line.counts ? h('small', {class: 'pad-counts', 'data-counts': line.line}, h('br'), `Game points counted: ${countWords(line.counts)}`) : null];
  }
  const what = line.kind === 'misplay' ? 'Misplay: ' : line.kind === 'void' ? 'Misdeal: ' : 'Misdeal: ';
  return [h('strong', {}, what), line.note, bid];
}

/**
 * Where a pad line stands, as a chip: waiting for initials, initialled, void.
 * @param {PadLine} line
 */
export function lineChip(line) {
  if (line.voided) return h('span', {class: 'chip bad'}, 'void');
  if (line.kind !== 'hand') return line.initials ? h('span', {class: 'chip', title: 'The judge who ruled'}, line.initials) : null;
  if (line.pending) return h('span', {class: 'chip away', 'data-status': 'pending'}, 'to initial');
  return h('span', {class: 'chip good', 'data-status': 'confirmed', title: `Initialled by ${line.confirmed_by || line.initials}`}, line.initials);
}

/**
 * A table's score pad on the page: each line in words, each player's score after it
 * (and its change), the initials. Wide pads scroll sideways on a phone.
 * @param {PitchTable} t
 * @param {string | null} [me]
 */
export function padTable(t, me = null) {
  if (!t.lines.length) return h('p', {class: 'note'}, t.cut ? 'Nothing on the pad yet.' : 'The players cut for the deal first.');
  return h('div', {class: 'pad-scroll'}, h('table', {class: 'score-table pad-table', 'data-pad': tkey(t)},
    h('caption', {class: 'sr-only'}, `The score pad of ${t.label}`),
    h('thead', {}, h('tr', {},
      h('th', {scope: 'col', class: 'num'}, 'Line'), h('th', {scope: 'col'}, 'Hand'),
      t.players.map((p) => h('th', {scope: 'col', class: `num${p === me ? ' me' : ''}`}, p)),
      h('th', {scope: 'col'}, 'Initials'))),
    h('tbody', {}, t.lines.map((line) => h('tr', {'data-line': line.line, 'data-key': `line-${line.line}`,
      class: [line.pending ? 'pending' : '', line.voided ? 'voided' : '', line.kind !== 'hand' ? 'ruling' : ''].filter(Boolean).join(' ') || null},
    h('td', {class: 'num line-no'}, line.line),
    h('td', {class: 'pad-what'}, h('small', {class: 'pad-dealer'}, `${line.dealer} dealt · `), lineWords(line)),
    t.players.map((p) => h('td', {class: `num score${p === me ? ' me' : ''}`, 'data-name': p},
      line.scores[p], line.changes[p] ? h('small', {class: 'delta'}, ` ${signed(line.changes[p])}`) : null)),
    h('td', {class: 'init'}, lineChip(line)))))));
}

/**
 * The chips beside a player at a table: deals, sits out, disqualified, misplays, wins.
 * @param {PitchTable} t
 * @param {string} p
 */
function playerChips(t, p) {
  /** @type {Child[]} */
  const chips = [];
  if (t.dealer === p) chips.push(h('span', {class: 'chip dealer'}, 'deals'));
  if (t.sitting_out.includes(p)) chips.push(h('span', {class: 'chip away'}, 'sits out this hand'));
  if (t.disqualified.includes(p)) chips.push(h('span', {class: 'chip bad'}, 'disqualified'));
  else if (t.misplays[p]) chips.push(h('span', {class: 'chip away'}, plural(t.misplays[p], 'misplay')));
  if (t.outcome && t.outcome.winner === p) chips.push(h('span', {class: 'chip gold'}, 'wins'));
  else if (t.advancing.includes(p)) chips.push(h('span', {class: 'chip good'}, 'goes on'));
  return chips;
}

/**
 * Where a table's game stands, in words and as a chip's class.
 * @param {PitchTable} t
 * @param {PitchView} v
 * @returns {[string, string]}
 */
export function tableStatus(t, v) {
  if (t.over) return [t.outcome && t.outcome.winner ? `over: ${t.outcome.winner} wins` : 'over', 'good'];
  if (t.outcome) return [`over: ${plural(t.pending.length, 'line')} to initial`, 'away'];
  if (!t.cut) return ['to cut for the deal', 'away'];
  if (t.appeal) return ['appeal open', 'bad'];
  const active = t.players.filter((p) => !t.disqualified.includes(p));
  const dealt = Math.min(...active.map((p) => t.deals[p] ?? 0));
  return dealt >= v.rules.deals_each ? ['playing on: leaders tied', 'gold'] : [`playing: line ${t.next_line}`, ''];
}

/**
 * A table at a glance: its players in seat order with their deals and points, the
 * judge, who deals, what waits (lines to initial, an appeal), the outcome; then its
 * pad, and `controls` (the page's own).
 * @param {EventContext} ctx
 * @param {PitchTable} t
 * @param {{me?: string | null, controls?: Child, padOpen?: boolean, mine?: boolean}} [options]
 */
export function tableCard(ctx, t, {me = null, controls = null, padOpen = false, mine = false} = {}) {
  const v = view(ctx);
  const [words, chip] = tableStatus(t, v);
  const started = t.cut !== null;
  const rows = t.players.map((p, i) => h('tr', {class: [p === me ? 'me' : '', t.disqualified.includes(p) ? 'out' : ''].filter(Boolean).join(' ') || null, 'data-player': p},
    h('td', {class: 'seat-no'}, i + 1),
    h('th', {scope: 'row'}, p, ' ', playerChips(t, p)),
    h('td', {class: 'num deals'}, started ? `${Math.min(t.deals[p] ?? 0, 99)} of ${v.rules.deals_each}` : ''),
    h('td', {class: 'num'}, h('strong', {}, t.scores[p] ?? 0))));
  /** @type {Child[]} */
  const meta = [`Judge: ${judgeName(v, t.judge)}`];
  if (t.dealer && !t.outcome) meta.push(` · ${t.dealer} deals line ${t.next_line}`);
  if (t.bidding) meta.push(h('span', {class: 'bid-now'}, ` · ${t.bidding.pitcher} pitches for ${t.bidding.bid}`));
  if (t.pending.length) meta.push(h('span', {class: 'waits'}, ` · ${t.pending.length === 1 ? `line ${t.pending[0]}` : `lines ${names(t.pending.map(String))}`} to initial`));
  return h('article', {class: `game-card pitch-table${t.over ? ' done' : ''}${mine ? ' mine' : ''}`, 'data-key': `table-${tkey(t)}`,
    'data-round': t.round, 'data-table': t.table},
  h('header', {class: 'game-head'},
    h('h3', {}, tableName(v, t)),
    h('span', {class: `chip ${chip}`, 'data-status': ''}, words)),
  h('table', {class: 'score-table game-seats'},
    h('caption', {class: 'sr-only'}, `${t.label}: players in seat order, deals and points`),
    h('thead', {}, h('tr', {}, h('th', {scope: 'col'}, h('span', {class: 'sr-only'}, 'Seat')),
      h('th', {scope: 'col'}, 'Player'), h('th', {scope: 'col', class: 'num'}, 'Dealt'), h('th', {scope: 'col', class: 'num'}, 'Points'))),
    h('tbody', {}, rows)),
  h('p', {class: 'game-meta'}, meta),
  t.appeal ? h('p', {class: 'game-meta warn', 'data-appeal': t.appeal.appeal},
    `Appeal open: ${t.appeal.by} says ${t.appeal.offender} misplayed${t.appeal.note ? ` (“${t.appeal.note}”)` : ''}; no hand is recorded until the judge rules.`) : null,
  t.outcome ? h('p', {class: 'game-meta outcome'}, outcomeWords(t)) : null,
  t.lines.length ? h('details', {class: 'hands', open: padOpen || null, 'data-key': `pad-${tkey(t)}`},
    h('summary', {}, `The score pad (${plural(t.lines.length, 'line')})`),
    padTable(t, me)) : null,
  controls);
}

/**
 * A finished table in words: "Ann wins with 9 after everyone dealt twice; Ann goes on."
 * @param {PitchTable} t
 */
export function outcomeWords(t) {
  const o = t.outcome;
  if (!o) return '';
  const order = [...t.players].sort((a, b) => (o.places[a] - o.places[b]) || ((t.scores[b] ?? 0) - (t.scores[a] ?? 0)));
  const how = o.how === 'most points after every player dealt twice' ? 'most points once everyone dealt twice'
    : o.how === 'everyone else was disqualified' ? 'everyone else was disqualified' : o.how || '';
  return [
    o.winner ? `${o.winner} wins (${how}). ` : `No winner (${how}). `,
    'Final scores: ', order.map((p) => `${p} ${t.scores[p] ?? 0}`).join(', '), '.',
    t.advancing.length ? ` Going on: ${names(t.advancing)}.` : '',
    !t.over && t.pending.length ? ` It counts once the judge initials ${t.pending.length === 1 ? `line ${t.pending[0]}` : `lines ${names(t.pending.map(String))}`}.` : '',
  ].join('');
}

/** What each status of a standing is called, and its chip's class. @type {Record<string, [string, string]>} */
export const STATUS = {
  playing: ['playing', ''],
  advances: ['goes on', 'good'],
  eliminated: ['out', 'away'],
  disqualified: ['disqualified', 'bad'],
  champion: ['champion', 'gold'],
};

/**
 * A Go-Round's standings: each table's places (final once its game is over and
 * initialled; until then by points so far), best first (`lines`: those to show, a
 * page of them on the big screen).
 * @param {Round} r
 * @param {{me?: string | null, big?: boolean, lines?: Round['standings']}} [options]
 */
export function standingsTable(r, {me = null, big = false, lines = r.standings} = {}) {
  const tables = r.tables.length > 1;
  return h('table', {class: `score-table standings pitch-standings${big ? ' big' : ''}`, 'data-round': r.round},
    h('caption', {class: 'sr-only'}, `Standings of ${roundName(r, true)}`),
    h('thead', {}, h('tr', {},
      h('th', {scope: 'col', class: 'num rank'}, 'Place'), h('th', {scope: 'col', class: 'name'}, 'Player'),
      tables ? h('th', {scope: 'col', class: 'num'}, 'Table') : null,
      h('th', {scope: 'col', class: 'num'}, 'Points'),
      h('th', {scope: 'col', class: 'wide'}, 'Status'))),
    h('tbody', {}, lines.map((line) => {
      const [words, chip] = STATUS[line.status] || [line.status, ''];
      return h('tr', {class: [line.player === me ? 'me' : '', `st-${line.status}`].filter(Boolean).join(' '), 'data-player': line.player, 'data-status': line.status},
        h('td', {class: 'num rank'}, line.final ? ordinal(line.place) : h('span', {title: 'so far'}, `(${ordinal(line.place)})`)),
        h('th', {scope: 'row', class: 'name'}, line.player, line.misplays && !big ? h('small', {class: 'misplays'}, ` ${plural(line.misplays, 'misplay')}`) : null),
        tables ? h('td', {class: 'num'}, line.table) : null,
        h('td', {class: 'num total'}, line.points),
        h('td', {}, h('span', {class: `chip ${chip}`}, words)));
    })));
}

/**
 * Every Go-Round's standings, the one being played first; the earlier ones folded.
 * @param {PitchView} v
 * @param {string | null} [me]
 */
export function allStandings(v, me = null) {
  if (!v.rounds.length) return h('p', {class: 'note'}, 'Go-Round 1 is not seated yet.');
  const rounds = [...v.rounds].reverse();
  return [
    h('p', {class: 'note'}, `Places at each table, best first; in brackets while the table plays. ${v.rules.advance === 1 ? 'Each table\'s winner goes on' : `The best ${v.rules.advance} at each table go on`}; the winner of the final is the champion.`),
    rounds.map((r, i) => i === 0
      ? [h('h3', {}, capital(roundName(r, true))), standingsTable(r, {me})]
      : h('details', {class: 'past-round', 'data-key': `past-${r.round}`}, h('summary', {}, capital(roundName(r, true))), standingsTable(r, {me}))),
  ];
}

/**
 * The misplay register (topic 37): every misplay ruled, and who is disqualified.
 * @param {PitchView} v
 */
export function registerTable(v) {
  if (!v.register.length) return h('p', {class: 'note'}, 'No misplay has been ruled.');
  return [
    h('div', {class: 'pad-scroll'}, h('table', {class: 'score-table register'},
      h('caption', {class: 'sr-only'}, 'Every misplay ruled, oldest first'),
      h('thead', {}, h('tr', {},
        h('th', {scope: 'col'}, 'Player'), h('th', {scope: 'col'}, 'Where'), h('th', {scope: 'col'}, 'Ruling'),
        h('th', {scope: 'col'}, 'Judge'), h('th', {scope: 'col', class: 'num'}, 'Entry'))),
      h('tbody', {}, v.register.map((m) => h('tr', {'data-entry': m.entry, 'data-player': m.player, class: m.disqualified ? 'dq' : null},
        h('th', {scope: 'row', class: 'who'}, m.player, h('small', {}, ` ${ordinal(m.in_round)} misplay`)),
        h('td', {class: 'where'}, `Go-Round ${m.round}, table ${m.table}`),
        h('td', {class: 'ruling'}, m.ruling === 'correctable' ? 'correctable: cards replayed' : `not correctable: loses ${m.lost}`,
          m.disqualified ? h('span', {class: 'chip bad'}, 'disqualified') : null),
        h('td', {class: 'judge'}, m.judge.replace(/^judge /, ''), m.initials ? h('small', {}, ` (${m.initials})`) : null),
        h('td', {class: 'num entry'}, `#${m.entry}`)))))),
    h('p', {class: 'dq-line', 'data-key': 'dq'}, v.disqualified.length
      ? ['Disqualified (two misplays in one Go-Round): ',
        v.disqualified.map((d, i) => [i ? '; ' : '', h('strong', {class: 'dq-name'}, d.player), ` in Go-Round ${d.round}, table ${d.table} (entry #${d.entry})`]), '.']
      : 'Nobody is disqualified.'),
  ];
}

/**
 * A player's place in the event, in words: where they play now, or how it ended.
 * @param {PitchView} v
 * @param {string} p
 */
export function whereIs(v, p) {
  if (v.champion === p) return 'champion';
  const dq = v.disqualified.find((d) => d.player === p);
  if (dq) return `disqualified in Go-Round ${dq.round}`;
  for (const r of [...v.rounds].reverse()) {
    const line = r.standings.find((l) => l.player === p);
    if (!line) continue;
    const last = r === v.rounds[v.rounds.length - 1];
    if (line.status === 'playing') return `at table ${line.table} of ${roundName(r)}`;
    if (line.status === 'advances') return last ? `goes on from Go-Round ${r.round}` : `not seated in Go-Round ${r.round + 1}`;
    return `out in ${roundName(r)}`;
  }
  return v.rounds.length ? 'not seated' : 'waiting for Go-Round 1';
}

/**
 * Who goes on to the next Go-Round, best standing first: the roster (less the
 * disqualified) for the first, then those who advance from the last; at an event
 * that checks its players in, only those present.
 * @param {PitchView} v
 */
export function eligible(v) {
  const last = lastRound(v);
  const here = new Set(v.check_in.present);
  const ready = last ? last.standings.filter((l) => l.status === 'advances').map((l) => l.player)
    : v.players.filter((p) => !v.disqualified.some((d) => d.player === p));
  return ready.filter((p) => here.has(p));
}

/**
 * The table counts a Go-Round of `n` players may have (tables of 2 to 4, C1).
 * @param {PitchView} v
 * @param {number} n
 */
export function tableCounts(v, n) {
  const [least, most] = v.rules.seats;
  /** @type {number[]} */
  const out = [];
  for (let c = 1; c <= n; c++) if (Math.floor(n / c) >= least && Math.ceil(n / c) <= most) out.push(c);
  return out;
}

/**
 * Every entry of the log in words, by its number.
 * @param {LogEntry[]} log
 */
export function describeAll(log) {
  /** @type {Map<number, string>} */
  const words = new Map();
  let rounds = 0;
  /** @param {Record<string, any>} d */
  const at = (d) => `table ${d.table} of Go-Round ${d.round}`;
  /** @param {string} letter */
  const suitText = (letter) => {
    const found = SUITS.find(([l]) => l === letter);
    return found ? `${found[1]} ${found[2]}` : letter;
  };
  for (const e of log) {
    const d = e.data;
    let text;
    switch (e.type) {
      case 'add_player': text = `added ${d.name} to the players`; break;
      case 'add_judge': text = `added ${d.name} to the judges${d.initials ? ` (${d.initials})` : ''}`; break;
      case 'seat_round':
        if (!e.corrects) rounds += 1;
        text = `seated Go-Round ${rounds} by ${d.by === 'draw' ? 'draw' : 'standing'}: ${(d.seating || []).map((/** @type {string[]} */ t, /** @type {number} */ i) => `table ${i + 1} ${t.join(', ')}`).join('; ')}`;
        break;
      case 'assign_judge': text = d.judge ? `made ${d.judge} the judge of ${at(d)}` : `left ${at(d)} without a judge`; break;
      case 'cut': text = `entered the cut at ${at(d)}: ${d.dealer} deals first`; break;
      case 'hand':
        text = `line ${d.line} of ${at(d)}: ${d.pitcher || 'the bidding\'s pitcher'} bid ${d.bid || 'as bid'} in ${suitText(d.trump)}; high ${d.high}, low ${d.low}, Jack ${d.jack || 'not dealt'}, game ${d.counts ? 'by the counts' : d.game || 'a tie'}`;
        break;
      case 'confirm':
        text = `initialled line ${d.line} of ${at(d)}${d.initials ? ` (${d.initials})` : ''}${d.counts ? `; game points counted: ${countWords(d.counts)}` : ''}`;
        break;
      case 'bidding': text = `recorded the bidding at ${at(d)}: ${(d.calls || []).join(', ')}`; break;
      case 'misdeal': text = `ruled a misdeal at ${at(d)}, found ${String(d.found || '').replaceAll('_', ' ')}`; break;
      case 'appeal': text = `appealed: ${d.offender} misplayed at ${at(d)}${d.note ? ` (“${d.note}”)` : ''}`; break;
      case 'rule_misplay':
        text = d.correctable ? `ruled appeal #${d.appeal} a correctable misplay: the cards are replayed`
          : `ruled appeal #${d.appeal} a misplay that cannot be corrected (highest bid ${d.highest_bid || 'as bid'})`;
        break;
      case 'dismiss_appeal': text = `dismissed appeal #${d.appeal}: no misplay`; break;
      case 'open_table': text = `put ${at(d)} at an online table`; break;
      case 'new_link': text = `gave ${d.name} a new link; the old one stopped working`; break;
      case 'check_in': text = checkInWords(e); break;
      case 'void': text = 'struck the entry out'; break;
      case 'differs': text = `the online table found its play differs from the sheet: ${d.note}`; break;
      default: text = e.type.replaceAll('_', ' ');
    }
    words.set(e.seq, text);
  }
  return words;
}

/**
 * The log: every entry, who made it and when, what corrected what. Newest first.
 * @param {EventContext} ctx
 * @param {number} [limit]
 */
export function logTable(ctx, limit = 200) {
  const log = ctx.event.log;
  const words = describeAll(log);
  const shown = log.slice(-limit).reverse();
  if (!shown.length) return h('p', {class: 'note'}, 'Nothing entered yet.');
  return h('div', {class: 'log-scroll', tabindex: 0, role: 'region', 'aria-label': 'Entry log, newest first'}, h('table', {class: 'score-table entry-log'},
    h('caption', {class: 'sr-only'}, 'Every entry, newest first'),
    h('thead', {}, h('tr', {}, h('th', {scope: 'col', class: 'num'}, '#'), h('th', {scope: 'col'}, 'When'),
      h('th', {scope: 'col'}, 'Who'), h('th', {scope: 'col'}, 'What'))),
    h('tbody', {}, shown.map((e) => h('tr', {'data-seq': e.seq, class: e.corrected_by.length ? 'corrected' : null},
      h('td', {class: 'num'}, e.seq),
      h('td', {class: 'when'}, clock(e.at)),
      h('td', {}, e.by),
      h('td', {},
        e.corrects ? h('strong', {}, `Correction of #${e.corrects}: `) : null,
        h('span', {class: 'what'}, words.get(e.seq) || ''),
        e.corrected_by.length ? h('small', {class: 'fixed'}, ` (corrected by #${e.corrected_by.join(', #')})`) : null))))));
}
