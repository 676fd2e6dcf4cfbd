// @ts-check
// Card picking. Each legal action names the hand cards it uses; a selection is compared
// with them as a multiset of card names, so Pit's nine identical wheat cards work just
// like the distinct cards of the other games.

/**
 * @param {string[]} names
 * @returns {Map<string, number>}
 */
function counts(names) {
  const m = new Map();
  for (const n of names) m.set(n, (m.get(n) || 0) + 1);
  return m;
}

/**
 * Whether multiset `small` is within multiset `big`.
 * @param {string[]} small
 * @param {string[]} big
 */
export function within(small, big) {
  const b = counts(big);
  for (const [name, n] of counts(small)) if ((b.get(name) || 0) < n) return false;
  return true;
}

/**
 * @param {string[]} a
 * @param {string[]} b
 */
export function sameCards(a, b) {
  return a.length === b.length && within(a, b);
}

/**
 * What a selection allows.
 * @template {{cards?: string[]}} A
 * @param {string[]} hand      the hand's card names, in display order
 * @param {number[]} selected  indices into `hand`, in the order they were picked
 * @param {A[]} actions        parsed legal actions with `cards` (names), in the hand
 * @param {boolean} ordered    whether an action's cards are picked in order (Pitty Pat:
 *                             the matching card first, then the discard)
 * @returns {{exact: A[], next: Set<number>, partial: boolean}}
 *   exact: the actions the selection spells; next: the hand cards that extend the
 *   selection toward some action; partial: whether some action extends it
 */
export function pick(hand, selected, actions, ordered = false) {
  const chosen = selected.map((i) => hand[i]);
  /** @type {A[]} */
  const exact = [];
  /** @type {Set<string>} */
  const wanted = new Set();
  let partial = false;
  for (const action of actions) {
    const cards = action.cards || [];
    if (!cards.length) continue;
    if (ordered) {
      if (chosen.some((c, i) => cards[i] !== c)) continue;
      if (cards.length === chosen.length) exact.push(action);
      else {
        partial = true;
        wanted.add(cards[chosen.length]);
      }
    } else {
      if (!within(chosen, cards)) continue;
      if (cards.length === chosen.length) exact.push(action);
      else {
        partial = true;
        const left = counts(cards);
        for (const c of chosen) left.set(c, (left.get(c) || 0) - 1);
        for (const [name, n] of left) if (n > 0) wanted.add(name);
      }
    }
  }
  const next = new Set();
  hand.forEach((name, i) => {
    if (!selected.includes(i) && wanted.has(name)) next.add(i);
  });
  return {exact, next, partial};
}
