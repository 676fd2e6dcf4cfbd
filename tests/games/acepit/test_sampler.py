"""Ace Pit's sampler: the other hand and the stock, dealt anew."""

from __future__ import annotations

import random

from pitkit.bots import make
from pitkit.games import acepit
from pitkit.games.acepit import current_hand

GAME = acepit.GAME


def test_samples_look_the_same_and_deal_only_the_unseen_cards() -> None:
    game = acepit.GAME
    match = game.new_match(seed=4)
    bots = [make(game, "greedy", s) for s in range(2)]
    rng = random.Random(0)
    for _ in range(60):
        seat = min(match.to_act)
        match.apply(seat, bots[seat].choose(match, seat))
        hand = current_hand(match)
        for viewer in (0, 1):
            other = GAME.sample_unseen(match, viewer, rng)
            sampled = current_hand(other)
            assert other.view(viewer) == match.view(viewer)
            assert sampled.cards[viewer] == hand.cards[viewer]
            assert sampled.played == hand.played and sampled.table == hand.table
            hidden = sorted(hand.cards[1 - viewer] + hand.stock)
            assert sorted(sampled.cards[1 - viewer] + sampled.stock) == hidden
