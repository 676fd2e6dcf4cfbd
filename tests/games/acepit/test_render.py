"""Ace Pit in words: every event of a match, with names and persons."""

from __future__ import annotations

import re
from typing import Any

import pytest

from pitkit import bots
from pitkit.core.match import Match
from pitkit.core.narrate import Narrator
from pitkit.games.acepit import GAME, describe
from tests.games.words import worded

NAMES = ("Ada", "Bix")
SEAT_NUMBER = re.compile(r"seat \d")
ADA = Narrator.named(NAMES, reader=0)
BIX = Narrator.named(NAMES, reader=1)


def random_match(seed: int, rules: list[str] | None = None) -> Match[Any, Any]:
    """A whole match of Ace Pit between random bots."""
    match = GAME.new_match(2, rules, seed=seed)
    players = [bots.make(GAME, "random", seed + s) for s in range(2)]
    while not match.is_over:
        seat = min(match.to_act)
        match.apply(seat, players[seat].choose(match, seat))
    return match


@pytest.mark.parametrize(("seed", "rules"), [(1, None), (2, ["hidden_running_score=true"])])
def test_every_event_of_a_random_match_reads_with_names(seed: int, rules: list[str] | None) -> None:
    match = random_match(seed, rules)
    kinds = worded(match, actors=("action", "draw"))
    assert {"deal", "action", "trick", "draw", "hand_end"} <= kinds


def test_leads_and_answers_from_real_play() -> None:
    match = random_match(4)
    actions = [e.public for e in match.log if e.type == "action"]
    assert actions
    for action in actions:
        seat, words = action["seat"], action["action"].split()
        cards = " ".join(words[1:])
        if words[0] == "lead":
            expected = f"You lead {cards}." if seat == 0 else f"Bix leads {cards}."
        else:
            expected = f"You answer with {cards}." if seat == 0 else f"Bix answers with {cards}."
        assert describe({"type": "action", **action}, ADA) == expected


def test_key_sentences() -> None:
    deal = {"type": "deal", "dealer": 1, "leader": 0, "stock": 38, "hand": "2H 4H 6D"}
    assert describe(deal, ADA) == "Bix deals 7 cards each. You lead. Your cards: 2H 4H 6D."
    spectator = Narrator.named(NAMES)
    assert describe({k: v for k, v in deal.items() if k != "hand"}, spectator) == (
        "Bix deals 7 cards each. Ada leads."
    )
    trick = {
        "type": "trick",
        "trick": 1,
        "leader": 1,
        "lead": "7H",
        "response": "8H 9H",
        "winner": 0,
        "play": "The Fork",
        "points": 20,
    }
    assert describe(trick, ADA) == "The Fork — 20: You take the trick and lead."
    assert describe(trick, BIX) == "The Fork — 20: Ada takes the trick and leads."
    again = {**trick, "winner": 1, "play": "Throw Away"}
    del again["points"]
    assert describe(again, ADA) == "Throw Away: Bix takes the trick and leads again."
    assert describe(again, BIX) == "Throw Away: You take the trick and lead again."
    draw = {"type": "draw", "seat": 0, "stock": 30, "card": "9H"}
    assert describe(draw, ADA) == "You pick up a card (9H)."
    assert describe({"type": "draw", "seat": 0, "stock": 30}, BIX) == "Ada picks up a card."
    assert describe({"type": "hand_end", "tricks": 7, "points": [170, 70]}, BIX) == (
        "The hand is over: Ada scored 170, Bix scored 70."
    )
    assert describe({"type": "hand_end", "tricks": 7}, ADA) == "The hand is over."


def test_the_terminal_names_seats_by_number() -> None:
    deal = {"type": "deal", "dealer": 0, "leader": 1, "stock": 38}
    assert describe(deal, Narrator.seats(2)) == "Seat 0 deals 7 cards each. Seat 1 leads."
    assert describe(deal, Narrator.seats(2, 1)) == "Seat 0 deals 7 cards each. You lead."
