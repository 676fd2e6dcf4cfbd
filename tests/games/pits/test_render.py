"""Pits in words: every event of a match, with names and persons."""

from __future__ import annotations

import re
from typing import Any

import pytest

from pitkit import bots
from pitkit.core.match import Match
from pitkit.core.narrate import Narrator
from pitkit.games.pits import GAME, describe
from tests.games.words import worded

NAMES = ("Ada", "Bix", "Cy", "Dee", "Eve")
SEAT_NUMBER = re.compile(r"seat \d")
ADA = Narrator.named(NAMES, reader=0)
BIX = Narrator.named(NAMES, reader=1)


def random_match(seed: int) -> Match[Any, Any]:
    """A whole match of Pits between random bots."""
    match = GAME.new_match(seed=seed)
    players = [bots.make(GAME, "random", seed + s) for s in range(match.players)]
    while not match.is_over:
        seat = min(match.to_act)
        match.apply(seat, players[seat].choose(match, seat))
    return match


@pytest.mark.parametrize("seed", [1, 2])
def test_every_event_of_a_random_match_reads_with_names(seed: int) -> None:
    match = random_match(seed)
    kinds = worded(match, actors=("action", "meld", "out", "offered"))
    assert {"deal", "action", "meld", "out", "round", "hand_end"} <= kinds
    assert {"offered", "revealed", "exchanged"} <= kinds, "a second hand has an exchange"


def test_plays_are_told_by_their_meld_and_passes_by_person() -> None:
    match = random_match(4)
    melds = [e for e in match.log if e.type == "meld"]
    assert melds
    for event in melds:
        seat, meld, left = event.public["seat"], event.public["meld"], event.public["left"]
        cards = "1 card" if left == 1 else f"{left} cards"
        who = "You play" if seat == 0 else f"{NAMES[seat]} plays"
        assert describe(event.seen_by(0), ADA) == f"{who} {meld} ({cards} left)."
    plays = [e for e in match.log if e.type == "action" and e.public["action"].startswith("play")]
    assert plays and all(describe(e.seen_by(0), ADA) is None for e in plays)
    assert describe({"type": "action", "seat": 0, "action": "pass"}, ADA) == "You pass."
    assert describe({"type": "action", "seat": 0, "action": "pass"}, BIX) == "Ada passes."


def test_key_sentences() -> None:
    deal = {"type": "deal", "dealer": 1, "counts": [11] * 5, "hand": "3C 4D"}
    assert describe(deal, ADA) == "Bix deals. Your cards: 3C 4D."
    assert describe(deal, BIX) == "You deal. Your cards: 3C 4D."
    meld = {"type": "meld", "seat": 2, "meld": "a set of 2 sevens", "left": 1}
    assert describe(meld, ADA) == "Cy plays a set of 2 sevens (1 card left)."
    assert describe({"type": "out", "seat": 0, "place": 1}, ADA) == "You are out, 1st!"
    assert describe({"type": "out", "seat": 0, "place": 3}, BIX) == "Ada is out, 3rd!"
    assert describe({"type": "round", "leader": 3}, ADA) == "Everyone passed. Dee leads."
    assert describe({"type": "round", "leader": 0}, ADA) == "Everyone passed. You lead."
    offered = {"type": "offered", "seat": 4, "card": "RJ"}
    assert describe(offered, ADA) == "Eve gives up RJ, face up."
    face_down = {"type": "action", "seat": 1, "action": "give (face down)"}
    assert describe(face_down, ADA) == "Bix gives a card, face down."
    face_up = {"type": "action", "seat": 4, "action": "give RJ"}
    assert describe(face_up, ADA) is None, "its offered event tells it"
    assert describe({"type": "action", "seat": 0, "action": "take 2D"}, ADA) is None
    revealed = {"type": "revealed", "cards": {"0": "5H", "1": "3C"}}
    assert describe(revealed, ADA) == "The face-down cards: Ada gave 5H, Bix gave 3C."
    exchanged = {"type": "exchanged", "took": {"0": "2C", "3": "RJ"}}
    assert describe(exchanged, ADA) == "You take 2C. Dee takes RJ."
    assert describe({"type": "hand_end", "order": [3, 0, 1, 4, 2]}, ADA) == (
        "Finishing order: Dee, Ada, Bix, Eve, Cy."
    )


def test_the_terminal_names_seats_by_number() -> None:
    deal = {"type": "deal", "dealer": 0, "counts": [11] * 5}
    assert describe(deal, Narrator.seats(5)) == "Seat 0 deals."
    assert describe(deal, Narrator.seats(5, 0)) == "You deal."
    assert describe({"type": "hand_end", "order": [1, 0]}, Narrator.seats(5, 0)) == (
        "Finishing order: Seat 1, Seat 0."
    )
