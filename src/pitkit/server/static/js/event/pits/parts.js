// @ts-check
// The BGA continuous Pits tournament's pieces (pitkit/tournaments/pits.py): what its
// view holds, the tables and their sheets, the prize tables, the log in words.
import {h, ordinal, plural} from '../../dom.js';
import {checkInWords, clock, names, percent, rankText} from '../ui.js';

/** @typedef {import('../contract.js').EventContext} EventContext */
/** @typedef {import('../contract.js').LogEntry} LogEntry */
/** @typedef {import('../../dom.js').Child} Child */

/**
 * One hand on a sheet: its finishing order 1st to 5th, each player's points, who deals
 * next (the 3rd), and the entry that made it (the one to correct).
 * @typedef {import('../../wire.js').PitsTournamentHand} Hand
 */
/**
 * One game: its number, table and scorer; its seats (each seat's occupants in order,
 * the last one sits there now) and who sits now; its hands and points; where its
 * sheet stands (ten hands, ruled off, signed by whom, signed by all); `online`: the
 * pitkit table it is played at, which enters its hands.
 * @typedef {import('../../wire.js').PitsTournamentGame} Game
 */
/**
 * Who dealt a game's first hand, and how: chosen at the table, drawn by the server
 * "as the first Jack turned up" (with the seed and the cards turned up), or by the
 * online table.
 * @typedef {import('../../wire.js').PitsFirstDealer} FirstDealer
 */
/**
 * A line of a prize table: rank (shared when tied), totals, percentage, eligibility.
 * @typedef {import('../../wire.js').PitsPrizeLine} Line
 */
/**
 * The event's view: the roster, every game, both prize tables and the rules' numbers.
 * @typedef {import('../../wire.js').PitsTournamentView} PitsView
 */

/** Points by finishing place (1st 2, 2nd 1), and what each place is called on the pickers. */
export const PLACES = ['1st · 2 points', '2nd · 1 point', '3rd · deals next', '4th', '5th'];

/** @param {EventContext} ctx */
export function view(ctx) {
  return /** @type {PitsView} */ (ctx.event.view);
}

/**
 * The games still being played.
 * @param {PitsView} v
 */
export function openGames(v) {
  return v.games.filter((g) => !g.ruled_off);
}

/**
 * Players at no open table, and present (at an event that checks its players in):
 * free to start a game or take a seat.
 * @param {PitsView} v
 */
export function freePlayers(v) {
  const busy = new Set(openGames(v).flatMap((g) => g.at_table));
  const here = new Set(v.check_in.present);
  return v.players.filter((p) => !busy.has(p) && here.has(p));
}

/**
 * The open game `player` sits at, if any.
 * @param {PitsView} v
 * @param {string} player
 */
export function seatOf(v, player) {
  return openGames(v).find((g) => g.at_table.includes(player)) || null;
}

/**
 * Who still has to sign a ruled-off sheet.
 * @param {Game} g
 */
export function unsigned(g) {
  return g.ruled_off ? g.at_table.filter((p) => !g.signatures.includes(p)) : [];
}

/**
 * A game's name in words: "Table A (game 3)".
 * @param {Game} g
 */
export function gameName(g) {
  return `${g.table} (game ${g.game})`;
}

/**
 * Where a game's sheet stands, in words and as a chip's class.
 * @param {Game} g
 * @param {number} full hands in a full game
 * @returns {[string, string]}
 */
export function status(g, full) {
  if (g.confirmed) return ['signed', 'good'];
  if (g.ruled_off) {
    const missing = unsigned(g);
    return [`ruled off: ${plural(missing.length, 'signature')} missing`, 'away'];
  }
  if (g.complete) return [`${g.hands.length} hands: may be ruled off`, 'gold'];
  return [`playing: hand ${g.hands.length + 1} of ${full}`, ''];
}

/**
 * The hands a player was seated for in a game (a replaced player: until they left).
 * @param {Game} g
 * @param {string} player
 */
export function handsPlayed(g, player) {
  return g.hands.filter((hand) => hand.order.includes(player)).length;
}

/**
 * Who left the table before ten hands, and who took each seat: "Eve left after 3
 * hands (3 points, frozen); Fay took the seat."
 * @param {Game} g
 */
export function changes(g) {
  /** @type {string[]} */
  const out = [];
  for (const seat of g.seats) {
    for (let i = 0; i + 1 < seat.length; i++) {
      const gone = seat[i];
      out.push(`${gone} left after ${plural(handsPlayed(g, gone), 'hand')} (${plural(g.points[gone] || 0, 'point')}, frozen); ${seat[i + 1]} took the seat.`);
    }
  }
  return out;
}

/**
 * Who deals the first hand, in words: "Dan deals the first hand (drawn: the first Jack
 * turned up, JS, after 7 cards; seed 2024)".
 * @param {FirstDealer} first
 */
