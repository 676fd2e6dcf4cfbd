"""Pitch's bots: a heuristic bidder and player, and a sampling look-ahead bot.

Both decide only from what their seat can see: their own cards, the cards
played and the bids. The look-ahead bot guesses the rest with
`State.redeal_unseen`, then prefers guesses that agree with what the table
showed: nobody holds a suit they have shown to be out of, and each bid or
pass fits the bidder's hand as the heuristic bot would judge it.

Cards are ints (``suit * 13 + rank - 2``, see `pitkit.cards.Card`), so the
hot paths below use ``card // 13`` for the suit and int order within a suit.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar

from pitkit.cards import Card, Rank, Suit
from pitkit.core.state import State
from pitkit.games.pitch.actions import Bid, Pass, PitchAction, Play, Run, Sell, Steal, Take
from pitkit.games.pitch.scoring import card_points, trick_winner
from pitkit.games.pitch.state import Phase, PitchHand

__all__ = [
    "HeuristicBot",
    "LookaheadBot",
    "best_suit",
    "current_hand",
    "hand_strength",
    "known_voids",
    "sample_world",
]

_SUITS = tuple(Suit)
_TEN, _JACK = Rank.TEN - 2, Rank.JACK - 2  # offsets within a suit
_POINTS = tuple(card_points(Card(i)) for i in range(52))
#: How far above its bid's worth, in expected points, a hand must be to bid (or steal).
MARGIN = 0.25


def current_hand(state: State[Any]) -> PitchHand:
    """The Pitch hand being played in `state` (a hand or a match)."""
    hand = state.current_hand
    assert isinstance(hand, PitchHand)
    return hand


def hand_strength(
    cards: Sequence[Card],
    trump: Suit | int,
    players: int,
    jack_to: str = "captured",
    ranks: int = 13,
    suits: int = 4,
) -> float:
    """Expected points of `cards` with `trump` as trump, roughly: the chance
    that the top trump is the highest dealt and the bottom one the lowest
    (every card dealt is played, so these are settled by the deal), the
    Jack's chance, and a share of game from tens, honours and length. The
    deck is the full one, or its `ranks` highest ranks in `suits` suits."""
    base = trump * 13
    held = sorted((c - base + 2 for c in cards if c // 13 == trump), reverse=True)
    if not held:
        return 0.0
    unseen = max(1, ranks * suits - len(cards))
    # The chance that one given unseen card was dealt to another player.
    dealt = min(1.0, (players - 1) * len(cards) / unseen)
    miss = 1.0 - dealt
    higher = sum(1 for r in range(held[0] + 1, 15) if r not in held)
    lower = sum(1 for r in range(15 - ranks, held[-1]) if r not in held)
    value = miss**higher + miss**lower
    if Rank.JACK in held:
        above = sum(1 for r in (Rank.QUEEN, Rank.KING, Rank.ACE) if r not in held)
        value += 1.0 if jack_to == "played" else 0.9 - 0.12 * above * dealt
    elif held[0] > Rank.JACK:
        value += 0.25 * dealt  # a chance to capture it from someone else
    tens = sum(1 for c in cards if c % 13 == _TEN)
    honours = sum(1 for r in held if r >= Rank.JACK)
    game = 0.12 + 0.07 * len(held) + 0.08 * honours + 0.12 * tens
    value += min(0.85, game * 3.0 / (players + 1))
    return value


def best_suit(
    cards: Sequence[Card], players: int, jack_to: str = "captured", ranks: int = 13, suits: int = 4
) -> tuple[Suit, float]:
    """The suit that would make the strongest trump, and its strength (the
    deck cut to `ranks` and `suits` as in `hand_strength`)."""
    value, suit = max(
        (hand_strength(cards, s, players, jack_to, ranks, suits), s) for s in _SUITS[:suits]
    )
    return suit, value


def known_voids(hand: PitchHand) -> list[set[int]]:
    """The suits each seat has shown it is out of: a card that neither
    follows the suit led nor is trump shows that (C6). See `Hand.shown_voids`."""
    return hand.shown_voids()


def _bid_checks(hand: PitchHand, player: int) -> list[tuple[int, bool, float]]:
    """What the other seats' bids say about their hands, as the heuristic
    bot bids: (seat, True, x) for "strength at least x", (seat, False, x)
    for "strength below x"."""
    checks: list[tuple[int, bool, float]] = []
    high, second_round = 0, False
    for seat, said in hand.bids:
        word, _, amount = said.partition(" ")
        if word == "run":
            checks.clear()  # hands grew: the first round's passes say little now
            high, second_round = 2, True
            continue
        if word in ("bid", "steal"):
            if seat != player:
                checks.append((seat, True, int(amount) - 0.5 + MARGIN))
            high = int(amount)
        elif word == "pass" and seat != player and seat != hand.dealer:
            least = max(3 if second_round else 2, high + 1)
            checks.append((seat, False, least - 0.5 + MARGIN))
    return checks


def _misfits(
    world: PitchHand, checks: Sequence[tuple[int, bool, float]], played: list[list[Card]]
) -> int:
    n = len(world.seated)
    rules = world.rules
    bad = 0
    for seat, at_least, level in checks:
        cards = world.cards[seat] + played[seat]
        _, strength = best_suit(cards, n, rules.jack_to, rules.ranks, rules.suits)
        bad += (strength >= level) != at_least
    return bad


def sample_world(hand: PitchHand, player: int, rng: random.Random, tries: int = 6) -> PitchHand:
    """A copy of `hand` with the cards `player` cannot see dealt at random,
    consistent with the suits each seat has shown it is out of, and (best
    of `tries` deals) with the bids each seat made."""
    checks = _bid_checks(hand, player)
    played: list[list[Card]] = [[] for _ in range(hand.players)]
    for plays in [*(t.plays for t in hand.tricks), tuple(hand.trick)]:
        for seat, card in plays:
            played[seat].append(card)
    best: PitchHand | None = None
    fewest = len(checks) + 1
    for _ in range(tries if checks else 1):
        world = _void_fitting(hand, player, rng)
        misfits = _misfits(world, checks, played) if checks else 0
        if misfits < fewest:
            best, fewest = world, misfits
        if not misfits:
            break
    assert best is not None
    return best


def _void_fitting(hand: PitchHand, player: int, rng: random.Random) -> PitchHand:
    world = hand.redeal_unseen(player, rng)
    voids = known_voids(hand)
    stock = world.stock
    for seat in world.seated:
        if seat == player or not voids[seat]:
            continue
        cards = world.cards[seat]
        for i, card in enumerate(cards):
            if card // 13 in voids[seat]:
                swaps = [j for j, c in enumerate(stock) if c // 13 not in voids[seat]]
                if swaps:
                    j = rng.choice(swaps)
                    cards[i], stock[j] = stock[j], card
    return world


class HeuristicBot:
    """Bids the cheapest amount that wins when its hand's strength (see
    `hand_strength`) covers it, takes or runs as the dealer by the same
    measure, and plays to capture the Jack of trump and game points."""

    def __init__(self, seed: int | None = None, margin: float = MARGIN) -> None:
        self.rng = random.Random(seed)
        self.margin = margin

    def choose(self, state: State[Any], player: int) -> PitchAction:
        hand = current_hand(state)
        return self.act(hand, player, hand.legal_actions(player))

    def act(self, hand: PitchHand, player: int, actions: Sequence[PitchAction]) -> PitchAction:
        """The choice among `actions`, the legal actions of `player` in `hand`."""
        if len(actions) == 1:
            return actions[0]
        if hand.phase is Phase.PLAY:
            return Play(self.card(hand, player, [a.card for a in actions if isinstance(a, Play)]))
        return self.bid(hand, player, actions)

    # -- bidding --------------------------------------------------------------

    def bid(self, hand: PitchHand, player: int, actions: Sequence[PitchAction]) -> PitchAction:
        """The bidding decision (C4, C5)."""
        n = len(hand.seated)
        rules = hand.rules
        _, strength = best_suit(hand.cards[player], n, rules.jack_to, rules.ranks, rules.suits)
        partner_high = (
            hand.high_bidder is not None
            and hand.high_bidder != player
            and hand.high_bidder in hand.side(player)
        )
        # Do not outbid a partner without a much better hand.
        need = self.margin + (1.0 if partner_high else 0.0)
        steal = next((a for a in actions if isinstance(a, Steal)), None)
        if any(isinstance(a, Take) for a in actions):
            return Take() if strength >= 1.5 + self.margin else Run()
        if any(isinstance(a, Sell) for a in actions):
            if steal is not None and strength >= steal.amount - 0.5 + need:
                return steal
            return Sell()
        offers = [a for a in actions if isinstance(a, Bid | Steal)]
        if offers:
            cheapest = min(offers, key=lambda a: a.amount)
            if strength >= cheapest.amount - 0.5 + need:
                return cheapest
        return Pass()

    # -- play -------------------------------------------------------------------

    def card(self, hand: PitchHand, player: int, legal: Sequence[Card]) -> Card:
        """The card to play (C6)."""
        trump = hand.trump
        if trump is None:
            # The pitcher's first lead: the best suit's highest card.
            rules = hand.rules
            suit, _ = best_suit(
                hand.cards[player], len(hand.seated), rules.jack_to, rules.ranks, rules.suits
            )
            return max(c for c in legal if c // 13 == suit)
        base = trump * 13
        known = hand.gone
        for held in hand.cards[player]:
            known |= 1 << held
        top_unseen = -1  # the highest trump still out, or -1
        # Only the deck's ranks: a cut deck has none below its lowest.
        for index in range(base + 12, base + 12 - hand.rules.ranks, -1):
            if not known >> index & 1:
                top_unseen = index
                break
        jack = base + _JACK
        trick = hand.trick
        if not trick:
            return self._lead(legal, trump, top_unseen, jack)
        led = trick[0][1] // 13
        best_seat = trick_winner(trick, trump)
        best = next(c for s, c in trick if s == best_seat)
        last = len(trick) == len(hand.seated) - 1
        if best_seat in hand.side(player) and (last or _safe(best, trump, top_unseen)):
            # Smear: give the partner the most game points we can spare.
            spare = [c for c in legal if c // 13 != trump or c % 13 == _TEN]
            if spare:
                return max(spare, key=lambda c: (_POINTS[c], -c))
            return min(legal, key=lambda c: _cost(c, trump, jack))
        value = sum(_POINTS[c] for _, c in trick) + (15 if jack in hand.trick_cards() else 0)
        winners = [c for c in legal if _beats(c, best, led, trump)]
        if winners:
            sure = [c for c in winners if last or _safe(c, trump, top_unseen)]
            if jack in sure:
                return Card(jack)
            if sure and (value > 0 or any(_POINTS[c] >= 10 for c in sure)):
                return max(sure, key=lambda c: (_POINTS[c] >= 10, -_cost(c, trump, jack)))
            cheap = [c for c in winners if c // 13 != trump]
            if cheap and (last or value > 0):
                return min(cheap)
        return min(legal, key=lambda c: _cost(c, trump, jack))

    def _lead(self, legal: Sequence[Card], trump: int, top: int, jack: int) -> Card:
        trumps = [c for c in legal if c // 13 == trump]
        if trumps and top >= 0 and max(trumps) > top:
            # The boss trump draws trumps out, and with them perhaps the Jack.
            return max(trumps)
        if jack in legal and top < jack:
            return Card(jack)
        plain = [c for c in legal if c // 13 != trump and c % 13 != _TEN]
        if plain:
            return min(plain, key=lambda c: (_POINTS[c], c % 13))
        return min(legal, key=lambda c: _cost(c, trump, jack))


def _safe(card: int, trump: int, top_unseen: int) -> bool:
    """True if no card still out can beat `card`."""
    return card // 13 == trump and card > top_unseen


def _beats(card: int, best: int, led: int, trump: int) -> bool:
    if card // 13 == trump:
        return best // 13 != trump or card > best
    return best // 13 != trump and card // 13 == led and card > best


def _cost(card: int, trump: int, jack: int) -> float:
    """How much it hurts to throw `card` away."""
    if card == jack:
        return 50.0
    rank = card % 13
    cost = _POINTS[card] * 1.5 + rank / 14
    if card // 13 == trump:
        cost += 2 + rank / 3
    return cost


class LookaheadBot:
    """For each choice, deals the unseen cards `samples` times (see
    `sample_world`) and plays the hand out with `HeuristicBot` for every
    seat; picks the choice whose side gains most over the other sides'
    average. With `search_bids` off it bids as the heuristic bot does."""

    slow: ClassVar[bool] = True
    """Milliseconds a move, tenths of a second at worst (`pitkit.core.game.is_slow`)."""

    def __init__(
        self, seed: int | None = None, samples: int = 10, search_bids: bool = True
    ) -> None:
        self.rng = random.Random(seed)
        self.samples = samples
        self.search_bids = search_bids
        self.policy = HeuristicBot(None if seed is None else seed + 1)

    def choose(self, state: State[Any], player: int) -> PitchAction:
        hand = current_hand(state)
        actions = hand.legal_actions(player)
        if len(actions) == 1:
            return actions[0]
        if not self.search_bids and hand.phase is not Phase.PLAY:
            return self.policy.act(hand, player, actions)
        totals = [0.0] * len(actions)
        for _ in range(self.samples):
            world = sample_world(hand, player, self.rng)
            for i, action in enumerate(actions):
                sim = world.clone() if i < len(actions) - 1 else world
                totals[i] += self._play_out(sim, player, action)
        return actions[totals.index(max(totals))]

    def _play_out(self, sim: PitchHand, player: int, action: PitchAction) -> float:
        # Straight to the state machine: every action here is legal by
        # construction, and a rollout needs no log of its actions.
        policy = self.policy
        sim._apply(player, action)
        while sim.phase is not Phase.OVER:
            seat = sim.player
            sim._apply(seat, policy.act(sim, seat, sim._legal_actions(seat)))
        sim._legal_cache = None
        assert sim.result is not None
        deltas = sim.result.deltas
        mine = sim.side(player)
        sides = {sim.side(s) for s in sim.seated if s not in mine}
        return deltas[player] - sum(deltas[side[0]] for side in sides) / max(1, len(sides))
