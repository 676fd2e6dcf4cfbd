"""One hand of Ace Pit: the deal, the lead, throw-aways and the pick-up (A1-A5)."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pitkit.cards import Card, standard_deck
from pitkit.core import Chance, IllegalActionError
from pitkit.core.narrate import Narrator
from pitkit.games import acepit
from pitkit.games.acepit import AcePitHand, Lead, Phase, Respond, Rules
from pitkit.games.acepit.bots import _lead_against, play_out
from pitkit.games.acepit.scoring import best_response
from tests.games.acepit.helpers import stacked_hand

C = Card.parse


def respond(text: str) -> Respond:
    return Respond(tuple(C(t) for t in text.split()))


# -- The deal (A1) -------------------------------------------------------------


def test_seven_cards_each_the_rest_is_the_stock() -> None:
    hand = AcePitHand(Rules(), 2, 0, Chance(5))
    assert [len(h) for h in hand.cards] == [7, 7]
    assert len(hand.stock) == 52 - 14
    cards = [c for zone in hand.zones().values() for c in zone]
    assert Counter(cards) == Counter(standard_deck())


def test_dealt_one_at_a_time_and_the_non_dealer_leads() -> None:
    chance = Chance(0)
    chance.queue_shuffle(range(52))  # the pack as it comes: 2C 3C 4C ...
    deck = standard_deck()
    hand = AcePitHand(Rules(), 2, 1, chance)
    assert hand.cards[0] == deck[0:14:2]  # the non-dealer is dealt first
    assert hand.cards[1] == deck[1:14:2]
    assert hand.stock[-1] == deck[14]  # the top of the stock is the end of the list
    assert hand.to_act == {0} and hand.phase is Phase.LEAD
    assert hand.view(None)["leader"] == 0


def test_only_two_players() -> None:
    with pytest.raises(ValueError, match="2 players"):
        AcePitHand(Rules(), 3, 0, Chance(1))


# -- Tricks ----------------------------------------------------------------------


def test_the_leader_lays_one_card_and_the_other_responds() -> None:
    hand = stacked_hand({1: "8H", 0: "9H"}, dealer=0)
    assert hand.to_act == {1}
    assert all(isinstance(a, Lead) for a in hand.legal_actions(1))
    hand.apply(1, "lead 8H")
    assert hand.to_act == {0} and hand.lead == C("8H")
    assert all(isinstance(a, Respond) for a in hand.legal_actions(0))


def test_a_winning_response_scores_and_the_winner_leads_next() -> None:
    hand = stacked_hand({1: "8H", 0: "9H"}, dealer=0)
    hand.apply(1, "lead 8H")
    hand.apply(0, "respond 9H")
    assert hand.points == [15, 0]
    assert hand.to_act == {0} and hand.leader == 0
    assert hand.tricks[-1].winner == 0
    assert hand.log[-1].public["play"] == "The Spoon" and hand.log[-1].public["points"] == 15


def test_a_throw_away_gives_the_leader_10_and_the_lead_again() -> None:
    hand = stacked_hand({1: "8H", 0: "3H"}, dealer=0)
    hand.apply(1, "lead 8H")
    hand.apply(0, "respond 3H")
    assert hand.points == [0, 10]
    assert hand.to_act == {1} and hand.phase is Phase.LEAD


def test_throw_away_is_always_allowed() -> None:
    # "No restriction is placed on the use of the 'Throw Away'."
    hand = stacked_hand({1: "8H", 0: "9H 7H AS"}, dealer=0)
    hand.apply(1, "lead 8H")
    legal = hand.legal_actions(0)
    assert all(Respond((c,)) in legal for c in hand.cards[0])


def test_a_led_ace_beaten_only_by_an_ace_a_double_fork_or_an_even_stevens() -> None:
    hand = stacked_hand({1: "AH", 0: "KH"}, dealer=0)
    hand.apply(1, "lead AH")
    hand.apply(0, "respond KH")  # a Spoon does not beat a led Ace (A4)
    assert hand.points == [0, 50]
    assert hand.to_act == {1}
    hand = stacked_hand({1: "AH", 0: "AS"}, dealer=0)
    hand.apply(1, "lead AH")
    hand.apply(0, "respond AS")
    assert hand.points == [70, 0] and hand.to_act == {0}


# -- The pick-up (A5) ------------------------------------------------------------


def test_after_two_cards_the_responder_picks_up_the_top_of_the_stock() -> None:
    hand = stacked_hand({1: "8H", 0: "7H 9H"}, stock="KS QS", dealer=0)
    hand.apply(1, "lead 8H")
    hand.apply(0, "respond 9H 7H")
    assert hand.points == [95, 0]
    assert C("KS") in hand.cards[0]
    assert hand.stock[-1] == C("QS")
    assert [len(h) for h in hand.cards] == [6, 6]
    draw = hand.log[-1]
    assert draw.type == "draw"
    assert draw.seen_by(0)["card"] == "KS"
    assert "card" not in draw.seen_by(1) and "card" not in draw.seen_by(None)


def test_the_leader_never_draws() -> None:
    hand = stacked_hand({1: "8H", 0: "7H 9H"}, dealer=0)
    hand.apply(1, "lead 8H")
    hand.apply(0, "respond 7H 9H")
    assert len(hand.cards[1]) == 6  # 7 dealt, one led, none drawn


def play_hand(hand: AcePitHand, rng: random.Random, prefer_pairs: bool) -> list[int]:
    """Play a hand to its end; return the stock's size after each trick."""
    stock_sizes = []
    while not hand.is_over:
        seat = next(iter(hand.to_act))
        if hand.phase is Phase.LEAD:
            assert len(hand.cards[0]) == len(hand.cards[1]), "unequal hands at a lead"
        actions = hand.legal_actions(seat)
        pairs = [a for a in actions if isinstance(a, Respond) and len(a.cards) == 2]
        hand.apply(seat, rng.choice(pairs if prefer_pairs and pairs else actions))
        if hand.phase is not Phase.RESPOND:
            stock_sizes.append(len(hand.stock))
    return stock_sizes


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), dealer=st.integers(0, 1), prefer_pairs=st.booleans())
def test_every_hand_is_exactly_7_tricks_and_the_stock_never_runs_out(
    seed: int, dealer: int, prefer_pairs: bool
) -> None:
    # "The game is played over 11 hands, each of 7 tricks (guaranteed to be 7,
    # due to the pick-up rule)." Pairs played whenever possible draw the most.
    hand = AcePitHand(Rules(), 2, dealer, Chance(seed))
    stock_sizes = play_hand(hand, random.Random(seed), prefer_pairs)
    assert len(hand.tricks) == 7 == len(stock_sizes)
    assert hand.cards == [[], []]
    assert len(hand.stock) >= 38 - 6  # at most one pick-up in each of tricks 1-6
    assert len(hand.played) + len(hand.stock) == 52
    assert sum(hand.points) == sum(t.score.points for t in hand.tricks)
    assert hand.outcome is not None and list(hand.outcome.points) == hand.points


