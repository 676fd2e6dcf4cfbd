"""Pitty Pat, sentence by sentence: the seed `pitty-pat.txt` and rulings Y1-Y5."""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Any

import pytest

from pitkit.cards import Card, parse_cards, standard_deck
from pitkit.core import BadOptionError, Chance, IllegalActionError, Match
from pitkit.games import pittypat
from pitkit.games.pittypat import Draw, MatchCard, Phase, PittyPatHand, Rules
from tests.games.pittypat.helpers import queue_pile_shuffle, stacked_hand

C = Card.parse
GAME = pittypat.GAME


# -- Setup: players and cards --------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_two_to_four_players(players: int) -> None:
    # "It is played by from two to four players."
    match = GAME.new_match(players, seed=1)
    assert len(pittypat.current_hand(match).seated) == players


@pytest.mark.parametrize("players", [1, 5])
def test_other_numbers_of_players_are_refused(players: int) -> None:
    with pytest.raises(BadOptionError, match="2-4 players"):
        GAME.new_match(players, seed=1)


def test_one_standard_pack_without_jokers() -> None:
    # "One standard 52 card deck, with no jokers."
    hand = PittyPatHand(Rules(), 4, 0, GAME.new_match(4, seed=5).chance)
    cards = [c for zone in hand.zones().values() for c in zone]
    assert Counter(cards) == Counter(standard_deck())
    assert not any(c.is_joker for c in cards)


# -- The deal (Y1) -----------------------------------------------------------


def test_deal_one_at_a_time_from_the_dealers_left() -> None:
    # "Cards are dealt to each player one at a time, starting with the player on
    # the dealer's left, until each player has been dealt 5 cards."
    chance = Chance(0)
    chance.queue_shuffle(range(52))  # the pack as it comes: 2C 3C 4C ...
    order = standard_deck()
    hand = PittyPatHand(Rules(), 3, 1, chance)
    assert hand.cards[2] == order[0:15:3]  # seat 2, left of dealer 1, gets cards 1, 4, 7 ...
    assert hand.cards[0] == order[1:15:3]
    assert hand.cards[1] == order[2:15:3]  # the dealer is dealt last
    assert all(len(h) == 5 for h in hand.cards)
    assert hand.pile == [order[15]]


def test_one_card_face_up_starts_the_pile_and_the_rest_is_the_stock() -> None:
    # "The rest of the card deck is placed in the center of the table with one
    # additional card dealt face up to start the discard pile."
    hand = stacked_hand({}, up="9C", stock="4D 5D", players=3)
    assert hand.pile == [C("9C")]
    assert len(hand.stock) == 52 - 15 - 1
    assert hand.stock[-1] == C("4D")  # the top of the stock is the end of the list
    assert hand.view(None)["top"] == "9C"


def test_the_player_left_of_the_dealer_starts_and_play_goes_clockwise() -> None:
    # "Play commences with the player to the left of the dealer taking a turn and
    # continues clockwise until the hand ends."
    hand = stacked_hand({}, up="9C", stock="2D 3D 4D", dealer=2, players=3)
    assert hand.to_act == {0}
    hand.apply(0, Draw())
    assert hand.to_act == {1}
    hand.apply(1, Draw())
    assert hand.to_act == {2}
    hand.apply(2, Draw())
    assert hand.to_act == {0}


# -- A turn (Y2) -----------------------------------------------------------------


def test_matching_discards_the_match_and_one_more_card_which_becomes_the_top() -> None:
    # "If they have a card in their hand that matches the top card of the discard
    # pile, then they can discard their card plus a second card. That second card
    # then becomes the top card of the discard pile and it is the next player's turn."
    hand = stacked_hand({1: "9H 2C 4D 6S 8H"}, up="9C")
    assert MatchCard(C("9H"), C("4D")) in hand.legal_actions(1)
    hand.apply(1, "match 9H 4D")
    assert hand.cards[1] == parse_cards("2C 6S 8H")
    assert hand.top == C("4D")
    assert hand.pile == parse_cards("9C 9H 4D")  # the pair goes onto the pile (Y3 off)
    assert hand.to_act == {2}


def test_a_player_who_can_match_may_draw_instead() -> None:
    # Y2: matching is a choice unless `must_match` is on.
    hand = stacked_hand({1: "9H 2C 4D 6S 8H"}, up="9C", stock="KD")
    assert Draw() in hand.legal_actions(1)


