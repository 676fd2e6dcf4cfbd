"""Scoring a hand (C7, C8; topics 27-34), through `score_hand` and through play."""

from __future__ import annotations

import random

import pytest

from pitkit.cards import Card, Suit, standard_deck
from pitkit.games.pitch import (
    GAME,
    HandResult,
    Rules,
    Trick,
    card_points,
    judge,
    parse_trick,
    score_hand,
    team_seats,
)
from pitkit.games.pitch.scoring import POINTS, score_pad

from .helpers import play_all, play_tricks, stacked_hand


def credited(result: object, point: str) -> tuple[int, ...]:
    return result.award(point).credited  # type: ignore[attr-defined, no-any-return]


def test_topic_27_four_points_high_low_jack_game() -> None:
    # Hearts trump. Seat 0 plays AH (high) and captures JH; seat 1 plays 2H (low).
    r = score_hand(["0:AH 1:JH", "0:TC 1:2H", "1:3C 0:4C"], pitcher=0, bid=2)
    assert [a.point for a in r.awards] == ["high", "low", "jack", "game"]
    assert credited(r, "high") == (0,) and r.award("high").card == Card.parse("AH")
    assert credited(r, "low") == (1,)
    assert credited(r, "jack") == (0,)
    # Seat 1 trumps the ten with the two: 10 + 0 against 4 + 1.
    assert credited(r, "game") == (1,)
    assert r.deltas == (2, 2) and r.made


def test_topic_27_the_jack_can_also_be_high() -> None:
    r = score_hand(["0:JD 1:2C"], pitcher=0, bid=2)
    assert credited(r, "high") == credited(r, "jack") == credited(r, "low") == (0,)
    assert r.deltas[0] == 4  # high, low and Jack with one card, and game (1 against 0)


def test_topic_28_no_jack_point_when_the_jack_was_not_dealt() -> None:
    r = score_hand(["0:AS 1:2S"], pitcher=0, bid=2)
    jack = r.award("jack")
    assert jack.credited == () and jack.player is None
    assert "not dealt" in jack.why
    assert sum(r.won) == 3  # only three points could be won


def test_topic_29_no_off_jack() -> None:
    # The Jack of the other suit of trump's colour scores nothing.
    r = score_hand(["0:AH 1:JD"], pitcher=0, bid=2)
    assert credited(r, "jack") == ()


def test_topic_30_game_point_values() -> None:
    assert [card_points(t) for t in parse_trick("0:AS 1:KS 2:QS 3:JS 4:TS 5:9S 6:2S").cards] == [
        4,
        3,
        2,
        1,
        10,
        0,
        0,
    ]
    r = score_hand(["0:AS 1:KH", "0:QS 1:TH", "0:JS 1:9S"], pitcher=0, bid=2)
    assert r.game_count == (4 + 3 + 2 + 10 + 1, 0)


def test_topic_30_33_game_ties_give_the_point_to_nobody() -> None:
    # Spades trump: seat 0 takes TS (10), seat 1 takes TC with nothing better led.
    tied = score_hand(["0:TS 1:2C", "0:3C 1:TC"], pitcher=0, bid=2)
    assert tied.game_count == (10, 10)
    assert tied.award("game").credited == ()
    assert "a tie: seat 0 and seat 1 each took 10" in tied.award("game").why


def test_topic_31_32_game_to_the_strictly_greatest_count_among_several() -> None:
    r = score_hand(["0:2H 1:AH 2:3D", "1:KD 0:QD 2:TD"], pitcher=0, bid=2)
    # Seat 1 wins both: 4 + 3 + 2 + 10.
    assert r.game_count == (0, 19, 0) and credited(r, "game") == (1,)


def test_topic_34_set_back_and_others_keep_what_they_won() -> None:
    # Seat 0 pitches 3 but wins only high and low: set back 3.
    r = score_hand(["0:AH 1:3C", "0:2H 1:4C", "0:5C 1:TC"], pitcher=0, bid=3)
    assert r.won == (2, 1) and not r.made
    assert r.deltas == (-3, 1)


def test_edge_a_pitcher_who_wins_the_points_but_not_the_bid() -> None:
    # Three points won (high, low, game) against a bid of 4: set back 4;
    # the points won score nothing (C8).
    r = score_hand(["0:AH 1:3C", "0:2H 1:4C", "0:TC 1:5C"], pitcher=0, bid=4)
    assert r.won == (3, 0) and not r.made and r.deltas == (-4, 0)
    made = score_hand(["0:AH 1:3C", "0:2H 1:4C", "0:TC 1:5C"], pitcher=0, bid=3)
    assert made.made and made.deltas == (3, 0)


def test_edge_the_low_trump_and_the_jack_in_the_same_trick() -> None:
    # Spades trump. Trick 2: seat 0 leads JS, seat 1 takes it with QS, seat 2
    # plays 2S: low is seat 2's (who played it), the Jack seat 1's (who captured it).
    tricks = ["0:AS 1:3D 2:4D", "0:JS 1:QS 2:2S"]
    r = score_hand(tricks, pitcher=0, bid=2)
    assert credited(r, "low") == (2,) and r.award("low").card == Card.parse("2S")
    assert credited(r, "jack") == (1,) and "captured JS, played by seat 0" in r.award("jack").why
    played = score_hand(tricks, pitcher=0, bid=2, jack_to="played")
    assert credited(played, "jack") == (0,)