export function firstDealerWords(first) {
  if (first.how === 'drawn') {
    const jack = first.turned[first.turned.length - 1];
    return `${first.player} deals the first hand (drawn: the first Jack turned up, ${jack ? jack[1] : ''}, card ${first.turned.length}; seed ${first.seed})`;
  }
  return `${first.player} deals the first hand (${first.how === 'online' ? 'drawn at the online table' : 'chosen at the table'})`;
}

/**
 * A finishing order in words: "Ann 1st, Bob 2nd, Cat 3rd (deals next), Dan, Eve".
 * @param {string[]} order
 */
export function orderText(order) {
  return order.map((p, i) => (i < 3 ? `${p} ${ordinal(i + 1)}${i === 2 ? ' (deals next)' : ''}` : p)).join(', ');
}

/**
 * A table at a glance: who sits in which seat and their points, who deals next,
 * who keeps the sheet, the hands so far and the last one, who signed.
 * @param {EventContext} ctx
 * @param {Game} g
 * @param {{me?: string | null, controls?: Child, open?: boolean}} [options]
 */
export function gameCard(ctx, g, {me = null, controls = null, open = false} = {}) {
  const v = view(ctx);
  const [words, chip] = status(g, v.rules.hands_a_game);
  const last = g.hands[g.hands.length - 1];
  const dealer = last ? last.dealer : null;
  const rows = g.seats.map((seat, i) => {
    const sitter = seat[seat.length - 1];
    const notes = [];
    if (sitter === g.scorer && !g.online) notes.push(h('span', {class: 'chip'}, 'scorer'));
    if (!g.ruled_off && sitter === dealer) notes.push(h('span', {class: 'chip dealer'}, 'deals next'));
    if (g.ruled_off) {
      notes.push(g.signatures.includes(sitter)
        ? h('span', {class: 'chip good'}, 'signed')
        : h('span', {class: 'chip bad'}, 'to sign'));
    }
    const before = seat.slice(0, -1);
    return h('tr', {class: sitter === me ? 'me' : null, 'data-player': sitter},
      h('td', {class: 'seat-no'}, i + 1),
      h('th', {scope: 'row'}, sitter, before.length ? h('small', {}, ` for ${names(before)}`) : null, ' ', notes),
      h('td', {class: 'num'}, g.points[sitter] ?? 0));
  });
  const left = g.seats.flatMap((seat) => seat.slice(0, -1));
  return h('article', {class: `game-card${g.ruled_off ? ' done' : ''}`, 'data-key': `game-${g.game}`, 'data-game': g.game},
    h('header', {class: 'game-head'},
      h('h3', {}, g.table, h('small', {}, ` · game ${g.game}`)),
      h('span', {class: `chip ${chip}`, 'data-status': ''}, words)),
    h('table', {class: 'score-table game-seats'},
      h('caption', {class: 'sr-only'}, `${gameName(g)}: seats and points`),
      h('thead', {}, h('tr', {}, h('th', {scope: 'col'}, h('span', {class: 'sr-only'}, 'Seat')),
        h('th', {scope: 'col'}, 'Player'), h('th', {scope: 'col', class: 'num'}, 'Points'))),
      h('tbody', {}, rows,
        left.map((p) => h('tr', {class: 'left-table'}, h('td', {}), h('th', {scope: 'row'}, p, h('small', {}, 'left (frozen)')),
          h('td', {class: 'num'}, g.points[p] ?? 0))))),
    h('p', {class: 'game-meta'},
      `${plural(g.hands.length, 'hand')} of ${v.rules.hands_a_game} · ${g.online ? 'played online' : `${g.scorer} keeps the sheet`}`,
      last ? h('span', {class: 'last-hand'}, ` · last, hand ${last.hand}: ${orderText(last.order)}`) : null),
    g.first_dealer ? h('p', {class: 'game-meta first-dealer', 'data-first-dealer': g.first_dealer.player}, `${firstDealerWords(g.first_dealer)}.`) : null,
    g.ruled_off && unsigned(g).length ? h('p', {class: 'game-meta warn'}, `To sign: ${names(unsigned(g))}.`) : null,
    g.hands.length ? h('details', {class: 'hands', open: open || null, 'data-key': `hands-${g.game}`},
      h('summary', {}, `Every hand (${g.hands.length})`),
      h('ol', {class: 'hand-list'}, g.hands.map((hand) => h('li', {value: hand.hand}, orderText(hand.order),
        hand.dealt ? h('small', {}, ` · dealt by ${hand.dealt}`) : null)))) : null,
    controls);
}

/**
 * The points prize table: everyone, most points first; each line's percentage and
 * whether they are in the running for the percentage prize. `lines`: those to show
 * (a page of them, on the big screen, which leaves out the small print: its legend
 * says what grey means).
 * @param {PitsView} v
 * @param {{me?: string | null, big?: boolean, lines?: Line[]}} [options]
 */
