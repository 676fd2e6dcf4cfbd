"""Pitch's bots: they play legally, bid from strength, and sample fairly."""

from __future__ import annotations

import random

from pitkit import bots as bot_registry
from pitkit.cards import Suit, parse_cards
from pitkit.games.pitch import GAME, Bid, HeuristicBot, LookaheadBot, Pass, Run, Take, hand_strength
from pitkit.games.pitch.bots import known_voids, sample_world

from .helpers import play_all, play_tricks, stacked_hand


def test_strength_grows_with_the_top_trumps() -> None:
    strong = parse_cards("AS KS JS TS 2S 3H")
    weak = parse_cards("9S 7S 6H 5D 4C 8H")
    assert hand_strength(strong, Suit.SPADES, 4) > 3
    assert hand_strength(weak, Suit.SPADES, 4) < 1.5
    assert hand_strength(strong, Suit.DIAMONDS, 4) == 0


def test_heuristic_bids_from_strength_and_runs_a_weak_hand() -> None:
    hand = stacked_hand({1: "AS KS JS TS 2S 3H", 2: "9C 7D 6H 5D 4C 8H"}, dealer=0)
    bot = HeuristicBot(0)
    assert bot.choose(hand, 1) == Bid(2)  # the cheapest bid that wins
    play_all(hand, "1:pass")
    assert bot.choose(hand, 2) == Pass()
    weak = stacked_hand({0: "9C 7D 6H 5D 4C 8H"}, dealer=0)
    play_all(weak, "1:pass; 2:pass; 3:pass")
    assert bot.choose(weak, 0) == Run()
    strong = stacked_hand({0: "AS KS JS TS 2S 3H"}, dealer=0)
    play_all(strong, "1:pass; 2:pass; 3:pass")
    assert bot.choose(strong, 0) == Take()


def test_heuristic_pitcher_leads_its_best_suit_high() -> None:
    hand = stacked_hand({1: "AS KS JS TS 2S 3H"}, dealer=0)
    play_all(hand, "1:bid 2; 2:pass; 3:pass; 0:pass")
    assert str(HeuristicBot(0).choose(hand, 1)) == "play AS"


def test_known_voids_come_from_discards_that_neither_follow_nor_trump() -> None:
    hand = stacked_hand({1: "AC 2S", 2: "KC 5D 6D 7D 8D 9D", 3: "QC 3H", 0: "JC 4H"}, dealer=0)
    play_all(hand, "1:bid 2; 2:pass; 3:pass; 0:pass")
    play_tricks(hand, "AC KC QC JC 2S 5D")
    assert Suit.SPADES in known_voids(hand)[2]
    rng = random.Random(1)
    for _ in range(10):
        world = sample_world(hand, 1, rng)
        assert not any(c.suit == Suit.SPADES for c in world.cards[2])
        assert world.cards[1] == hand.cards[1]
        assert world.view(1) == hand.view(1)


def test_bots_play_whole_matches_legally() -> None:
    for name in ("heuristic", "lookahead"):
        for options in ([], ["mode=tournament"], ["teams=3x2"]):
            players = 6 if options == ["teams=3x2"] else 3
            match = GAME.new_match(players, [*options, "target=5"], seed=len(name))
            seat_bots = [
                LookaheadBot(s, samples=2) if name == "lookahead" else HeuristicBot(s)
                for s in range(players)
            ]
            for _ in range(3000):
                if match.is_over:
                    break
                seat = min(match.to_act)
                action = seat_bots[seat].choose(match, seat)
                assert action in match.legal_actions(seat)
                match.apply(seat, action)
            assert match.is_over


def test_registered_bots_build_from_a_seed() -> None:
    for name in ("heuristic", "lookahead"):
        bot = bot_registry.make(GAME, name, 5)
        match = GAME.new_match(4, seed=5)
        seat = min(match.to_act)
        assert bot.choose(match, seat) in match.legal_actions(seat)
