"""Pitty Pat in words: every event of a match, with names and persons."""

from __future__ import annotations

import re
from typing import Any

import pytest

from pitkit import bots
from pitkit.core.match import Match
from pitkit.core.narrate import Narrator
from pitkit.games.pittypat import GAME, describe
from tests.games.words import worded

NAMES = ("Ada", "Bix", "Cy", "Dee")
SEAT_NUMBER = re.compile(r"seat \d")
ADA = Narrator.named(NAMES, reader=0)
BIX = Narrator.named(NAMES, reader=1)


def random_match(seed: int, players: int = 3) -> Match[Any, Any]:
    """A whole match of Pitty Pat between random bots."""
    match = GAME.new_match(players, seed=seed)
    players_bots = [bots.make(GAME, "random", seed + s) for s in range(players)]
    while not match.is_over:
        seat = min(match.to_act)
        match.apply(seat, players_bots[seat].choose(match, seat))
    return match


@pytest.mark.parametrize(("seed", "players"), [(1, 3), (2, 4), (3, 2)])
def test_every_event_of_a_random_match_reads_with_names(seed: int, players: int) -> None:
    match = random_match(seed, players)
    kinds = worded(match)
    assert {"deal", "action", "turned", "hand_end"} <= kinds


def test_the_reader_draws_and_the_others_draw_by_name() -> None:
    match = random_match(5)
    draws = [e for e in match.log if e.type == "action" and e.public["action"] == "draw"]
    assert draws
    for event in draws:
        seat = event.public["seat"]
        expected = "You draw." if seat == 0 else f"{NAMES[seat]} draws."
        assert describe(event.seen_by(0), ADA) == expected
    assert describe({"type": "action", "seat": 0, "action": "draw"}, ADA) == "You draw."
    assert describe({"type": "action", "seat": 0, "action": "draw"}, BIX) == "Ada draws."


def test_key_sentences() -> None:
    deal = {
        "type": "deal",
        "dealer": 1,
        "up": "7H",
        "stock": 36,
        "laid": {"0": "9C 9D", "2": "KS KH"},
        "hand": "2C 3D 4H 9C 9D",
    }
    assert describe(deal, ADA) == (
        "Bix deals. The up card is 7H. Your cards: 2C 3D 4H 9C 9D."
        " You lay down the dealt pairs 9C 9D. Cy lays down the dealt pairs KS KH."
    )
    spectator = Narrator.named(NAMES[:3])
    assert describe({k: v for k, v in deal.items() if k != "hand"}, spectator) == (
        "Bix deals. The up card is 7H. Ada lays down the dealt pairs 9C 9D."
        " Cy lays down the dealt pairs KS KH."
    )
    match = {"type": "action", "seat": 0, "action": "match 7S 2C"}
    assert describe(match, ADA) == "You match with 7S and discard 2C."
    assert describe(match, BIX) == "Ada matches with 7S and discards 2C."
    last = {"type": "action", "seat": 2, "action": "match 7S"}
    assert describe(last, ADA) == "Cy matches with 7S, the last card."
    assert describe({"type": "turned", "seat": 1, "card": "QD"}, ADA) == "Bix turns up QD."
    assert describe({"type": "turned", "seat": 1, "card": "QD"}, BIX) == "You turn up QD."
    assert describe({"type": "restock", "up": "5C", "stock": 20}, ADA) == (
        "The pile becomes the stock (20 cards); 5C is turned up."
    )
    won = {"type": "hand_end", "winner": 1, "reason": "went out"}
    assert describe(won, ADA) == "Bix is out and wins the hand!"
    assert describe(won, BIX) == "You are out and win the hand!"
    drawn = {"type": "hand_end", "winner": None, "reason": "no card left to draw"}
    assert describe(drawn, ADA) == "The hand is a draw: no card left to draw."


def test_the_terminal_names_seats_by_number() -> None:
    seats = Narrator.seats(3, reader=None)
    assert describe({"type": "action", "seat": 2, "action": "draw"}, seats) == "Seat 2 draws."
    deal = {"type": "deal", "dealer": 0, "up": "7H", "laid": {}}
    assert describe(deal, Narrator.seats(3, 1)) == "Seat 0 deals. The up card is 7H."
    assert describe(deal, Narrator.seats(3, 0)) == "You deal. The up card is 7H."
