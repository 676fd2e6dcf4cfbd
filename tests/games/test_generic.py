"""Properties that hold for every registered game, checked through the
common interface alone. A game added to the registry is checked here
without a line of test code of its own."""

from __future__ import annotations

import json
import pickle
import random
import typing
from collections import Counter
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from pitkit import bots as bot_registry
from pitkit import games
from pitkit.bots import RandomBot
from pitkit.core import BadOptionError, IllegalActionError, Match, read_log, write_log
from pitkit.core.game import Game
from pitkit.core.narrate import plain
from tests.games.words import worded

GAMES = games.names()
MAX_DECISIONS = 50_000
PROPERTY = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def random_match(data: st.DataObject, game: Game) -> tuple[Match[Any, Any], random.Random]:
    """A new match with drawn players, seed and on/off or choice options."""
    players = data.draw(st.integers(game.min_players, game.max_players), label="players")
    options: dict[str, Any] = {}
    for info in game.rules.options():
        if info.choices:
            options[info.name] = data.draw(st.sampled_from(info.choices), label=info.name)
        elif info.type == "bool":
            options[info.name] = data.draw(st.booleans(), label=info.name)
    seed = data.draw(st.integers(0, 2**32), label="seed")
    try:
        match = game.new_match(players, {**game.short_match, **options}, seed)
    except BadOptionError:
        assume(False)
        raise
    return match, data.draw(st.randoms(use_true_random=False), label="rng")


def step(match: Match[Any, Any], rng: random.Random) -> tuple[int, Any]:
    """Play one random legal action; return who played what."""
    seat = rng.choice(sorted(match.to_act))
    action = rng.choice(match.legal_actions(seat))
    match.apply(seat, action)
    return seat, action


def card_count(match: Match[Any, Any]) -> Counter[Any]:
    return Counter(card for cards in match.zones().values() for card in cards)


def snapshot(match: Match[Any, Any]) -> bytes:
    """Everything observable about a match, all seats and zones included."""
    views = [match.view(seat) for seat in [None, *range(match.players)]]
    zones = {name: [str(c) for c in cards] for name, cards in match.zones().items()}
    log = [e.to_json() for e in match.log]
    # orjson: taken many times a move, and the standard encoder was most of the time.
    return orjson.dumps(
        [views, zones, log, sorted(match.to_act)],
        default=str,
        option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS,
    )


@pytest.mark.parametrize("name", GAMES)
@PROPERTY
@given(data=st.data())
def test_random_play_ends_and_conserves_cards(name: str, data: st.DataObject) -> None:
    match, rng = random_match(data, games.get(name))
    deck = card_count(match)
    for _ in range(MAX_DECISIONS):
        if match.is_over:
            break
        seat, action = step(match, rng)
        assert card_count(match) == deck, f"cards changed after seat {seat} played {action}"
    assert match.is_over, "random play did not end"
    outcome = match.outcome
    assert outcome is not None
    assert len(outcome.ranks) == len(outcome.points) == match.players
    assert min(outcome.ranks) == 1
    assert match.to_act == frozenset()


@pytest.mark.parametrize("name", GAMES)
@PROPERTY
@given(data=st.data())
def test_illegal_actions_change_nothing(name: str, data: st.DataObject) -> None:
    match, rng = random_match(data, games.get(name))
    seen: list[Any] = []
    for _ in range(data.draw(st.integers(0, 120), label="moves")):
        if match.is_over:
            break
        seat = rng.choice(sorted(match.to_act))
        seen += match.legal_actions(seat)
        before = snapshot(match)
        idle = [s for s in range(match.players) if s not in match.to_act]
        attempts: list[tuple[int, Any]] = [
            (seat, "xyzzy 7H"),
            (seat, {"kind": "no-such-action"}),
            (seat, {"kind": None}),
            (seat, ""),
            (seat, 42),
        ]
        if idle:
            attempts.append((rng.choice(idle), rng.choice(match.legal_actions(seat))))
        # Earlier moves that the rules now refuse; a game may take one out of
        # its time to penalize it (Pit's early trading, T3), not listing it.
        stale = [a for a in seen if not match.allows(seat, a)]
        if stale:
            attempts.append((seat, rng.choice(stale)))
        for who, attempt in attempts:
            with pytest.raises(IllegalActionError) as refused:
                match.apply(who, attempt)
            assert str(refused.value), "an illegal action must say why"
            assert snapshot(match) == before, f"refusing {attempt!r} changed the game"
        step(match, rng)


@pytest.mark.parametrize("name", GAMES)
@PROPERTY
@given(data=st.data())
def test_log_replays_to_the_same_game(
    name: str, data: st.DataObject, tmp_path_factory: Any
) -> None:
    game = games.get(name)
    match, rng = random_match(data, game)
    for _ in range(data.draw(st.integers(0, 400), label="moves")):
        if match.is_over:
            break
        step(match, rng)
    path = tmp_path_factory.mktemp("logs") / "game.jsonl"
    write_log(path, match.header(), match.log)
    header, events = read_log(path)
    replayed = game.replay(header, events)
    assert snapshot(replayed) == snapshot(match)


