// @ts-check
// The generic drawing: every hook of the game module contract (js/games/contract.js),
// done from the view and its JSON Schema alone. It draws any game, one with no module
// of its own entirely, and each hook a module leaves out.
//
// From the schema (`view_schema` in GET /api/games): the view's public card places
// (top-level arrays of cards and single cards, but the seat's own `hand`), its integer
// facts, and each seat's public facts, each named by its `title`.
import {capital, h, plural, sentence, tap} from '../dom.js';
import {cardEl, cardsText} from '../cards.js';

/** @typedef {import('../games/contract.js').Game} Game */
/** @typedef {import('../wire.js').GameInfo} GameInfo */
/** @typedef {import('../games/contract.js').JsonSchema} JsonSchema */
/** @typedef {import('../games/contract.js').View<any>} View */
/** @typedef {import('../games/contract.js').Ctx} Ctx */

/** The backbone every view has: drawn by the shell itself, never as a game's fact. */
const BACKBONE = new Set(['game', 'seat', 'phase', 'to_act', 'dealer', 'outcome', 'players', 'hand', 'legal', 'history', 'match']);
const SEAT_BACKBONE = new Set(['seat', 'cards']);

/**
 * A nullable schema's other alternative (`Card | None` is anyOf card, null).
 * @param {JsonSchema} schema
 * @returns {JsonSchema}
 */
function bare(schema) {
  const others = (schema.anyOf || []).filter((s) => s.type !== 'null');
  return others.length === 1 ? {...others[0], title: schema.title} : schema;
}

/** @param {JsonSchema} schema */
function isCard(schema) {
  const s = bare(schema);
  return s.type === 'string' && s.format === 'card';
}

/** @param {JsonSchema} schema */
function isCardList(schema) {
  const s = bare(schema);
  return s.type === 'array' && !!s.items && isCard(s.items);
}

/**
 * A fact of the schema: its key, its title, and what it is.
 * @typedef {{key: string, title: string, kind: 'cards' | 'card' | 'integer' | 'number' | 'boolean' | 'string' | 'other'}} Fact
 */

/**
 * The facts an object schema lists, leaving out `skip`.
 * @param {JsonSchema | null | undefined} schema
 * @param {Set<string>} skip
 * @returns {Fact[]}
 */
function facts(schema, skip) {
  return Object.entries((schema && schema.properties) || {}).filter(([key]) => !skip.has(key)).map(([key, s]) => {
    const type = bare(s).type;
    /** @type {Fact['kind']} */
    const kind = isCardList(s) ? 'cards' : isCard(s) ? 'card'
      : type === 'integer' || type === 'number' || type === 'boolean' || type === 'string' ? type : 'other';
    return {key, title: s.title || key.replaceAll('_', ' '), kind};
  });
}

/** @param {Ctx} ctx */
function viewFacts(ctx) {
  return facts(ctx.info && ctx.info.view_schema, BACKBONE);
}

/** @param {Ctx} ctx */
function seatFacts(ctx) {
  const players = ctx.info && ctx.info.view_schema && ctx.info.view_schema.properties
    ? ctx.info.view_schema.properties.players : null;
  const items = players ? bare(players).items : null;
  return facts(items || null, SEAT_BACKBONE);
}

/**
 * The cards a card place holds (a single card is a place of one or none).
 * @param {unknown} value
 * @returns {string[]}
 */
function cardsOf(value) {
  if (Array.isArray(value)) return value.map(String);
  return typeof value === 'string' && value ? [value] : [];
}

/**
 * "Your turn.", "Ada is to play.", "The hand is over."
 * @param {View} view
 * @param {Ctx} ctx
 */
function turnCaption(view, ctx) {
  if (view.outcome || view.phase === 'over') return 'The hand is over.';
  if (!view.to_act.length) return '';
  if (view.to_act.length === 1 && view.to_act[0] === ctx.me) return 'Your turn.';
  const names = view.to_act.map((s) => (s === ctx.me ? 'you' : ctx.name(s)));
  return `${capital(names.join(' and '))} ${names.length === 1 && names[0] !== 'you' ? 'is' : 'are'} to play.`;
}

/**
 * A labelled row of face-up cards: one public place of the view.
 * @param {string} key
 * @param {string} title
 * @param {string[]} cards
 * @param {string} size
 */
export function placeRow(key, title, cards, size) {
  return h('div', {class: 'place', role: 'group', dataset: {place: key}, 'aria-label': `${title}: ${cards.length ? cardsText(cards) : 'empty'}`},
    h('span', {class: 'place-title', 'aria-hidden': 'true'}, title),
    h('div', {class: 'cards-row'}, cards.length ? cards.map((c) => cardEl(c, {size})) : h('span', {class: 'slot', 'aria-hidden': 'true'})));
}

