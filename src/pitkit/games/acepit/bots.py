"""Ace Pit's bots: a greedy one, and one that looks ahead over sampled deals.

Both decide from what their seat sees: their own hand, the cards played so
far and the led card. The greedy bot guesses the opponent's hand by drawing
it from the unseen cards; the look-ahead bot gets whole sampled deals from
`State.redeal_unseen`, so it cannot peek either.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar

from pitkit.cards import Card, Rank, standard_deck
from pitkit.core.state import State
from pitkit.games.acepit.actions import AcePitAction, Lead, Respond
from pitkit.games.acepit.scoring import best_response, best_value, pair_value, single_value
from pitkit.games.acepit.state import AcePitHand, Phase

__all__ = [
    "GreedyBot",
    "LookaheadBot",
    "current_hand",
    "play_out",
    "response_value",
    "unseen_cards",
]

_DECK = standard_deck()
_RANK: tuple[int, ...] = tuple(c.rank for c in _DECK)
_ACE = int(Rank.ACE)


def current_hand(state: State[Any]) -> AcePitHand:
    """The Ace Pit hand being played in `state` (a hand or a match)."""
    hand = state.current_hand
    assert isinstance(hand, AcePitHand)
    return hand


def unseen_cards(hand: AcePitHand, seat: int) -> list[Card]:
    """The cards `seat` has not seen: the other player's hand and the stock
    (of the deck the hand was dealt from, cut or full)."""
    seen = set(hand.cards[seat]) | set(hand.played) | set(hand.table)
    return [c for c in hand.rules.deck() if c not in seen]


def response_value(led: int, cards: Sequence[int]) -> int:
    """The responder's points for playing `cards` to `led`, or minus the leader's."""
    if len(cards) == 1:
        return single_value(led, cards[0])
    return pair_value(led, cards[0], cards[1])


def _threat(led: int, cards: Sequence[int]) -> int:
    """The most the holder of `cards` can make of `led` in one trick."""
    return best_value(led, cards)


def _keep_value(card: Card, hand: Sequence[Card]) -> int:
    """How much a card is worth keeping: Aces most, then cards that could
    make a Double Fork with another of their rank."""
    mates = sum(1 for other in hand if other != card and other.rank == card.rank)
    return (60 if card.rank == Rank.ACE else 0) + 12 * mates + card.rank


class GreedyBot:
    """Responds with whatever scores most now (a Throw Away only when
    nothing wins), throwing away the card least worth keeping. Leads the
    card the opponent can make least of, judged over hands drawn from the
    unseen cards."""

    def __init__(self, seed: int | None = None, samples: int = 8) -> None:
        self.rng = random.Random(seed)
        self.samples = samples

    def choose(self, state: State[Any], player: int) -> AcePitAction:
        """The greedy move for `player`."""
        hand = current_hand(state)
        actions = hand.legal_actions(player)
        own = hand.cards[player]
        if hand.phase is Phase.RESPOND:
            led = hand.table[0]
            return max(
                actions,
                key=lambda a: (
                    response_value(led, a.cards) if isinstance(a, Respond) else 0,
                    -sum(_keep_value(c, own) for c in _cards(a)),
                ),
            )
        pool = unseen_cards(hand, player)
        size = min(len(own), len(pool))
        guesses = [self.rng.sample(pool, size) for _ in range(self.samples)]

        def denial(action: AcePitAction) -> tuple[int, int]:
            led = _cards(action)[0]
            return (
                sum(_threat(led, guess) for guess in guesses),
                _keep_value(led, own),
            )

        return min(actions, key=denial)


def _cards(action: AcePitAction) -> tuple[Card, ...]:
    return (action.card,) if isinstance(action, Lead) else action.cards


def play_out(
    hands: Sequence[Sequence[int]],
    stock: Sequence[int],
    leader: int,
    led: int | None,
    first: Sequence[int],
    me: int,
) -> int:
    """Play a fully known hand to its end from a trick in progress, both
    sides playing greedily with the cards open; return `me`'s points minus
    the other player's, from now on.

    `led` is the card on the table (None before the lead); `first` is the
    next move to make (the card to lead, or the response). The stock's top
    is its last card. This is the look-ahead bot's model of the game: it
    follows `Hand` exactly, which the tests check, but keeps no log.
    """
    h = [list(hands[0]), list(hands[1])]
    top = len(stock) - 1
    diff = 0
    move: Sequence[int] | None = first
    while True:
        if led is None:
            own = h[leader]
            if not own:
                return diff
            if move is not None:
                led = move[0]
                move = None
            else:
                led = _lead_against(own, h[1 - leader])
            own.remove(led)
        responder = 1 - leader
        cards = h[responder]
        if move is not None:
            played: Sequence[int] = move
            move = None
            value = response_value(led, played)
        else:
            value, a, b = best_response(led, cards)
            played = (a,) if b < 0 else (a, b)
        for card in played:
            cards.remove(card)
        if len(played) == 2:
            cards.append(stock[top])
            top -= 1
        if value > 0:
            winner, points = responder, value
        else:
            winner, points = leader, -value
        diff += points if winner == me else -points
        leader = winner
        led = None


def _lead_against(own: Sequence[int], other: Sequence[int]) -> int:
    """The card of `own` whose best answer in `other` is worth least."""
    best, choice = 10_000, own[0]
    for card in own:
        threat = _threat(card, other)
        if threat < best or (threat == best and _RANK[card] == _ACE):
            best, choice = threat, card
    return choice


class LookaheadBot:
    """Weighs each legal move over `samples` deals of the unseen cards (drawn
    by `redeal_unseen`, so it sees only what its seat sees), playing each
    deal out to the end of the hand with both sides greedy and open-handed,
    and makes the move with the best average margin."""

    slow: ClassVar[bool] = True
    """Milliseconds a move, tens at worst (`pitkit.core.game.is_slow`)."""

    def __init__(self, seed: int | None = None, samples: int = 12) -> None:
        self.rng = random.Random(seed)
        self.samples = samples

    def choose(self, state: State[Any], player: int) -> AcePitAction:
        """The move with the best sampled margin for `player`."""
        hand = current_hand(state)
        actions = hand.legal_actions(player)
        if len(actions) == 1:
            return actions[0]
        totals = [0] * len(actions)
        led = hand.table[0] if hand.table else None
        for _ in range(self.samples):
            world = hand.redeal_unseen(player, self.rng)
            for i, action in enumerate(actions):
                totals[i] += play_out(
                    world.cards, world.stock, hand.leader, led, _cards(action), player
                )
        own = hand.cards[player]
        best = max(
            range(len(actions)),
            key=lambda i: (totals[i], -sum(_keep_value(c, own) for c in _cards(actions[i]))),
        )
        return actions[best]
