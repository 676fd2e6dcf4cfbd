"""One hand of Pitch: the deal, bidding with steal, run it and sell, play.

Test names carry the seed's topic numbers (rule table of seeds/pitch.txt);
comments cite the rulings (C2, C4 ...)."""

from __future__ import annotations

import pytest

from pitkit.cards import Suit, parse_cards
from pitkit.core import IllegalActionError
from pitkit.games.pitch import Bid, Pass, Phase, PitchHand, Play, Rules, Run, Sell, Steal, Take

from .helpers import deck_for, play_all, play_tricks, stacked_chance, stacked_hand

SPADES = {1: "AS KS QS JS TS 2S", 2: "AH KH QH JH TH 2H", 3: "AD KD QD JD TD 2D"}


# -- topics 4, 9, 12: the deck and the deal (C2) ---------------------------------


def test_topic_4_one_deck_no_jokers_and_topic_9_six_each_three_at_a_time() -> None:
    hand = stacked_hand({}, dealer=0, players=4)
    zones = hand.zones()
    cards = [c for cards in zones.values() for c in cards]
    assert len(cards) == 52 and not any(c.is_joker for c in cards)
    for seat in range(4):
        assert len(hand.cards[seat]) == 6
    # Three at a time from the dealer's left, ending with the dealer.
    deck = deck_for({}, dealer=0, players=4)
    assert hand.cards[1][:3] == deck[0:3] and hand.cards[2][:3] == deck[3:6]
    assert hand.cards[0][:3] == deck[9:12] and hand.cards[1][3:] == deck[12:15]
    assert hand.stock == deck[24:]


def test_topic_12_each_player_sees_only_their_own_hand() -> None:
    hand = stacked_hand(SPADES, dealer=0)
    view = hand.view(1)
    assert set(view["hand"]) == {"AS", "KS", "QS", "JS", "TS", "2S"}
    assert "AH" not in str(view)
    assert hand.hidden_zones(1) == ["stock", "hand 0", "hand 2", "hand 3"]
    assert hand.hidden_zones(None) == ["stock", "hand 0", "hand 1", "hand 2", "hand 3"]


# -- topics 13-16: bidding (C4) --------------------------------------------------


def test_topic_13_bidding_runs_clockwise_from_the_dealers_left_ending_with_the_dealer() -> None:
    hand = stacked_hand({}, dealer=2, players=4)
    assert hand.order == (3, 0, 1, 2)
    seen = []
    while hand.phase is Phase.BIDDING:
        seen.append(hand.player)
        hand.apply(hand.player, "pass" if hand.player != 2 else "take")
    assert seen == [3, 0, 1, 2]


def test_topic_14_15_pass_or_bid_two_to_four_never_one() -> None:
    hand = stacked_hand({}, dealer=0)
    assert hand.legal_actions(1) == [Pass(), Bid(2), Bid(3), Bid(4)]
    with pytest.raises(IllegalActionError, match="2, 3 or 4"):
        hand.apply(1, "bid 1")
    with pytest.raises(IllegalActionError, match="2, 3 or 4"):
        hand.apply(1, "bid 5")
    hand.apply(1, "bid 3")
    # C4: each bid must beat the highest so far.
    assert hand.legal_actions(2) == [Pass(), Bid(4)]
    with pytest.raises(IllegalActionError, match="beat the highest bid"):
        hand.apply(2, "bid 3")
    hand.apply(2, "pass")
    hand.apply(3, "bid 4")
    assert hand.high == 4 and hand.high_bidder == 3


@pytest.mark.parametrize("steal", ["none", "same", "one_more"])
def test_topic_16_without_a_steal_the_highest_bidder_pitches(steal: str) -> None:
    hand = stacked_hand({}, dealer=0, rules=Rules(dealer_steal=steal))  # type: ignore[arg-type]
    play_all(hand, "1:pass; 2:bid 3; 3:pass; 0:pass")
    assert hand.pitcher == 2 and hand.contract == 3
    assert hand.phase is Phase.PLAY and hand.player == 2


