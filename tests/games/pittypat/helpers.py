"""Stacked decks for Pitty Pat tests: deal exactly the cards a test needs."""

from __future__ import annotations

from pitkit.cards import Card, parse_cards, standard_deck
from pitkit.core import Chance
from pitkit.games.pittypat import PittyPatHand, Rules


def deck_for(
    hands: dict[int, str], up: str, stock: str = "", dealer: int = 0, players: int = 3
) -> list[Card]:
    """The deck order that deals `hands` (seat -> up to 5 cards, in deal order,
    the rest filled from unused cards), then turns up `up`, and leaves `stock`
    (top first) on top of the stock."""
    seats = [(dealer + 1 + i) % players for i in range(players)]
    dealt = {seat: parse_cards(text) for seat, text in hands.items()}
    used = {c for cards in dealt.values() for c in cards} | set(parse_cards(up + " " + stock))
    # Filler never pairs within a hand, nor matches the up card or the stacked stock.
    shown = {c.rank for c in parse_cards(up + " " + stock)}
    spare = sorted((c for c in standard_deck() if c not in used), key=lambda c: (c.suit, c.rank))
    for seat in seats:
        dealt.setdefault(seat, [])
        for card in list(spare):
            if len(dealt[seat]) == 5:
                break
            if card.rank not in shown | {c.rank for c in dealt[seat]}:
                dealt[seat].append(card)
                spare.remove(card)
    order = [dealt[seat][i] for i in range(5) for seat in seats]
    order += parse_cards(up) + parse_cards(stock)
    order += [c for c in standard_deck() if c not in order]
    return order


def stacked_hand(
    hands: dict[int, str],
    up: str,
    stock: str = "",
    *,
    dealer: int = 0,
    players: int = 3,
    rules: Rules | None = None,
) -> PittyPatHand:
    """A hand of Pitty Pat dealt from a stacked deck."""
    chance = Chance(0)
    deck = standard_deck()
    chance.queue_shuffle([deck.index(c) for c in deck_for(hands, up, stock, dealer, players)])
    return PittyPatHand(rules or Rules(), players, dealer, chance)


def queue_pile_shuffle(hand: PittyPatHand, order: str) -> None:
    """Make the next reshuffle of `hand`'s pile give `order`, the new stock top
    first: its first card is turned up to start the new pile, the next is drawn."""
    wanted = parse_cards(order)
    rest = [c for c in hand.pile if c not in wanted]
    stock_top_last = list(reversed(wanted + rest))
    hand.chance.queue_shuffle([hand.pile.index(c) for c in stock_top_last])