def test_teams_pool_everything() -> None:
    teams = ((0, 2, 4), (1, 3, 5))
    trick = "0:AH 1:2H 2:JH 3:3C 4:4C 5:5C"
    r = score_hand([trick], pitcher=0, bid=2, teams=teams)
    assert r.sides == teams
    assert credited(r, "high") == (0, 2, 4) and credited(r, "jack") == (0, 2, 4)
    assert credited(r, "low") == (1, 3, 5)
    assert r.deltas == (3, 1, 3, 1, 3, 1)
    # Three teams of two: the pitcher's team is set back together.
    three = score_hand([trick], pitcher=0, bid=4, teams=((0, 3), (1, 4), (2, 5)))
    assert three.deltas == (-4, 1, 0, -4, 1, 0)


def test_result_explains_each_point() -> None:
    r = score_hand(["1:KS 0:2S"], pitcher=1, bid=2, players=3)
    assert r.deltas == (1, 2, 0)
    data = r.to_json()
    assert data["awards"][0] == {
        "point": "high",
        "credited": [1],
        "player": 1,
        "card": "KS",
        "why": "seat 1 played KS, the highest trump",
    }
    assert "seat 1 bid 2 in spades and made it with 2" in r.summary


@pytest.mark.parametrize(
    ("tricks", "kwargs", "why"),
    [
        ([], {}, "at least one trick"),
        (["0:AS 1:2S"], {"bid": 5}, "2, 3 or 4"),
        (["1:AS 0:2S"], {}, "leads the first trick"),
        (["0:AS 1:2S"], {"trump": "H"}, "sets trump"),
        (["0:AS 1:2S", "1:KS 0:QS"], {}, "led by seat 0"),
        (["0:AS 1:2S", "0:AS 1:3S"], {}, "played twice"),
        (["0:AS 1:2S", "0:KS 2:QS"], {}, "one card from each"),
        (["0:AS"], {}, "2 or more"),
        (["0:AS 1:2S"], {"players": 1}, "only 1 seats"),
        (["0AS 1:2S"], {}, "seat:card"),
        (["0:AS 1:ZZ"], {}, "not a card"),
    ],
)
def test_score_hand_refuses_a_record_that_cannot_be_a_hand(
    tricks: list[str], kwargs: dict[str, object], why: str
) -> None:
    args: dict[str, object] = {"pitcher": 0, "bid": 2} | kwargs
    with pytest.raises(ValueError, match=why):
        score_hand(tricks, **args)  # type: ignore[arg-type]


def test_score_hand_takes_tricks_as_pairs_or_trick_values() -> None:
    a = score_hand([[(0, "AS"), (1, Card.parse("2S"))]], pitcher=0, bid=2, trump=Suit.SPADES)
    b = score_hand([parse_trick("0:AS 1:2S")], pitcher=0, bid=2, trump="S")
    assert a == b


def test_a_played_hand_scores_as_its_tricks_do() -> None:
    hand = stacked_hand(
        {
            1: "AH JH 2C 3C 4C 5C",
            2: "2H TD 6C 7C 8C 9C",
            3: "KD QD JD 3D 4D 5D",
            0: "6D 7D 8D 9D AD 2D",
        },
        dealer=0,
    )
    play_all(hand, "1:bid 3; 2:pass; 3:pass; 0:pass")
    hand.apply(1, "play AH")
    while not hand.is_over:
        hand.apply(hand.player, hand.legal_actions(hand.player)[0])
    result = hand.result
    assert result is not None
    again = score_hand(hand.tricks, pitcher=1, bid=3, players=4)
    assert again == result
    assert credited(result, "high") == (1,) and credited(result, "low") == (2,)
    assert hand.outcome is not None and hand.outcome.points == tuple(map(float, result.deltas))


def test_topic_34_scores_may_go_negative_in_a_match() -> None:
    hand = stacked_hand({1: "2H 3C", 2: "AH"}, dealer=0)
    play_all(hand, "1:bid 4; 2:pass; 3:pass; 0:pass")
    play_tricks(hand, "2H")
    while not hand.is_over:
        hand.apply(hand.player, hand.legal_actions(hand.player)[0])
    assert hand.result is not None and hand.result.deltas[1] == -4


def test_the_judge_scores_a_hand_from_the_command_line() -> None:
    text = judge(["pitcher=0", "bid=2", "0:AH 1:JH", "0:TC 1:2H"])
    assert "Seat 0 bid 2 in hearts" in text
    assert "jack: seat 0 captured JH, played by seat 1" in text
    assert "seat 0 +2, seat 1 +2" in text
    assert GAME.judge is judge
    with pytest.raises(ValueError, match="pitcher=SEAT"):
        judge(["0:AH 1:2H"])
    with pytest.raises(ValueError, match="unknown setting"):
        judge(["pitcher=0", "bid=2", "colour=red"])


