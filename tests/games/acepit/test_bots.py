"""Ace Pit's bots: legal, greedy where they should be, and blind to hidden cards."""

from __future__ import annotations

import random

from pitkit import bots as bot_registry
from pitkit.arena import simulate
from pitkit.cards import Card
from pitkit.games import acepit
from pitkit.games.acepit import GreedyBot, LookaheadBot, Respond
from pitkit.games.acepit.bots import play_out, unseen_cards
from pitkit.play import play_match
from tests.games.acepit.helpers import stacked_hand

C = Card.parse
GAME = acepit.GAME


def test_registered_bots() -> None:
    assert {"greedy", "lookahead"} <= set(bot_registry.names(GAME))


def test_greedy_plays_the_best_scoring_response() -> None:
    hand = stacked_hand({1: "8H", 0: "7H 9H 8S 8D AS"}, dealer=0)
    hand.apply(1, "lead 8H")
    assert GreedyBot(1).choose(hand, 0) == Respond((C("7H"), C("9H")))


def test_greedy_throws_away_the_card_least_worth_keeping() -> None:
    hand = stacked_hand({1: "8H", 0: "3D 2S 4C 5S 6D 7C JH"}, dealer=0)
    hand.apply(1, "lead 8H")
    # Nothing wins, so the lowest card goes.
    assert GreedyBot(1).choose(hand, 0) == Respond((C("2S"),))


def test_greedy_leads_to_deny_and_sees_only_its_own_seat() -> None:
    hand = stacked_hand({1: "AH 5S 9D QC 3H 7S JD"}, dealer=0)
    choice = GreedyBot(3).choose(hand, 1)
    # The same seat view with the hidden cards dealt differently: same choice.
    for seed in range(5):
        other = hand.redeal_unseen(1, seed)
        assert other.cards[0] != hand.cards[0]
        assert GreedyBot(3).choose(other, 1) == choice
    assert unseen_cards(hand, 1) == sorted(hand.cards[0] + hand.stock)


def test_lookahead_takes_a_sure_gain_in_the_last_trick() -> None:
    hand = stacked_hand({1: "8H", 0: "9H"}, dealer=0)
    rng = random.Random(0)
    while len(hand.cards[0]) > 1:
        seat = next(iter(hand.to_act))
        hand.apply(seat, rng.choice(hand.legal_actions(seat)))
    seat = next(iter(hand.to_act))
    choice = LookaheadBot(1, samples=4).choose(hand, seat)
    assert choice in hand.legal_actions(seat)


def test_the_look_ahead_model_sees_when_winning_a_trick_costs_more() -> None:
    # Two cards each; seat 1 led 8H and holds AS. Seat 0 holds 9H and KS.
    # The Spoon (+15) makes seat 0 lead KS into AS (Ace Pit, Flush, Spoon:
    # -85), -70 in all; throwing KS away (-10) makes seat 1 lead AS, and 9H
    # cannot beat it (-50), -60 in all. Greedy takes the Spoon.
    hands = [[C("9H"), C("KS")], [C("AS")]]
    spoon = play_out(hands, [], 1, C("8H"), [C("9H")], 0)
    throw = play_out(hands, [], 1, C("8H"), [C("KS")], 0)
    assert (spoon, throw) == (15 - 85, -10 - 50)


def test_both_bots_play_whole_games_legally() -> None:
    match = GAME.new_match(rules={"hands": 2}, seed=8)
    decisions = play_match(match, [LookaheadBot(1, samples=3), GreedyBot(2)], 8)
    assert match.is_over and decisions == 2 * 7 * 2  # hands x tricks x (lead, response)


def test_greedy_beats_random() -> None:
    tally = {"greedy": 0.0, "random": 0.0}
    for played in simulate(GAME, ["greedy", "random"], 6, rules=acepit.Rules(hands=3), seed=1):
        for seat in played.outcome.winners:
            tally[played.seating[seat]] += 1 / len(played.outcome.winners)
    assert tally["greedy"] >= 5
