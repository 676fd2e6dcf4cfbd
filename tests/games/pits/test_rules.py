"""Pits, rule by rule: the seed `pits-bga.txt` (its specimen hands and FAQ)
and rulings P1-P10."""

from __future__ import annotations

import itertools

import pytest

from pitkit.cards import Card, parse_cards
from pitkit.core import IllegalActionError
from pitkit.games import pits
from pitkit.games.pits import (
    Give,
    Pass,
    Phase,
    Play,
    Rules,
    Take,
    beats,
    legal_plays,
    read_as,
    read_meld,
    readings,
)
from tests.games.pits.helpers import stacked

STILL_WILD = Rules(wildness_degrees=False)
FINNISH = Rules(finnish_twos=True)


def kinds(cards: str, rules: Rules | None = None) -> set[str]:
    return {m.kind for m in readings(cards, rules)}


# -- P2: card order ---------------------------------------------------------------------


def test_card_order_from_three_up_to_the_strong_joker() -> None:
    # "The cards are ranked from the strong Joker, weak Joker, all the twos,
    # Aces, Kings etc down to the threes."
    order = [
        "3S",
        "4S",
        "5S",
        "6S",
        "7S",
        "8S",
        "9S",
        "TS",
        "JS",
        "QS",
        "KS",
        "AS",
        "2S",
        "BJ",
        "RJ",
    ]
    for low, high in itertools.pairwise(order):
        assert beats(high, low) and not beats(low, high)


def test_cards_of_the_same_denomination_are_equal() -> None:
    # "There is no difference between cards of the same denomination."
    assert not beats("KH", "KS") and not beats("KS", "KH")


# -- P3: meld types ---------------------------------------------------------------------


def test_a_lone_joker_or_two_is_its_own_rank() -> None:
    assert read_meld("RJ").top == "RJ" and read_meld("RJ").wild_count == 0
    assert read_meld("BJ").top == "BJ"
    assert read_meld("2H").top == "2" and read_meld("2H").kind == "single"


def test_sets_of_any_size_with_wild_jokers_and_twos() -> None:
    meld = read_meld("7S 7H 7D 7C 2S 2H RJ BJ")
    assert (meld.kind, meld.top, meld.size, meld.set_size, meld.wild_count) == ("set", "7", 8, 8, 4)
    assert read_meld("7S 2H").wild_count == 1  # a 2 stands for the other cards' rank


def test_a_set_of_twos_and_jokers_is_a_set_of_twos() -> None:
    # FAQ: "can I play a Two plus a Joker as a pair? Yes. It's a mixed pair of
    # Twos, being beaten by a natural pair of Twos."
    mixed = read_meld("2H RJ")
    assert (mixed.kind, mixed.top, mixed.wild_count) == ("set", "2", 1)
    assert beats("2S 2C", "2H RJ")
    # P3: "RJ BJ is a pair of 2s with two wild cards."
    jokers = read_meld("RJ BJ")
    assert (jokers.kind, jokers.top, jokers.size, jokers.wild_count) == ("set", "2", 2, 2)
    assert beats("2H BJ", "RJ BJ")  # one wild card beats two


def test_a_set_needs_one_rank() -> None:
    assert read_as("7S 8S", "set") is None
    assert read_as("7S 7H 8S RJ", "set") is None


def test_runs_are_three_or_more_consecutive_ranks_three_to_ace() -> None:
    assert read_meld("5C 6D 7H").kind == "run"
    assert read_as("5C 6D", "run") is None
    assert read_as("5C 6D 8H", "run") is None
    assert read_meld("3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC").top == "A"  # the longest run


def test_runs_do_not_wrap_around_and_take_no_twos() -> None:
    assert read_as("KS AS 3S", "run") is None
    assert read_as("AS 2S 3S", "run") is None
    # FAQ: "Can I play a run of 7, 2, 9? No. Twos are only wild in pairs, triplets
    # etc, not in a run of singletons."
    assert read_as("7S 2S 9S", "run") is None
    assert read_as("7S BJ 9S", "run") is not None  # a Joker may fill the place


def test_jokers_fill_any_place_in_a_run() -> None:
    assert read_meld("RJ 4C 5D").top == "6"
    assert read_meld("4C RJ 6D").wild_positions == (5,)


