// @ts-check
// The BGA continuous Pits tournament's pages (pitkit/tournaments/pits.py; ruling P10):
// the manager's desk, a player's page, the public view, the big screen and the
// printable score sheets. The pieces are in js/event/pits/.
import {h, plural} from '../dom.js';
import {button, clock, linkRow, names, newLink, note, onlineDesk, onlineSeat, panel, percent, rankText} from './ui.js';
import {hallPanel} from './checkin.js';
import {blankHandRows} from './print.js';
import {narrowScreen, pageHeading, pageOf, screenFrame} from './screen.js';
import {
  changes, describeAll, firstDealerWords, freePlayers, gameCard, gameName, handsPlayed, logTable, openGames, percentTable,
  pointsTable, seatOf, standings, status, unsigned, view,
} from './pits/parts.js';
import {addPlayerForm, correctForm, handForm, quitForm, ruleOffForm, signButton, startForm} from './pits/forms.js';

/** @typedef {import('./contract.js').EventContext} EventContext */
/** @typedef {import('./pits/parts.js').Game} Game */
/** @typedef {import('./pits/parts.js').PitsView} PitsView */
/** @typedef {import('../dom.js').Child} Child */

/**
 * A button that opens one of a table's forms (and closes it again).
 * @param {EventContext} ctx
 * @param {Game} g
 * @param {string} which
 * @param {string} label
 * @param {{disabled?: boolean}} [options]
 */
