"""The encodings: every legal move has one id, ids decode to their moves,
and an observation shows nothing a seat cannot see."""

from __future__ import annotations

import random
from typing import Any

import pytest

pytest.importorskip("pettingzoo")

import numpy as np

from pitkit import adapters, games
from pitkit.adapters.encoding import Layout, Row, Segment, Spans, entries, ranks_reward
from pitkit.core.errors import BadOptionError
from pitkit.core.match import Match
from tests.options import random_options

NAMES = adapters.names()
MAX_STEPS = 500


def random_match(name: str, seed: int) -> Match[Any, Any]:
    """A match of a drawn table size and drawn on/off or choice options;
    short (one hand) for even seeds, whole for odd ones (later hands differ:
    Pits' exchange)."""
    encoding = adapters.encoding(name)
    game = games.get(encoding.game)
    rng = random.Random(seed)
    while True:
        players = rng.randint(game.min_players, game.max_players)
        options: dict[str, Any] = encoding.short_rules() if seed % 2 == 0 else {}
        options.update(random_options(game, rng))
        try:
            return game.new_match(players, options, seed)
        except BadOptionError:
            continue


def positions(name: str, seed: int) -> list[tuple[Match[Any, Any], int]]:
    """Random play of one match: (match, seat) for each seat that may act, at every step."""
    match = random_match(name, seed)
    rng = random.Random(seed)
    seen = []
    for _ in range(MAX_STEPS):
        if match.is_over:
            break
        for seat in sorted(match.to_act):
            seen.append((match.clone(), seat))
        seat = rng.choice(sorted(match.to_act))
        legal = match.legal_actions(seat)
        if legal:
            match.apply(seat, rng.choice(legal))
    return seen


def test_rewards_come_from_places_and_add_up_to_zero() -> None:
    assert ranks_reward([1, 2]) == [1.0, -1.0]
    assert ranks_reward([1, 1]) == [0.0, 0.0]
    assert ranks_reward([2, 1, 3]) == [0.0, 1.0, -1.0]
    assert ranks_reward([1, 1, 3, 4]) == pytest.approx([2 / 3, 2 / 3, -1 / 3, -1.0])
    assert sum(ranks_reward([1, 2, 2, 2, 5])) == pytest.approx(0.0)


def test_every_game_has_an_environment() -> None:
    builtin = {"pits", "pit", "ace-pit", "pitty-pat", "pitch"}
    assert {adapters.encoding(name).game for name in NAMES} == builtin


@pytest.mark.parametrize("name", NAMES)
def test_layouts_add_up(name: str) -> None:
    encoding = adapters.encoding(name)(games.get(adapters.encoding(name).game).default_players)
    assert encoding.size == sum(s.size for s in encoding.features.segments)
    assert encoding.max_players == games.get(encoding.game).max_players
    assert len({s.name for s in encoding.moves.segments}) == len(encoding.moves.segments)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("seed", range(6))
def test_action_ids_are_a_bijection(name: str, seed: int) -> None:
    for match, seat in positions(name, seed):
        encoding = adapters.encoding(name)(match.players)
        legal = match.legal_actions(seat)
        ids = [encoding.encode(match, seat, action) for action in legal]
        assert len(set(ids)) == len(ids), f"two moves share an id: {legal}"
        assert all(0 <= i < encoding.actions for i in ids)
        for action_id, action in zip(ids, legal, strict=True):
            assert encoding.decode(match, seat, action_id) == action
        mask = encoding.mask(match, seat)
        assert set(np.flatnonzero(mask)) - {0} == set(ids) - {0}


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("seed", range(4))
def test_observations_leak_no_unseen_card(name: str, seed: int) -> None:
    rng = random.Random(seed)
    changed = 0
    for match, seat in positions(name, seed):
        encoding = adapters.encoding(name)(match.players)
        observation = encoding.observe(match, seat)
        assert observation.shape == (encoding.size,) and observation.dtype == np.float32
        other = match.redeal_unseen(seat, rng)
        changed += any(other.zones()[z] != match.zones()[z] for z in match.hidden_zones(seat))
        assert np.array_equal(encoding.observe(other, seat), observation)
        assert np.array_equal(encoding.mask(other, seat), encoding.mask(match, seat))
    assert changed, "the redeals never moved a card: the test proves nothing"


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("seed", range(3))
def test_every_write_keeps_to_its_segment(name: str, seed: int) -> None:
    # The environments write observations unchecked; checked, every index
    # must fall inside the segment it names, and the result be the same.
    for match, seat in positions(name, seed):
        fast = adapters.encoding(name)(match.players)
        checked = adapters.encoding(name)(match.players, checked=True)
        assert np.array_equal(checked.observe(match, seat), fast.observe(match, seat))


def test_a_write_outside_its_segment_is_caught_when_checked() -> None:
    layout = Layout((Segment("cards", 4, ""), Segment("seats", 2, "")))
    out = np.zeros(layout.size, np.float32)
    row = Row(Spans(layout), entries(out), checked=True)
    with pytest.raises(AssertionError, match="cards: index 4 outside 0-3"):
        row.bits("cards", [1, 4])
    row = Row(Spans(layout), entries(out), checked=True)
    with pytest.raises(AssertionError, match="wrote 'seats' where the layout has 'cards'"):
        row.values("seats", [1.0])
    row = Row(Spans(layout), entries(out))
    row.one_hot("cards", 2)
    with pytest.raises(AssertionError, match="not written to the end"):
        row.done()


def segment(encoding: Any, observation: np.ndarray, name: str) -> np.ndarray:
    """The entries of segment `name` in an observation."""
    at = 0
    for part in encoding.features.segments:
        if part.name == name:
            return observation[at : at + part.size]
        at += part.size
    raise KeyError(name)


def test_ace_pit_hides_points_while_the_running_score_is_hidden() -> None:
    encoding = adapters.encoding("pitkit/ace_pit-v0")(2)
    match = games.get("ace-pit").new_match(2, {"hands": 2, "hidden_running_score": True}, 3)
    rng = random.Random(3)
    while not match.is_over:
        for seat in (0, 1):
            observation = encoding.observe(match, seat)
            assert not segment(encoding, observation, "points").any()
            assert not segment(encoding, observation, "match")[2:].any()
        seat = min(match.to_act)
        match.apply(seat, rng.choice(match.legal_actions(seat)))
    assert segment(encoding, encoding.observe(match, 0), "points").any()