def test_run_of_sets_with_twos_anywhere() -> None:
    # P3: "Under BGA rules a 2 may stand in a rank with no natural card, so
    # 7 7 2 2 9 9 is a run of three pairs." FAQ: "Can I play 7, 7, 2, 2, 9, 9 as
    # both Twos are wild?"
    meld = read_meld("7S 7H 2C 2D 9H 9S")
    assert (meld.kind, meld.top, meld.set_size, meld.length) == ("run_of_sets", "9", 2, 3)
    assert meld.wild_positions == (8, 8)
    # "Note that it is possible to use twos in paired or triple sequences and that
    # suits have no relevance in such sequences."
    triples = read_meld("7S 7H 7D 8S 8H 2C 9S 9H 9D")
    assert (triples.kind, triples.set_size) == ("run_of_sets", 3)
    assert read_meld("7S 7H 8C 8D 9H 9S").wild_count == 0


def test_min_run_of_sets_option() -> None:
    assert Rules().min_run_of_sets == 3
    assert read_as("7S 7H 8S 8H", "run_of_sets") is None
    assert read_as("7S 7H 8S 8H", "run_of_sets", Rules(min_run_of_sets=2)) is not None


# -- P4: what a wild card stands for ----------------------------------------------------


def test_a_wild_card_makes_the_strongest_meld() -> None:
    # Seed: "if you play Joker, 8, 9 as a run of three, then the Joker must be a 10
    # and if the 8 and 9 are the same suit then the Joker is also 'in suit'."
    run = read_meld("BJ 8H 9H")
    assert (run.top, run.wild_positions, run.suited) == ("10", (10,), True)
    assert not read_meld("BJ 8H 9S").suited
    assert read_meld("QS KS RJ").top == "A"  # no room above: the Joker is the J


def test_the_leader_declares_the_type() -> None:
    # P4: "When a group of cards can be read as more than one type, the player who
    # leads declares the type."
    assert kinds("7S RJ BJ") == {"set", "run"}
    hand = stacked({0: "7S RJ BJ 3C 4D 6H 8C 9D JH QS"}, dealer=0)
    leads = [str(p) for p in hand.plays() if p.cards == tuple(parse_cards("7S BJ RJ"))]
    assert sorted(leads) == ["play run 7S BJ RJ", "play set 7S BJ RJ"]
    with pytest.raises(IllegalActionError, match="say which"):
        hand.apply(0, "play 7S RJ BJ")
    hand.apply(0, "play run 7S RJ BJ")
    assert hand.table is not None and hand.table.kind == "run"


def test_a_follower_is_held_to_the_type_on_the_table() -> None:
    table = read_meld("5S 5H 5D")
    # 7 RJ BJ would be a run to 9 if led; following a set of threes it is a set of 7s.
    assert beats("7S RJ BJ", table)
    assert read_as("7S RJ BJ", "set") is not None
    assert not beats("8S 9S TS", table)  # a run does not beat a set


# -- P5: beating a meld -----------------------------------------------------------------


def test_same_type_same_number_of_cards_same_set_size() -> None:
    assert not beats("KS KH", "3S 3H 3D")
    assert not beats("9S TS JS QS", "3S 4S 5S")
    assert beats("9S 9H TS TH JS JH", "3S 3H 4S 4H 5S 5H")
    two_rank_runs = Rules(min_run_of_sets=2)
    # Six cards each, but two triples are not three pairs.
    assert not beats("9S 9H 9C TS TH TC", "3S 3H 4S 4H 5S 5H", two_rank_runs)


def test_pairs_are_ranked_by_their_rank() -> None:
    # "a pair of fours above a pair of threes"
    assert beats("4S 4H", "3S 3H") and not beats("3S 3H", "4S 4H")


def test_top_rank_decides_first() -> None:
    assert beats("8S 9D TH", "7S 8S 9S")  # a higher mixed run beats a lower suited one
    assert beats("KS KH BJ", "QS QH QD")