/**
 * The game's help when its module has none: its summary, and how the plain table plays.
 * @param {GameInfo} info
 */
export function genericHelp(info) {
  return [
    info.summary,
    `Your legal moves are the buttons above your hand (keys 1 to 9). Where a move names one of your cards, ${tap('clicking')} the card makes it: the highlighted cards are the ones you may play.`,
    'The table shows what every player may see: the cards in play, each player\'s number of cards and other public facts, and the scores.',
  ];
}

/** @type {Game} */
export const GENERIC = {
  ordered: false,
  multi: false,
  autoPlay: true,
  help: [],
  keys: [['1 … 9', 'the moves, in the order of their buttons']],

  sortHand: (cards) => cards,

  parseAction(text, view, ctx) {
    const hand = view.hand || [];
    const named = text.split(' ').filter((w) => hand.includes(w));
    const n = ctx.legal.indexOf(text);
    return {
      place: 'menu',
      cards: named.length === 1 ? named : undefined,
      label: capital(text),
      key: n >= 0 && n < 9 ? String(n + 1) : undefined,
    };
  },

  hint(view, ctx, actions) {
    const cards = actions.filter((a) => a.cards && a.cards.length).length;
    if (cards && cards === actions.length) return `Your turn: ${tap()} a highlighted card to play it, or its button.`;
    if (cards) return `Your turn: ${tap()} a highlighted card, or choose a move.`;
    return 'Your turn: choose a move.';
  },

  waitingText: () => null,

  centre(view, ctx) {
    const all = viewFacts(ctx);
    const record = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (view));
    const places = all.filter((f) => f.kind === 'cards' || f.kind === 'card').map((f) => {
      const cards = cardsOf(record[f.key]);
      return placeRow(f.key, f.title, cards, cards.length > 6 ? 'md' : 'lg');
    });
    const numbers = all.filter((f) => f.kind === 'integer' && typeof record[f.key] === 'number').map((f) =>
      h('span', {class: 'fact', dataset: {fact: f.key}}, `${f.title}: `, h('strong', {}, String(record[f.key]))));
    const phase = view.phase && !['play', 'over'].includes(view.phase) ? capital(view.phase.replaceAll('_', ' ')) : null;
    return h('div', {class: 'centre-box generic'},
      phase ? h('p', {class: 'centre-title'}, phase) : null,
      places.length ? h('div', {class: 'places'}, places) : null,
      numbers.length ? h('div', {class: 'facts'}, numbers) : null,
      h('p', {class: 'centre-caption'}, turnCaption(view, ctx)));
  },

  seatNotes(player, view, ctx) {
    const record = /** @type {Record<string, unknown>} */ (player);
    /** @type {string[]} */
    const notes = [];
    for (const f of seatFacts(ctx)) {
      const value = record[f.key];
      if (f.kind === 'boolean' && value === true) notes.push(f.title);
      else if ((f.kind === 'integer' || f.kind === 'number') && typeof value === 'number') notes.push(`${f.title}: ${value}`);
      else if (f.kind === 'string' && typeof value === 'string' && value) notes.push(`${f.title}: ${value}`);
    }
    return notes;
  },

  seatExtra(player, view, ctx) {
    const record = /** @type {Record<string, unknown>} */ (player);
    const rows = seatFacts(ctx).filter((f) => f.kind === 'cards' || f.kind === 'card')
      .map((f) => ({f, cards: cardsOf(record[f.key])})).filter(({cards}) => cards.length);
    if (!rows.length) return null;
    return h('div', {class: 'seat-extra'}, rows.map(({f, cards}) =>
      h('div', {class: 'cards-row', role: 'img', 'aria-label': `${f.title}: ${cardsText(cards)}`},
        cards.map((c) => cardEl(c, {size: 'sm', attrs: {'aria-hidden': 'true'}})))));
  },

  selectionInfo: () => null,
  tryPlay: () => null,
  tryCard: () => null,

  handSummary(events, ctx) {
    const scores = events.filter((e) => e.type === 'scores').pop();
    const hand = scores ? Number(scores.hand) : ctx.view && ctx.view.match ? ctx.view.match.hand : 0;
    const result = ctx.view && ctx.view.match ? ctx.view.match.results[hand - 1] : null;
    const moves = events.filter((e) => e.type === 'action').length;
    return h('div', {},
      h('p', {class: 'outcome'}, result ? sentence(result) : 'The hand is over.'),
      h('p', {class: 'note'}, `${plural(moves, 'move')} in this hand.`));
  },

  scoreLabel: () => 'points',
  scoreShort: () => 'pts',
  handsInMatch: () => null,
  scoreSheet: () => null,
};
