"""Pit's sampler of hidden cards reads the trade history (issue 7)."""

from __future__ import annotations

import random
from collections import Counter

from pitkit.cards import Commodity
from pitkit.games import get
from pitkit.games.pit import Accept, PitHand
from pitkit.games.pit.belief import _collect, _jitter, known_holdings, traded_cards
from pitkit.games.pit.market import GOODS, KINDS, Lot, lot_of
from pitkit.games.pit.particles import Particle
from tests.games.pit.helpers import holding, sensible_hand, stacked_hand

GAME = get("pit")

HANDS = ["5 wheat, 4 barley", "5 barley, 4 corn", "5 corn, 4 wheat"]


def traded() -> PitHand:
    """Seat 0 gives 3 wheat to seat 1 for 3 barley; then seat 1 and seat 2 trade 1 card."""
    hand = stacked_hand(HANDS, dealer=2)
    hand.apply(0, "offer 3 wheat")
    hand.apply(1, "accept 0 barley")
    hand.apply(1, "offer 2 corn")
    return hand


def everything(hand: PitHand) -> Counter[object]:
    return Counter(card for cards in hand.zones().values() for card in cards)


def test_cards_given_to_a_trader_stay_with_them() -> None:
    hand = traded()
    bounds = known_holdings(hand, 0)
    wheat, barley = KINDS.index(KINDS[0]), 1
    assert bounds[1][wheat] == 3  # seat 0 gave them
    assert bounds[1][barley] == 0  # what seat 1 gave seat 0 is not theirs any more
    assert sum(bounds[2]) == 0  # seat 0 has seen nothing of seat 2's cards
    for seed in range(30):
        sample = GAME.sample_unseen(hand, 0, random.Random(seed))
        assert sample.holding(1)[wheat] >= 3


def test_a_trade_between_others_lowers_the_bounds_by_its_size() -> None:
    hand = traded()
    hand.apply(2, "accept 1 wheat")  # seat 1's 2 corn for 2 of seat 2's wheat
    bounds = known_holdings(hand, 0)
    assert bounds[1][0] == 1  # seat 1 may have paid with up to 2 of the 3 wheat
    sample = GAME.sample_unseen(hand, 0, random.Random(1))
    assert sample.holding(1)[0] >= 1


def test_a_sample_looks_the_same_to_the_seat_and_keeps_every_card() -> None:
    hand = traded()
    for seat in range(3):
        for seed in range(10):
            sample = GAME.sample_unseen(hand, seat, random.Random(seed))
            assert sample.view(seat) == hand.view(seat)
            assert holding(sample, seat) == holding(hand, seat)
            assert everything(sample) == everything(hand)


def test_open_offers_stay_valid_lots_of_their_size() -> None:
    hand = traded()  # seat 1 offers 2 corn, unseen by seats 0 and 2
    for seed in range(30):
        sample = GAME.sample_unseen(hand, 0, random.Random(seed))
        offer = sample.offers[1]
        assert len(offer.cards) == 2
        Lot.of(offer.cards)  # raises if the cards mix commodities
        take = next(a for a in sample.legal_actions(2) if isinstance(a, Accept) and a.seat == 1)
        sample.apply(2, take)  # and the offer can be taken


def test_it_never_peeks() -> None:
    # Two hands the seat cannot tell apart give the same sample from the same seed.
    hand = traded()
    other = hand.redeal_unseen(0, 5)
    assert hand.zones() != other.zones()
    first = GAME.sample_unseen(hand, 0, random.Random(3))
    second = GAME.sample_unseen(other, 0, random.Random(3))
    assert first.zones() == second.zones()


def test_samples_from_random_trading_are_consistent() -> None:
    game = get("pit")
    for seed in range(4):
        match = game.new_match(4, seed=seed)
        rng = random.Random(seed)
        for _ in range(150):
            if match.is_over:
                break
            seat = rng.choice(sorted(match.to_act))
            match.apply(seat, rng.choice(match.legal_actions(seat)))
        hand = match.hand
        assert isinstance(hand, PitHand)
        for seat in range(4):
            sample = GAME.sample_unseen(hand, seat, random.Random(seed))
            assert sample.view(seat) == hand.view(seat)
            assert everything(sample) == everything(hand)
            bounds = known_holdings(hand, seat)
            for other, bound in bounds.items():
                assert all(
                    have >= need for have, need in zip(sample.holding(other), bound, strict=True)
                )
            for offer in sample.offers.values():
                Lot.of(offer.cards)


def test_the_trades_sizes_are_public() -> None:
    hand = traded()
    assert traded_cards(hand) == {0: 3, 1: 3, 2: 0}
    hand.apply(2, "accept 1 wheat")  # seat 1's 2 corn
    assert traded_cards(hand) == {0: 3, 1: 5, 2: 2}


def test_traders_who_traded_are_sampled_gathering_their_collection() -> None:
    """Sensible traders' hands gather in one commodity as they trade; the
    samples of their hands gather as much, where random deals would not."""

    def lead(held: list[int]) -> int:
        return max(held[:-2])  # the commodities, not the Bull and the Bear

    true = sampled = scattered = 0
    for seed in range(12):
        hand = sensible_hand(seed, trades=8)
        rng = random.Random(seed)
        others = range(1, 4)
        true += sum(lead(hand.holding(s)) for s in others)
        sampled += sum(lead(GAME.sample_unseen(hand, 0, rng).holding(s)) for s in others)
        scattered += sum(lead(hand.redeal_unseen(0, seed).holding(s)) for s in others)
    assert abs(sampled - true) < 0.1 * true
    assert scattered < 0.85 * true


def test_the_drift_keeps_every_card_and_every_bound() -> None:
    rng = random.Random(2)
    for _ in range(200):
        counts = {s: [rng.randrange(4) for _ in KINDS] for s in (1, 2, 3)}
        bounds = {s: [rng.randrange(n + 1) for n in held] for s, held in counts.items()}
        drift = {s: rng.randrange(6) for s in counts}
        before = {s: list(held) for s, held in counts.items()}
        _collect(counts, bounds, drift, rng)
        assert [sum(h[k] for h in counts.values()) for k in range(len(KINDS))] == [
            sum(h[k] for h in before.values()) for k in range(len(KINDS))
        ]
        for s, held in counts.items():
            assert sum(held) == sum(before[s])
            assert all(n >= floor for n, floor in zip(held, bounds[s], strict=True))


def test_the_jitter_keeps_every_card_every_bound_and_each_traders_collection() -> None:
    rng = random.Random(4)
    seats = (1, 2, 3)
    for _ in range(200):
        free = {s: [rng.randrange(4) for _ in KINDS] for s in seats}
        offers = {s: (s, lot_of(1, Commodity.WHEAT)) for s in seats if rng.random() < 0.5}
        particle = Particle([[0] * len(KINDS), *(list(free[s]) for s in seats)], offers)
        held = {s: particle.holding(s) for s in seats}
        bounds = {s: [rng.randrange(n + 1) for n in held[s]] for s in seats}
        before = {s: list(counts) for s, counts in free.items()}
        _jitter(free, particle, bounds, rng)
        assert [sum(f[k] for f in free.values()) for k in range(len(KINDS))] == [
            sum(f[k] for f in before.values()) for k in range(len(KINDS))
        ]
        for s in seats:
            assert sum(free[s]) == sum(before[s])
            now = [n + held[s][k] - before[s][k] for k, n in enumerate(free[s])]
            assert all(n >= floor for n, floor in zip(now, bounds[s], strict=True))
            # A collection is never thinned.
            assert max(now[k] for k in GOODS) >= max(held[s][k] for k in GOODS)