def test_a_run_in_one_suit_beats_a_mixed_one() -> None:
    assert beats("7H 8H 9H", "7S 8D 9C")
    assert beats("7H 8H RJ", "7S 8D 9C")  # Jokers count as any suit, before wildness
    assert not beats("7S 8D 9C", "7H 8H 9H")


def test_fewer_wild_cards_beat_more() -> None:
    # "If a meld contains wild cards then an equally ranking meld with fewer or no
    # wild card ranks higher (e.g. a pair of Aces versus an Ace and a Joker)."
    assert beats("AS AH", "AD RJ")
    # FAQ: "Does A, A, 2 beat A, 2, 2? Yes, it is 'more natural'."
    assert beats("AS AH 2C", "AD 2S 2H")
    assert not beats("AD 2S 2H", "AS AH 2C")


def test_a_two_used_as_a_wild_card_is_exactly_as_wild_as_a_joker() -> None:
    # FAQ: "Does A, A, Strong Joker beat A, A, 2? No, it is equally wild."
    assert not beats("AS AH RJ", "AD AC 2H")
    assert not beats("AD AC 2H", "AS AH RJ")


def test_wild_cards_standing_lower_beat_wild_cards_standing_higher() -> None:
    # Seed: "A, K, Q, Joker, 10, 9 will be beaten by A, K, Q, J, Joker, 9. Note that
    # if someone then plays A, K, Q, J, 10, 9 this will be stronger than either
    # because there are no wild cards at all in the meld."
    high_joker = "AS KD QH RJ TC 9S"
    low_joker = "AH KS QD JC BJ 9H"
    natural = "AD KC QS JH TD 9C"
    assert read_meld(high_joker).wild_positions == (11,)
    assert read_meld(low_joker).wild_positions == (10,)
    assert beats(low_joker, high_joker) and not beats(high_joker, low_joker)
    assert beats(natural, low_joker) and beats(natural, high_joker)


def test_wild_positions_compare_from_the_top_down() -> None:
    # Two wild cards each: K and 9 against Q and T; Q is lower than K, so the second wins.
    first = read_as("AS RJ QS JS TS BJ 8S", "run")
    second = read_as("AH KH RJ JH BJ 9H 8H", "run")
    assert first is not None and second is not None
    assert first.wild_positions == (13, 9) and second.wild_positions == (12, 10)
    assert beats(second, first) and not beats(first, second)


def test_no_difference_does_not_beat() -> None:
    assert not beats("AS AH", "AD AC")
    assert not beats("7S 8D 9H", "7C 8H 9D")


def test_still_wild_option() -> None:
    # P5 / seed: "Certain players do not allow different degrees of wildness.
    # Thus: Does A, A, 2 beat A, 2, 2? No, it is 'still wild'." But A A A beats both.
    assert not beats("AS AH 2C", "AD 2S 2H", STILL_WILD)
    assert beats("AS AH AC", "AD 2S 2H", STILL_WILD)
    assert beats("AS AH AC", "AD AC 2H", STILL_WILD)
    assert not beats("AS AH RJ", "AD AC 2H", STILL_WILD)
    assert not beats("AH KS QD JC BJ 9H", "AS KD QH RJ TC 9S", STILL_WILD)
    assert beats("AD KC QS JH TD 9C", "AS KD QH RJ TC 9S", STILL_WILD)


# -- P9: Finnish twos -------------------------------------------------------------------


def test_finnish_twos() -> None:
    # "the Finns only allow a wild 2 when it is paired with a natural card or a
    # Joker. That is 8, 8, 2, 2, 10, 10 is not a valid run of three pairs. One of
    # the twos must be a real 9 or a Joker."
    assert read_as("8S 8H 2C 2D TS TH", "run_of_sets", FINNISH) is None
    assert read_as("8S 8H 2C BJ TS TH", "run_of_sets", FINNISH) is not None
    assert read_as("8S 8H 9C 2D TS TH", "run_of_sets", FINNISH) is not None
    assert read_as("8S 8H 2C 2D TS TH", "run_of_sets") is not None  # BGA allows it
    assert read_meld("7S 2H", "set", FINNISH).wild_count == 1  # sets are unchanged


# -- The specimen hands -----------------------------------------------------------------


