"""Stacked deals for Pit tests: deal exactly the cards a test needs; and
hands played some way by `sensible` traders."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from pitkit.cards import PitCard
from pitkit.core import Chance, Event
from pitkit.games import get
from pitkit.games.pit import PitHand, PitMatch, Rules, SensibleTrader
from pitkit.games.pit.market import KINDS, describe_cards


def cards(text: str) -> list[PitCard]:
    """``"9 wheat, bull"`` -> the cards: counts and names, comma-separated."""
    out: list[PitCard] = []
    for part in text.split(","):
        words = part.split()
        if not words:
            continue
        n = int(words[0]) if words[0].isdigit() else 1
        out += [PitCard.parse(words[-1])] * n
    return out


def stack(chance: Chance, rules: Rules, hands: list[str], dealer: int) -> None:
    """Queue the shuffle that deals `hands` (one per seat) from `dealer`'s left."""
    players = len(hands)
    deck = [PitCard[c.name] for c in rules.chosen(players) for _ in range(9)]
    if rules.bull_and_bear:
        deck += [PitCard.BULL, PitCard.BEAR]
    wanted = [cards(text) for text in hands]
    assert sorted(c.value for h in wanted for c in h) == sorted(c.value for c in deck), hands
    seats = [(dealer + 1 + i) % players for i in range(players)]
    sizes = [sum(seats[i % players] == s for i in range(len(deck))) for s in range(players)]
    assert [len(h) for h in wanted] == sizes, f"the deal gives {sizes} cards"
    sequence = []
    for i in range(len(deck)):
        seat = seats[i % players]
        sequence.append(wanted[seat].pop())
    free = list(range(len(deck)))
    order = []
    for card in sequence:
        index = next(i for i in free if deck[i] is card)
        free.remove(index)
        order.append(index)
    chance.queue_shuffle(order)


def stacked_hand(
    hands: list[str], dealer: int = 0, *, opened: bool = True, **options: Any
) -> PitHand:
    """A hand with exactly `hands` dealt (seat by seat), opened unless told not to."""
    rules = Rules.from_options(options)
    chance = Chance(1)
    stack(chance, rules, hands, dealer)
    hand = PitHand(rules, len(hands), dealer, chance)
    if opened:
        hand.apply(dealer, "open")
    return hand


def stacked_match(
    hands: list[str], dealer: int = 0, *, opened: bool = True, **options: Any
) -> PitMatch:
    """A match whose first hand deals exactly `hands`, dealt by `dealer`."""
    rules = Rules.from_options(options)
    # The match first draws its dealer, then shuffles for the deal.
    chance = Chance(1, recorded=[Event("pick", {"range": len(hands), "value": dealer})])
    stack(chance, rules, hands, dealer)
    match = PitMatch(rules, len(hands), chance=chance)
    if opened:
        match.apply(dealer, "open")
    return match


def holding(hand: PitHand, seat: int) -> str:
    """What `seat` holds (its offer included), as ``3 wheat, 2 corn``."""
    counts = hand.holding(seat)
    return describe_cards(k for i, k in enumerate(KINDS) for _ in range(counts[i]))


def trade_in_turns(
    hand: PitHand, bots: Sequence[Any], rng: random.Random, trades: int, actions: int = 10**6
) -> None:
    """Let `bots` trade, a random seat at a time, until the hand has
    `trades` trades or is over, or `actions` actions are taken."""
    for _ in range(actions):
        if hand.is_over or sum(e.type == "trade" for e in hand.log) >= trades:
            return
        seat = rng.choice(sorted(hand.to_act))
        hand.apply(seat, bots[seat].act(hand, seat) or bots[seat].choose(hand, seat))


def sensible_hand(seed: int, trades: int, players: int = 4) -> PitHand:
    """A hand of `sensible` traders, played in turns until `trades` trades."""
    match = get("pit").new_match(players, {"hand_limit": 1}, seed=seed)
    hand = match.hand
    assert isinstance(hand, PitHand)
    trade_in_turns(hand, [SensibleTrader(s) for s in range(players)], random.Random(seed), trades)
    return hand