def test_must_match_option() -> None:
    # Y2 option must_match: a player who can match must match rather than draw.
    hand = stacked_hand({1: "9H 2C 4D 6S 8H"}, up="9C", rules=Rules(must_match=True))
    assert Draw() not in hand.legal_actions(1)
    with pytest.raises(IllegalActionError, match="must"):
        hand.apply(1, "draw")


def test_without_a_match_the_player_turns_the_top_stock_card_onto_the_pile() -> None:
    # "If the player does not have a match then they draw the top card of the stock
    # pile and place it on the discard pile."
    hand = stacked_hand({1: "2C 4D 6S 8H TH"}, up="9C", stock="KD 3S")
    assert hand.legal_actions(1) == [Draw()]
    hand.apply(1, "draw")
    assert hand.top == C("KD")
    assert hand.stock[-1] == C("3S")


def test_a_drawn_card_that_matches_is_matched_like_the_top_card() -> None:
    # "If the player has a match for that card then they can discard that card plus
    # one more, just like the above, and it is the next player's turn."
    hand = stacked_hand({1: "2C 4D 6S 8H TH"}, up="9C", stock="8D")
    hand.apply(1, "draw")
    assert hand.phase is Phase.AFTER_DRAW
    assert hand.to_act == {1}
    # Y2: "If they can match that card, they match": no second draw, no passing.
    assert all(isinstance(a, MatchCard) for a in hand.legal_actions(1))
    hand.apply(1, "match 8H 2C")
    assert hand.top == C("2C")
    assert hand.to_act == {2}


def test_a_drawn_card_that_does_not_match_ends_the_turn() -> None:
    # "If, after the draw from the stock pile, the player still does not have a
    # match then they pass their turn to the next player without having made any
    # discards."
    hand = stacked_hand({1: "2C 4D 6S 8H TH"}, up="9C", stock="KD")
    hand.apply(1, "draw")
    assert hand.cards[1] == parse_cards("2C 4D 6S 8H TH")
    assert hand.to_act == {2}


def test_illegal_matches_are_refused_with_a_reason() -> None:
    hand = stacked_hand({1: "9H 2C 4D 6S 8H"}, up="9C")
    with pytest.raises(IllegalActionError, match="do not hold 9D"):
        hand.apply(1, "match 9D 2C")
    with pytest.raises(IllegalActionError, match="does not match"):
        hand.apply(1, "match 2C 4D")
    with pytest.raises(IllegalActionError, match="must discard"):
        hand.apply(1, "match 9H")
    with pytest.raises(IllegalActionError, match="do not hold QS"):
        hand.apply(1, "match 9H QS")
    with pytest.raises(IllegalActionError, match="may not act"):
        hand.apply(2, "draw")
    assert hand.cards[1] == parse_cards("9H 2C 4D 6S 8H")


# -- Pairs (Y3) ---------------------------------------------------------------------


def test_dealt_pairs_are_set_aside_face_up() -> None:
    # "Players who were dealt matching pairs win after they discard all
    # non-matching cards in their hand." Y3: pairs in a dealt hand count as made.
    hand = stacked_hand({1: "9H 9S 4D 4C 8H"}, up="8C")
    assert hand.cards[1] == [C("8H")]
    assert sorted(hand.pairs[1]) == sorted(parse_cards("9H 9S 4D 4C"))
    view = hand.view(2)
    assert sorted(view["players"][1]["pairs"]) == sorted(["9H", "9S", "4D", "4C"])
    # Two pairs made at the deal, the third by matching the last card: out.
    assert MatchCard(C("8H")) in hand.legal_actions(1)
    hand.apply(1, "match 8H")
    assert hand.is_over and hand.winner == 1


def test_three_of_a_kind_gives_one_pair_and_a_single() -> None:
    hand = stacked_hand({1: "9H 9S 9D 4C 8H"}, up="2C")
    assert len(hand.pairs[1]) == 2
    assert sorted(c.rank for c in hand.cards[1]) == sorted(C(t).rank for t in ("9H", "4C", "8H"))


def test_four_of_a_kind_gives_two_pairs() -> None:
    hand = stacked_hand({1: "9H 9S 9D 9C 8H"}, up="2C")
    assert len(hand.pairs[1]) == 4
    assert hand.cards[1] == [C("8H")]