def test_topic_17_dealer_steal_options() -> None:
    # C4: none -> ordinary outbids only; same -> take it for the same;
    # one_more -> take it for one more (the outbid by one, offered as the steal).
    def dealer_options(steal: str) -> list[object]:
        hand = stacked_hand({}, dealer=0, rules=Rules(dealer_steal=steal))  # type: ignore[arg-type]
        play_all(hand, "1:bid 2; 2:pass; 3:pass")
        return list(hand.legal_actions(0))

    assert dealer_options("none") == [Pass(), Bid(3), Bid(4)]
    assert dealer_options("same") == [Pass(), Steal(2), Bid(3), Bid(4)]
    assert dealer_options("one_more") == [Pass(), Steal(3), Bid(4)]
    hand = stacked_hand({}, dealer=0, rules=Rules(dealer_steal="same"))
    play_all(hand, "1:bid 2; 2:pass; 3:pass; 0:steal 2")
    assert (hand.pitcher, hand.contract) == (0, 2)


def test_topic_17_only_the_dealer_steals() -> None:
    hand = stacked_hand({}, dealer=0)
    play_all(hand, "1:bid 2")
    with pytest.raises(IllegalActionError, match="only the dealer may steal"):
        hand.apply(2, "steal 3")


def test_edge_dealer_steal_at_a_bid_of_four() -> None:
    # C4: "one more" cannot exceed 4, so a 4 cannot be stolen for one more;
    # taking it for the same is still possible under dealer_steal=same.
    hand = stacked_hand({}, dealer=0, rules=Rules(dealer_steal="one_more"))
    play_all(hand, "1:bid 4; 2:pass; 3:pass")
    assert hand.legal_actions(0) == [Pass()]
    with pytest.raises(IllegalActionError, match="dealer_steal=one_more"):
        hand.apply(0, "steal 5")
    same = stacked_hand({}, dealer=0, rules=Rules(dealer_steal="same"))
    play_all(same, "1:bid 4; 2:pass; 3:pass")
    assert same.legal_actions(0) == [Pass(), Steal(4)]
    same.apply(0, "steal 4")
    assert (same.pitcher, same.contract) == (0, 4)


# -- topics 18-21: all pass, run it, sell or steal (C5) --------------------------


def test_topic_18_all_pass_the_dealer_takes_it_for_two() -> None:
    hand = stacked_hand({}, dealer=0)
    play_all(hand, "1:pass; 2:pass; 3:pass")
    assert hand.legal_actions(0) == [Take(), Run()]
    with pytest.raises(IllegalActionError):
        hand.apply(0, "pass")
    hand.apply(0, "take")
    assert (hand.pitcher, hand.contract, hand.phase) == (0, 2, Phase.PLAY)


@pytest.mark.parametrize(("players", "more"), [(2, 3), (3, 3), (4, 3), (5, 3), (6, 2)])
def test_topic_18_run_it_deals_three_more_or_two_with_six(players: int, more: int) -> None:
    hand = stacked_hand({}, dealer=0, players=players)
    stock = len(hand.stock)
    for seat in hand.order[:-1]:
        hand.apply(seat, "pass")
    hand.apply(0, "run")
    assert all(len(hand.cards[s]) == 6 + more for s in range(players))
    assert len(hand.stock) == stock - players * more
    assert hand.phase is Phase.REBIDDING and hand.high == 2 and hand.high_bidder == 0


def test_topic_18_tournament_runs_three_more() -> None:
    hand = stacked_hand({}, dealer=0, players=4, rules=Rules(mode="tournament"))
    play_all(hand, "1:pass; 2:pass; 3:pass; 0:run")
    assert all(len(hand.cards[s]) == 9 for s in range(4))