def test_the_lucky_hand_goes_out_in_one_move_from_the_lead() -> None:
    # "Strong Joker, A[D], K[S], J[S], 10[H], 9[H], 8[C], 7[H], 6[D], 5[C]. A lucky
    # hand! Dealer can specify the strong joker as a Queen and lay all the cards as a
    # run from 5 to Ace and go out in one move."
    lucky = "RJ AD KS JS TH 9H 8C 7H 6D 5C"
    hand = stacked({0: lucky}, dealer=0)
    assert len(hand.cards[0]) == 10  # the dealer is dealt 10
    run = read_meld(lucky, "run")
    assert run.wild_positions == (12,) and run.top == "A" and run.size == 10
    hand.apply(0, f"play run {lucky}")
    assert hand.cards[0] == [] and hand.finished == [0]


def test_first_place_specimen() -> None:
    # "2[H], 2[C], K[S], K[D], Q[D], Q[H], J[C], 8[S], 6[C], 4[S], 3[D]. The 2[D] is
    # received and the 3[D] is the discard. ... Dealer leads 3[H], 4[H], 5[D], 6[S]
    # as a run of four cards. This player is forced to pass since he has no run of
    # four cards he can play. ... he can play J/2/Q/Q/K/K a run of three pairs."
    after = parse_cards("2H 2C KS KD QD QH JC 8S 6C 4S 2D")
    table = read_meld("3H 4H 5D 6S")
    assert legal_plays(after, table) == []
    sequence = read_as("JC 2C QD QH KS KD", "run_of_sets")
    assert sequence is not None and sequence.top == "K" and sequence.set_size == 2
    assert any(p.cards == sequence.cards for p in legal_plays(after, None))
    singles = {str(c) for c in after if c.rank in (4, 6, 8)}
    assert singles == {"4S", "6C", "8S"}


def test_fifth_place_specimen() -> None:
    # "Strong Joker, 2[H], 2[C], A[S], K[S], Q[S], 10[H], 9[D], 8[S], 5[C], 3[D].
    # Loses the strong Joker and receives 4[S]. ... He now has a run of 3/4/5 (mixed
    # suit) and 8/9/10 (mixed suit) and Q/K/A (same suit) and two 2s."
    hand = stacked(
        {0: "2D 2S QC", 1: "RJ 2H 2C AS KS QS TH 9D 8S 5C 3D", 2: "4S"},
        dealer=3,
        places=[2, 0, 3, 4, 1],
    )
    hand.apply(4, hand.legal_actions(4)[0])
    assert hand.legal_actions(1) == [Give(Card.RJ)]  # the strong Joker is the highest card
    hand.apply(1, "give RJ")
    hand.apply(2, "take RJ")  # 1st takes the Joker, 2nd the other card
    hand.apply(2, "give 4S")
    hand.apply(0, "give QC")
    assert hand.phase is Phase.FOURTH_TAKES
    hand.apply(4, "take QC")  # 4th takes one; 5th is left the 4S
    assert Card.parse("4S") in hand.cards[1] and Card.RJ not in hand.cards[1]
    mine = hand.cards[1]
    for run, suited in (("3D 4S 5C", False), ("8S 9D TH", False), ("QS KS AS", True)):
        meld = read_as(run, "run")
        assert meld is not None and meld.suited is suited
        assert all(c in mine for c in meld.cards)
    assert sum(1 for c in mine if c.rank == 2) == 2


def test_strategy_note_weak_joker_takes_the_meld_when_the_strong_one_is_gone() -> None:
    # "you have the lead, the weak Joker, a Queen and two Fives. If the strong Joker
    # has already been played ... Lead the Queen and on the next turn play the weak
    # Joker which will take the meld. Then go out with the pair of Fives."
    for single in ["3S", "QS", "KS", "AS", "2S"]:
        assert beats("BJ", single)
    assert not beats("BJ", "RJ")
    assert read_meld("5S 5H BJ").top == "5"  # "three Fives" is only a set of fives


# -- P1, P6, P7: deal, play and scoring -------------------------------------------------


def test_deal_gives_the_dealer_ten_and_everyone_else_eleven() -> None:
    hand = stacked({}, dealer=2)
    assert [len(h) for h in hand.cards] == [11, 11, 10, 11, 11]
    assert hand.to_act == {2}  # "The dealer initially leads"