def test_pairs_on_table_lays_matched_pairs_in_front_of_the_player() -> None:
    # Variation: "lay down their matched pairs on the table in front of them
    # instead of placing their card on the discard pile."
    hand = stacked_hand({1: "9H 2C 4D 6S 8H"}, up="9C", rules=Rules(pairs_on_table=True))
    hand.apply(1, "match 9H 4D")
    assert hand.pairs[1] == parse_cards("9C 9H")
    assert hand.pile == [C("4D")]
    # "This gives the advantage of allowing players to see the cards that have been matched."
    assert hand.view(0)["players"][1]["pairs"] == ["9C", "9H"]


@pytest.mark.parametrize("seed", range(20))
def test_the_winner_runs_out_of_cards_by_forming_three_pairs(seed: int) -> None:
    # "The game is won by the player who first runs out of cards by forming 3 pairs."
    match = GAME.new_match(3, {"pairs_on_table": seed % 2 == 1}, seed=seed)
    bot = pittypat.SensibleBot(seed)
    while not match.results:
        seat = min(match.to_act)
        match.apply(seat, bot.choose(match, seat))
    winner = match.results[0].detail["winner"]
    if winner is None:
        return
    deal = next(e for e in match.log if e.type == "deal")
    dealt_pairs = len(deal.public["laid"].get(str(winner), "").split()) // 2
    matches = sum(
        1
        for e in match.log
        if e.type == "action"
        and e.public["seat"] == winner
        and e.public["action"].startswith("match")
    )
    assert dealt_pairs + matches == 3


def test_going_out_on_a_match_wins_the_hand() -> None:
    # Y3: "A player is out, and wins the hand, when their hand is empty. That
    # always happens on a match."
    hand = stacked_hand({1: "9H 9S 4D 4C 8H"}, up="8C")
    events = hand.apply(1, "match 8H")
    assert hand.is_over
    assert hand.outcome is not None and hand.outcome.winners == (1,)
    assert hand.to_act == frozenset()
    assert events[-1].type == "hand_end"
    with pytest.raises(IllegalActionError, match="over"):
        hand.apply(2, "draw")


# -- Empty stock (Y4) -----------------------------------------------------------------


def run_down_stock(hand: PittyPatHand) -> None:
    """Draw until the stock is empty, without anyone matching."""
    while hand.stock and not hand.is_over:
        seat = min(hand.to_act)
        actions = hand.legal_actions(seat)
        hand.apply(seat, Draw() if Draw() in actions else actions[0])


def test_an_empty_stock_is_refilled_from_the_shuffled_pile() -> None:
    # "If the stock pile is depleted ... the discard pile can be shuffled and
    # flipped over to be the new stock pile. The top card of the new stock is then
    # flipped over to be the start of the new discard pile."
    for seed in range(100):
        hand = pittypat.current_hand(GAME.new_match(2, seed=seed))
        run_down_stock(hand)
        if not hand.is_over and Draw() in hand.legal_actions(min(hand.to_act)):
            break
    pile = list(hand.pile)
    seat = min(hand.to_act)
    queue_pile_shuffle(hand, " ".join(str(c) for c in pile))
    hand.apply(seat, "draw")
    assert hand.pile[0] == pile[0]  # turned up to start the new pile
    assert hand.pile[1] == pile[1]  # then the player's draw
    assert len(hand.stock) == len(pile) - 2
    assert Counter(hand.stock + hand.pile) == Counter(pile)


def test_no_card_to_draw_is_a_drawn_hand() -> None:
    # Y4: "If that leaves no card to draw, the hand is a draw."
    hand = stacked_hand({1: "9H 2C 4D 6S 8H"}, up="9C", rules=Rules(pairs_on_table=True))
    hand.stock = []
    hand.apply(1, "match 9H 4D")  # the pair leaves the pile: only 4D remains
    hand.apply(2, "draw")
    assert hand.is_over
    assert hand.outcome is not None and hand.winner is None
    assert hand.outcome.detail["reason"] == "no card left to draw"