def test_edge_run_it_hand_with_six_players() -> None:
    # Six players: 36 cards dealt, then two more each (C5): 48 out, 4 left.
    hand = stacked_hand({1: "2C 3C 4C 5C 6C 7C"}, dealer=0, players=6, run={1: "AH KH", 0: "2H 3H"})
    for seat in hand.order[:-1]:
        hand.apply(seat, "pass")
    hand.apply(0, "run")
    assert parse_cards("AH KH") == hand.cards[1][6:]
    assert parse_cards("2H 3H") == hand.cards[0][6:]
    assert len(hand.stock) == 4
    # Others must now bid 3 or 4 (C5).
    assert hand.legal_actions(1) == [Pass(), Bid(3), Bid(4)]
    play_all(hand, "1:bid 3; 2:pass; 3:pass; 4:pass; 5:pass")
    assert hand.legal_actions(0) == [Sell(), Steal(4)]
    hand.apply(0, "sell")
    assert (hand.pitcher, hand.contract) == (1, 3)
    # Every card dealt is played: eight tricks of six cards.
    while not hand.is_over:
        hand.apply(hand.player, hand.legal_actions(hand.player)[0])
    assert len(hand.tricks) == 8 and sum(len(w) for w in hand.won) == 48


def test_topic_19_after_a_run_others_bid_three_or_four_and_nobody_outbids() -> None:
    hand = stacked_hand({}, dealer=0)
    play_all(hand, "1:pass; 2:pass; 3:pass; 0:run")
    assert hand.legal_actions(1) == [Pass(), Bid(3), Bid(4)]
    with pytest.raises(IllegalActionError):
        hand.apply(1, "bid 2")
    play_all(hand, "1:pass; 2:pass; 3:pass")
    # C5: nobody outbid, so the dealer pitches at 2 without another word.
    assert (hand.pitcher, hand.contract, hand.player) == (0, 2, 0)


def test_topic_20_selling_the_bid_after_a_run() -> None:
    hand = stacked_hand({}, dealer=0)
    play_all(hand, "1:pass; 2:pass; 3:pass; 0:run; 1:bid 3; 2:bid 4; 3:pass")
    assert hand.legal_actions(0) == [Sell()]  # 4 cannot be taken for one more
    hand.apply(0, "sell")
    assert (hand.pitcher, hand.contract) == (2, 4)


@pytest.mark.parametrize(
    ("steal", "options"),
    [
        ("none", [Sell()]),
        ("same", [Sell(), Steal(3)]),
        ("one_more", [Sell(), Steal(4)]),
    ],
)
def test_topic_21_stealing_the_bid_after_a_run(steal: str, options: list[object]) -> None:
    rules = Rules(dealer_steal=steal)  # type: ignore[arg-type]
    hand = stacked_hand({}, dealer=0, rules=rules)
    play_all(hand, "1:pass; 2:pass; 3:pass; 0:run; 1:bid 3; 2:pass; 3:pass")
    assert hand.legal_actions(0) == options
    with pytest.raises(IllegalActionError, match="sells or steals"):
        hand.apply(0, "bid 4")
    if len(options) > 1:
        hand.apply(0, str(options[1]))
        assert hand.pitcher == 0 and hand.contract == options[1].amount  # type: ignore[attr-defined]


# -- topics 22-26: the pitcher, trump, tricks, following (C6) --------------------


def test_topic_22_23_the_pitcher_leads_and_the_first_card_sets_trump() -> None:
    hand = stacked_hand(SPADES, dealer=0)
    play_all(hand, "1:pass; 2:bid 2; 3:pass; 0:pass")
    assert hand.player == 2 and hand.trump is None
    with pytest.raises(IllegalActionError, match="may not act"):
        hand.apply(1, "play AS")
    hand.apply(2, "play TH")
    assert hand.trump is Suit.HEARTS
    assert hand.view(None)["trump"] == "H"


def test_topic_24_the_best_card_wins_and_the_winner_collects_and_leads() -> None:
    hand = stacked_hand({1: "9C 2S", 2: "AH 3C", 3: "KC 4S", 0: "AC 5S"}, dealer=0)
    play_all(hand, "1:bid 2; 2:pass; 3:pass; 0:pass")
    play_tricks(hand, "9C 3C KC AC")  # clubs are trump: the Ace wins
    assert hand.won[0] == parse_cards("9C 3C KC AC")
    assert hand.player == 0
    assert hand.view(3)["players"][0]["won"] == "9C 3C KC AC"


