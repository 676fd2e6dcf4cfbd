"""Pits' sampler of hidden cards keeps to everything public."""

from __future__ import annotations

import random

from pitkit.games import pits
from pitkit.games.pits import Phase

GAME = pits.GAME


def after_exchange(seed: int) -> pits.PitsMatch:
    """A match played by bots up to the lead of its second hand."""
    match = pits.GAME.new_match(seed=seed)
    assert isinstance(match, pits.PitsMatch)
    bot = pits.HeuristicBot(seed)
    while not (match.results and pits.current_hand(match).phase is Phase.PLAY):
        seat = min(match.to_act)
        match.apply(seat, bot.choose(match, seat))
    return match


def test_samples_look_the_same_and_keep_exchanged_cards_in_place() -> None:
    for seed in range(4):
        match = after_exchange(seed)
        hand = pits.current_hand(match)
        assert hand.known  # the exchange told everyone where four cards went
        rng = random.Random(seed)
        for seat in range(5):
            for _ in range(5):
                other = GAME.sample_unseen(hand, seat, rng)
                assert other.view(seat) == hand.view(seat)
                assert sorted(other.cards[seat]) == sorted(hand.cards[seat])
                for card, owner in hand.known.items():
                    assert card in other.cards[owner]
                for giver, cap in hand.caps.items():
                    unknown = [c for c in other.cards[giver] if c not in hand.known]
                    assert all(pits.pits_rank(c) <= cap for c in unknown)


def test_samples_vary() -> None:
    hand = pits.current_hand(after_exchange(7))
    seen = {tuple(GAME.sample_unseen(hand, 0, random.Random(s)).cards[1]) for s in range(10)}
    assert len(seen) > 1