def test_turn_limit_makes_a_drawn_hand() -> None:
    # Y4: "So is a hand that exceeds a turn limit (option, default 1,000 turns)."
    assert Rules().turn_limit == 1000
    hand = stacked_hand({}, up="9C", stock="9D 9H", rules=Rules(turn_limit=2))
    hand.apply(min(hand.to_act), "draw")
    hand.apply(min(hand.to_act), "draw")
    assert hand.is_over and hand.winner is None
    assert "turn limit" in hand.outcome.summary  # type: ignore[union-attr]


def dead_after_a_match(rules: Rules) -> PittyPatHand:
    """A hand where seat 1 matches 9C with 9H and discards 4D, after which the only
    ranks held, K and Q, are all in hands or laid pairs: nothing left to turn up
    can ever be matched."""
    hand = stacked_hand({}, up="9C", rules=rules)
    hand.cards = [parse_cards("QS"), parse_cards("9H 4D KS"), parse_cards("KH QH")]
    hand.pairs = [parse_cards("KC KD QC QD"), [], []]
    kept = {c for cards in hand.cards + hand.pairs for c in cards} | {C("9C")}
    hand.pile = [C("9C")]
    hand.stock = [c for c in standard_deck() if c not in kept]
    hand.player, hand.phase = 1, Phase.TURN
    placed = hand.stock + hand.pile + [c for zone in hand.cards + hand.pairs for c in zone]
    assert sorted(placed) == sorted(standard_deck())  # every card is somewhere, once
    return hand


def test_a_dead_hand_plays_on_to_the_turn_limit_by_default() -> None:
    # Y4 names two draws (no card to draw, the turn limit); by default nothing else ends a hand.
    assert Rules().dead_hand is False
    hand = dead_after_a_match(Rules())
    hand.apply(1, "match 9H 4D")
    assert not hand.is_over
    assert hand.legal_actions(2) == [Draw()]


def test_dead_hand_option_ends_a_hand_nobody_can_match_again_as_a_draw() -> None:
    # docs/rules/pitty-pat.md, option `dead_hand`: called at once, not 1,000 turns later.
    hand = dead_after_a_match(Rules(dead_hand=True))
    assert not hand.is_over  # seat 1 can match the top card
    hand.apply(1, "match 9H 4D")
    assert hand.is_over and hand.winner is None
    assert hand.outcome is not None and hand.outcome.detail["reason"] == "nobody can match again"
    assert hand.log[-1].type == "hand_end"


def test_dead_hand_option_can_end_a_hand_at_the_deal() -> None:
    # One card each from two suits of three ranks: when both players hold the same
    # rank, the four cards left are of the other ranks, and nobody can ever match.
    rules = {"ranks": 3, "suits": 2, "cards_each": 1, "hands": 1, "dead_hand": True}
    seen = set()
    for seed in range(40):
        hand = pittypat.current_hand(GAME.new_match(2, rules, seed))
        dead = hand.cards[0][0].rank == hand.cards[1][0].rank
        seen.add(dead)
        assert hand.is_over == dead
        if dead:
            assert not [e for e in hand.log if e.type == "action"]
    assert seen == {True, False}


def test_a_dead_hand_is_the_draw_that_playing_on_would_reach() -> None:
    # With the same seed and moves, a hand the option calls dead, played on without
    # it, offers nothing but a draw at every turn and ends drawn; every other hand
    # ends exactly as it would without the option.
    dead = 0
    for players, seed in itertools.product((2, 3, 4), range(150)):
        on = GAME.new_match(players, {"hands": 1, "dead_hand": True}, seed)
        off = GAME.new_match(players, {"hands": 1}, seed)
        bot = pittypat.SensibleBot(seed)
        while not on.is_over:
            seat = min(on.to_act)
            action = bot.choose(on, seat)
            on.apply(seat, action)
            off.apply(seat, action)
        outcome = pittypat.current_hand(on).outcome
        assert outcome is not None
        if outcome.detail["reason"] != "nobody can match again":
            assert off.is_over and off.outcome == on.outcome
            continue
        dead += 1
        while not off.is_over:
            seat = min(off.to_act)
            assert off.legal_actions(seat) == [Draw()]
            off.apply(seat, Draw())
        assert pittypat.current_hand(off).winner is None
    assert dead  # the property was tried (about one hand in a hundred, with four players)


# -- Scoring (Y5) ------------------------------------------------------------------------