def test_first_dealer_is_drawn_from_the_seed() -> None:
    dealers = {pits.GAME.new_match(seed=s).dealer for s in range(30)}
    assert dealers == set(range(5))
    assert pits.GAME.new_match(seed=4).dealer == pits.GAME.new_match(seed=4).dealer


def test_playing_is_never_compulsory_and_turns_go_left() -> None:
    hand = stacked({0: "3S 4S 5S", 1: "9H 9D"}, dealer=0)
    hand.apply(0, "play single 3S")
    assert hand.to_act == {1}
    assert Pass() in hand.legal_actions(1)
    hand.apply(1, "pass")
    assert hand.to_act == {2}


def test_the_leader_may_not_pass() -> None:
    hand = stacked({}, dealer=0)
    with pytest.raises(IllegalActionError, match="lead"):
        hand.apply(0, "pass")


def test_a_round_ends_when_everyone_else_passes_and_the_last_player_leads() -> None:
    hand = stacked({0: "3S 4S 5S"}, dealer=0)
    hand.apply(0, "play single 5S")
    for seat in (1, 2, 3, 4):
        hand.apply(seat, "pass")
    assert hand.table is None and hand.to_act == {0}
    assert any(e.type == "round" for e in hand.log)


def test_bga_players_who_passed_may_play_again_in_the_round() -> None:
    hand = stacked({0: "3S 4S", 1: "6H KD", 2: "5S"}, dealer=0)
    hand.apply(0, "play single 3S")
    hand.apply(1, "pass")
    hand.apply(2, "play single 5S")
    hand.apply(3, "pass")
    hand.apply(4, "pass")
    hand.apply(0, "pass")
    assert hand.to_act == {1}
    assert Play("single", (Card.parse("6H"),)) in hand.legal_actions(1)


def test_dutch_players_who_passed_stay_out_until_the_round_ends() -> None:
    # Seed: "some Dutch ... once you have passed in a meld you may not rejoin it later."
    dutch = Rules(no_rejoin_after_pass=True)
    hand = stacked({0: "3S 4S", 1: "6H KD", 2: "5S"}, dealer=0, rules=dutch)
    hand.apply(0, "play single 3S")
    hand.apply(1, "pass")
    hand.apply(2, "play single 5S")
    hand.apply(3, "pass")
    hand.apply(4, "pass")
    assert hand.to_act == {0}
    hand.apply(0, "pass")
    # Seat 1 passed earlier and is skipped: everyone else has passed, so 2 leads.
    assert hand.table is None and hand.to_act == {2}


def test_when_the_last_player_went_out_the_next_player_to_the_left_leads() -> None:
    # "If the player who played last goes out (and all the other players have
    # passed) then the player to his left proceeds."
    hand = stacked({0: "AS"}, dealer=0)
    hand.cards[0] = [Card.parse("AS")]
    hand.apply(0, "play single AS")
    assert hand.finished == [0]
    for seat in (1, 2, 3, 4):
        hand.apply(seat, "pass")
    assert hand.table is None and hand.to_act == {1}


def test_players_who_are_out_are_skipped() -> None:
    hand = stacked({0: "KS 4S", 1: "AS", 2: "3D 5D"}, dealer=0)
    ace = Card.parse("AS")
    hand.played += [c for c in hand.cards[1] if c != ace]  # seat 1 is down to its last card
    hand.cards[1] = [ace]
    hand.apply(0, "play single 4S")
    hand.apply(1, "play single AS")
    assert hand.finished == [1]
    for seat in (2, 3, 4, 0):
        hand.apply(seat, "pass")
    assert hand.to_act == {2}  # the next holder to the left of seat 1 leads
    hand.apply(2, "play single 3D")
    hand.apply(3, "pass")
    hand.apply(4, "pass")
    hand.apply(0, "play single KS")
    assert hand.to_act == {2}  # seat 1 is out and skipped


