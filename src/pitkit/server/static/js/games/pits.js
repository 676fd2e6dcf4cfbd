// @ts-check
// Pits, BGA rules (docs/rules/pits.md): climbing with singles, sets, runs and runs of
// sets; Jokers and twos are wild; an exchange of cards before every hand after the first.
import {capital, h, ordinal, plural, tap} from '../dom.js';
import {backEl, byRank, cardEl, cardName} from '../cards.js';
import {cardButton} from './common.js';

/** @typedef {import('./contract.js').Ctx} Ctx */
/** The view, as pitkit.games.pits.views declares it. @typedef {import('../wire.js').PitsView} PitsView */
/** The BGA score sheet the server keeps. @typedef {import('../wire.js').PitsSheet} PitsSheet */

const ORDER = '3456789TJQKA2'; // then the black Joker, then the red one (P2)
/** @type {Record<string, string>} */
const SETS = {pairs: 'pairs', triples: 'triples', quads: 'quads'};

/**
 * How a play's declared kind reads: "a set of 3", "a run of pairs".
 * @param {string} kind
 * @param {number} n
 */
function kindText(kind, n) {
  if (kind === 'single') return 'a single';
  if (kind === 'set') return `a set of ${n}`;
  if (kind === 'run') return `a run of ${n}`;
  if (SETS[kind]) return `a run of ${SETS[kind]}`;
  const size = /^run-of-(\d+)$/.exec(kind);
  return size ? `a run of sets of ${size[1]}` : kind;
}

/**
 * The judge's flags for the table's rule options (as `pitkit judge pits` takes them).
 * @param {Record<string, any>} rules
 */
function judgeFlags(rules) {
  const flags = [];
  if (rules.finnish_twos) flags.push('--finnish');
  if (rules.wildness_degrees === false) flags.push('--no-wildness-degrees');
  if (rules.min_run_of_sets != null) flags.push('--min-run-of-sets', String(rules.min_run_of_sets));
  return flags;
}

/** @type {[string, (places: number[], ctx: Ctx) => string][]} */
const PHASE_STEPS = [
  ['give_highest', (p, ctx) => `${names(p.slice(3), ctx)} give their highest card, face up`],
  ['first_takes', (p, ctx) => `${ctx.name(p[0])} (1st) takes one; ${ctx.name(p[1])} (2nd) gets the other`],
  ['give_concealed', (p, ctx) => `${names(p.slice(0, 2), ctx)} each give any card, face down`],
  ['fourth_takes', (p, ctx) => `${ctx.name(p[3])} (4th) takes one; ${ctx.name(p[4])} (5th) gets the other`],
];

/**
 * @param {number[]} seats
 * @param {Ctx} ctx
 */
function names(seats, ctx) {
  return seats.map((s) => ctx.name(s)).join(' and ');
}

/**
 * A seat's place in the last hand (1 for the first out), 0 if none.
 * @param {PitsView} view
 * @param {number | null} seat
 */
function place(view, seat) {
  return view.places && seat != null ? view.places.indexOf(seat) + 1 : 0;
}

