// @ts-check
// Pit (real time): everyone trades at once. Offer 1 to 4 cards of one kind face down,
// take someone's offer by paying as many cards, and corner a commodity by holding all
// nine of it. The server applies actions in the order they arrive.
import {h, plural, tap} from '../dom.js';
import {backsEl, cardEl, COMMODITIES} from '../cards.js';
import {sameCards} from '../picker.js';
import {pointsList, told} from './common.js';

/** The view, as pitkit.games.pit.views declares it. @typedef {import('../wire.js').PitView} PitView */

/**
 * The cards of a lot: `size` cards, of the commodity named, with the Bull or Bear if named.
 * @param {number} size
 * @param {string[]} words
 */
function lotCards(size, words) {
  const commodity = words.find((w) => w in COMMODITIES);
  const bull = words.includes('bull');
  const bear = words.includes('bear');
  const n = size - Number(bull) - Number(bear);
  return [...Array(commodity ? n : 0).fill(commodity), ...(bull ? ['bull'] : []), ...(bear ? ['bear'] : [])];
}

/**
 * "3 wheat and the Bull".
 * @param {string[]} cards
 */
function lotText(cards) {
  /** @type {Record<string, number>} */
  const counts = {};
  for (const c of cards) counts[c] = (counts[c] || 0) + 1;
  return Object.entries(counts).map(([c, n]) => (c === 'bull' ? 'the Bull' : c === 'bear' ? 'the Bear' : `${n} ${c}`)).join(' and ');
}

/**
 * An accept action: whose offer, which, and the cards it pays.
 * @param {string} text
 * @param {PitView} view
 */
function parseAccept(text, view) {
  const words = text.split(' ');
  const seat = Number(words[1]);
  const number = words.find((w) => w.startsWith('#'));
  const offer = number ? Number(number.slice(1)) : null;
  const open = view.offers.find((o) => (offer != null ? o.offer === offer : o.seat === seat));
  const pay = open ? lotCards(open.count, words.slice(2)) : [];
  return {seat, offer, pay};
}