def test_the_seventh_trick_has_one_card_each() -> None:
    hand = AcePitHand(Rules(), 2, 0, Chance(11))
    rng = random.Random(1)
    while len(hand.tricks) < 6:
        seat = next(iter(hand.to_act))
        hand.apply(seat, rng.choice(hand.legal_actions(seat)))
    assert [len(h) for h in hand.cards] == [1, 1]
    seat = hand.leader
    hand.apply(seat, hand.legal_actions(seat)[0])
    assert len(hand.legal_actions(1 - seat)) == 1


# -- Refusals ----------------------------------------------------------------------


def test_illegal_moves_are_refused_with_a_reason_and_change_nothing() -> None:
    hand = stacked_hand({1: "8H QS", 0: "7H 2C 9S"}, dealer=0)
    before = json.dumps(hand.view(None))
    with pytest.raises(IllegalActionError, match="you lead this trick"):
        hand.apply(1, "respond 8H")
    with pytest.raises(IllegalActionError, match="do not hold 9D"):
        hand.apply(1, "lead 9D")
    with pytest.raises(IllegalActionError, match="may not act"):
        hand.apply(0, "lead 7H")
    assert json.dumps(hand.view(None)) == before
    hand.apply(1, "lead 8H")
    before = json.dumps(hand.view(None))
    with pytest.raises(IllegalActionError, match=r"Pin .* or a Double Fork"):
        hand.apply(0, "respond 7H 2C")
    with pytest.raises(IllegalActionError, match="one card or two"):
        hand.apply(0, "respond 7H 2C 9S")
    with pytest.raises(IllegalActionError, match="do not hold 9H"):
        hand.apply(0, "respond 9H")
    with pytest.raises(IllegalActionError, match="answer the led 8H"):
        hand.apply(0, "lead 7H")
    with pytest.raises(IllegalActionError):
        hand.apply(0, "respond RJ")
    assert json.dumps(hand.view(None)) == before