@pytest.mark.parametrize("name", GAMES)
@PROPERTY
@given(data=st.data())
def test_same_seed_and_actions_give_the_same_game(name: str, data: st.DataObject) -> None:
    game = games.get(name)
    match, rng = random_match(data, game)
    twin = game.new_match(match.players, match.rules, match.chance.seed)
    assert snapshot(twin) == snapshot(match)
    for _ in range(data.draw(st.integers(0, 300), label="moves")):
        if match.is_over:
            break
        seat, action = step(match, rng)
        twin.apply(seat, str(action))
        assert snapshot(twin) == snapshot(match)


@pytest.mark.parametrize("name", GAMES)
@PROPERTY
@given(data=st.data())
def test_views_show_no_card_their_seat_cannot_see(name: str, data: st.DataObject) -> None:
    """Compare each seat's view with its view of the same game in which the
    cards it cannot see were dealt differently: they must be identical."""
    match, rng = random_match(data, games.get(name))
    moved = 0
    for _ in range(data.draw(st.integers(1, 300), label="moves")):
        for seat in [None, *range(match.players)]:
            other = match.redeal_unseen(seat, rng.getrandbits(32))
            moved += other.zones() != match.zones()
            view = match.view(seat)
            assert other.view(seat) == view, f"seat {seat} sees a card it should not"
            assert json.dumps(view)  # a view is JSON as it is
        if match.is_over:
            break
        step(match, rng)
    assert moved, "redealing unseen cards never changed anything: the test proves nothing"


@pytest.mark.parametrize("name", GAMES)
@PROPERTY
@given(data=st.data())
def test_clones_are_independent(name: str, data: st.DataObject) -> None:
    match, rng = random_match(data, games.get(name))
    for _ in range(data.draw(st.integers(0, 100), label="moves")):
        if match.is_over:
            break
        step(match, rng)
    before = snapshot(match)
    copy = match.clone()
    assert snapshot(copy) == before
    for _ in range(50):
        if copy.is_over:
            break
        step(copy, rng)
    assert snapshot(match) == before


@pytest.mark.parametrize("name", GAMES)
@PROPERTY
@given(data=st.data())
def test_a_match_and_its_bots_survive_pickling(name: str, data: st.DataObject) -> None:
    """The server's bot processes and the arena's workers are sent matches and bots
    by pickle (compiled engines too): what arrives is the same match, and plays on
    the same, and every bot of the game travels with it."""
    game = games.get(name)
    match, rng = random_match(data, game)
    for _ in range(data.draw(st.integers(0, 60), label="moves")):
        if match.is_over:
            break
        step(match, rng)
    copy = pickle.loads(pickle.dumps(match.clone()))
    assert snapshot(copy) == snapshot(match)
    if not match.is_over:
        seat, action = step(match, random.Random(1))
        copy.apply(seat, action)
        assert snapshot(copy) == snapshot(match)
    for bot_name in bot_registry.names(game):
        bot = bot_registry.make(game, bot_name, 1)
        assert type(pickle.loads(pickle.dumps(bot))) is type(bot)


@pytest.mark.parametrize("name", GAMES)
def test_every_action_round_trips_through_text_and_json(name: str) -> None:
    game = games.get(name)
    match = game.new_match(rules=dict(game.short_match), seed=3)
    bots = [RandomBot(seat) for seat in range(match.players)]
    while not match.is_over:
        seat = min(match.to_act)
        for action in match.legal_actions(seat):
            assert match.parse_action(str(action)) == action
            assert match.parse_action(json.loads(json.dumps(action.to_json()))) == action
        match.apply(seat, bots[seat].choose(match, seat))


@pytest.mark.parametrize("name", GAMES)
def test_rules_options_are_documented_and_parse(name: str) -> None:
    game = games.get(name)
    for info in game.rules.options():
        assert info.doc, f"option {info.name} needs a one-line explanation"
        value = game.rules.from_options([f"{info.name}={info.default}"])
        assert getattr(value, info.name) == info.default
    with pytest.raises(BadOptionError, match="unknown option"):
        game.rules.from_options(["no_such_option=1"])
    assert typing.get_type_hints(game.rules)


@pytest.mark.parametrize("name", GAMES)
def test_rule_options_have_names_for_players(name: str) -> None:
    # What the lobby and the rules page show: words, never the option's code name
    # or a ruling's code, and no two options alike.
    labels = [info.label for info in games.get(name).rules.options()]
    for info in games.get(name).rules.options():
        assert info.label[0].isupper(), info.label
        assert "_" not in info.label, info.label
        assert plain(info.label) == info.label, info.label
    assert len(set(labels)) == len(labels)


@pytest.mark.parametrize("name", GAMES)
@PROPERTY
@given(data=st.data())
def test_every_event_has_words_for_every_reader(name: str, data: st.DataObject) -> None:
    # The game's own words (`Game.describe`): never a seat by number, and an
    # action opens with its actor, "You" for the reader.
    match, rng = random_match(data, games.get(name))
    for _ in range(MAX_DECISIONS):
        if match.is_over:
            break
        step(match, rng)
    assert "action" in worded(match)


@pytest.mark.parametrize("name", GAMES)
def test_roles_name_bots_of_the_game(name: str) -> None:
    game = games.get(name)
    assert game.opponent in {*game.bots, "random"}
    assert game.heuristic is None or game.heuristic in game.bots
    if game.heuristic is not None:
        bot = game.bots[game.heuristic].make(1)
        match = game.new_match(seed=1)
        seat = min(match.to_act)
        assert bot.choose(match, seat) in match.legal_actions(seat)
