"""Pit's rules, sentence by sentence (seed ``pit-trading.txt``, rulings T1-T6)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from pitkit import games
from pitkit.cards import Commodity, PitCard
from pitkit.core import BadActionError, BadOptionError, IllegalActionError
from pitkit.games.pit import PENALTY, Accept, Corner, Offer, Open, Phase, PitHand, Rules
from pitkit.games.pit.market import Lot
from tests.games.pit.helpers import holding, stacked_hand, stacked_match

GAME = games.get("pit")


def points(hand: PitHand) -> list[int]:
    return list(hand.points)


# -- T1 Commodities ---------------------------------------------------------------


def test_t1_commodity_values() -> None:
    values = {str(c): c.value for c in Commodity}
    assert values == {
        "wheat": 100,
        "barley": 85,
        "corn": 75,
        "rye": 70,
        "oats": 60,
        "hay": 50,
        "flax": 40,
    }


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_t1_n_players_use_the_n_most_valuable_commodities_of_9_cards(players: int) -> None:
    match = GAME.new_match(players, seed=players)
    zones = match.zones()
    counts = Counter(card for cards in zones.values() for card in cards)
    assert counts == Counter({PitCard[c.name]: 9 for c in list(Commodity)[:players]})


def test_t1_option_chooses_the_commodities() -> None:
    match = GAME.new_match(3, {"commodities": "flax, hay,wheat"}, seed=1)
    held = {str(c) for cards in match.zones().values() for c in cards}
    assert held == {"wheat", "hay", "flax"}
    assert match.view(0)["commodities"] == ["wheat", "hay", "flax"]


@pytest.mark.parametrize(
    ("value", "players", "message"),
    [
        ("wheat,corn", 3, "3 players need 3 commodities"),
        ("wheat,corn,gold", 3, "'gold' is not a commodity"),
        ("wheat,wheat,corn", 3, "once"),
    ],
)
def test_t1_bad_commodity_options_are_refused(value: str, players: int, message: str) -> None:
    with pytest.raises(BadOptionError, match=message):
        GAME.new_match(players, {"commodities": value}, seed=1)


def test_pit_is_for_three_to_seven() -> None:
    with pytest.raises(BadOptionError, match="3-7"):
        GAME.new_match(8)
    with pytest.raises(BadOptionError, match="3-7"):
        GAME.new_match(2)


# -- T2 Deal ------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 5, 7])
def test_t2_all_cards_are_dealt_nine_each(players: int) -> None:
    hand = GAME.new_match(players, seed=4).hand
    assert hand.view(None)["players"] == [
        {"seat": s, "cards": 9, "points": 0} for s in range(players)
    ]


@pytest.mark.parametrize("seed", range(6))
def test_t2_bull_and_bear_first_two_from_the_dealers_left_get_ten(seed: int) -> None:
    match = GAME.new_match(4, {"bull_and_bear": True}, seed=seed)
    sizes = [p["cards"] for p in match.view(None)["players"]]
    left = {(match.dealer + 1) % 4, (match.dealer + 2) % 4}
    assert {s for s in range(4) if sizes[s] == 10} == left
    assert sizes.count(9) == 2
    cards = Counter(c for zone in match.zones().values() for c in zone)
    assert cards[PitCard.BULL] == cards[PitCard.BEAR] == 1


def test_t2_bull_and_bear_is_for_three_to_six() -> None:
    with pytest.raises(BadOptionError, match="3 to 6"):
        GAME.new_match(7, {"bull_and_bear": True})
    assert GAME.new_match(6, {"bull_and_bear": True}, seed=1)


def test_the_deal_shows_each_seat_its_own_hand_only() -> None:
    hand = stacked_hand(["9 wheat", "9 barley", "9 corn"], opened=False)
    deal = hand.log[-1]
    assert deal.type == "deal"
    assert deal.seen_by(1)["hand"] == "9 barley"
    assert "hand" not in deal.seen_by(None)


# -- T3 Opening -----------------------------------------------------------------------

HANDS = ["4 wheat, 3 barley, 2 corn", "3 wheat, 4 barley, 2 corn", "2 wheat, 2 barley, 5 corn"]


def test_t3_before_the_opening_only_the_dealer_acts_and_opens() -> None:
    hand = stacked_hand(HANDS, dealer=1, opened=False)
    assert hand.phase is Phase.SORTING and not hand.is_open
    assert hand.to_act == {1}
    assert hand.legal_actions(1) == [hand.parse_action("open")]
    assert hand.legal_actions(0) == []
    with pytest.raises(IllegalActionError, match="only the dealer, seat 1, opens"):
        hand.apply(0, "open")
    events = hand.apply(1, "open")
    assert [e.type for e in events] == ["action", "open"]
    assert hand.to_act == {0, 1, 2}
    with pytest.raises(IllegalActionError, match="open already"):
        hand.apply(1, "open")


def test_t3_a_trade_before_the_opening_is_refused_and_costs_20() -> None:
    hand = stacked_hand(HANDS, dealer=1, opened=False)
    before = [holding(hand, s) for s in range(3)]
    events = hand.apply(0, "offer 2 wheat")
    assert [e.type for e in events] == ["action", "penalty"]
    assert events[1].public == {
        "seat": 0,
        "points": -PENALTY,
        "reason": "traded before the pit was open (T3)",
    }
    assert hand.offers == {}, "the offer is refused"
    assert [holding(hand, s) for s in range(3)] == before
    hand.apply(2, "accept 0")  # an acceptance is a trade action too
    assert points(hand) == [-20, 0, -20]
    # Each attempt costs again; scores may go negative.
    hand.apply(0, "offer 1 corn")
    assert points(hand) == [-40, 0, -20]


def test_t3_early_trade_penalty_is_kept_in_the_match_score() -> None:
    match = stacked_match(
        ["9 wheat", "9 barley", "9 corn"], dealer=0, opened=False, commodities="wheat,barley,corn"
    )
    match.apply(1, "offer 1 barley")
    match.apply(0, "open")
    match.apply(0, "corner")
    assert match.scores == [100, -20, 0]


def test_t3_early_trade_needs_cards_the_player_holds() -> None:
    hand = stacked_hand(HANDS, dealer=1, opened=False)
    with pytest.raises(IllegalActionError, match="you do not hold 3 corn"):
        hand.apply(0, "offer 3 corn")
    assert points(hand) == [0, 0, 0]


def test_t3_the_dealers_own_early_trade_costs_20_too() -> None:
    # RULINGS T3: "This holds for the dealer too: the dealer opens the pit,
    # and trades only after opening it."
    hand = stacked_hand(HANDS, dealer=1, opened=False)
    before = hand.view(1)["hand"]
    events = hand.apply(1, "offer 1 wheat")
    assert [e.type for e in events] == ["action", "penalty"]
    assert points(hand) == [0, -20, 0]
    assert hand.view(1)["hand"] == before and not hand.offers  # nothing was offered
    assert hand.legal_actions(1) == [Open()]  # the dealer still opens the pit
    hand.apply(1, "open")
    hand.apply(1, "offer 1 wheat")
    assert points(hand) == [0, -20, 0]


def test_t3_nothing_else_before_the_opening() -> None:
    hand = stacked_hand(HANDS, dealer=1, opened=False)
    with pytest.raises(IllegalActionError, match="no open offer"):
        hand.apply(0, "withdraw")
    with pytest.raises(IllegalActionError, match="not open yet"):
        hand.apply(0, "corner wheat")
    with pytest.raises(IllegalActionError, match="no offer #3: the pit is not open yet"):
        hand.apply(0, "accept 2 #3")
    assert points(hand) == [0, 0, 0]


def test_t3_sorting_period_is_an_option() -> None:
    assert Rules().sorting_seconds == 30
    assert Rules.from_options(["sorting_seconds=0"]).sorting_seconds == 0
    with pytest.raises(BadOptionError):
        Rules.from_options(["sorting_seconds=-1"])


# -- T4 Trading -------------------------------------------------------------------------


def test_t4_offers_are_one_to_four_cards() -> None:
    hand = stacked_hand(["5 wheat, 4 barley", "4 wheat, 5 barley", "9 corn"])
    for bad in ("offer 0 wheat", "offer 5 wheat"):
        with pytest.raises(IllegalActionError, match="1 to 4 cards"):
            hand.apply(0, bad)
    offers = [a for a in hand.legal_actions(0) if isinstance(a, Offer)]
    assert sorted(str(a) for a in offers) == sorted(
        [f"offer {n} wheat" for n in range(1, 5)] + [f"offer {n} barley" for n in range(1, 5)]
    )
    hand.apply(0, "offer 4 wheat")
    assert hand.offers[0].count == 4


def test_t4_no_mixed_commodities() -> None:
    hand = stacked_hand(["5 wheat, 4 barley", "4 wheat, 5 barley", "9 corn"])
    with pytest.raises(BadActionError, match="one commodity, not wheat and barley"):
        hand.apply(0, "offer 2 wheat barley")
    with pytest.raises(BadActionError, match="one commodity"):
        Lot.of([PitCard.WHEAT, PitCard.CORN])
    hand.apply(1, "offer 1 barley")
    with pytest.raises(BadActionError, match="one commodity"):
        hand.apply(0, "accept 1 wheat barley")


def test_t4_specials_only_in_the_bull_and_bear_edition() -> None:
    hand = stacked_hand(["5 wheat, 4 barley", "4 wheat, 5 barley", "9 corn"])
    with pytest.raises(IllegalActionError, match="no Bull or Bear"):
        hand.apply(0, "offer 2 wheat bull")


def test_t4_bull_and_bear_go_with_one_commodity_or_alone() -> None:
    hand = stacked_hand(
        ["8 wheat, bull, corn", "1 wheat, 9 barley", "8 corn, bear"], dealer=2, bull_and_bear=True
    )
    offers = {str(a) for a in hand.legal_actions(2) if isinstance(a, Offer)}
    assert {"offer 1 bear", "offer 2 corn bear", "offer 4 corn bear", "offer 4 corn"} <= offers
    assert "offer 1 corn bear" not in offers
    with pytest.raises(BadActionError, match="1 card cannot be corn and the Bear"):
        hand.apply(2, "offer 1 corn bear")
    with pytest.raises(BadActionError, match="2 cards cannot be just the Bear"):
        hand.apply(2, "offer 2 bear")
    hand.apply(2, "offer 3 corn +bear")  # the count includes the Bear
    assert sorted(str(c) for c in hand.offers[2].cards) == ["bear", "corn", "corn"]
    with pytest.raises(BadActionError, match="one commodity, not wheat and corn"):
        hand.apply(0, "accept 2 wheat corn bull")
    hand.apply(0, "accept 2 wheat bull")  # 2 wheat and the Bull: three cards
    assert holding(hand, 0) == "6 wheat, 3 corn and the Bear"
    assert holding(hand, 2) == "2 wheat, 6 corn and the Bull"


def test_t4_equal_counts_the_payment_is_the_offers_size() -> None:
    hand = stacked_hand(["5 wheat, 4 barley", "4 wheat, 5 barley", "9 corn"])
    hand.apply(0, "offer 3 wheat")
    with pytest.raises(IllegalActionError, match="you do not hold 3 wheat"):
        hand.apply(2, "accept 0 wheat")
    hand.apply(2, "accept 0 corn")
    assert holding(hand, 0) == "2 wheat, 4 barley and 3 corn"
    assert holding(hand, 2) == "3 wheat and 6 corn"
    assert hand.trades[-1].count == 3


def test_t4_trades_are_blind() -> None:
    hand = stacked_hand(["5 wheat, 4 barley", "4 wheat, 5 barley", "9 corn"])
    hand.apply(0, "offer 2 barley")
    for seat in (1, 2, None):
        view = hand.view(seat)
        assert view["offers"] == [{"offer": 1, "seat": 0, "count": 2}]
        assert "barley" not in str(view["history"][-1])
    assert hand.view(0)["offer"] == {"offer": 1, "count": 2, "cards": ["barley", "barley"]}
    hand.apply(2, "accept 0 corn")
    trade = hand.log[-1]
    assert trade.seen_by(0)["received"] == "2 corn"
    assert trade.seen_by(2)["received"] == "2 barley"
    assert "received" not in trade.seen_by(1) and "received" not in trade.seen_by(None)
    assert trade.seen_by(1) == {
        "type": "trade",
        "offer": 1,
        "seller": 0,
        "buyer": 2,
        "count": 2,
    }
    # The acceptor's payment is hidden from the table too.
    accept = hand.log[-2]
    assert accept.seen_by(1)["action"] == "accept 0 #1"
    assert accept.seen_by(2)["action"] == "accept 0 corn #1"


def test_t4_one_open_offer_at_a_time_and_its_cards_are_held() -> None:
    hand = stacked_hand(["5 wheat, 4 barley", "4 wheat, 5 barley", "9 corn"])
    hand.apply(0, "offer 4 barley")
    with pytest.raises(IllegalActionError, match=r"open offer already .* withdraw it first"):
        hand.apply(0, "offer 1 wheat")
    assert not any(isinstance(a, Offer) for a in hand.legal_actions(0))
    hand.apply(1, "offer 1 wheat")
    with pytest.raises(
        IllegalActionError, match="you do not hold 1 barley outside your open offer"
    ):
        hand.apply(0, "accept 1 barley")
    hand.apply(0, "withdraw")
    assert 0 not in hand.offers and holding(hand, 0) == "5 wheat and 4 barley"
    with pytest.raises(IllegalActionError, match="no open offer to withdraw"):
        hand.apply(0, "withdraw")
    hand.apply(0, "offer 1 wheat")


def test_t4_first_valid_acceptance_wins_and_the_second_is_told_who_won() -> None:
    hand = stacked_hand(["5 wheat, 4 barley", "4 wheat, 5 barley", "9 corn"])
    hand.apply(0, "offer 1 barley")
    first = hand.parse_action("accept 0 corn #1")
    second = hand.parse_action("accept 0 wheat #1")
    hand.apply(2, first)
    with pytest.raises(IllegalActionError, match="seat 0's offer #1 was taken by seat 2"):
        hand.apply(1, second)
    # Without a number, the acceptance is of the offer open when it arrives.
    with pytest.raises(IllegalActionError, match="seat 0's offer #1 was taken by seat 2"):
        hand.apply(1, "accept 0 wheat")
    hand.apply(0, "offer 1 corn")
    hand.apply(0, "withdraw")
    with pytest.raises(IllegalActionError, match="seat 0's offer #2 was withdrawn"):
        hand.apply(1, "accept 0 wheat #2")
    with pytest.raises(IllegalActionError, match="there is no offer #9"):
        hand.apply(1, "accept 0 wheat #9")


def test_t4_no_accepting_ones_own_offer_or_a_missing_seat() -> None:
    hand = stacked_hand(["5 wheat, 4 barley", "4 wheat, 5 barley", "9 corn"])
    hand.apply(0, "offer 1 barley")
    with pytest.raises(IllegalActionError, match="your own offer"):
        hand.apply(0, "accept 0 wheat")
    with pytest.raises(IllegalActionError, match="no seat 7"):
        hand.apply(1, "accept 7 wheat")
    with pytest.raises(IllegalActionError, match="seat 1 has no open offer"):
        hand.apply(0, "accept 1 wheat")


def test_t4_accept_without_payment_when_only_one_is_possible() -> None:
    hand = stacked_hand(["5 wheat, 4 barley", "4 wheat, 5 barley", "9 corn"])
    hand.apply(0, "offer 2 barley")
    events = hand.apply(2, "accept 0")  # seat 2 holds only corn
    assert events[0].secret["action"] == "accept 0 corn #1", "the log spells it out"
    hand.apply(2, "offer 1 corn")
    with pytest.raises(
        IllegalActionError, match="say what you pay with: accept 2 wheat, accept 2 barl"
    ):
        hand.apply(0, "accept 2")


def test_t4_an_open_offer_may_be_the_payment() -> None:
    # Two players calling "two!" swap what they hold out.
    hand = stacked_hand(["5 wheat, 4 barley", "4 wheat, 5 barley", "9 corn"])
    hand.apply(0, "offer 4 barley")
    hand.apply(1, "offer 4 wheat")
    assert hand.parse_action("accept 1 barley #2") in hand.legal_actions(0)
    hand.apply(0, "accept 1 barley #2")
    assert hand.offers == {}
    assert holding(hand, 0) == "9 wheat"
    assert holding(hand, 1) == "9 barley"
    with pytest.raises(IllegalActionError, match="offer #1 was paid to seat 1 for offer #2"):
        hand.apply(2, "accept 0 corn #1")
    # Everyone saw the buyer's offer leave the table as the payment; the
    # cards stay between the two.
    trade = hand.log[-1]
    assert trade.public == {"offer": 2, "seller": 1, "buyer": 0, "count": 4, "paid_with": 1}
    assert "barley" not in str(trade.seen_by(2)) and "wheat" not in str(trade.seen_by(2))


def test_t4_a_payment_from_cards_not_on_offer_is_not_called_an_offer() -> None:
    hand = stacked_hand(["5 wheat, 4 barley", "4 wheat, 5 barley", "9 corn"])
    hand.apply(0, "offer 4 barley")
    hand.apply(2, "offer 1 corn")
    hand.apply(0, "accept 2 wheat")
    assert "paid_with" not in hand.log[-1].public
    assert hand.offers[0].count == 4


def test_t4_only_the_two_sides_learn_the_cards() -> None:
    hand = stacked_hand(["5 wheat, 4 barley", "4 wheat, 5 barley", "9 corn"])
    hand.apply(0, "offer 3 wheat")
    hand.apply(1, "accept 0 barley")
    trade = hand.log[-1]
    assert trade.private[0]["cards"] == ("barley",) * 3
    assert trade.private[1]["cards"] == ("wheat",) * 3
    assert set(trade.private) == {0, 1}


# -- T5 Corner -----------------------------------------------------------------------------


def test_t5_corner_of_nine_scores_the_value_and_ends_the_hand_at_once() -> None:
    hand = stacked_hand(["9 wheat", "9 barley", "9 corn"])
    assert Corner() in hand.legal_actions(0)
    hand.apply(2, "offer 2 corn")
    events = hand.apply(1, "corner barley")
    assert [e.type for e in events] == ["action", "corner", "hand_end"]
    assert events[1].public["cards"] == "9 barley", "the cornerer reveals the cards"
    assert hand.is_over and hand.to_act == frozenset()
    assert points(hand) == [0, 85, 0]
    assert hand.outcome is not None and hand.outcome.winners == (1,)
    with pytest.raises(IllegalActionError, match="the hand is over: seat 1 cornered barley for 85"):
        hand.apply(0, "accept 2 wheat")


def test_t5_corner_counts_cards_in_ones_own_offer() -> None:
    hand = stacked_hand(["9 wheat", "9 barley", "9 corn"])
    hand.apply(0, "offer 2 wheat")
    hand.apply(0, "corner wheat")
    assert points(hand) == [100, 0, 0]


def test_t5_eight_and_the_bull_corner_for_the_single_value() -> None:
    hand = stacked_hand(
        ["8 wheat, bull, corn", "1 wheat, 9 barley", "8 corn, bear"], dealer=2, bull_and_bear=True
    )
    assert hand.corner(0) == (Commodity.WHEAT, 100)
    events = hand.apply(0, "corner")
    assert events[0].public["action"] == "corner wheat"
    corner = events[1].public
    assert corner["doubled"] is False and corner["bull"] is None and corner["bear"] == 2
    assert points(hand) == [100, 0, -20], "the Bear's holder loses 20; the cornerer keeps the Bull"


def test_t5_nine_and_the_bull_score_double_and_the_bear_holder_loses() -> None:
    hand = stacked_hand(
        ["9 wheat, bull", "9 barley, bear", "9 corn", "9 rye"], dealer=3, bull_and_bear=True
    )
    hand.apply(0, "corner wheat")
    assert points(hand) == [200, -20, 0, 0]
    assert hand.log[-2].public["doubled"] is True


def test_t5_the_bulls_holder_loses_20_at_anothers_corner() -> None:
    hand = stacked_hand(
        ["9 wheat, bull", "9 barley, bear", "9 corn", "9 rye"], dealer=3, bull_and_bear=True
    )
    hand.apply(2, "corner")
    assert points(hand) == [-20, -20, 75, 0]


def test_t5_no_corner_while_holding_the_bear() -> None:
    hand = stacked_hand(
        ["9 wheat, bear", "9 barley, bull", "9 corn", "9 rye"], dealer=3, bull_and_bear=True
    )
    assert hand.corner(0) is None and Corner() not in hand.legal_actions(0)
    with pytest.raises(IllegalActionError, match="you hold no corner"):
        hand.apply(0, "corner")
    hand.apply(0, "corner wheat")  # announced: a false corner
    assert points(hand) == [-20, 0, 0, 0] and not hand.is_over
    # Rid of the Bear, the corner is good.
    hand.apply(0, "offer 1 bear")
    hand.apply(2, "accept 0 corn")
    assert holding(hand, 0) == "9 wheat and 1 corn"
    hand.apply(0, "corner")
    assert points(hand) == [80, -20, -20, 0]  # seat 1 holds the Bull, seat 2 the Bear


def test_t5_a_false_corner_costs_20_and_trading_goes_on() -> None:
    hand = stacked_hand(["5 wheat, 4 barley", "4 wheat, 5 barley", "9 corn"])
    events = hand.apply(0, "corner wheat")
    assert events[-1].public["reason"] == "announced a corner without having one (T5)"
    hand.apply(0, "corner barley")
    assert points(hand) == [-40, 0, 0], "scores may go negative"
    assert not hand.is_over
    hand.apply(0, "offer 1 wheat")


def test_t5_corner_alone_is_checked_and_never_penalized() -> None:
    hand = stacked_hand(["5 wheat, 4 barley", "4 wheat, 5 barley", "9 corn"])
    with pytest.raises(IllegalActionError, match="you hold no corner: 9 cards of one commodity"):
        hand.apply(0, "corner")
    with pytest.raises(IllegalActionError, match="flax is not traded in this game"):
        hand.apply(0, "corner flax")
    assert points(hand) == [0, 0, 0]


def test_t5_random_play_never_finds_a_penalty() -> None:
    hand = stacked_hand(["5 wheat, 4 barley", "4 wheat, 5 barley", "9 corn"])
    listed = {str(a) for s in range(3) for a in hand.legal_actions(s)}
    assert "corner" in listed  # seat 2's true corner
    assert not any(a.startswith("corner ") for a in listed)


# -- T6 Match --------------------------------------------------------------------------------


def test_t6_the_deal_moves_clockwise_and_scores_add_up() -> None:
    match = stacked_match(["9 wheat", "9 barley", "9 corn"], dealer=1)
    match.apply(2, "corner")
    assert match.scores == [0, 0, 75]
    assert match.dealer == 2 and match.current.dealer == 2
    assert match.current.phase is Phase.SORTING
    assert match.view(0)["match"]["hand"] == 2


def test_t6_first_to_500_wins() -> None:
    match = stacked_match(["9 wheat", "9 barley", "9 corn"], dealer=1)
    match.scores = [450, 480, 0]
    match.apply(0, "corner")
    assert match.is_over and match.outcome is not None
    assert match.outcome.winners == (0,)
    assert match.outcome.points == (550.0, 480.0, 0.0)
    assert "seat 0 wins after 1 hand" in match.outcome.summary


def test_t6_the_higher_score_wins_and_an_exact_tie_plays_on() -> None:
    match = stacked_match(["9 wheat", "9 barley", "9 corn"], dealer=1)
    match.scores = [500, 515, 0]  # as after a hand of penalties: both at 500 or more
    match.apply(2, "corner")
    assert match.outcome is not None and match.outcome.winners == (1,)
    tie = stacked_match(["9 wheat", "9 barley", "9 corn"], dealer=1)
    tie.scores = [400, 500, 0]
    tie.apply(0, "corner")
    assert not tie.is_over, "an exact tie at the top plays another hand"


def test_the_hand_outcome_ranks_by_points() -> None:
    hand = stacked_hand(["9 wheat", "9 barley", "9 corn"])
    hand.apply(1, "corner wheat")  # false: -20
    hand.apply(0, "corner")
    assert hand.outcome is not None
    assert hand.outcome.ranks == (1, 3, 2)


# -- stalled hands (T7) -------------------------------------------------------------------


def test_t7_a_stalled_hand_scores_nothing_and_the_same_dealer_deals_again() -> None:
    match = stacked_match(
        ["5 wheat, 4 barley", "4 wheat, 5 barley", "9 corn"], dealer=0, trades_per_player=1
    )
    match.apply(1, "offer 1 wheat")
    match.apply(0, "corner wheat")  # a false corner: its penalty stands (T5)
    for _ in range(3):
        match.apply(0, "offer 1 barley")
        match.apply(1, "accept 0 barley")
        match.apply(0, "withdraw") if 0 in match.current.offers else None
    result = match.results[0]
    assert result.detail["stalled"] and "no corner after 3 trades" in result.summary
    assert match.scores == [-20, 0, 0]  # the hand itself scored nothing
    # A match never ends for a stalled hand; the same dealer deals again.
    assert not match.is_over and len(match.results) == 1
    assert match.dealer == 0 and match.current.dealer == 0


def test_t7_stalled_hands_never_end_a_match_only_t6_does() -> None:
    match = GAME.new_match(3, {"trades_per_player": 1}, 5)
    rng = random.Random(5)
    while len(match.results) < 12 and not match.is_over:
        seat = rng.choice(sorted(match.to_act))
        match.apply(seat, rng.choice(match.legal_actions(seat)))
    stalled = [r for r in match.results if r.detail["stalled"]]
    assert len(stalled) >= 10 and not match.is_over
    assert max(match.scores) < 500


def test_t7_a_hand_cap_is_an_option_off_by_default() -> None:
    assert Rules().hand_limit is None
    match = GAME.new_match(3, {"hand_limit": 1}, 5)
    rng = random.Random(5)
    while not match.is_over:
        seat = rng.choice(sorted(match.to_act))
        match.apply(seat, rng.choice(match.legal_actions(seat)))
    assert len(match.results) == 1 and match.outcome is not None
    # The option a ruling retired is still read from old logs, and ignored.
    assert Rules.from_options({"stall_limit": 1}) == Rules()


def test_the_idle_limit_ends_a_hand_without_trades() -> None:
    hand = stacked_hand(["5 wheat, 4 barley", "4 wheat, 5 barley", "9 corn"], idle_limit=4)
    for action in ("offer 1 wheat", "withdraw", "offer 2 wheat", "withdraw"):
        hand.apply(0, action)
    assert hand.is_over and "no trade in 4 market actions" in hand.summary


def test_the_hand_limit() -> None:
    match = stacked_match(["9 wheat", "9 barley", "9 corn"], dealer=0, hand_limit=1)
    match.apply(1, "corner")
    assert match.outcome is not None and match.outcome.winners == (1,)
    assert "hand limit" in match.outcome.summary


def test_limits_must_be_positive() -> None:
    for option in ("trades_per_player=0", "idle_limit=0", "hand_limit=0"):
        with pytest.raises(BadOptionError):
            Rules.from_options([option])


# -- racing a corner --------------------------------------------------------------------------


def test_an_acceptance_racing_a_corner_names_the_ended_hand() -> None:
    match = stacked_match(["5 wheat, 4 corn", "4 wheat, 5 corn", "9 barley"], dealer=0)
    match.apply(0, "offer 1 wheat")
    match.apply(2, "corner")
    with pytest.raises(
        IllegalActionError, match=r"offer #1 is gone: its hand is over \(seat 2 corn"
    ):
        match.apply(1, "accept 0 corn #1")
    assert match.current.phase is Phase.SORTING


def test_accept_fields_survive_text_and_json() -> None:
    action = Accept(3, Commodity.CORN, bull=True, offer=12)
    assert str(action) == "accept 3 corn bull #12"
    hand = stacked_hand(["9 wheat", "9 barley", "9 corn"])
    assert hand.parse_action(str(action)) == action
    assert hand.parse_action(action.to_json()) == action
    assert action.to_json() == {
        "kind": "accept",
        "seat": 3,
        "commodity": "corn",
        "bull": True,
        "bear": False,
        "offer": 12,
    }


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("offer", "say what you offer"),
        ("offer two wheat", "a number"),
        ("offer 2 gold", "'gold' is not a card"),
        ("offer 2 bull bull", "only one Bull"),
        ("accept", "whose offer"),
        ("accept 3 #x", "an offer number"),
        ("accept 3 #1 #2", "name one offer"),
        ("corner wheat corn", "one commodity"),
        ("corner gold", "'gold' is not a commodity"),
        ({"kind": "offer", "count": True}, "whole number"),
        ({"kind": "offer", "count": 2, "commodity": 7}, "written as text"),
        ({"kind": "offer", "count": 2, "commodity": "wheat", "bull": "yes"}, "true or false"),
        ({"kind": "accept", "seat": 1, "extra": 1}, "unknown fields"),
    ],
)
def test_bad_spellings_are_refused_clearly(text: object, message: str) -> None:
    hand = stacked_hand(["9 wheat", "9 barley", "9 corn"])
    with pytest.raises(BadActionError, match=message):
        hand.parse_action(text)  # type: ignore[arg-type]


def test_two_wheat_and_the_bull_are_a_three_card_trade() -> None:
    # The seed's own example of the Bull & Bear edition.
    hand = stacked_hand(
        ["5 wheat, 4 barley, bull", "4 wheat, 5 barley, bear", "9 corn", "9 rye"],
        dealer=3,
        bull_and_bear=True,
    )
    events = hand.apply(0, "offer 3 wheat bull")
    assert events[0].public["action"] == "offer 3", "the table sees three cards"
    assert sorted(str(c) for c in hand.offers[0].cards) == ["bull", "wheat", "wheat"]
    hand.apply(2, "accept 0 corn")
    assert hand.log[-1].private[2]["received"] == "2 wheat and the Bull"
    assert holding(hand, 2) == "2 wheat, 6 corn and the Bull"