def test_response_cards_in_any_order() -> None:
    assert respond("9H 7H") == respond("7H 9H")
    assert str(respond("9H 7H")) == "respond 7H 9H"


# -- Views --------------------------------------------------------------------------


def test_the_responder_sees_what_each_response_scores() -> None:
    hand = stacked_hand({1: "8H", 0: "7H 9H 3H"}, dealer=0)
    hand.apply(1, "lead 8H")
    view = hand.view(0)
    assert view["responses"]["respond 7H 9H"] == "The Pin, Double Flush, Double Spoon — 95"
    assert view["responses"]["respond 3H"] == "The Throw Away — 10 to the leader"
    assert "responses" not in hand.view(1)
    assert "hand" not in hand.view(None)


def test_hidden_running_score_hides_points_until_the_hand_ends() -> None:
    hand = stacked_hand({1: "8H", 0: "7H 9H"}, dealer=0, rules=Rules(hidden_running_score=True))
    hand.apply(1, "lead 8H")
    assert hand.view(0)["responses"]["respond 7H 9H"] == "The Pin, Double Flush, Double Spoon"
    hand.apply(0, "respond 7H 9H")
    view = hand.view(0)
    assert [p["points"] for p in view["players"]] == [None, None]
    assert "points" not in view["tricks"][0]
    assert all("points" not in e for e in view["history"])
    assert "95" not in json.dumps(view)
    play_hand(hand, random.Random(0), prefer_pairs=False)
    assert hand.view(0)["players"][0]["points"] == hand.points[0]


def test_views_are_json_and_the_text_render_works() -> None:
    match = acepit.GAME.new_match(seed=4)
    rng = random.Random(4)
    for _ in range(30):
        seat = next(iter(match.to_act))
        view = match.view(seat)
        json.dumps(view)
        text = acepit.render(view)
        assert "Your hand" in text
        for event in match.log:
            acepit.describe(event.seen_by(seat), Narrator.seats(2, seat))
        match.apply(seat, rng.choice(match.legal_actions(seat)))


# -- The look-ahead bot's model follows the real game ------------------------------


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), dealer=st.integers(0, 1))
def test_play_out_predicts_the_real_hand(seed: int, dealer: int) -> None:
    hand = AcePitHand(Rules(), 2, dealer, Chance(seed))
    leader = hand.leader
    first = _lead_against(hand.cards[leader], hand.cards[1 - leader])
    predicted = play_out(hand.cards, hand.stock, leader, None, (first,), 0)
    while not hand.is_over:
        seat = next(iter(hand.to_act))
        if hand.phase is Phase.LEAD:
            card = (
                first if not hand.tricks else _lead_against(hand.cards[seat], hand.cards[1 - seat])
            )
            hand.apply(seat, Lead(Card(card)))
        else:
            _, a, b = best_response(hand.table[0], hand.cards[seat])
            hand.apply(seat, Respond((Card(a),) if b < 0 else (Card(a), Card(b))))
    assert hand.points[0] - hand.points[1] == predicted