def test_the_hand_ends_when_one_player_holds_cards_and_scores_two_and_one() -> None:
    match = pits.GAME.new_match(seed=3)
    bot = pits.HeuristicBot(0)
    while not match.results:
        seat = min(match.to_act)
        match.apply(seat, bot.choose(match, seat))
    result = match.results[0]
    order = result.detail["order"]
    assert sorted(order) == list(range(5))
    assert [match.scores[s] for s in order] == [2, 1, 0, 0, 0]
    assert match.dealer == order[2]  # "3rd deals the next hand and leads it"
    assert pits.current_hand(match).dealer == order[2]


# -- P8: the exchange -------------------------------------------------------------------


def test_the_exchange_before_later_hands() -> None:
    places = [3, 1, 0, 4, 2]  # 1st seat 3, 2nd seat 1, 3rd seat 0 (deals), 4th seat 4, 5th seat 2
    hand = stacked({4: "RJ 2S 2H 5C", 2: "AS AH 3C"}, dealer=0, places=places)
    assert hand.phase is Phase.GIVE_HIGHEST and hand.to_act == {4, 2}
    # Each gives a card of their highest rank; between equal cards the giver chooses.
    options = hand.legal_actions(2)
    top = max(pits.pits_rank(c) for c in hand.cards[2])
    assert options == [Give(c) for c in hand.cards[2] if pits.pits_rank(c) == top]
    with pytest.raises(IllegalActionError, match="highest"):
        hand.apply(4, "give 5C")
    hand.apply(4, "give RJ")
    highest = hand.legal_actions(2)
    hand.apply(2, highest[0])
    assert hand.to_act == {3}
    assert hand.phase.value == "first_takes"
    hand.apply(3, "take RJ")
    given = highest[0]
    assert isinstance(given, Give)
    assert Card.RJ in hand.cards[3] and given.card in hand.cards[1]
    assert hand.to_act == {3, 1}
    hand.apply(1, f"give {hand.cards[1][0]}")
    # Each choice is hidden until both have chosen.
    assert "give (face down)" in str(hand.log[-1].seen_by(3))
    assert str(hand.cards[1][0]) not in str(hand.view(3))
    hand.apply(3, f"give {hand.cards[3][0]}")
    revealed = next(e for e in hand.log if e.type == "revealed")
    assert len(revealed.seen_by(None)["cards"]) == 2  # then both are shown
    assert hand.to_act == {4}
    pick = hand.legal_actions(4)[0]
    hand.apply(4, pick)
    assert hand.phase.value == "play" and hand.to_act == {0}  # the dealer, 3rd, leads
    assert [len(h) for h in hand.cards] == [10, 11, 11, 11, 11]


def test_take_only_an_offered_card() -> None:
    hand = stacked({}, dealer=0, places=[3, 1, 0, 4, 2])
    hand.apply(4, hand.legal_actions(4)[0])
    hand.apply(2, hand.legal_actions(2)[0])
    with pytest.raises(IllegalActionError, match="not one of the cards"):
        hand.apply(3, Take(hand.cards[3][0]))
    assert len(hand.legal_actions(3)) == 2


# -- the judge --------------------------------------------------------------------------


def test_judge_explains_in_one_line() -> None:
    verdict = pits.judge(["A A 2", "A 2 2"])
    assert verdict.startswith("Yes") and "fewer wild cards" in verdict and "\n" not in verdict
    assert pits.judge(["A A 2", "A 2 2", "--no-wildness-degrees"]).startswith("No")
    assert "not" in pits.judge(["8 8 2 2 T T", "--finnish"])
    with pytest.raises(ValueError, match="usage"):
        pits.judge([])


def test_the_judge_writes_cards_as_players_do() -> None:
    """The table's page shows the judge's answer under a pick: suits as symbols, a ten
    as 10, the Jokers by colour; bare ranks stay as typed."""
    assert pits.judge(["AD", "KD KH"]) == "No: A♦ cannot be played as a set, the kind on the table."
    verdict = pits.judge(["TD RJ", "9D 9H"])
    assert verdict.startswith("Yes: 10♦ red Joker is a set of 2 tens (1 wild: 10); 9♦ 9♥ is")
    assert verdict.endswith("(10 on top).")
    assert pits.judge(["8 9 T J Q"]) == "8 9 T J Q can be read as: a run of 5 to Q."