def play_out(match: Match[Any, Any]) -> None:
    bot = pittypat.SensibleBot(0)
    while not match.is_over:
        seat = min(match.to_act)
        match.apply(seat, bot.choose(match, seat))


def test_wins_scoring_first_to_the_target() -> None:
    # Y5 `wins` (default): count hands won; the first player to the target (5) wins.
    match = GAME.new_match(3, seed=4)
    play_out(match)
    assert max(match.scores) == 5
    assert sum(match.scores) == sum(1 for r in match.results if r.detail["winner"] is not None)
    assert match.outcome is not None
    assert match.outcome.winners == (match.scores.index(5),)


def test_a_fixed_number_of_hands() -> None:
    # "the most hands won ... after some maximum number of hands has been played"
    match = GAME.new_match(3, {"hands": 3, "target": 99}, seed=4)
    play_out(match)
    assert len(match.results) == 3
    best = max(match.scores)
    assert match.outcome is not None
    assert set(match.outcome.winners) == {s for s in range(3) if match.scores[s] == best}


def test_chips_losers_pay_the_winner_and_the_last_with_chips_wins() -> None:
    # "players may opt to use chips ... to 'pay' the winning player, with the players
    # who run out of chips withdrawing from the game, and with the last player with
    # any remaining chips being declared the winner."
    match = GAME.new_match(4, {"scoring": "chips", "chips": 2}, seed=9)
    seen_withdrawal = False
    bot = pittypat.SensibleBot(1)
    while not match.is_over:
        before = list(match.scores)
        hands = len(match.results)
        seated = list(match.seated)
        seat = min(match.to_act)
        match.apply(seat, bot.choose(match, seat))
        if len(match.results) > hands:
            winner = match.results[-1].detail["winner"]
            if winner is not None:
                assert match.scores[winner] == before[winner] + len(seated) - 1
                assert all(match.scores[s] == before[s] - 1 for s in seated if s != winner)
            assert sum(match.scores) == 8  # chips only change hands
            for s in seated:
                if match.scores[s] == 0:
                    assert s not in match.seated
                    seen_withdrawal = True
            if not match.is_over:
                assert set(match.hand.seated) == set(match.seated)  # type: ignore[attr-defined]
    assert seen_withdrawal
    assert len(match.seated) == 1
    assert match.outcome is not None and match.outcome.winners == tuple(match.seated)


def test_the_deal_passes_to_the_left() -> None:
    match = GAME.new_match(3, seed=2)
    dealers = [match.dealer]
    play_out_hands = 0
    bot = pittypat.SensibleBot(0)
    while not match.is_over and play_out_hands < 4:
        hands = len(match.results)
        seat = min(match.to_act)
        match.apply(seat, bot.choose(match, seat))
        if len(match.results) > hands:
            play_out_hands += 1
            dealers.append(match.dealer)
    assert all(b == (a + 1) % 3 for a, b in itertools.pairwise(dealers))


def test_options_reject_bad_values() -> None:
    with pytest.raises(BadOptionError):
        Rules.from_options(["scoring=points"])
    with pytest.raises(BadOptionError):
        Rules.from_options(["turn_limit=0"])
    with pytest.raises(BadOptionError):
        Rules.from_options(["must_match=maybe"])
    assert Rules.from_options(["must_match=on", "pairs-on-table=yes"]) == Rules(
        must_match=True, pairs_on_table=True
    )


# -- Views --------------------------------------------------------------------------------


def test_a_view_shows_own_hand_and_counts_of_others() -> None:
    hand = stacked_hand({1: "9H 2C 4D 6S 8H", 2: "3C 5C 7C JC QC"}, up="9C")
    view = hand.view(1)
    assert view["hand"] == ["2C", "4D", "6S", "8H", "9H"]
    assert view["players"][2]["cards"] == 5
    assert "hand" not in hand.view(None)
    assert view["legal"][0].startswith("match 9H")
    dealt = next(e for e in view["history"] if e["type"] == "deal")
    assert dealt["hand"] == "9H 2C 4D 6S 8H"
    # Each seat is told its own dealt hand, and nobody else's.
    assert (
        next(e for e in hand.view(2)["history"] if e["type"] == "deal")["hand"] == "3C 5C 7C JC QC"
    )
    assert "hand" not in next(e for e in hand.view(None)["history"] if e["type"] == "deal")