/** @type {import('./contract.js').GameModule<PitView>} */
export default {
  ordered: false,
  multi: true,
  autoPlay: false,
  help: [
    'Everyone trades at once; there are no turns. You start with nine cards of mixed commodities. Collect all nine cards of one commodity, a corner, and call it to win the hand and the commodity\'s value (wheat 100, barley 85, corn 75 …).',
    `When the dealer rings the bell the pit opens. To trade, pick 1 to 4 cards of one kind and offer them: the others see only how many cards you offer. To take someone's offer, pay with as many cards of one kind of yours: one ${tap()} on Pay. You may have one offer open at a time.`,
    'Call Corner (C) as soon as you hold nine of a kind. With the Bull & Bear option the Bull counts as any commodity (and doubles a full corner), while whoever holds the Bear at a corner loses 20.',
  ],
  keys: [['B', 'ring the bell (dealer)'], ['Enter', 'offer the picked cards'], ['W', 'withdraw your offer'], ['C', 'call a corner']],

  sortHand: (cards) => cards,
  scoreLabel: () => 'points',
  scoreShort: () => 'pts',

  parseAction(text, view) {
    const words = text.split(' ');
    switch (words[0]) {
      case 'open': return {place: 'centre', label: 'Ring the bell: open the pit', key: 'b'};
      case 'withdraw': return {place: 'centre', label: 'Withdraw', key: 'w'};
      case 'corner': return {place: 'centre', label: 'Corner!', key: 'c'};
      case 'offer': {
        const cards = lotCards(Number(words[1]), words.slice(2));
        return {cards, label: `Offer ${lotText(cards)}`};
      }
      case 'accept': {
        const a = parseAccept(text, view);
        return {place: 'centre', ...a, label: `Pay ${lotText(a.pay)}`};
      }
      default: return {label: text};
    }
  },

  hint(view, ctx) {
    if (view.phase === 'sorting') return 'You deal: sort your cards, then ring the bell to open the pit (B).';
    if (ctx.legal.includes('corner')) return 'You hold a corner: call it now (C)!';
    if (view.offer) return `Your offer of ${plural(view.offer.count, 'card')} is open. Take another offer by paying, or withdraw yours (W).`;
    return 'Trade! Pick 1 to 4 cards of one kind to offer them (Enter), or pay for an offer with as many cards.';
  },

  waitingText(view, ctx) {
    // Pit always has a dealer (its view keeps TableView's nullable one).
    if (view.phase === 'sorting') return `Sorting. ${ctx.name(view.dealer ?? 0)} will ring the bell to open the pit.`;
    if (view.phase === 'trading') return 'The pit is open.';
    return null;
  },

  seatNotes(player, view) {
    const notes = [];
    const open = view.offers.find((o) => o.seat === player.seat);
    if (open) notes.push(`offers ${open.count}`);
    if (player.points) notes.push(`${player.points > 0 ? '+' : ''}${player.points} this hand`);
    return notes;
  },

  centre(view, ctx) {
    const box = h('div', {class: 'centre-box pit-centre'});
    const strip = h('div', {class: 'commodities', 'aria-label': 'Commodities in play'},
      view.commodities.map((c) => h('span', {class: 'chip'}, `${c} ${COMMODITIES[c]}`)),
      view.bull_and_bear ? h('span', {class: 'chip'}, 'Bull & Bear') : null);
    const ready = ctx.canAct();
    /** @type {(action: string, label: string, cls?: string) => HTMLButtonElement} */
    const button = (action, label, cls = '') => h('button', {
      type: 'button', class: `act ${cls}`.trim(), disabled: !ready, dataset: {action}, onclick: () => ctx.act(action),
    }, label);
    if (view.phase === 'sorting') {
      // A server table counts the sorting period down; nobody trades before the bell.
      const left = ctx.sortingLeft;
      const dealer = view.dealer ?? 0;
      const rings = ctx.who(dealer) === 'You' ? 'you ring' : `${ctx.name(dealer)} rings`;
      const caption = left == null ? `The pit opens when ${rings} the bell.`
        : left > 0 ? `Sorting: ${left} s — trading opens when the bell rings.`
          : `Sorting is over: trading opens when ${rings} the bell.`;
      box.append(h('p', {class: 'centre-title'}, 'Sorting'), strip,
        h('p', {class: `centre-caption${left != null ? ' sorting-clock' : ''}`, role: left != null ? 'timer' : null}, caption));
      if (ctx.legal.includes('open')) {
        const bell = button('open', left ? `Ring the bell in ${left} s` : 'Ring the bell: open the pit', 'primary bell');
        if (left) bell.disabled = true;
        box.append(bell);
      }
      return box;
    }
    if (view.phase === 'over') {
      box.append(h('p', {class: 'centre-title'}, 'The hand is over'), told(ctx.events, ['corner', 'hand_end'], 'centre-caption') || '');
      return box;
    }
    box.append(h('p', {class: 'centre-title'}, `The pit is open · ${plural(view.trades, 'trade')}`), strip);
    const selected = ctx.selected;
    const tiles = view.offers.map((o) => {
      if (o.seat === ctx.me && view.offer) {
        return h('div', {class: 'offer-tile mine', dataset: {offer: o.offer}},
          h('span', {class: 'offer-head'}, `Your offer #${o.offer}`),
          h('div', {class: 'cards-row tight'}, view.offer.cards.map((c) => cardEl(c, {size: 'sm'}))),
          ctx.legal.includes('withdraw') ? button('withdraw', 'Withdraw') : null);
      }
      const accepts = ctx.legal.filter((a) => a.startsWith(`accept ${o.seat} `) && a.endsWith(`#${o.offer}`))
        .map((a) => ({text: a, ...parseAccept(a, view)}));
      const pay = accepts.map((a) => {
        const b = button(a.text, lotText(a.pay).replace(/^\d+ /, ''), sameCards(selected, a.pay) ? 'primary' : '');
        b.setAttribute('aria-label', `Pay ${lotText(a.pay)} for ${ctx.name(o.seat)}'s offer`);
        return b;
      });
      return h('div', {class: 'offer-tile', dataset: {offer: o.offer, seat: o.seat}},
        h('span', {class: 'offer-head'}, `${ctx.name(o.seat)} offers `, h('strong', {class: 'count'}, o.count),
          h('span', {class: 'offer-number'}, ` #${o.offer}`)),
        backsEl(o.count),
        pay.length ? h('div', {class: 'pay'}, h('span', {class: 'note'}, `Pay ${o.count} of:`), pay)
          : ctx.me != null ? h('span', {class: 'note'}, `you hold no ${o.count} of one kind to pay`) : null);
    });
    box.append(tiles.length ? h('div', {class: 'offers'}, tiles) : h('p', {class: 'centre-caption'}, 'No offers yet.'));
    if (ctx.me != null) {
      const corner = ctx.legal.find((a) => a.startsWith('corner'));
      box.append(h('button', {
        type: 'button', class: 'act corner-button', disabled: !corner || !ready,
        title: corner ? 'You hold a corner: call it!' : 'Call it when you hold all nine cards of one commodity',
        onclick: () => corner && ctx.act(corner),
      }, 'Corner!'));
    }
    return box;
  },

  selectionInfo(cards, exact, view) {
    if (!cards.length || view.phase !== 'trading' || exact.length) return null;
    return h('p', {class: 'no'}, 'An offer is 1 to 4 cards of one kind' + (view.bull_and_bear ? ' (the Bull or the Bear may go with them)' : '') + '.');
  },

  handSummary(events, ctx) {
    const end = events.find((e) => e.type === 'hand_end');
    /** @type {import('../dom.js').Child[]} */
    const parts = [told(events, ['corner', 'hand_end'])];
    for (const p of events.filter((e) => e.type === 'penalty' && e.text)) parts.push(h('p', {}, p.text));
    if (end && end.points) parts.push(h('h3', {}, 'This hand'), pointsList(end.points, ctx));
    if (end) parts.push(h('p', {class: 'note'}, `${plural(end.trades, 'trade')} in this hand.`));
    return h('div', {}, parts);
  },
};