function opener(ctx, g, which, label, {disabled = false} = {}) {
  const key = `g${g.game}:open`;
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
 * The manager's controls under a table: enter or correct a hand, a quit, ruling off;
 * once it is ruled off, signing for whoever has not.
 * @param {EventContext} ctx
 * @param {Game} g
 */
function deskControls(ctx, g) {
  const open = ctx.forms[`g${g.game}:open`];
  if (g.ruled_off) {
    const missing = unsigned(g);
    if (!missing.length) return null;
    return h('div', {class: 'game-controls', 'data-key': `controls-${g.game}`},
      h('div', {class: 'button-row left'}, missing.map((p) => signButton(ctx, g, p, true))),
      note(ctx, `g${g.game}:sign`));
  }
  /** @type {Record<string, () => Node>} */
  const forms = {
    hand: () => handForm(ctx, g),
    fix: () => correctForm(ctx, g),
    quit: () => quitForm(ctx, g),
    rule: () => ruleOffForm(ctx, g),
  };
  return h('div', {class: 'game-controls', 'data-key': `controls-${g.game}`},
    onlineDesk(ctx, g.online, {game: g.game}, `g${g.game}:online`, !g.hands.length),
    note(ctx, `g${g.game}:online`),
    h('div', {class: 'button-row left'},
      g.online ? null : opener(ctx, g, 'hand', `Enter hand ${g.hands.length + 1}`),
      opener(ctx, g, 'fix', 'Correct a hand', {disabled: !g.hands.length}),
      opener(ctx, g, 'quit', 'A player quits'),
      opener(ctx, g, 'rule', 'Rule off')),
    open && forms[open] ? forms[open]() : null);
}

/**
 * Where a player is now, in a few words.
 * @param {PitsView} v
 * @param {string} player
 */
function whereIs(v, player) {
  const g = seatOf(v, player);
  if (g) return `at ${gameName(g)}`;
  const toSign = v.games.filter((x) => unsigned(x).includes(player));
  if (toSign.length) return `free; to sign game ${toSign.map((x) => x.game).join(', ')}`;
  return 'free';
}

/**
 * The roster: each player, where they are, and (on the desk) their link to hand out.
 * @param {EventContext} ctx
 * @param {boolean} withLinks
 */
function roster(ctx, withLinks) {
  const v = view(ctx);
  if (!v.players.length) return h('p', {class: 'note'}, 'Nobody yet.');
  return h('ul', {class: 'roster'}, v.players.map((p) => {
    const url = withLinks ? ctx.links[p] : null;
    return h('li', {'data-key': `player-${p}`, 'data-player': p},
      h('div', {class: 'roster-line'}, h('strong', {}, p), ' ', h('small', {}, whereIs(v, p))),
      url ? linkRow(p, url) : withLinks ? h('small', {class: 'no-link'}, 'Link made in another browser') : null,
      withLinks ? newLink(ctx, p, 'player') : null);
  }));
}

/**
 * The state of the evening in one line.
 * @param {PitsView} v
 */
function glance(v) {
  const playing = openGames(v).length;
  const waiting = v.games.filter((g) => g.ruled_off && !g.confirmed).length;
  const signed = v.games.filter((g) => g.confirmed).length;
  return h('p', {class: 'glance', 'data-key': 'glance'},
    h('span', {}, plural(v.players.length, 'player')), ' · ',
    h('span', {}, `${plural(playing, 'game')} playing`), ' · ',
    h('span', {}, `${waiting} waiting for signatures`), ' · ',
    h('span', {}, `${signed} signed`), ' · ',
    h('span', {}, `${freePlayers(v).length} free`),
    v.check_in.on ? [' · ', h('span', {}, `${v.check_in.absent.length} not checked in`)] : null);
}

/**
 * Games that are over: those waiting for signatures as tables at a glance (with
 * the desk's controls), the signed ones a line each, newest first.
 * @param {EventContext} ctx
 * @param {(g: Game) => Child} controls
 */
function finished(ctx, controls) {
  const v = view(ctx);
  const waiting = v.games.filter((g) => g.ruled_off && !g.confirmed).reverse();
  const signed = v.games.filter((g) => g.confirmed).reverse();
  const count = waiting.length + signed.length;
  return panel('finished', `Finished games (${count})`,
    count ? null : h('p', {class: 'note'}, 'None yet.'),
    waiting.length ? h('div', {class: 'game-grid'}, waiting.map((g) => gameCard(ctx, g, {controls: controls(g)}))) : null,
    signed.length ? h('ul', {class: 'done-list'}, signed.map((g) => h('li', {'data-game': g.game, 'data-key': `done-${g.game}`},
      h('strong', {}, gameName(g)), `: ${plural(g.hands.length, 'hand')} · `,
      names(g.seats.flat().map((p) => `${p} ${g.points[p] ?? 0}`)),
      h('span', {class: 'chip good', 'data-status': ''}, 'signed')))) : null);
}

/** @param {EventContext} ctx */
function files(ctx) {
  const base = `/api/events/${encodeURIComponent(ctx.id)}`;
  const page = `/e/${encodeURIComponent(ctx.id)}`;
  return h('ul', {class: 'file-list'},
    h('li', {}, h('a', {href: `${page}/print`, target: '_blank', rel: 'noopener'}, 'Score sheets to print'), h('small', {}, ' (one A4 page a game, with signature lines)')),
    h('li', {}, h('a', {href: `${base}/sheets.csv`, download: true}, 'sheets.csv'), h('small', {}, ' every hand of every game')),
    h('li', {}, h('a', {href: `${base}/standings.csv`, download: true}, 'standings.csv'), h('small', {}, ' both prize tables')),
    h('li', {}, h('a', {href: `${page}/screen`, target: '_blank', rel: 'noopener'}, 'The big screen'), h('small', {}, ' for the hall')),
    h('li', {}, h('a', {href: `${page}#public`, target: '_blank', rel: 'noopener'}, 'The public view'), h('small', {}, ' what anyone sees')));
}

/** @param {EventContext} ctx */
function desk(ctx) {
  const v = view(ctx);
  const open = openGames(v);
  return h('div', {class: 'ev-grid ev-desk'},
    h('div', {class: 'ev-col'},
      glance(v),
      panel('tables', 'Tables now',
        open.length ? h('div', {class: 'game-grid'}, open.map((g) => gameCard(ctx, g, {controls: deskControls(ctx, g)})))
          : h('p', {class: 'note'}, 'No game is being played: start one below.')),
      panel('start', 'Start a game', startForm(ctx)),
      finished(ctx, (g) => deskControls(ctx, g)),
      panel('log', 'Entry log', h('p', {class: 'note'}, 'Every entry, newest first: who made it, when. A correction replaces an entry and keeps it.'), logTable(ctx))),
    h('div', {class: 'ev-col side'},
      hallPanel(ctx, v.players),
      panel('roster', `Roster (${v.players.length})`, addPlayerForm(ctx),
        h('p', {class: 'note'}, 'Each player\'s secret link opens their page: hand it to them (copy it into a message). The server shows it once; this browser keeps it.'),
        roster(ctx, true)),
      panel('standings', 'Standings', standings(v)),
      panel('files', 'Sheets and files', files(ctx))));
}

/**
 * A player's own line in the prize tables, in words.
 * @param {PitsView} v
 * @param {string} me
 */
function myStanding(v, me) {
  const line = v.standings.points.find((l) => l.player === me);
  if (!line) return h('p', {class: 'note'}, 'You have not played a hand yet.');
  const pct = v.standings.percentage.find((l) => l.player === me);
  const need = v.rules.games_for_percentage;
  return h('dl', {class: 'facts-list'},
    h('dt', {}, 'Points'), h('dd', {}, h('strong', {}, line.points), ` · rank ${rankText(line)} of ${v.standings.points.length}`),
    h('dt', {}, 'Percentage'), h('dd', {}, h('strong', {}, percent(line.percentage)), ` over ${plural(line.hands, 'hand')}`),
    h('dt', {}, 'Games'), h('dd', {}, `${line.games} played, ${line.full_games} of ${v.rules.hands_a_game} hands or more`),
    h('dt', {}, 'Percentage prize'), h('dd', {}, pct ? `in the running: rank ${rankText(pct)}`
      : `${plural(Math.max(0, need - line.full_games), 'more full game')} to be in the running`));
}

/** @param {EventContext} ctx */
function player(ctx) {
  const v = view(ctx);
  const me = ctx.me.name || '';
  const g = seatOf(v, me);
  // The sheets to sign, and those just signed here (to say so).
  const toSign = v.games.filter((x) => unsigned(x).includes(me) || (x.ruled_off && ctx.notes[`g${x.game}:sign`]));
  const mine = v.games.filter((x) => x.seats.some((seat) => seat.includes(me)));
  /** @type {Child} */
  let seat;
  if (g) {
    const scorer = g.scorer === me;
    const fix = ctx.forms[`g${g.game}:open`];
    const seatNo = g.seats.findIndex((s) => s[s.length - 1] === me) + 1;
    seat = [
      h('p', {class: 'big-line'}, 'You play at ', h('strong', {}, g.table), `, seat ${seatNo} (game ${g.game}). `,
        g.online ? '' : scorer ? 'You keep the sheet: enter each hand below.' : `${g.scorer} keeps the sheet.`),
      g.online ? onlineSeat(ctx, g.online, `g${g.game}:seat`) : null,
      gameCard(ctx, g, {me, controls: h('div', {class: 'game-controls', 'data-key': `controls-${g.game}`},
        scorer && !g.online ? handForm(ctx, g) : null,
        h('div', {class: 'button-row left'},
          scorer ? opener(ctx, g, 'fix', 'Correct a hand', {disabled: !g.hands.length}) : null,
          scorer && g.complete ? opener(ctx, g, 'rule', 'Rule off the sheet') : null,
          opener(ctx, g, 'quit', 'Quit this game…')),
        fix === 'fix' && scorer ? correctForm(ctx, g) : null,
        fix === 'rule' && scorer && g.complete ? ruleOffForm(ctx, g) : null,
        fix === 'quit' ? quitForm(ctx, g, me) : null)}),
    ];
  } else {
    seat = h('p', {class: 'big-line'}, 'You are not at a table now. ',
      toSign.length ? 'Sign your sheet below; then the manager' : 'The manager', ' will call you to your next game.');
  }
  return h('div', {class: 'ev-grid ev-player'},
    h('div', {class: 'ev-col'},
      toSign.length ? panel('sign', 'Sign your sheet', toSign.map((x) => h('div', {class: 'sign-box', 'data-key': `sign-${x.game}`, 'data-game': x.game},
        h('p', {}, `${gameName(x)} is ruled off after ${plural(x.hands.length, 'hand')}. You scored `, h('strong', {}, x.points[me] ?? 0),
          x.signatures.includes(me) ? '.' : '. Check the sheet; sign it if it is right, or tell the manager what is wrong.'),
        gameCard(ctx, x, {me, open: !x.signatures.includes(me)}),
        x.signatures.includes(me) ? null : h('div', {class: 'button-row left'}, signButton(ctx, x, me, false)),
        note(ctx, `g${x.game}:sign`)))) : null,
      panel('seat', 'Your seat', seat),
      panel('mine', `Your games (${mine.length})`, mine.length
        ? h('ul', {class: 'my-games'}, mine.map((x) => h('li', {'data-game': x.game},
          h('strong', {}, gameName(x)), `: ${plural(x.points[me] ?? 0, 'point')} in ${plural(handsPlayed(x, me), 'hand')} · ${status(x, v.rules.hands_a_game)[0]}`,
          x.signatures.includes(me) ? h('small', {}, ' · you signed') : null)))
        : h('p', {class: 'note'}, 'None yet.'))),
    h('div', {class: 'ev-col side'},
      panel('me', 'Your standing', myStanding(v, me)),
      panel('standings', 'Standings', standings(v, me))));
}

/** @param {EventContext} ctx */
function publicView(ctx) {
  const v = view(ctx);
  const open = openGames(v);
  return h('div', {class: 'ev-grid ev-public'},
    h('div', {class: 'ev-col'},
      panel('tables', 'Tables now', open.length ? h('div', {class: 'game-grid'}, open.map((g) => gameCard(ctx, g)))
        : h('p', {class: 'note'}, 'No game is being played now.')),
      finished(ctx, () => null)),
    h('div', {class: 'ev-col side'},
      panel('standings', 'Standings', standings(v)),
      panel('roster', `Players (${v.players.length})`, roster(ctx, false))));
}

/**
 * A page of the points prize table, for the big screen.
 * @param {PitsView} v
 * @param {number} page
 * @param {number} per
 */
function mostOnScreen(v, page, per) {
  const lines = v.standings.points;
  const shown = pageOf(lines, page, per);
  return h('section', {class: 'screen-table', 'aria-labelledby': 'most-title'},
    pageHeading('most-title', 'Most points', shown.from, shown.items.length, lines.length),
    pointsTable(v, {big: true, lines: shown.items}));
}

/**
 * A page of the percentage prize table, for the big screen.
 * @param {PitsView} v
 * @param {number} page
 * @param {number} per
 */
function bestOnScreen(v, page, per) {
  const lines = v.standings.percentage;
  const shown = pageOf(lines, page, per);
  const need = `${v.rules.games_for_percentage} games of ${v.rules.hands_a_game} hands or more`;
  return h('section', {class: 'screen-table', 'aria-labelledby': 'pct-title'},
    pageHeading('pct-title', 'Best percentage', shown.from, shown.items.length, lines.length, ` ${need}`),
    percentTable(v, {big: true, lines: shown.items}));
}

/**
 * The big screen: both prize tables side by side in large type (one at a time on a
 * phone), a page of lines at a time, then the tables being played, a page of cards
 * at a time (js/event/screen.js).
 * @param {EventContext} ctx
 */
function screen(ctx) {
  const v = view(ctx);
  const log = ctx.event.log;
  const at = log.length ? log[log.length - 1].at : ctx.event.created;
  const {points, percentage} = v.standings;
  /** @type {import('./screen.js').Part[]} */
  const parts = narrowScreen() ? [
    {name: 'Most points', count: points.length, unit: 'row', draw: (page, per) => mostOnScreen(v, page, per)},
    {name: 'Best percentage', count: percentage.length, unit: 'row', draw: (page, per) => bestOnScreen(v, page, per)},
  ] : [{
    name: 'Standings',
    count: Math.max(points.length, percentage.length),
    unit: 'row',
    draw: (page, per) => h('div', {class: 'screen-cols'}, mostOnScreen(v, page, per), bestOnScreen(v, page, per)),
  }];
  const open = openGames(v);
  if (open.length) {
    parts.push({
      name: 'Tables now',
      count: open.length,
      unit: 'card',
      draw: (page, per) => h('div', {class: 'screen-cards', style: '--lines: 5'}, pageOf(open, page, per).items.map((g) =>
        h('article', {class: 'screen-card', 'data-game': g.game},
          h('h2', {}, g.table, h('small', {}, ` · hand ${g.hands.length + 1}`)),
          h('ol', {}, g.at_table.map((p) => h('li', {}, h('span', {class: 'name'}, p), h('strong', {}, g.points[p] ?? 0))))))),
    });
  }
  const need = `${v.rules.games_for_percentage} games of ${v.rules.hands_a_game} hands`;
  return screenFrame(ctx, {
    kind: 'pits-screen',
    head: `${ctx.event.title} · last entry ${clock(at)}`,
    parts,
    legend: `Grey percentages: fewer than ${need}, not yet in the running for the percentage prize.`,
  });
}

/**
 * One game's score sheet for paper: every hand's points by player (each seat's
 * occupants in turn), who dealt next, the totals, who left, and a line to sign.
 * @param {EventContext} ctx
 * @param {Game} g
 */
function sheet(ctx, g) {
  const v = view(ctx);
  const columns = g.seats.flat();
  const seatOfPlayer = new Map(g.seats.flatMap((seat, i) => seat.map((p) => [p, i + 1])));
  return h('article', {class: 'sheet', 'data-game': g.game},
    h('header', {class: 'sheet-head'},
      h('h2', {}, `${g.table} · game ${g.game}`),
      h('p', {}, `${ctx.event.name} · ${ctx.event.title}`),
      h('p', {}, `Scorer: ${g.scorer} · ${plural(g.hands.length, 'hand')} · ${status(g, v.rules.hands_a_game)[0]}`),
      g.first_dealer ? h('p', {class: 'first-dealer'}, `${firstDealerWords(g.first_dealer)}.`) : null),
    h('table', {class: 'sheet-grid'},
      h('thead', {}, h('tr', {}, h('th', {scope: 'col'}, 'Hand'),
        columns.map((p) => h('th', {scope: 'col'}, p, h('br'), h('small', {}, `seat ${seatOfPlayer.get(p)}`))),
        h('th', {scope: 'col'}, 'Deals next'))),
      h('tbody', {}, g.hands.map((hand) => h('tr', {},
        h('th', {scope: 'row'}, hand.hand),
        columns.map((p) => h('td', {}, p in hand.points ? hand.points[p] : '·')),
        h('td', {class: 'dealer'}, hand.dealer))), blankHandRows(g, v.rules.hands_a_game, columns.length)),
      h('tfoot', {}, h('tr', {}, h('th', {scope: 'row'}, 'Total'), columns.map((p) => h('td', {}, g.points[p] ?? 0)), h('td', {})))),
    changes(g).map((line) => h('p', {class: 'sheet-note'}, line)),
    h('div', {class: 'signatures'},
      h('h3', {}, g.ruled_off ? 'Signatures: the scores above are right' : 'Signatures (once the sheet is ruled off)'),
      g.at_table.map((p) => h('div', {class: 'signature'},
        h('span', {class: 'sig-name'}, p),
        h('span', {class: 'sig-line'}, g.signatures.includes(p) ? '✓ signed on the event page' : ''),
        h('span', {class: 'sig-points'}, plural(g.points[p] ?? 0, 'point'))))));
}

/** @param {EventContext} ctx */
function printPage(ctx) {
  const v = view(ctx);
  const base = `/api/events/${encodeURIComponent(ctx.id)}`;
  return h('div', {class: 'ev-print'},
    h('p', {class: 'print-intro'}, `One A4 sheet a game: ${plural(v.games.length, 'game')}. Print, or save as PDF from the print dialogue. `,
      'Also as ', h('a', {href: `${base}/sheets.csv`, download: true}, 'sheets.csv'), ' and ',
      h('a', {href: `${base}/standings.csv`, download: true}, 'standings.csv'), '.'),
    v.games.length ? v.games.map((g) => sheet(ctx, g)) : h('p', {class: 'note'}, 'No game has started yet.'));
}

/** @type {import('./contract.js').EventModule} */
export default {
  public: publicView,
  desk,
  player,
  screen,
  print: printPage,
  describe: describeAll,
};
