"""Pit in words: every event of a match, with names and persons."""

from __future__ import annotations

import re
from typing import Any

import pytest

from pitkit import bots
from pitkit.core.match import Match
from pitkit.core.narrate import Narrator
from pitkit.games.pit import GAME, describe
from pitkit.play import play_match
from tests.games.pit.helpers import stacked_match
from tests.games.words import worded

NAMES = ("Ada", "Bix", "Cy", "Dee", "Eve", "Fay", "Gus")
SEAT_NUMBER = re.compile(r"seat \d")
ADA = Narrator.named(NAMES[:3], reader=0)
BIX = Narrator.named(NAMES[:3], reader=1)
THREE = "wheat,barley,corn"  # the commodities of a three-seat table


def played_match(seed: int, bot: str, rules: list[str] | None = None) -> Match[Any, Any]:
    """A short match of Pit (`Game.short_match`) between `bot`s, in real time
    on a virtual clock."""
    options = [f"{k}={v}" for k, v in GAME.short_match.items()] + (rules or [])
    match = GAME.new_match(None, options, seed=seed)
    play_match(match, [bots.make(GAME, bot, seed + s) for s in range(match.players)], seed)
    return match


@pytest.mark.parametrize(
    ("seed", "bot", "rules"),
    [(1, "random", None), (2, "sensible", None), (3, "sensible", ["bull_and_bear=true"])],
)
def test_every_event_of_a_match_reads_with_names(
    seed: int, bot: str, rules: list[str] | None
) -> None:
    match = played_match(seed, bot, rules)
    kinds = worded(match)
    assert {"deal", "open", "action", "trade"} <= kinds
    if bot == "sensible":
        assert "corner" in kinds


def test_offers_read_you_for_the_offerer_and_a_count_for_the_others() -> None:
    match = stacked_match(["9 wheat", "9 barley", "9 corn"], dealer=0, commodities=THREE)
    deal = next(e for e in match.log if e.type == "deal")
    assert describe(deal.seen_by(0), ADA) == "You deal nine cards each. Your cards: 9 wheat."
    assert describe(deal.seen_by(1), BIX) == "Ada deals nine cards each. Your cards: 9 barley."
    events = match.apply(1, "offer 2 barley")
    offer = next(e for e in events if e.type == "action")
    number = offer.public["offer"]
    assert describe(offer.seen_by(1), BIX) == f"You offer 2 barley (#{number})."
    assert describe(offer.seen_by(0), ADA) == f"Bix offers 2 cards (#{number})."
    events = match.apply(2, "accept 1 corn")
    said = [describe(e.seen_by(2), Narrator.named(NAMES[:3], 2)) for e in events]
    assert said[-1] == f"You take Bix's 2 (#{number}). You receive 2 barley."
    trade = events[-1]
    assert describe(trade.seen_by(1), BIX) == f"Cy takes your 2 (#{number}). You receive 2 corn."
    assert describe(trade.seen_by(0), ADA) == f"Cy takes Bix's 2 (#{number})."
    events = match.apply(0, "offer 1 wheat")
    mine = events[0].public["offer"]
    withdrawn = match.apply(0, "withdraw")
    assert [describe(e.seen_by(1), BIX) for e in withdrawn] == [f"Ada withdraws offer #{mine}."]


def test_a_payment_with_ones_own_offer_is_told_to_everyone() -> None:
    hands = ["2 wheat, 7 corn", "7 wheat, 2 barley", "7 barley, 2 corn"]
    match = stacked_match(hands, dealer=0, commodities=THREE)
    first = match.apply(0, "offer 2 wheat")[0].public["offer"]
    second = match.apply(1, "offer 2 barley")[0].public["offer"]
    trade = match.apply(0, "accept 1 wheat")[-1]
    told = f"Ada takes Bix's 2 (#{second}), paying with offer #{first}."
    assert describe(trade.seen_by(2), Narrator.named(NAMES[:3], 2)) == told


def test_a_corner_with_the_bull_and_the_bear() -> None:
    hands = ["9 wheat", "9 barley, bull", "9 corn, bear"]
    match = stacked_match(hands, dealer=0, bull_and_bear=True, commodities=THREE)
    deal = next(e for e in match.log if e.type == "deal")
    assert describe(deal.seen_by(0), ADA) == (
        "You deal nine cards each, ten to Bix and Cy. Your cards: 9 wheat."
    )
    events = match.apply(0, "corner")
    corner = next(e for e in events if e.type == "corner")
    assert describe(corner.seen_by(0), ADA) == (
        "CORNER! You corner wheat with 9 wheat: +100."
        " Cy is stuck with the Bear: -20. Bix holds the Bull: -20."
    )
    assert describe(corner.seen_by(1), BIX) == (
        "CORNER! Ada corners wheat with 9 wheat: +100."
        " Cy is stuck with the Bear: -20. You hold the Bull: -20."
    )
    end = next(e for e in match.log if e.type == "hand_end")
    assert describe(end.seen_by(0), ADA) is None, "the corner said it"


def test_a_penalty_and_a_stalled_hand() -> None:
    match = stacked_match(
        ["9 wheat", "9 barley", "9 corn"], dealer=0, opened=False, commodities=THREE
    )
    events = match.apply(1, "offer 1 barley")
    assert [describe(e.seen_by(1), BIX) for e in events] == [
        "You offer 1 barley.",
        "You traded before the pit was open (T3): -20.",
    ]
    assert describe(events[1].seen_by(0), ADA) == ("Bix traded before the pit was open (T3): -20.")
    assert describe(match.apply(0, "open")[-1].seen_by(1), BIX) == "Ding! The pit is open."
    stalled = {
        "type": "hand_end",
        "cornerer": None,
        "summary": "no trade in 40 market actions (idle_limit)",
        "points": [0, -20, 0],
        "trades": 0,
    }
    assert describe(stalled, ADA) == ("The hand ends: no trade in 40 market actions (idle_limit).")


def test_the_terminal_names_seats_by_number() -> None:
    deal = {"type": "deal", "dealer": 2, "cards": [9, 9, 9], "commodities": []}
    assert describe(deal, Narrator.seats(3)) == "Seat 2 deals nine cards each."
    assert describe(deal, Narrator.seats(3, 2)) == "You deal nine cards each."
