// @ts-check
// Ace Pit (docs/rules/ace-pit.md): two players; the leader lays a card and the other
// answers with one or two cards for Spoons, Pins, Forks and Aces.
import {h, plural, tap} from '../dom.js';
import {bySuit, cardEl, cardName, cardsText, withSuits} from '../cards.js';

/** The view, as pitkit.games.acepit.views declares it. @typedef {import('../wire.js').AcePitView} AcePitView */

/**
 * The points in a verdict such as "The Pin, Double Flush — 65".
 * @param {string | null | undefined} verdict
 */
function points(verdict) {
  const m = /—\s*(-?\d+)/.exec(verdict || '');
  return m ? Number(m[1]) : null;
}

/** @type {import('./contract.js').GameModule<AcePitView>} */
export default {
  ordered: false,
  multi: true,
  // A lead is one click; a response is picked, previewed with its score, then played.
  autoPlay: (view) => view.phase === 'lead',
  help: [
    'Two players, seven cards each, seven tricks a hand. The leader lays one card; the other answers with one card or two, and scores for what the answer makes.',
    'Spoon: the next card up or down in the led suit, 15. Even Stevens: the same rank, 20. Pin: two cards of one suit, one above and one below the led card, 25. Double Fork: a pair, 30. Ace Pit: any Ace, 50. Each card of the led suit adds a Flush, 20.',
    'An answer that makes nothing is a Throw Away: the leader scores 10 (50 against a led Ace). Whoever scores leads next. After answering with two cards you draw one from the stock.',
    'When you answer, the page shows what each answer would score before you play it.',
  ],
  keys: [['Enter', 'play the picked answer']],

  sortHand: (cards) => bySuit(cards),
  scoreLabel: () => 'points',
  handsInMatch: (ctx) => ctx.rules.hands || 11,

  parseAction(text, view) {
    const words = text.split(' ');
    const cards = words.slice(1);
    if (words[0] === 'lead') return {cards, label: `Lead the ${cardName(cards[0])}`};
    const verdict = view.responses && view.responses[text];
    const score = points(verdict);
    return {cards, label: `Answer ${cards.join(' ')}${score != null ? `: ${score}` : ''}`, title: verdict || null};
  },

  hint(view) {
    if (view.phase === 'lead') return `You lead: ${tap()} a card to lead it.`;
    return `Answer the ${cardName(view.table || '')}: pick one or two cards, see the score, then play (Enter).`;
  },

  seatNotes(player, view) {
    const notes = [];
    if (player.points != null) notes.push(`${player.points} this hand`);
    if (view.leader === player.seat && view.phase !== 'over') notes.push('leads');
    return notes;
  },

  centre(view, ctx) {
    const count = h('div', {class: 'stock-box'},
      h('span', {class: 'centre-title'}, view.phase === 'over' ? 'Hand over' : `Trick ${view.trick} of 7`),
      h('span', {class: 'centre-caption'}, `Stock: ${plural(view.stock, 'card')}`));
    const leader = ctx.who(view.leader) === 'You' ? 'you' : ctx.name(view.leader);
    const led = view.table
      ? h('div', {class: 'led'}, cardEl(view.table, {size: 'xl'}), h('span', {class: 'tag'}, `led by ${leader}`))
      : h('div', {class: 'led'}, h('span', {class: 'centre-caption'}, view.phase === 'over' ? '' : `${leader === 'you' ? 'You lead' : `${leader} leads`}…`));
    const last = view.tricks.length ? view.tricks[view.tricks.length - 1] : null;
    let previous = null;
    if (last) {
      const pts = last.points != null ? ` — ${last.points}` : '';
      const winner = ctx.who(last.winner) === 'You' ? 'you' : ctx.name(last.winner);
      previous = h('div', {class: 'last-trick faded', 'aria-label': `Last trick: ${cardName(last.lead)} led, answered by ${cardsText(last.response.split(' '))}: ${last.play}${pts}, to ${winner}`},
        h('span', {class: 'centre-caption'}, 'Last trick'),
        h('div', {class: 'cards-row'}, cardEl(last.lead, {size: 'sm'}), h('span', {class: 'centre-caption'}, '→'),
          last.response.split(' ').map((c) => cardEl(c, {size: 'sm'}))),
        h('span', {class: 'centre-caption'}, `${last.play}${pts}, to ${winner}`));
    }
    return h('div', {class: 'centre-box'}, h('div', {class: 'trick-row'}, count, led, previous));
  },

  selectionInfo(cards, exact, view, ctx) {
    if (view.phase !== 'respond' || !view.responses) return null;
    if (!cards.length) {
      // The best answers, so that a new player sees what is possible.
      const best = Object.entries(view.responses)
        .map(([action, verdict]) => ({action, verdict, pts: points(verdict) ?? 0}))
        .filter((r) => !/Throw Away/.test(r.verdict))
        .sort((a, b) => b.pts - a.pts)
        .slice(0, 4);
      if (!best.length) return h('p', {class: 'no'}, 'Nothing in your hand wins this trick: any card is a Throw Away (the leader scores).');
      return h('div', {}, 'Best answers:', h('ul', {class: 'preview-list'}, best.map((r) =>
        h('li', {}, h('button', {type: 'button', onclick: () => ctx.selectCards(r.action.split(' ').slice(1))},
          `${r.action.slice(8)}: ${r.verdict}`)))));
    }
    if (exact.length) {
      const verdict = view.responses[exact[0].text] || '';
      return h('p', {class: /Throw Away/.test(verdict) ? 'no' : 'yes'}, `${cards.join(' ')}: ${verdict}`);
    }
    return ctx.judge([view.table || '', cards.join(' ')]).then((v) => h('p', {class: 'no'}, v.text.split('\n')[0]));
  },

  handSummary(events, ctx) {
    const tricks = events.filter((e) => e.type === 'trick');
    const end = events.find((e) => e.type === 'hand_end');
    return h('div', {},
      end && end.points ? h('p', {class: 'outcome'}, `${ctx.name(0)} ${end.points[0]}, ${ctx.name(1)} ${end.points[1]} this hand.`) : null,
      h('table', {class: 'score-table'},
        h('thead', {}, h('tr', {}, ['#', 'Led', 'Answer', 'Play', 'Points', 'To'].map((t) => h('th', {scope: 'col'}, t)))),
        h('tbody', {}, tricks.map((t) => h('tr', {},
          h('td', {}, t.trick), h('td', {}, withSuits(`${t.lead}`)), h('td', {}, withSuits(t.response)), h('td', {}, t.play),
          h('td', {class: 'total'}, t.points ?? '–'), h('td', {}, ctx.name(t.winner)))))));
  },
};
