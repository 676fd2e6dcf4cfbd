"""Stacked decks for Pitch tests: deal exactly the cards a test needs."""

from __future__ import annotations

from collections.abc import Sequence

from pitkit.cards import Card, parse_cards, standard_deck
from pitkit.core import Chance, Event
from pitkit.games.pitch import PitchHand, Rules
from pitkit.games.pitch.state import HAND_SIZE, PACKET, run_size


def shuffle_event(order: Sequence[Card]) -> Event:
    """The recorded shuffle that puts a standard deck in `order`."""
    deck = standard_deck()
    return Event("shuffle", {"size": 52}, secret={"order": [deck.index(c) for c in order]})


def stacked_chance(*orders: Sequence[Card], picks: Sequence[int] = ()) -> Chance:
    """A Chance whose picks come out as `picks` and whose shuffles come out
    in the given orders, in turn (picks are drawn before the first deal)."""
    events = [Event("pick", {"range": 0, "value": p}) for p in picks]
    events += [shuffle_event(order) for order in orders]
    return Chance(0, recorded=events)


def full_deck(top: Sequence[Card]) -> list[Card]:
    """`top` followed by every other card, in order."""
    return list(top) + [c for c in standard_deck() if c not in top]


def deck_for(
    hands: dict[int, str],
    *,
    dealer: int = 0,
    players: int = 4,
    seated: Sequence[int] | None = None,
    run: dict[int, str] | None = None,
) -> list[Card]:
    """The deck order that deals `hands` (seat -> six cards, or fewer: the
    rest are filled in), and then `run` (seat -> the run-it cards)."""
    seats = sorted(range(players) if seated is None else seated)
    order = [s for s in seats if s > dealer] + [s for s in seats if s <= dealer]
    dealt = {seat: parse_cards(text) for seat, text in hands.items()}
    extra = {seat: parse_cards(text) for seat, text in (run or {}).items()}
    used = {c for cards in [*dealt.values(), *extra.values()] for c in cards}
    spare = iter(c for c in standard_deck() if c not in used)
    for seat in order:
        dealt.setdefault(seat, [])
        while len(dealt[seat]) < HAND_SIZE:
            dealt[seat].append(next(spare))
    top: list[Card] = []
    for packet in range(HAND_SIZE // PACKET):
        for seat in order:
            top += dealt[seat][packet * PACKET : (packet + 1) * PACKET]
    if run is not None:
        size = run_size(len(order))
        for seat in order:
            cards = extra.get(seat, [])
            while len(cards) < size:
                cards.append(next(spare))
            top += cards
    return full_deck(top)


def stacked_hand(
    hands: dict[int, str],
    *,
    dealer: int = 0,
    players: int = 4,
    seated: Sequence[int] | None = None,
    run: dict[int, str] | None = None,
    rules: Rules | None = None,
) -> PitchHand:
    """A hand of Pitch dealt from a stacked deck."""
    order = deck_for(hands, dealer=dealer, players=players, seated=seated, run=run)
    return PitchHand(rules or Rules(), players, dealer, stacked_chance(order), seated=seated)


def play_all(hand: PitchHand, moves: str) -> None:
    """Apply moves written ``"1:bid 2; 2:pass; 1:play AS"`` in turn."""
    for move in moves.split(";"):
        if move.strip():
            seat, _, action = move.strip().partition(":")
            hand.apply(int(seat), action.strip())


def play_tricks(hand: PitchHand, cards: str) -> None:
    """Play cards in turn order, whoever is to play: ``"AS 2S 3S 4S KS ..."``."""
    for card in parse_cards(cards):
        hand.apply(hand.player, f"play {card}")