def test_topic_25_follow_suit_when_able() -> None:
    hand = stacked_hand({1: "AC 2S 3S", 2: "KC 4S 5D QH", 3: "QC 6S 7D", 0: "JC 8S 9D"}, dealer=0)
    play_all(hand, "1:bid 2; 2:pass; 3:pass; 0:pass")
    play_tricks(hand, "AC KC QC JC")  # clubs trump; seat 1 leads again
    hand.apply(1, "play 2S")
    legal = {a.card for a in hand.legal_actions(2) if isinstance(a, Play)}
    # Spades must be followed, but a trump may always be played (C6).
    assert parse_cards("4S")[0] in legal and parse_cards("5D")[0] not in legal
    assert all(c.suit in (Suit.SPADES, Suit.CLUBS) for c in legal)
    with pytest.raises(IllegalActionError, match="does not follow"):
        hand.apply(2, "play 5D")


def test_topic_25_a_player_out_of_the_suit_led_plays_anything() -> None:
    hand = stacked_hand({1: "AC 2S", 2: "KC 5D 6D 7D 8D 9D", 3: "QC", 0: "JC"}, dealer=0)
    play_all(hand, "1:bid 2; 2:pass; 3:pass; 0:pass")
    play_tricks(hand, "AC KC QC JC")
    hand.apply(1, "play 2S")
    assert {a.card for a in hand.legal_actions(2) if isinstance(a, Play)} == set(hand.cards[2])


def test_topic_26_trump_in_at_any_time_even_holding_the_suit_led() -> None:
    hand = stacked_hand({1: "AC 2S", 2: "KC 4S 3C", 3: "QC 6S", 0: "JC 8S"}, dealer=0)
    play_all(hand, "1:bid 2; 2:pass; 3:pass; 0:pass")
    play_tricks(hand, "AC KC QC JC")
    hand.apply(1, "play 2S")
    hand.apply(2, "play 3C")  # trumps in although holding 4S
    hand.apply(3, "play 6S")
    hand.apply(0, "play 8S")
    assert hand.tricks[-1].winner(Suit.CLUBS) == 2 and hand.player == 2


def test_every_card_dealt_is_played_and_the_hand_ends() -> None:
    hand = stacked_hand({}, dealer=0)
    play_all(hand, "1:bid 2; 2:pass; 3:pass; 0:pass")
    while not hand.is_over:
        hand.apply(hand.player, hand.legal_actions(hand.player)[-1])
    assert len(hand.tricks) == 6 and sum(len(w) for w in hand.won) == 24
    assert hand.to_act == frozenset() and hand.outcome is not None
    with pytest.raises(IllegalActionError, match="over"):
        hand.apply(0, "pass")


def test_illegal_actions_say_why_and_change_nothing() -> None:
    hand = stacked_hand(SPADES, dealer=0)
    before = hand.view(None)
    for seat, text, why in [
        (1, "play AS", "bidding is not over"),
        (1, "take", "only the dealer"),
        (1, "sell", "sells only after"),
        (2, "bid 2", "may not act"),
    ]:
        with pytest.raises(IllegalActionError, match=why):
            hand.apply(seat, text)
    assert hand.view(None) == before
    play_all(hand, "1:bid 2; 2:pass; 3:pass; 0:pass")
    with pytest.raises(IllegalActionError, match="play a card"):
        hand.apply(1, "pass")
    with pytest.raises(IllegalActionError, match="do not hold"):
        hand.apply(1, "play AH")


def test_a_hand_needs_two_to_six_seated_players_and_a_seated_dealer() -> None:
    chance = stacked_chance(deck_for({}))
    with pytest.raises(ValueError, match="not seated"):
        PitchHand(Rules(), 4, 0, chance, seated=[1, 2])
    with pytest.raises(ValueError, match="2 to 6"):
        PitchHand(Rules(), 4, 1, chance, seated=[1])
