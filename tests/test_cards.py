"""Cards: notation, immutability, decks and seeded shuffles."""

from __future__ import annotations

import copy
import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pitkit.cards import (
    JOKERS,
    Card,
    CardError,
    Commodity,
    PitCard,
    Rank,
    Suit,
    commodity_deck,
    format_cards,
    parse_card,
    parse_cards,
    shuffled,
    standard_deck,
)


def test_notation_is_rank_then_suit() -> None:
    card = parse_card("TH")
    assert (card.rank, card.suit) == (Rank.TEN, Suit.HEARTS)
    assert str(card) == "TH"
    assert repr(card) == "Card('TH')"


@pytest.mark.parametrize(
    ("token", "text"),
    [
        ("10H", "TH"),
        ("10h", "TH"),
        ("A♠", "AS"),
        ("2♣", "2C"),
        ("q♦", "QD"),
        ("K♥", "KH"),
        ("rj", "RJ"),
    ],
)
def test_accepted_spellings(token: str, text: str) -> None:
    assert str(parse_card(token)) == text


def test_jokers() -> None:
    assert JOKERS == (Card.BJ, Card.RJ)
    assert parse_card("RJ") is Card.RJ and parse_card("BJ") is Card.BJ
    assert Card.RJ.is_joker and not parse_card("AS").is_joker
    with pytest.raises(ValueError, match="no rank"):
        _ = Card.RJ.rank
    with pytest.raises(ValueError, match="no suit"):
        _ = Card.BJ.suit


@pytest.mark.parametrize(
    "token", ["1H", "11H", "AX", "H", "", "JJ", "A", "10", "ASS", "RJX", "Joker"]
)
def test_bad_tokens_raise_an_error_quoting_the_token(token: str) -> None:
    with pytest.raises(CardError) as error:
        parse_card(token)
    assert isinstance(error.value, ValueError)
    assert repr(token) in str(error.value)


def test_lists_are_separated_by_spaces_or_commas() -> None:
    assert format_cards(parse_cards("AS, KH 10D,2C  RJ")) == "AS KH TD 2C RJ"
    assert parse_cards(["AS", Card.of(Rank.KING, Suit.HEARTS)]) == [
        parse_card("AS"),
        parse_card("KH"),
    ]
    with pytest.raises(CardError, match="'ZZ'"):
        parse_cards("AS ZZ KH")


def test_cards_are_immutable_shared_and_hashable() -> None:
    card = parse_card("7D")
    assert card is Card.of(7, Suit.DIAMONDS) is Card(int(card))
    assert {card, parse_card("7D")} == {card}
    assert copy.deepcopy(card) is card
    assert pickle.loads(pickle.dumps(card)) is card
    with pytest.raises(AttributeError):
        card.foo = 1


@given(st.sampled_from(standard_deck(jokers=True)))
def test_text_round_trips(card: Card) -> None:
    assert parse_card(str(card)) is card
    assert card.bit == 1 << int(card)


def test_cards_as_players_write_them() -> None:
    assert [parse_card(t).written for t in ("AD", "TH", "2C", "QS")] == ["A♦", "10♥", "2♣", "Q♠"]
    assert (Card.BJ.written, Card.RJ.written) == ("black Joker", "red Joker")


@given(st.sampled_from(standard_deck()))
def test_the_written_card_reads_back(card: Card) -> None:
    assert parse_card(card.written) is card


def test_decks() -> None:
    deck = standard_deck()
    assert len(deck) == len(set(deck)) == 52
    assert not any(c.is_joker for c in deck)
    full = standard_deck(jokers=True)
    assert len(set(full)) == 54 and set(full) - set(deck) == set(JOKERS)


@pytest.mark.parametrize("players", range(3, 8))
def test_commodity_deck_uses_the_most_valuable_commodities(players: int) -> None:
    # T1: n players use the n commodities of highest value, 9 cards each.
    deck = commodity_deck(players)
    assert len(deck) == 9 * players
    used = {c.commodity for c in deck}
    assert used == set(list(Commodity)[:players])
    assert all(deck.count(c) == 9 for c in set(deck))


def test_commodity_values_and_bull_and_bear() -> None:
    assert [c.value for c in Commodity] == [100, 85, 75, 70, 60, 50, 40]
    deck = commodity_deck(4, bull_and_bear=True)
    assert len(deck) == 38 and PitCard.BULL in deck and PitCard.BEAR in deck
    assert PitCard.BULL.commodity is None
    assert PitCard.parse("Wheat") is PitCard.WHEAT
    with pytest.raises(CardError, match="'gold'"):
        PitCard.parse("gold")
    with pytest.raises(ValueError, match="3 to 6"):
        commodity_deck(7, bull_and_bear=True)
    with pytest.raises(ValueError, match="3 to 7"):
        commodity_deck(2)


def test_seeded_shuffles_repeat() -> None:
    deck = standard_deck()
    assert shuffled(deck, 42) == shuffled(deck, 42)
    assert shuffled(deck, 42) != shuffled(deck, 43)
    assert sorted(shuffled(deck, 1)) == deck