def test_rules_defaults() -> None:
    rules = Rules()
    assert (rules.mode, rules.dealer_steal, rules.jack_to, rules.target, rules.hands) == (
        "informal",
        "one_more",
        "captured",
        11,
        None,
    )


# -- the score pad (topic 35): who won each point, not the tricks ---------------------


def _random_hand(rng: random.Random, seated: list[int]) -> tuple[list[Trick], int, int]:
    """Six cards each to `seated`, played out in turn with any card (score_hand
    does not check following suit): the tricks, the pitcher and the bid."""
    deck = list(standard_deck())
    rng.shuffle(deck)
    hands = {seat: deck[6 * i : 6 * i + 6] for i, seat in enumerate(seated)}
    pitcher = rng.choice(seated)
    trump: Suit | None = None
    leader = pitcher
    tricks = []
    for _ in range(6):
        start = seated.index(leader)
        plays = []
        for seat in seated[start:] + seated[:start]:
            card = hands[seat].pop(rng.randrange(len(hands[seat])))
            plays.append((seat, card))
        trick = Trick(tuple(plays))
        trump = plays[0][1].suit if trump is None else trump
        leader = trick.winner(trump)
        tricks.append(trick)
    return tricks, pitcher, rng.choice([2, 3, 4])


def _winner(result: HandResult, point: str) -> int | None:
    award = result.award(point)  # type: ignore[arg-type]
    return award.credited[0] if award.credited else None


@pytest.mark.parametrize("teams", ["none", "2x3", "3x2"])
def test_topic_35_a_pad_line_scores_as_the_tricks_behind_it(teams: str) -> None:
    # Hands played out at random: the pad's winners of high, low, Jack and game
    # give the same result as the tricks, set back included (C8).
    rng = random.Random(f"pad {teams}")
    made = set_back = 0
    for n in range(300):
        players = 6 if teams != "none" else rng.choice([2, 3, 4, 5, 6])
        seated = sorted(rng.sample(range(players), rng.randint(2, players)))
        if teams != "none":
            seated = list(range(6))
        sides = team_seats(teams)
        tricks, pitcher, bid = _random_hand(rng, seated)
        real = score_hand(tricks, pitcher=pitcher, bid=bid, teams=sides, players=players)
        pad = score_pad(
            seated,
            pitcher=pitcher,
            bid=bid,
            trump=real.trump.letter,
            high=real.award("high").credited[0],
            low=real.award("low").credited[0],
            jack=_winner(real, "jack"),
            game=_winner(real, "game"),
            teams=sides,
            players=players,
        )
        assert pad.deltas == real.deltas, n
        assert (pad.won, pad.made, pad.sides, pad.trump) == (
            real.won,
            real.made,
            real.sides,
            real.trump,
        )
        for point in POINTS:
            assert pad.award(point).credited == real.award(point).credited
        made += real.made
        set_back += not real.made
    assert made and set_back  # both sides of C8 were tried


def test_topic_35_pad_line_set_back_jack_not_dealt_and_a_tied_game() -> None:
    # Seat 1 bid 3, took only high: set back 3. No Jack dealt (topic 28), game tied (33).
    r = score_pad([0, 1, 2], pitcher=1, bid=3, trump="H", high=1, low=0, jack=None, game=None)
    assert r.deltas == (1, -3, 0) and not r.made and r.won == (1, 1, 0)
    assert r.award("jack").credited == () and "JH was not dealt" in r.award("jack").why
    assert r.award("game").credited == () and "tie" in r.award("game").why
    # One player takes all four; the Jack's card is named.
    four = score_pad([0, 1], pitcher=0, bid=4, trump=Suit.SPADES, high=0, low=0, jack=0, game=0)
    assert four.deltas == (4, 0) and four.award("jack").card == Card.parse("JS")
    # A seat that sat out (C11) is not in the hand: a table of 4 scores 3 seats.
    out = score_pad(
        [0, 2, 3], pitcher=2, bid=2, trump="D", high=2, low=3, jack=2, game=0, players=4
    )
    assert out.deltas == (1, 0, 2, 1) and out.seats == (0, 2, 3)


@pytest.mark.parametrize(
    ("kwargs", "why"),
    [
        ({"bid": 1}, "2, 3 or 4"),
        ({"trump": "X"}, "a suit is"),
        ({"high": 3}, "the high is seat 3, who did not play"),
        ({"pitcher": 5}, "the pitcher is seat 5"),
        ({"jack": 9}, "the jack is seat 9"),
        ({"seats": [0, 0]}, "2 or more different"),
        ({"seats": [0]}, "2 or more different"),
        ({"players": 2}, "only 2 seats"),
    ],
)
def test_score_pad_refuses_a_line_that_cannot_be_a_hand(
    kwargs: dict[str, object], why: str
) -> None:
    args: dict[str, object] = {
        "seats": [0, 1, 2],
        "pitcher": 0,
        "bid": 2,
        "trump": "S",
        "high": 0,
        "low": 1,
        "jack": None,
        "game": 2,
    } | kwargs
    seats = args.pop("seats")
    with pytest.raises(ValueError, match=why):
        score_pad(seats, **args)  # type: ignore[arg-type]
