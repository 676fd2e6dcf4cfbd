"""The turn-based games in OpenSpiel."""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")

from pitkit.adapters import openspiel  # noqa: E402

NAMES = openspiel.register()


def test_the_four_turn_based_games_are_registered() -> None:
    assert NAMES == [
        "python_pitkit_pits",
        "python_pitkit_ace_pit",
        "python_pitkit_pitty_pat",
        "python_pitkit_pitch",
    ]
    assert openspiel.register() == NAMES  # registering twice changes nothing


@pytest.mark.parametrize("name", NAMES)
def test_random_sim(name: str) -> None:
    game = pyspiel.load_game(name)
    game_type = game.get_type()
    assert game_type.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert game_type.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("players", [2, 4])
def test_parameters_and_observations(players: int) -> None:
    game = pyspiel.load_game("python_pitkit_pitch", {"players": players, "hands": 2})
    assert game.num_players() == players
    state = game.new_initial_state()
    assert state.is_chance_node()
    state.apply_action(12345)
    seat = state.current_player()
    assert 0 <= seat < players
    observation = state.observation_tensor(seat)
    assert len(observation) == openspiel.setup_of(game).encoding.size
    assert state.legal_actions() == sorted(state.legal_actions())
    # The same seed deals the same cards: a history replays.
    again = game.new_initial_state()
    again.apply_action(12345)
    assert str(again) == str(state)


# -- search over information sets --------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_resample_keeps_to_what_the_seat_knows(name: str) -> None:
    game = pyspiel.load_game(name, {"hands": 1})
    state = game.new_initial_state()
    state.apply_action(321)
    rng = random.Random(4)
    moved = False  # did some world deal another seat's cards otherwise?
    while not state.is_terminal():
        seat = state.current_player()
        for _ in range(3):
            world = openspiel.resample(state, seat, rng)
            assert world.observation_string(seat) == state.observation_string(seat)
            assert world.observation_tensor(seat) == state.observation_tensor(seat)
            assert world.legal_actions(seat) == state.legal_actions(seat)
            assert world.match is not None and state.match is not None
            others = [s for s in range(game.num_players()) if s != seat]
            moved |= any(world.match.view(s) != state.match.view(s) for s in others)
        state.apply_action(rng.choice(state.legal_actions()))
    assert moved


@pytest.mark.parametrize("name", NAMES)
def test_ismcts_plays_a_full_game_with_the_pitkit_resampler(name: str) -> None:
    players = 5 if name == "python_pitkit_pits" else 3 if name == "python_pitkit_pitch" else 2
    game = pyspiel.load_game(name, {"players": players, "hands": 1})
    bot = openspiel.ismcts_bot(game, seed=1, simulations=8)
    rng = random.Random(2)
    state = game.new_initial_state()
    state.apply_action(77)
    searched = 0
    while not state.is_terminal():
        if state.current_player() == 0:
            action = int(bot.step(state))  # asserts each world's observation is the root's
            searched += 1
        else:
            action = rng.choice(state.legal_actions())
        assert action in state.legal_actions()
        state.apply_action(action)
    returns = state.returns()
    assert searched > 0
    assert len(returns) == players and abs(sum(returns)) < 1e-9
    assert all(-1.0 <= r <= 1.0 for r in returns)


def test_openspiel_resample_from_infostate_is_the_pitkit_resampler() -> None:
    game = pyspiel.load_game("python_pitkit_ace_pit", {"hands": 1})
    state = game.new_initial_state()
    state.apply_action(9)
    world = state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert isinstance(world, openspiel.PitkitState)
    assert world.observation_string(0) == state.observation_string(0)


@pytest.mark.parametrize("name", NAMES)
def test_the_information_state_is_what_the_seat_saw(name: str) -> None:
    """Perfect recall: the information state grows with every move; a world
    the seat cannot tell apart (its unseen cards dealt anew) has the same
    one, while another seat's differs, as its own cards differ."""
    game = pyspiel.load_game(name, {"hands": 1})
    assert game.get_type().provides_information_state_string
    state = game.new_initial_state()
    state.apply_action(4242)
    rng = random.Random(7)
    before = state.information_state_string(0)
    for _ in range(6):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    seat = 0
    now = state.information_state_string(seat)
    assert now.startswith(before) and len(now) > len(before)
    world = openspiel.resample(state, seat, random.Random(1))
    assert world.information_state_string(seat) == now
    assert state.information_state_string(1) != now
    assert "secret" not in now and "order" not in now  # no shuffle's order
