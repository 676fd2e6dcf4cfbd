// @ts-check
// Pitch (docs/rules/pitch.md): bid, pitch trump with the first card, and take high,
// low, Jack and game.
import {h, plural, sentence} from '../dom.js';
import {bySuit, cardEl, cardName, SUIT_NAMES, suitIcon} from '../cards.js';
import {placed, told} from './common.js';

/** The view, as pitkit.games.pitch.views declares it. @typedef {import('../wire.js').PitchView} PitchView */

/** @type {Record<string, string>} */
const POINTS = {high: 'High', low: 'Low', jack: 'Jack', game: 'Game'};

/**
 * "0:AS 1:TD" as plays.
 * @param {string | null} text
 */
function parseTrick(text) {
  return (text || '').split(' ').filter(Boolean).map((part) => {
    const [seat, card] = part.split(':');
    return {seat: Number(seat), card};
  });
}

/**
 * What a seat said last in the bidding.
 * @param {PitchView} view
 * @param {number} seat
 */
function lastSaid(view, seat) {
  const bids = (view.bids || []).filter((b) => b.seat === seat);
  return bids.length ? bids[bids.length - 1].said : null;
}

/** @type {import('./contract.js').GameModule<PitchView>} */
export default {
  ordered: false,
  multi: false,
  autoPlay: true,
  help: [
    'Each player gets six cards and bids once, in turn: pass, or bid 2, 3 or 4 points, more than the bid before. The dealer bids last and may steal the high bid. If everyone else passes, the dealer takes it for 2 or runs it: three more cards each, and the bidding goes round again.',
    'The high bidder pitches: the suit of their first card is trump. Follow the suit led if you can, or play a trump at any time. The highest trump wins the trick, or else the highest card of the suit led.',
    'Four points are at stake each hand: High (the highest trump played), Low (the lowest), Jack (the Jack of trump) and Game (the most points in cards won: tens 10, Aces 4, Kings 3, Queens 2, Jacks 1). A pitcher who does not make the bid is set back by it.',
  ],
  keys: [['P', 'pass'], ['2 3 4', 'bid'], ['S', 'steal'], ['T', 'take it for 2'], ['R', 'run it'], ['L', 'sell']],

  sortHand: (cards, view) => bySuit(cards, view.trump),
  scoreLabel: () => 'points',
  handsInMatch: (ctx) => ctx.rules.hands || null,

  parseAction(text) {
    const words = text.split(' ');
    switch (words[0]) {
      case 'pass': return {label: 'Pass', key: 'p'};
      case 'bid': return {label: `Bid ${words[1]}`, key: words[1]};
      case 'steal': return {label: `Steal the bid for ${words[1]}`, key: 's'};
      case 'take': return {label: 'Take it for 2', key: 't'};
      case 'run': return {label: 'Run it: 3 more cards each', key: 'r'};
      case 'sell': return {label: 'Sell: let the high bidder pitch', key: 'l'};
      case 'play': return {cards: [words[1]], label: `Play the ${cardName(words[1])}`};
      default: return {label: text};
    }
  },

  // In play, a card that may not be played is sent anyway: the server says why.
  tryCard: (card, selection, view) => (view.phase === 'play' ? `play ${card}` : null),

  hint(view, ctx, actions) {
    if (view.phase === 'bidding' || view.phase === 'rebidding') {
      if (actions.some((a) => a.text === 'take')) return 'Everyone passed: take it for 2 (T), or run it (R) for three more cards each.';
      if (actions.some((a) => a.text === 'sell')) return 'You ran it and were outbid: sell (L), or steal the bid (S).';
      const high = view.high_bidder != null ? ` ${sentence(`The high bid is ${view.high} by ${ctx.name(view.high_bidder)}`)}` : '';
      return `Your bid: pass (P) or bid 2 to 4 (keys 2, 3, 4).${high}`;
    }
    if (!view.trump) return 'You pitch: lead a card; its suit becomes trump.';
    if (!view.trick.length) return 'Lead any card.';
    return 'Play a card: follow the suit led, or play a trump (highlighted cards are legal).';
  },

  seatNotes(player, view) {
    const notes = [];
    if (!player.seated) notes.push('sitting out');
    if (view.pitcher === player.seat) notes.push(`pitcher, ${view.bid}`);
    else if (view.phase === 'bidding' || view.phase === 'rebidding') {
      const said = lastSaid(view, player.seat);
      if (said) notes.push(said);
    }
    if (view.teams) {
      const team = view.teams.findIndex((t) => t.includes(player.seat));
      if (team >= 0) notes.push(`team ${'ABC'[team]}`);
    }
    return notes;
  },

  seatExtra(player) {
    const won = (player.won || '').split(' ').filter(Boolean).length;
    return won ? h('div', {class: 'seat-extra'}, h('span', {class: 'chip'}, `won ${plural(won, 'card')}`)) : null;
  },

  centre(view, ctx) {
    const layer = h('div', {class: 'centre-layer'});
    const box = h('div', {class: 'centre-box'});
    if (view.trump) {
      box.append(h('span', {class: `trump-badge suit-${view.trump}`, role: 'img', 'aria-label': `Trump: ${SUIT_NAMES[view.trump]}`},
        suitIcon(view.trump), `Trump: ${SUIT_NAMES[view.trump]}`));
    }
    if (view.pitcher != null) {
      box.append(h('p', {class: 'centre-caption'}, `${ctx.does(view.pitcher, 'pitches')} for ${view.bid}.`));
    } else if (view.phase === 'bidding' || view.phase === 'rebidding') {
      box.append(h('p', {class: 'centre-title'}, view.ran ? 'Bidding again (the dealer ran it)' : 'Bidding'),
        h('p', {class: 'centre-caption'}, view.high_bidder != null ? `High bid: ${view.high} by ${ctx.name(view.high_bidder)}` : 'No bid yet'));
    }
    layer.append(box);
    if (view.trick.length) {
      for (const t of view.trick) layer.append(placed(ctx, t.seat, 0.42, cardEl(t.card, {size: 'lg'}), null));
    } else if (view.last_trick && view.phase === 'play') {
      const tricks = ctx.events.filter((e) => e.type === 'trick');
      const winner = tricks.length ? tricks[tricks.length - 1].winner : null;
      for (const t of parseTrick(view.last_trick)) {
        layer.append(placed(ctx, t.seat, 0.42, cardEl(t.card, {size: 'md'}), null, t.seat === winner ? 'winner' : 'faded'));
      }
      if (winner != null) box.append(h('p', {class: 'centre-caption'}, sentence(`Last trick to ${ctx.who(winner) === 'You' ? 'you' : ctx.name(winner)}`)));
    }
    return layer;
  },

  handSummary(events, ctx) {
    const end = events.find((e) => e.type === 'hand_end');
    if (!end) return h('p', {}, 'The hand is over.');
    /** @type {import('../wire.js').PitchHandResult} */
    const r = end.result;
    return h('div', {},
      told(events, ['hand_end']),
      h('table', {class: 'score-table'},
        h('thead', {}, h('tr', {}, h('th', {scope: 'col'}, 'Point'), h('th', {scope: 'col'}, 'To'))),
        h('tbody', {}, r.awards.map((a) => h('tr', {},
          h('th', {scope: 'row'}, POINTS[a.point] || a.point),
          h('td', {}, a.credited.length ? a.credited.map((s) => ctx.name(s)).join(', ') : 'nobody'))))),
      h('p', {}, r.made ? `The pitcher made the bid of ${r.bid}.` : `The pitcher did not make the bid of ${r.bid} and is set back ${r.bid}.`));
  },

  scoreSheet(view, ctx) {
    /** @type {import('../wire.js').PitchSheet | undefined} */
    const sheet = view.match && view.match.sheet;
    if (!sheet || !sheet.lines.length) return null;
    return h('details', {class: 'sheet', open: true}, h('summary', {}, 'Score sheet'),
      h('table', {class: 'score-table sheet-table'},
        h('thead', {}, h('tr', {}, h('th', {scope: 'col'}, 'Hand'),
          sheet.scores.map((_, i) => h('th', {scope: 'col'}, ctx.name(i))))),
        h('tbody', {}, sheet.lines.map((line) => h('tr', {title: line.note},
          h('th', {scope: 'row'}, line.line),
          line.scores.map((v, i) => h('td', {}, `${v}`, line.deltas[i] ? h('small', {}, ` (${line.deltas[i] > 0 ? '+' : ''}${line.deltas[i]})`) : null)))))));
  },
};
