"""Pitch's sampler of hidden cards keeps to the voids shown in play."""

from __future__ import annotations

import random
from typing import Any

from pitkit.bots import make
from pitkit.core import Match
from pitkit.games import pitch
from pitkit.games.pitch import current_hand

GAME = pitch.GAME


def positions(seed: int) -> list[Match[Any, Any]]:
    """Copies of a match between bots after each move of its first hands."""
    match = GAME.new_match(2 + seed % 5, {}, seed)
    bots = [make(GAME, "heuristic" if s % 2 else "random", seed + s) for s in range(match.players)]
    out = []
    for _ in range(80):
        if match.is_over:
            break
        seat = min(match.to_act)
        match.apply(seat, bots[seat].choose(match, seat))
        out.append(match.clone())
    return out


def test_shown_voids_are_true_and_samples_keep_them() -> None:
    rng = random.Random(2)
    voids_seen = 0
    for seed in range(8):
        for match in positions(seed):
            hand = current_hand(match)
            if hand.is_over:
                continue
            voids = hand.shown_voids()
            for seat in hand.seated:
                assert not {c // 13 for c in hand.cards[seat]} & voids[seat]
                voids_seen += len(voids[seat])
            seat = rng.choice(hand.seated)
            other = GAME.sample_unseen(match, seat, rng)
            sampled = current_hand(other)
            assert other.view(seat) == match.view(seat)
            assert sampled.cards[seat] == hand.cards[seat]
            assert sorted(c for z in other.zones().values() for c in z) == sorted(
                c for z in match.zones().values() for c in z
            )
            for s in sampled.seated:
                if s != seat:
                    assert not {c // 13 for c in sampled.cards[s]} & voids[s]
    assert voids_seen > 20


def test_samples_depend_only_on_what_the_seat_sees() -> None:
    for match in positions(3)[5:60:9]:
        seat = min(match.to_act)
        other = GAME.sample_unseen(match, seat, random.Random(3))
        a = GAME.sample_unseen(match, seat, random.Random(8))
        b = GAME.sample_unseen(other, seat, random.Random(8))
        assert a.zones() == b.zones()
