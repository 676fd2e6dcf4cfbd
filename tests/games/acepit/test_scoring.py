"""Scoring a trick of Ace Pit: the seed's worked examples and rulings A2-A4."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pitkit.cards import Card, parse_cards, standard_deck
from pitkit.games.acepit import Part, Parts, Score, score_response
from pitkit.games.acepit.scoring import (
    best_response,
    best_value,
    card_value,
    pair_value,
    single_value,
)

C = Card.parse

# -- The seed's worked examples ----------------------------------------------------
# (lead, response, points, the name as str(score) gives it). Where the seed
# leaves the lead or the response out, the comment says which cards its
# description calls for.

SEED_EXAMPLES = [
    # 1) 'The Spoon' L) 8H R) 9H, 15 pts
    ("8H", "9H", 15, "The Spoon"),
    # 2) 'The Even Stevens' L) 6S R) 6D, 20 pts
    ("6S", "6D", 20, "The Even Stevens"),
    # 3) 'The Pin' L) 5C R) 3H 9H; the seed gives no total: a Pin is 25.
    ("5C", "3H 9H", 25, "The Pin"),
    # 4) 'The Double Fork' L) 8D R) 3C 3S, 30 pts
    ("8D", "3C 3S", 30, "The Double Fork"),
    # 5) 'The Ace Pit' L) 9D, 50 pts. The response is left out: a plain Ace
    # Pit scores 50 only with an Ace of another suit (the Ace of diamonds would
    # add a Flush, as in example 13).
    ("9D", "AS", 50, "The Ace Pit"),
    # 6) L) 8H R) 4H 4S: The Double Fork Flush, 30 + 20 = 50
    ("8H", "4H 4S", 50, "The Double Fork, Flush"),
    # 7) L) 8H R) 8S 8C: The Double Fork, Double Even Stevens, 30 + 2 * 20 = 70
    ("8H", "8S 8C", 70, "The Double Fork, Double Even Stevens"),
    # 8) L) 8H R) 4H 10H: The Pin, Double Flush, 25 + 2 * 20 = 65
    ("8H", "4H 10H", 65, "The Pin, Double Flush"),
    # 9) L) 8H R) 7H 10H: The Pin, Double Flush, Spoon, 65 + 15 = 80
    ("8H", "7H 10H", 80, "The Pin, Double Flush, Spoon"),
    # 10) L) 8H R) 7H 9H: The Pin, Double Flush, Double Spoon, 95
    ("8H", "7H 9H", 95, "The Pin, Double Flush, Double Spoon"),
    # 11) L) 6H R) 4H AH: The Ace Pit Pin, double flush, 50 + 25 + 2 * 20 = 115
    ("6H", "4H AH", 115, "The Ace Pit, Pin, Double Flush"),
    # 12) The Ace Pit Pin, double flush, double spoon, 145. No cards given:
    # both cards must be of the led suit and next to the led rank, one an Ace.
    # The Ace is next to the King alone (A1), so the lead is a King and the
    # response the Queen and Ace of its suit.
    ("KH", "QH AH", 145, "The Ace Pit, Pin, Double Flush, Double Spoon"),
    # 13) L) 6D: The Ace Pit flush, 50 + 20 = 70. The response is the Ace of
    # the led suit (any other Ace scores no Flush).
    ("6D", "AD", 70, "The Ace Pit, Flush"),
    # 14) The Ace Pit flush spoon ("the spoon counts - it's not on its own").
    # No cards given: an Ace of the led suit next to the led rank, so a King
    # is led. 50 + 20 + 15 = 85.
    ("KD", "AD", 85, "The Ace Pit, Flush, Spoon"),
]


@pytest.mark.parametrize(("lead", "response", "points", "name"), SEED_EXAMPLES)
def test_the_seeds_worked_examples(lead: str, response: str, points: int, name: str) -> None:
    score = score_response(lead, response)
    assert score.points == points
    assert score.winner == "responder"
    assert score.name == name
    assert str(score) == f"{name} — {points}"
    assert sum(p.points for p in score.parts) == points


def test_the_examples_span_15_to_145() -> None:
    points = [p for _, _, p, _ in SEED_EXAMPLES]
    assert min(points) == 15 and max(points) == 145
    assert len(SEED_EXAMPLES) == 14


def test_parts_as_the_issue_spells_them() -> None:
    score = score_response("8H", "7H 10H")
    assert score.parts == [("Pin", 25), ("Flush", 20), ("Flush", 20), ("Spoon", 15)]
    assert score.parts == (Part("Pin", 25), Part("Flush", 20), Part("Flush", 20), Part("Spoon", 15))
    assert str(score) == "The Pin, Double Flush, Spoon — 80"
    assert score.parts[0].name == "Pin" and score.parts[0].points == 25


def test_the_ace_pit_pin_parts_come_in_the_seeds_order() -> None:
    # "50 (Ace Pit), 25 (pin), 2 * 20 (double flush)"
    assert score_response("6H", "4H AH").parts == [
        ("Ace Pit", 50),
        ("Pin", 25),
        ("Flush", 20),
        ("Flush", 20),
    ]


def test_95_is_the_most_without_an_ace_170_with_and_the_tables_agree() -> None:
    # "95 pts - the most you can get without an ace". Every lead against every
    # response, one card or two, checked against the bots' flat tables too.
    deck = standard_deck()
    best_without_ace = best = 0
    for lead in deck:
        others = [c for c in deck if c != lead]
        for card in others:
            score = score_response(lead, card)
            signed = score.points if score.responder_wins else -score.points
            assert single_value(lead, card) == signed
        for a, b in itertools.combinations(others, 2):
            try:
                score = score_response(lead, [a, b])
            except ValueError:
                assert pair_value(lead, a, b) == 0
                continue
            assert score.responder_wins
            assert pair_value(lead, a, b) == score.points
            best = max(best, score.points)
            if not (a.rank == 14 or b.rank == 14):
                best_without_ace = max(best_without_ace, score.points)
    assert best_without_ace == 95
    assert best == 170  # AS AC to a led AH


# -- A2: what may be played ---------------------------------------------------


@pytest.mark.parametrize(
    "response",
    [
        "7H 2C",  # neither one suit nor one rank
        "9H 10H",  # one suit, but both above the 8
        "2H 7H",  # one suit, but both below
        "8S 9S",  # the 8 is neither above nor below the led 8
        "9H AS",  # an Ace and a Spoon, but not a Pin or a Double Fork
    ],
)
def test_two_cards_must_be_a_pin_or_a_double_fork(response: str) -> None:
    with pytest.raises(ValueError, match=r"Pin .* or a Double Fork"):
        score_response("8H", response)


@pytest.mark.parametrize(
    ("lead", "response", "message"),
    [
        ("8H", "", "one card or two"),
        ("8H", "7H 9H 6H", "one card or two"),
        ("8H", "8H", "led card"),
        ("8H", "9H 9H", "twice"),
        ("8H 9H", "7H", "one card is led"),
        ("8H", "RJ", "Jokers"),
        ("8H", "1H", "not a card"),
        ("ZZ", "9H", "not a card"),
    ],
)
def test_bad_input_is_refused(lead: str, response: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        score_response(lead, response)


def test_cards_as_text_or_card_objects() -> None:
    expected = score_response("8H", "7H 9H")
    assert score_response(C("8H"), [C("7H"), C("9H")]) == expected
    assert score_response("8h", ["9H", "7H"]) == expected
    assert score_response("8H", "7H,9H") == expected
    assert score_response([C("8H")], ("7H", C("9H"))) == expected
    assert score_response("8H", C("9H")).points == 15
    assert score_response("10H", "9H").points == 15  # "10" is accepted for T


# -- A2/A3: single cards -------------------------------------------------------


@pytest.mark.parametrize("response", ["3H", "2C", "QS", "TD"])
def test_any_other_single_card_is_a_throw_away(response: str) -> None:
    # A Flush on its own (3H to 8H) does not win either: "except 6 on its own".
    score = score_response("8H", response)
    assert (score.points, score.winner) == (10, "leader")
    assert score.parts == [("Throw Away", 10)]
    assert str(score) == "The Throw Away — 10"
    assert not score.responder_wins


def test_a_straight_spoon_scores_no_flush() -> None:
    assert score_response("8H", "7H").parts == [("Spoon", 15)]


def test_the_ace_is_next_to_the_king_alone() -> None:
    assert score_response("2H", "AH").parts == [("Ace Pit", 50), ("Flush", 20)]
    assert score_response("KH", "AH").parts == [("Ace Pit", 50), ("Flush", 20), ("Spoon", 15)]
    assert score_response("AH", "2H").winner == "leader"


def test_an_ace_of_another_suit_is_an_ace_pit() -> None:
    score = score_response("9D", "AC")
    assert (score.points, score.winner) == (50, "responder")
    assert score.parts == [("Ace Pit", 50)]


def test_two_aces_and_mixed_double_forks() -> None:
    assert score_response("8H", "AS AC").parts == [
        ("Ace Pit", 50),
        ("Ace Pit", 50),
        ("Double Fork", 30),
    ]
    assert str(score_response("8H", "AS AC")) == "The Double Ace Pit, Double Fork — 130"
    # A Fork of the King and Ace of hearts' ranks: Flush and Spoon count with it.
    assert score_response("KH", "AH AS").points == 30 + 100 + 20 + 15
    assert score_response("8H", "9H 9S").parts == [
        ("Double Fork", 30),
        ("Flush", 20),
        ("Spoon", 15),
    ]
    assert score_response("KS", "QS AS").points == 145
    assert score_response("KH", "QS AS").parts == [("Ace Pit", 50), ("Pin", 25)]


# -- A4: a led Ace -------------------------------------------------------------


@pytest.mark.parametrize("response", ["KH", "2H", "QH", "2C", "KS"])
def test_a_led_ace_stands_against_a_spoon_a_flush_or_a_throw_away(response: str) -> None:
    score = score_response("AH", response)
    assert (score.points, score.winner) == (50, "leader")
    assert score.parts == [("Ace Pit", 50)]
    assert str(score) == "The Ace Pit, led and unbeaten — 50"


def test_an_ace_beats_a_led_ace_and_is_an_even_stevens_too() -> None:
    score = score_response("AH", "AS")
    assert (score.points, score.winner) == (70, "responder")
    assert score.parts == [("Ace Pit", 50), ("Even Stevens", 20)]


def test_a_double_fork_beats_a_led_ace_with_all_its_parts() -> None:
    assert score_response("AH", "3C 3D") == Score(30, "responder", Parts([Part("Double Fork", 30)]))
    assert score_response("AH", "KH KS").parts == [
        ("Double Fork", 30),
        ("Flush", 20),
        ("Spoon", 15),
    ]
    assert score_response("AH", "AS AC").points == 100 + 30 + 40


def test_no_pin_against_a_led_ace() -> None:
    # Nothing ranks above an Ace, so two cards of one suit never straddle it.
    for a, b in itertools.combinations(parse_cards("2S 5S 9S KS"), 2):
        with pytest.raises(ValueError, match="Pin"):
            score_response("AH", [a, b])


# -- Score values ---------------------------------------------------------------


def test_a_score_is_an_immutable_value() -> None:
    score = score_response("8H", "7H 9H")
    assert hash(score) == hash(score_response("8H", "9H 7H"))
    with pytest.raises(AttributeError):
        score.points = 1  # type: ignore[misc]


CARDS = st.sampled_from(standard_deck())


@settings(max_examples=60, deadline=None)
@given(lead=CARDS, response=st.lists(CARDS, min_size=1, max_size=2, unique=True))
def test_points_are_the_sum_of_the_parts(lead: Card, response: list[Card]) -> None:
    if lead in response:
        return
    try:
        score = score_response(lead, response)
    except ValueError:
        assert len(response) == 2
        return
    assert score.points == sum(p.points for p in score.parts) > 0
    names = {p.name for p in score.parts}
    if score.winner == "leader":
        assert len(score.parts) == 1 and names <= {"Throw Away", "Ace Pit"}
    else:
        assert names & {"Pin", "Double Fork", "Even Stevens", "Spoon", "Ace Pit"}
    if len(response) == 2:
        # A legal pair wins for its shape plus what each card adds.
        shape = 30 if response[0].rank == response[1].rank else 25
        assert score.points == shape + sum(card_value(lead, c) for c in response)


@settings(max_examples=60, deadline=None)
@given(cards=st.lists(CARDS, min_size=2, max_size=9, unique=True))
def test_the_bots_best_response_is_the_best_legal_one(cards: list[Card]) -> None:
    lead, hand = cards[0], cards[1:]
    values = [single_value(lead, c) for c in hand]
    values += [v for a, b in itertools.combinations(hand, 2) if (v := pair_value(lead, a, b))]
    value, a, b = best_response(lead, hand)
    assert value == max(values) == best_value(lead, hand)
    played = [a] if b < 0 else [a, b]
    score = score_response(lead, [Card(c) for c in played])
    assert (score.points if score.responder_wins else -score.points) == value
