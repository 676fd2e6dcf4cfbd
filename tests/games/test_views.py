"""Every game declares the type of its view (`Game.view_type`), and every
view of random play fits the JSON Schema made from that declaration: each
seat's and a spectator's, at every step of whole matches. Card places are
checked to hold a card's text (``"format": "card"``)."""

from __future__ import annotations

import random
import sys
import time
import typing
from typing import Any

import pytest
from jsonschema import Draft202012Validator, FormatChecker

from pitkit import games
from pitkit.cards import Commodity, PitCard, standard_deck
from pitkit.core import BadOption, Match
from pitkit.core.game import Game
from pitkit.core.views import TableView, json_schema
from pitkit.games.pit.views import PitCommodity

GAMES = games.names()
MATCHES = 4  # whole matches per game, players from min to max
MAX_DECISIONS = 3_000  # per match: Pit's random trading may take long to corner
BUDGET = 3.0  # seconds of validation per game, roughly: views are then checked less often

CARD_TEXTS = frozenset(str(c) for c in standard_deck(jokers=True)) | {c.value for c in PitCard}
CARD_FORMAT = FormatChecker()


@CARD_FORMAT.checks("card")
def is_card(text: object) -> bool:
    """A card's text exactly as pitkit writes it: ``7H``, ``RJ``, ``wheat``."""
    return not isinstance(text, str) or text in CARD_TEXTS


def validator(game: Game) -> Draft202012Validator:
    assert game.view_type is not None
    return Draft202012Validator(json_schema(game.view_type), format_checker=CARD_FORMAT)


def new_match(game: Game, players: int, seed: int) -> Match[Any, Any]:
    """A match with random on/off and choice options (redrawn while they do not fit)."""
    rng = random.Random(seed)
    for _ in range(50):
        options: dict[str, Any] = {}
        for info in game.rules.options():
            if info.choices:
                options[info.name] = rng.choice(info.choices)
            elif info.type == "bool":
                options[info.name] = rng.random() < 0.5
        try:
            return game.new_match(players, options, seed)
        except BadOption:
            continue
    return game.new_match(players, seed=seed)


def check_views(game: Game, check: Draft202012Validator, match: Match[Any, Any], when: str) -> None:
    for seat in [None, *range(match.players)]:
        view = match.view(seat)
        error = next(iter(check.iter_errors(view)), None)
        if error is not None:
            where = "/".join(str(p) for p in error.absolute_path)
            pytest.fail(f"{game.name}, seat {seat}, {when}: at /{where}: {error.message}")


@pytest.mark.parametrize("name", GAMES)
def test_every_game_declares_its_view(name: str) -> None:
    view_type = games.get(name).view_type
    assert view_type is not None, f"{name} declares no view_type"
    assert typing.is_typeddict(view_type)
    hints = typing.get_type_hints(view_type)
    assert set(typing.get_type_hints(TableView)) <= set(hints), "a view extends TableView"
    assert "players" in hints


@pytest.mark.parametrize("name", GAMES)
def test_view_schema_is_valid_and_marks_the_hand_as_cards(name: str) -> None:
    game = games.get(name)
    assert game.view_type is not None
    schema = json_schema(game.view_type)
    Draft202012Validator.check_schema(schema)
    hand = schema["properties"]["hand"]
    assert hand["type"] == "array"
    assert hand["items"] == {"type": "string", "format": "card"}
    assert "hand" not in schema["required"], "a spectator has no hand"
    assert "legal" not in schema["required"]


@pytest.mark.parametrize("name", GAMES)
def test_declared_phases_are_the_games_phases(name: str) -> None:
    game = games.get(name)
    assert game.view_type is not None
    declared = typing.get_type_hints(game.view_type)["phase"]
    if declared is str:  # a game may leave its phases undeclared (the test game)
        return
    hand = game.new_match(seed=1).current_hand
    phases = sys.modules[type(hand).__module__].Phase
    assert set(typing.get_args(declared)) == {p.value for p in phases}


def test_pit_commodities_are_the_commodities() -> None:
    assert set(typing.get_args(PitCommodity)) == {str(c) for c in Commodity}


@pytest.mark.parametrize("name", GAMES)
def test_every_view_of_random_play_fits_the_schema(name: str) -> None:
    game = games.get(name)
    check = validator(game)
    span = game.max_players - game.min_players
    every = 1  # validate every `every` steps; widened if validation is slow
    spent = 0.0
    for m in range(MATCHES):
        players = game.min_players + (m * span + MATCHES - 2) // (MATCHES - 1) if span else 0
        players = players or game.min_players
        match = new_match(game, players, seed=100 + m)
        rng = random.Random(m)
        for step in range(MAX_DECISIONS):
            if step % every == 0:
                start = time.perf_counter()
                check_views(game, check, match, f"match {m} ({players} players), step {step}")
                spent += time.perf_counter() - start
                if spent > BUDGET * (m + 1) / MATCHES / 4:
                    every = min(every * 2, 64)
            if match.is_over:
                break
            seat = rng.choice(sorted(match.to_act))
            match.apply(seat, rng.choice(match.legal_actions(seat)))
        check_views(game, check, match, f"match {m} ({players} players), the end")
