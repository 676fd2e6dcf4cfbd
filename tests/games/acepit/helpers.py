"""Stacked decks for Ace Pit tests: deal exactly the cards a test needs."""

from __future__ import annotations

from pitkit.cards import Card, parse_cards, standard_deck
from pitkit.core import Chance
from pitkit.games.acepit import AcePitHand, Rules

C = Card.parse


def deck_for(hands: dict[int, str], stock: str = "", dealer: int = 0) -> list[Card]:
    """The deck order that deals `hands` (seat -> up to 7 cards, the rest
    filled from unused cards) and leaves `stock` (top first) on top."""
    leader = 1 - dealer
    dealt = {seat: parse_cards(text) for seat, text in hands.items()}
    stacked = parse_cards(stock)
    used = {c for cards in dealt.values() for c in cards} | set(stacked)
    # Filler comes from the low clubs and diamonds up, which tests avoid.
    spare = [c for c in standard_deck() if c not in used]
    for seat in (leader, dealer):
        dealt.setdefault(seat, [])
        while len(dealt[seat]) < 7:
            dealt[seat].append(spare.pop(0))
    order = [dealt[seat][i] for i in range(7) for seat in (leader, dealer)]
    order += stacked
    order += [c for c in standard_deck() if c not in order]
    return order


def stacked_hand(
    hands: dict[int, str], stock: str = "", *, dealer: int = 0, rules: Rules | None = None
) -> AcePitHand:
    """A hand of Ace Pit dealt from a stacked deck."""
    chance = Chance(0)
    chance.queue_shuffle([int(c) for c in deck_for(hands, stock, dealer)])
    return AcePitHand(rules or Rules(), 2, dealer, chance)