/** @type {import('./contract.js').GameModule<PitsView>} */
export default {
  ordered: false,
  multi: true, // pick any cards: the page says what they make and whether they beat the table
  autoPlay: false,
  help: [
    'Get rid of your cards first. The leader plays any meld: a single card, a set (cards of one rank), a run (three or more ranks in a row, one card each, 3 up to the Ace), or a run of sets (three or more ranks in a row with the same number of cards each).',
    'The others, in turn, beat it with a meld of the same kind and size, or pass. Cards rank 3 lowest, then up to the Ace, the 2, the black Joker and the red Joker. Jokers stand for any card and a 2 stands for the other cards\' rank; fewer and lower wild cards beat more.',
    'When everyone else has passed, the last player to play leads again. 1st out scores 2 points and 2nd scores 1. Before each later hand the last hand\'s 4th and 5th give their best card to 1st and 2nd, who give back any card.',
    `Pick cards by ${tap('clicking')} them: the cards that can complete a legal play are highlighted, and the page shows how your pick reads and whether it beats the table.`,
  ],
  keys: [['P', 'pass'], ['Enter', 'play the picked cards']],

  sortHand: (cards) => byRank(cards, ORDER),
  scoreLabel: () => 'points',
  handsInMatch: (ctx) => ctx.rules.hands || 10,

  parseAction(text, view) {
    const words = text.split(' ');
    if (words[0] === 'pass') return {label: 'Pass', key: 'p'};
    if (words[0] === 'play') {
      const cards = words.slice(2);
      return {cards, label: `Play as ${kindText(words[1], cards.length)}`};
    }
    if (words[0] === 'give') {
      const face = view.phase === 'give_highest' ? 'face up' : 'face down';
      return {cards: [words[1]], label: `Give the ${cardName(words[1])}, ${face}`};
    }
    if (words[0] === 'take') return {place: 'centre', card: words[1], label: `Take the ${cardName(words[1])}`};
    return {label: text};
  },

  // A pick that makes no legal play: send it undeclared, and the server says why.
  tryPlay: (cards, view) => (view.phase === 'play' ? `play ${cards.join(' ')}` : null),

  hint(view, ctx, actions) {
    const mine = place(view, ctx.me);
    switch (view.phase) {
      case 'give_highest':
        return `You came ${ordinal(mine)} last hand: give your highest card, face up. ${capital(tap())} it, then Give.`;
      case 'first_takes':
        return 'You won the last hand: take one of the two cards on the table.';
      case 'give_concealed':
        return `Give any card back, face down: ${tap()} it, then Give.`;
      case 'fourth_takes':
        return 'Take one of the two face-down cards on the table.';
      default:
        break;
    }
    const plays = actions.filter((a) => a.cards);
    if (!view.table) return 'You lead: pick the cards of any meld (highlighted cards make one), then Play (Enter).';
    if (!plays.length) return `You cannot beat ${view.table.meld}: pass (P).`;
    return `Beat ${view.table.meld} with ${plural(view.table.cards.length, 'card')} of the same kind, or pass (P).`;
  },

  waitingText(view, ctx) {
    if (view.phase === 'play' || view.phase === 'over') return null;
    return `The exchange: waiting for ${view.to_act.map((s) => ctx.name(s)).join(' and ')}…`;
  },

  seatNotes(player, view) {
    const notes = [];
    if (player.place) notes.push(`out ${ordinal(player.place)}`);
    else if (player.passed) notes.push('passed');
    if (view.phase !== 'play' && view.phase !== 'over' && view.places) {
      notes.push(`${ordinal(place(view, player.seat))} last hand`);
    }
    if (player.gave_face_down) notes.push('gave a card');
    if (view.table && view.table.seat === player.seat) notes.push('on the table');
    return notes;
  },

  centre(view, ctx) {
    const box = h('div', {class: 'centre-box'});
    if (view.phase === 'play' || view.phase === 'over') {
      if (view.table) {
        box.append(h('div', {class: 'meld', 'aria-label': `On the table: ${view.table.meld}, by ${ctx.name(view.table.seat)}`},
          h('div', {class: 'cards-row'}, view.table.cards.map((c) => cardEl(c, {size: 'lg'}))),
          h('p', {class: 'centre-title'}, `${view.table.meld}`),
          h('p', {class: 'centre-caption'}, `played by ${ctx.who(view.table.seat) === 'You' ? 'you' : ctx.name(view.table.seat)}`)));
      } else if (view.phase === 'play') {
        const leader = view.to_act[0];
        box.append(h('p', {class: 'centre-title'}, 'The table is empty'),
          h('p', {class: 'centre-caption'}, leader === ctx.me ? 'You lead: play any meld.' : `${ctx.name(leader)} leads.`));
      }
      box.append(h('p', {class: 'centre-caption'}, `${plural(view.played.length, 'card')} played this hand`));
      return box;
    }
    // The exchange between hands (P8), step by step.
    const phases = PHASE_STEPS.map(([p]) => p);
    const now = phases.indexOf(view.phase);
    box.append(h('p', {class: 'centre-title'}, 'The exchange'),
      h('ol', {class: 'steps'}, PHASE_STEPS.map(([p, text], i) =>
        h('li', {class: i < now ? 'done' : i === now ? 'now' : ''}, text(view.places || [], ctx)))));
    const takes = ctx.legal.filter((a) => a.startsWith('take ')).map((a) => a.split(' ')[1]);
    const offered = Object.entries(view.offered || {});
    if (takes.length) {
      box.append(h('div', {class: 'take-row'}, takes.map((c) =>
        cardButton(c, `Take the ${cardName(c)}`, () => ctx.act(`take ${c}`), !ctx.canAct()))));
    } else if (offered.length) {
      box.append(h('div', {class: 'take-row'}, offered.map(([seat, c]) =>
        h('div', {class: 'stock-box'}, cardEl(c, {size: 'md'}), h('span', {class: 'centre-caption'}, `from ${ctx.name(Number(seat))}`)))));
    } else if (view.phase === 'fourth_takes') {
      box.append(h('div', {class: 'take-row'}, backEl('md', 'a face-down card'), backEl('md', 'a face-down card')));
    }
    return box;
  },

  selectionInfo(cards, exact, view, ctx) {
    if (!cards.length || view.phase !== 'play') return null;
    const args = view.table ? [cards.join(' '), view.table.cards.join(' ')] : [cards.join(' ')];
    return ctx.judge([...args, ...judgeFlags(ctx.rules)]).then((verdict) => {
      const legal = exact.length > 0;
      const lead = legal ? (view.table ? 'Beats the table. ' : 'A legal lead. ') : '';
      return h('p', {class: verdict.ok && legal ? 'yes' : 'no'}, lead, verdict.text);
    });
  },

  scoreSheet(view, ctx) {
    /** @type {PitsSheet | undefined} */
    const sheet = view.match && view.match.sheet;
    if (!sheet || !sheet.hands.length) return null;
    const seats = sheet.points.map((_, i) => i);
    const played = sheet.hands.length;
    return h('details', {class: 'sheet bga-sheet', open: true}, h('summary', {}, 'Score sheet'),
      h('table', {class: 'score-table sheet-table'},
        h('thead', {}, h('tr', {}, h('th', {scope: 'col'}, 'Hand'),
          seats.map((i) => h('th', {scope: 'col', class: i === ctx.me ? 'me' : null}, ctx.name(i))),
          h('th', {scope: 'col', class: 'dealer'}, 'Deals next'))),
        h('tbody', {}, sheet.hands.map((hand) => h('tr', {},
          h('th', {scope: 'row'}, hand.hand),
          hand.points.map((p) => h('td', {}, p ? p : '·')),
          h('td', {class: 'dealer'}, ctx.name(hand.dealer))))),
        h('tfoot', {},
          h('tr', {}, h('th', {scope: 'row'}, 'Total'), sheet.points.map((p) => h('td', {class: 'total'}, p)), h('td', {})),
          h('tr', {}, h('th', {scope: 'row', title: '100 × points ÷ (2 × hands)'}, '%'),
            sheet.percentage.map((p) => h('td', {}, p.toFixed(1))), h('td', {})))),
      h('p', {class: 'note'}, played >= sheet.full
        ? `A full game: ${plural(played, 'hand')}. The percentage is 100 × points ÷ (2 × hands).`
        : `${plural(sheet.full - played, 'hand')} to a full game of ${sheet.full}. The percentage is 100 × points ÷ (2 × hands).`));
  },

  handSummary(events, ctx) {
    const end = events.find((e) => e.type === 'hand_end');
    if (!end) return h('p', {}, 'The hand is over.');
    const points = [2, 1, 0, 0, 0];
    /** @type {number[]} */
    const order = end.order;
    return h('div', {},
      h('p', {}, 'Finishing order: 1st out scores 2 points, 2nd scores 1.'),
      h('ol', {}, order.map((s, i) => h('li', {}, `${ctx.name(s)}${s === ctx.me ? ' (you)' : ''}`,
        h('small', {}, ` ${points[i] ? `+${points[i]}` : '0'}`)))),
      ctx.over ? null : h('p', {class: 'note'}, 'Next hand: 4th and 5th give their highest card to 1st and 2nd, who give a card back.'));
  },
};
