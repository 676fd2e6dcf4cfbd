"""The turn-based games in OpenSpiel."""

from __future__ import annotations

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
