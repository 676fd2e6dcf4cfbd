// @ts-check
// Pitty Pat (docs/rules/pitty-pat.md): match the top of the pile, discard, or draw.
import {h, plural, tap} from '../dom.js';
import {backEl, byRank, cardEl, cardName, RANK_NAMES} from '../cards.js';
import {told} from './common.js';

/** The view, as pitkit.games.pittypat.views declares it. @typedef {import('../wire.js').PittyPatView} PittyPatView */

/** @param {string} card */
function rankWord(card) {
  return RANK_NAMES[card[0]] || card[0];
}

/** @type {import('./contract.js').GameModule<PittyPatView>} */
export default {
  ordered: true, // pick the matching card first, then the discard
  multi: false,
  autoPlay: true,
  help: [
    'Be the first to empty your hand. Pairs dealt to you are laid down at once, so you start with a few single cards.',
    `On your turn, if you hold a card of the same rank as the top card of the pile, ${tap()} it to match, then ${tap()} the card to discard: it becomes the new top card. Matching with your last card wins the hand.`,
    'If nothing matches (or you choose to), draw: the top card of the stock is turned onto the pile, and if you can match it you must.',
  ],
  keys: [['D', 'draw a card']],

  sortHand: (cards) => byRank(cards),

  scoreLabel: (ctx) => (ctx.rules.scoring === 'chips' ? 'chips' : 'hands won'),
  scoreShort: (ctx) => (ctx.rules.scoring === 'chips' ? 'chips' : 'won'),
  handsInMatch: (ctx) => ctx.rules.hands || null,

  parseAction(text) {
    const words = text.split(' ');
    if (words[0] === 'draw') return {label: 'Draw', key: 'd'};
    if (words.length === 3) {
      return {cards: [words[1], words[2]], label: `Match ${cardName(words[1])}, discard ${cardName(words[2])}`};
    }
    return {cards: [words[1]], label: `Match ${cardName(words[1])}: your last card`};
  },

  // A card that does not match: ask the server, which says why.
  tryCard: (card, selection) => (selection.length ? null : `match ${card}`),

  hint(view, ctx, actions) {
    const top = view.top || '';
    const matches = actions.filter((a) => a.cards);
    if (view.phase === 'after_draw') {
      return `You turned up the ${cardName(top)}: match it with your ${rankWord(top)}, then pick a discard.`;
    }
    if (!matches.length) return `Nothing matches the ${cardName(top)}: draw a card (D).`;
    if (ctx.selected.length) return `Now ${tap()} the card to discard: it goes on top of the pile.`;
    const draw = actions.some((a) => a.text === 'draw') ? ' Or draw (D).' : ' You must match.';
    return `Match the ${cardName(top)}: ${tap()} your ${rankWord(top)} (highlighted), then the card to discard.${draw}`;
  },

  seatNotes(player) {
    const notes = [];
    if (!player.seated) notes.push('out of the game');
    if (player.pairs.length) notes.push(plural(player.pairs.length / 2, 'pair') + ' down');
    return notes;
  },

  seatExtra(player) {
    if (!player.pairs.length) return null;
    return h('div', {class: 'seat-extra', 'aria-label': `pairs laid down: ${player.pairs.map(cardName).join(', ')}`},
      player.pairs.map((c) => cardEl(c, {size: 'sm'})));
  },

  centre(view, ctx) {
    const pile = view.pile || [];
    const under = pile.slice(-3, -1);
    const pileBox = h('div', {class: 'pile', 'aria-label': `Discard pile, ${plural(pile.length, 'card')}; top card ${view.top ? cardName(view.top) : 'none'}`},
      under.map((c, i) => cardEl(c, {size: 'xl', cls: `under-${under.length - i}`})),
      view.top ? cardEl(view.top, {size: 'xl', cls: 'top'}) : null);
    const stock = h('div', {class: 'stock-box'}, backEl('xl', `Stock: ${plural(view.stock, 'card')}`),
      h('span', {class: 'centre-caption'}, `Stock: ${view.stock}`));
    let caption = '';
    if (view.phase === 'over') caption = 'The hand is over.';
    else if (view.to_act.length) {
      const seat = view.to_act[0];
      if (seat === ctx.me) caption = 'Your turn.';
      else caption = view.phase === 'after_draw' ? `${ctx.name(seat)} turned up the top card.` : `${ctx.name(seat)} is to play.`;
    }
    return h('div', {class: 'centre-box'},
      h('div', {class: 'table-row'}, stock, h('div', {class: 'stock-box'}, pileBox,
        h('span', {class: 'centre-caption'}, `Pile: ${pile.length}`))),
      h('p', {class: 'centre-caption'}, caption));
  },

  handSummary(events, ctx) {
    const end = events.find((e) => e.type === 'hand_end');
    const lines = [];
    if (!end || end.winner == null) {
      lines.push(h('p', {class: 'outcome'}, `The hand is a draw${end ? `: ${end.reason}` : ''}.`));
    } else {
      lines.push(told(events, ['hand_end']));
      lines.push(h('p', {}, ctx.rules.scoring === 'chips'
        ? 'Every other player pays the winner one chip.'
        : `A hand won counts one; the first to ${plural(Number(ctx.rules.target) || 5, 'hand')} wins the game.`));
    }
    const matches = events.filter((e) => e.type === 'action' && e.action.startsWith('match')).length;
    const draws = events.filter((e) => e.type === 'action' && e.action === 'draw').length;
    lines.push(h('p', {class: 'note'}, `${plural(matches, 'match', 'matches')} and ${plural(draws, 'draw')} in this hand.`));
    return h('div', {}, lines);
  },
};