export function pointsTable(v, {me = null, big = false, lines = v.standings.points} = {}) {
  const need = v.rules.games_for_percentage;
  if (!v.standings.points.length) return h('p', {class: 'note'}, 'No hands played yet.');
  return h('table', {class: `score-table standings${big ? ' big' : ''}`, 'data-table': 'points'},
    h('caption', {class: 'sr-only'}, 'Most points'),
    h('thead', {}, h('tr', {},
      h('th', {scope: 'col', class: 'num rank'}, 'Rank'), h('th', {scope: 'col', class: 'name'}, 'Player'),
      h('th', {scope: 'col', class: 'num'}, 'Points'), h('th', {scope: 'col', class: 'num'}, 'Games'),
      h('th', {scope: 'col', class: 'num pct'}, 'Percent'))),
    h('tbody', {}, lines.map((line) => h('tr', {class: line.player === me ? 'me' : null, 'data-player': line.player},
      h('td', {class: 'num rank'}, rankText(line)),
      h('th', {scope: 'row', class: 'name'}, line.player),
      h('td', {class: 'num total'}, line.points),
      h('td', {class: 'num', title: `${line.full_games} of ${line.games} games had ${v.rules.hands_a_game} hands or more`},
        line.games, line.full_games !== line.games && !big ? h('small', {}, ` (${line.full_games} full)`) : null),
      h('td', {class: `num pct${line.eligible ? '' : ' muted'}`},
        percent(line.percentage), line.eligible || big ? null : h('small', {class: 'why'}, ` ${line.full_games}/${need} full`))))));
}

/**
 * The percentage prize table: only players with enough full games (`lines`: those
 * to show).
 * @param {PitsView} v
 * @param {{me?: string | null, big?: boolean, lines?: Line[]}} [options]
 */
export function percentTable(v, {me = null, big = false, lines = v.standings.percentage} = {}) {
  const need = `${v.rules.games_for_percentage} games of ${v.rules.hands_a_game} hands`;
  if (!v.standings.percentage.length) return h('p', {class: 'note'}, `Nobody has played ${need} yet.`);
  return h('table', {class: `score-table standings${big ? ' big' : ''}`, 'data-table': 'percentage'},
    h('caption', {class: 'sr-only'}, `Best percentage (${need} or more)`),
    h('thead', {}, h('tr', {},
      h('th', {scope: 'col', class: 'num rank'}, 'Rank'), h('th', {scope: 'col', class: 'name'}, 'Player'),
      h('th', {scope: 'col', class: 'num pct'}, 'Percent'), h('th', {scope: 'col', class: 'num'}, big ? 'Games' : 'Full games'),
      h('th', {scope: 'col', class: 'num'}, 'Points'))),
    h('tbody', {}, lines.map((line) => h('tr', {class: line.player === me ? 'me' : null, 'data-player': line.player},
      h('td', {class: 'num rank'}, rankText(line)),
      h('th', {scope: 'row', class: 'name'}, line.player),
      h('td', {class: 'num total pct'}, percent(line.percentage)),
      h('td', {class: 'num'}, line.full_games),
      h('td', {class: 'num'}, line.points)))));
}

/**
 * Both prize tables, with what the percentage prize asks.
 * @param {PitsView} v
 * @param {string | null} [me]
 */
export function standings(v, me = null) {
  return [
    h('h3', {}, 'Most points'),
    pointsTable(v, {me}),
    h('h3', {}, 'Best percentage'),
    h('p', {class: 'note'}, `100 × points ÷ (2 × hands), over every hand of every game played in; for players with ${v.rules.games_for_percentage} games of ${v.rules.hands_a_game} hands or more.`),
    percentTable(v, {me}),
  ];
}

/**
 * Every entry of the log in words, by its number.
 * @param {LogEntry[]} log
 */
export function describeAll(log) {
  /** @type {Map<number, string>} */
  const words = new Map();
  let games = 0;
  for (const e of log) {
    const d = e.data;
    let text;
    switch (e.type) {
      case 'add_player': text = `added ${d.name} to the roster`; break;
      case 'start_game':
        if (!e.corrects) games += 1;
        text = `started game ${games}${d.table ? ` at ${d.table}` : ''}: ${names(d.players || [])}; ${d.scorer || (d.players || [])[0]} keeps the sheet`;
        break;
      case 'hand': text = `hand ${d.hand} of game ${d.game}: ${orderText(d.order || [])}`; break;
      case 'first_dealer': text = d.draw ? `drew the first dealer of game ${d.game}: ${d.dealer} turned up the first Jack (seed ${d.seed})` : `recorded the first dealer of game ${d.game}: ${d.dealer}`; break;
      case 'quit': text = `${d.player} quit game ${d.game}${d.replacement ? `; ${d.replacement} took the seat` : ''}`; break;
      case 'open_table': text = `put game ${d.game} at an online table`; break;
      case 'rule_off': text = `ruled off the sheet of game ${d.game}`; break;
      case 'sign': text = e.role === 'player' && e.author === d.player ? `signed the sheet of game ${d.game}` : `signed the sheet of game ${d.game} for ${d.player}`; break;
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
