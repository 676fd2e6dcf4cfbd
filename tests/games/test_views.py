"""Every game declares the type of its view (`Game.view_type`), and every
view of random play fits the JSON Schema made from that declaration: each
seat's and a spectator's, throughout whole matches. Card places are
checked to hold a card's text (``"format": "card"``)."""

from __future__ import annotations

import random
import sys
import typing
from typing import Any

import pytest
from jsonschema import Draft202012Validator, FormatChecker
from jsonschema.exceptions import best_match

from pitkit import games
from pitkit.cards import Commodity, PitCard, standard_deck
from pitkit.core import BadOptionError, Match
from pitkit.core.game import Game
from pitkit.core.views import TableView, json_schema
from pitkit.games.pit.views import PitCommodity
from tests.options import random_options

GAMES = games.names()
MATCHES = 5  # whole matches per game, their players spread from min to max
MAX_DECISIONS = 3_000  # per match
STRIDE = 20  # views are checked every STRIDE decisions, when a phase is first met, and at the end
CHECKS = 40  # most checks every STRIDE decisions in a match (Pitch's run to 100 hands)
RECENT = 3  # items of each list kept in the views checked during play (`check_views`)

CARD_TEXTS = frozenset(str(c) for c in standard_deck(jokers=True)) | {c.value for c in PitCard}


def is_card(text: object) -> bool:
    """A card's text exactly as pitkit writes it: ``7H``, ``RJ``, ``wheat``."""
    return not isinstance(text, str) or text in CARD_TEXTS


CARD_FORMAT = FormatChecker()
CARD_FORMAT.checks("card")(is_card)


def validator(game: Game) -> Draft202012Validator:
    assert game.view_type is not None
    return Draft202012Validator(json_schema(game.view_type), format_checker=CARD_FORMAT)


def new_match(game: Game, players: int, seed: int) -> Match[Any, Any]:
    """A match with random on/off and choice options (redrawn while they do not fit)."""
    rng = random.Random(seed)
    for _ in range(50):
        options = random_options(game, rng)
        try:
            return game.new_match(players, options, seed)
        except BadOptionError:
            continue
    return game.new_match(players, seed=seed)


def recent(value: Any) -> Any:
    """`value` with every list in it cut to its last `RECENT` items."""
    if isinstance(value, list):
        return [recent(item) for item in value[-RECENT:]]
    if isinstance(value, dict):
        return {key: recent(item) for key, item in value.items()}
    return value


def check_views(
    game: Game, check: Draft202012Validator, match: Match[Any, Any], when: str, *, whole: bool
) -> None:
    """Check every seat's view and the spectator's against the schema.

    Checking is slow, some milliseconds a view and more as the history and
    the score sheet grow, so unless `whole` each view is checked with every
    list cut to its newest items (`recent`): the schemas' lists are of one
    kind of item each, so what is new is checked as it comes."""
    for seat in [None, *range(match.players)]:
        view = match.view(seat) if whole else recent(match.view(seat))
        if not check.is_valid(view):
            error = best_match(check.iter_errors(view))
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
    for m in range(MATCHES):
        players = game.min_players + round(m * span / (MATCHES - 1))
        match = new_match(game, players, seed=100 + m)
        rng = random.Random(m)
        seen: set[object] = set()  # the phases checked already
        checks = 0  # made every STRIDE decisions: a long match stops them at CHECKS
        for step in range(MAX_DECISIONS):
            if match.is_over:
                break
            phase = getattr(match.current_hand, "phase", None)
            first = phase not in seen
            if first or (step % STRIDE == 0 and checks < CHECKS):
                when = f"match {m} ({players} players), decision {step}"
                check_views(game, check, match, when, whole=first)
                checks += 0 if first else 1
                seen.add(phase)
            seat = rng.choice(sorted(match.to_act))
            match.apply(seat, rng.choice(match.legal_actions(seat)))
        check_views(game, check, match, f"match {m} ({players} players), the end", whole=True)
