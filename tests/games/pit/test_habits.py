"""How a sensible trader picks its cards (`pitkit.games.pit.habits`)."""

from __future__ import annotations

from pitkit.cards import Commodity
from pitkit.games.pit.habits import collection, junk, payment_value, shorter, weakness
from pitkit.games.pit.market import INDEX, KINDS, lot_of
from tests.games.pit.helpers import cards


def counts(text: str) -> list[int]:
    held = [0] * len(KINDS)
    for card in cards(text):
        held[INDEX[card]] += 1
    return held


WHEAT, BARLEY, CORN, OATS = (INDEX[card] for card in cards("wheat, barley, corn, oats"))


def test_a_trader_collects_what_it_holds_most_of_the_more_valuable_on_ties() -> None:
    assert collection(counts("2 wheat, 3 corn, 3 oats, bull")) == CORN
    assert collection(counts("4 wheat, 4 barley, bear")) == WHEAT


def test_it_is_keenest_to_part_with_its_fewest_cards_the_less_valuable_on_ties() -> None:
    held = counts("3 wheat, 1 barley, 1 corn, 2 oats")
    assert (
        weakness(held, CORN) > weakness(held, BARLEY) > weakness(held, OATS) > weakness(held, WHEAT)
    )


def test_it_offers_all_its_weakest_commodity_with_the_bear() -> None:
    held = counts("5 wheat, 2 barley, 1 corn, bear")
    assert junk(held, held, WHEAT) == lot_of(2, Commodity.CORN, bear=True)


def test_an_offer_holds_four_cards_at_most() -> None:
    held = counts("4 wheat, 4 barley, bear")
    assert junk(held, held, WHEAT) == lot_of(4, Commodity.BARLEY, bear=True)


def test_it_never_offers_what_it_collects_nor_the_bull_it_keeps() -> None:
    held = counts("8 wheat, bull")
    assert junk(held, held, WHEAT) is None
    assert junk(held, held, WHEAT, bull=True) == lot_of(1, bull=True)
    bear = counts("8 wheat, bear")
    assert junk(bear, bear, WHEAT) == lot_of(1, bear=True)


def test_cards_on_offer_are_not_offered_again() -> None:
    held = counts("5 wheat, 2 barley, 2 corn")
    free = counts("5 wheat, 2 barley")  # the corn is on offer
    assert junk(held, free, WHEAT) == lot_of(2, Commodity.BARLEY)


def test_an_offer_one_card_shorter_keeps_the_bear() -> None:
    assert shorter(lot_of(3, Commodity.CORN, bear=True)) == lot_of(2, Commodity.CORN, bear=True)
    assert shorter(lot_of(2, Commodity.CORN)) == lot_of(1, Commodity.CORN)
    assert shorter(lot_of(2, Commodity.CORN, bear=True)) == lot_of(1, bear=True)
    assert shorter(lot_of(1, Commodity.CORN)) == lot_of(1, Commodity.CORN)


def test_it_pays_with_the_bear_first_then_its_weakest_cards_a_whole_group_best() -> None:
    held = counts("2 corn, 3 oats, 1 wheat, bear")
    corn, oats = lot_of(2, Commodity.CORN), lot_of(2, Commodity.OATS)
    assert payment_value(held, lot_of(2, Commodity.OATS, bear=True)) > payment_value(held, corn)
    # Two corn clear the group; two of three oats do not.
    assert payment_value(held, corn) > payment_value(held, oats)
