"""The turn-based games in OpenSpiel."""

from __future__ import annotations

import json
import pickle
import random
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")

import numpy as np  # noqa: E402

from pitkit.adapters import openspiel  # noqa: E402
from pitkit.adapters.table import SharedChance  # noqa: E402

NAMES = openspiel.register()
TABLES = {  # a table size for each game: the largest Pits table, a three-seat Pitch
    "python_pitkit_pits": 5,
    "python_pitkit_ace_pit": 2,
    "python_pitkit_pitty_pat": 2,
    "python_pitkit_pitch": 3,
}


def dealt(game: Any, seed: int) -> openspiel.PitkitState:
    """A new state of `game` (a pitkit game in OpenSpiel), its chance nodes
    drawn to match seed `seed`."""
    state: openspiel.PitkitState = game.new_initial_state()
    for byte in openspiel.seed_bytes(seed):
        assert state.is_chance_node()
        state.apply_action(byte)
    assert not state.is_chance_node()
    return state


def play(state: openspiel.PitkitState, moves: int, rng: random.Random) -> None:
    """Up to `moves` random legal moves."""
    for _ in range(moves):
        if state.is_terminal():
            return
        state.apply_action(rng.choice(state.legal_actions()))


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
    """OpenSpiel's own checks: clones, serialization, chance outcomes, the
    sizes of both tensors (the information state's included) at every state."""
    game = pyspiel.load_game(name)
    game_type = game.get_type()
    assert game_type.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert game_type.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game_type.provides_information_state_tensor
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_chance_draws_the_match_seed_a_byte_at_a_time() -> None:
    game = pyspiel.load_game("python_pitkit_pitch", {"players": 4})
    assert game.max_chance_outcomes() == 256
    state = game.new_initial_state()
    outcomes = state.chance_outcomes()
    assert [a for a, _ in outcomes] == list(range(256))
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    assert state.legal_actions() == list(range(256))  # through OpenSpiel's C++ too
    seed = 0x0123_4567_89AB_CDEF
    state = dealt(game, seed)
    assert state.match is not None and state.match.chance.seed == seed
    assert state.history() == openspiel.seed_bytes(seed)
    with pytest.raises(ValueError, match="match seed"):
        openspiel.seed_bytes(openspiel.SEEDS)


@pytest.mark.parametrize("players", [2, 4])
def test_parameters_and_observations(players: int) -> None:
    game = pyspiel.load_game("python_pitkit_pitch", {"players": players, "hands": 2})
    assert game.num_players() == players
    state = dealt(game, 12345)
    seat = state.current_player()
    assert 0 <= seat < players
    observation = state.observation_tensor(seat)
    assert len(observation) == openspiel.setup_of(game).encoding.size
    assert state.legal_actions() == sorted(state.legal_actions())
    # The same seed deals the same cards: a history replays.
    assert str(dealt(game, 12345)) == str(state)


# -- copies -------------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_a_clone_is_independent(name: str) -> None:
    """Moves on a clone leave the original as it was, and the other way round;
    the same moves on both give the same states (the same draws of chance:
    the second hand's deal)."""
    game = pyspiel.load_game(name, {"players": TABLES[name], "hands": 2})
    state = dealt(game, 99)
    play(state, 5, random.Random(1))
    before = (str(state), state.history(), state.legal_actions())
    clone = state.clone()
    play(clone, 30, random.Random(2))
    assert clone.history() != before[1]
    assert (str(state), state.history(), state.legal_actions()) == before
    other = state.clone()
    play(state, 500, random.Random(3))
    play(other, 500, random.Random(3))
    assert state.is_terminal()
    assert str(other) == str(state) and other.history() == state.history()
    assert other.returns() == state.returns()


@pytest.mark.parametrize("name", NAMES)
def test_what_a_clone_has_seen_is_its_own(name: str) -> None:
    """A state and its clone share what their seats have seen so far, then
    each goes on with its own moves: each information state is its own."""
    players = TABLES[name]
    game = pyspiel.load_game(name, {"players": players})
    state = dealt(game, 8)
    play(state, 3, random.Random(1))
    for seat in range(players):  # kept before the clone, and shared with it
        state.information_state_string(seat)
        state.information_state_tensor(seat)
    clone = state.clone()
    play(clone, 3, random.Random(2))
    play(state, 3, random.Random(3))
    width = openspiel.setup_of(game).encoding.size
    for each in (clone, state):
        assert each.match is not None
        for seat in range(players):
            lines = [json.dumps(e.seen_by(seat), sort_keys=True) for e in each.match.log]
            assert each.information_state_string(seat) == "\n".join([f'{{"seat": {seat}}}', *lines])
            last = each.information_state_tensor(seat)[6 * width : 7 * width]
            assert last == each.observation_tensor(seat)


def test_the_copies_of_a_shared_chance_draw_alike_and_apart() -> None:
    chance = SharedChance(5)
    copy = chance.clone(None)
    first = chance.shuffle(range(20))
    assert copy.shuffle(range(20)) == first  # the same outcome, from the same place
    assert chance.pick(1000) == copy.pick(1000)
    again = copy.clone(None)
    copy.shuffle(range(5))  # drawing from one copy moves no other
    assert again.shuffle(range(20)) == chance.clone(None).shuffle(range(20))


@pytest.mark.parametrize("name", NAMES)
def test_a_pickled_state_comes_back(name: str) -> None:
    game = pyspiel.load_game(name, {"players": TABLES[name]})
    state = dealt(game, 5)
    play(state, 7, random.Random(5))
    seat = state.current_player()
    back = pickle.loads(pickle.dumps(state))
    assert str(back) == str(state) and back.history() == state.history()
    # Its recall is left out of the pickle, and rebuilt alike by replay.
    assert back.information_state_tensor(seat) == state.information_state_tensor(seat)
    # A pickled game (OpenSpiel keeps its name and parameters) deals alike.
    again = pickle.loads(pickle.dumps(game))
    assert str(dealt(again, 5)) == str(dealt(game, 5))
    assert str(pickle.loads(pickle.dumps(dealt(again, 5)))) == str(dealt(game, 5))


# -- the information state ------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_the_tensor_holds_each_observation_so_far(name: str) -> None:
    game = pyspiel.load_game(name, {"players": TABLES[name]})
    setup = openspiel.setup_of(game)
    width = setup.encoding.size
    assert game.information_state_tensor_shape() == [(setup.moves + 1) * width]
    state = dealt(game, 31)
    rng = random.Random(8)
    seen = {s: [state.observation_tensor(s)] for s in range(game.num_players())}
    for _ in range(6):
        play(state, 1, rng)
        for s in range(game.num_players()):
            seen[s].append(state.observation_tensor(s))
    for s in range(game.num_players()):
        rows = np.array(state.information_state_tensor(s)).reshape(setup.moves + 1, width)
        assert np.array_equal(rows[:7], np.array(seen[s]))
        assert not rows[7:].any()


@pytest.mark.parametrize("name", NAMES)
def test_a_resampled_world_keeps_the_seat_s_information_state(name: str) -> None:
    game = pyspiel.load_game(name, {"players": TABLES[name]})
    state = dealt(game, 17)
    rng = random.Random(3)
    play(state, 4, rng)
    seat = state.current_player()
    tensor = state.information_state_tensor(seat)
    world = openspiel.resample(state, seat, rng)
    assert world.information_state_tensor(seat) == tensor
    assert world.information_state_string(seat) == state.information_state_string(seat)
    # A world whose recall was never built rebuilds it from its own past.
    fresh = dealt(game, 17)
    play(fresh, 4, random.Random(3))
    world = openspiel.resample(fresh, seat, random.Random(4))
    assert world.information_state_tensor(seat) == tensor
    # And it goes on remembering its own moves: the last row is what it sees.
    play(world, 1, rng)
    width = openspiel.setup_of(game).encoding.size
    last = world.information_state_tensor(seat)[5 * width : 6 * width]
    assert last == world.observation_tensor(seat)


@pytest.mark.parametrize("name", NAMES)
def test_the_tensor_tells_apart_what_the_string_tells_apart(name: str) -> None:
    """Perfect recall: over random plays of a few deals, two states share a
    seat's information-state string exactly when they share its tensor."""
    from open_spiel.python.observation import make_observation

    players = TABLES[name]
    game = pyspiel.load_game(name, {"players": players})
    # OpenSpiel's observation API: the tensor as an array, not a list of floats.
    recall = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    by_string: dict[tuple[int, str], bytes] = {}
    by_tensor: dict[tuple[int, bytes], str] = {}
    for play_number in range(8):
        state = dealt(game, play_number % 2)
        rng = random.Random(play_number)
        for _ in range(8):
            for seat in range(players):
                recall.set_from(state, seat)
                string = state.information_state_string(seat)
                assert recall.string_from(state, seat) == string
                tensor = recall.tensor.tobytes()
                assert by_string.setdefault((seat, string), tensor) == tensor
                assert by_tensor.setdefault((seat, tensor), string) == string
            play(state, 1, rng)
    assert len(by_string) < 8 * 8 * players  # some information states met twice


def test_the_tensor_refuses_a_match_longer_than_its_bound() -> None:
    game = pyspiel.load_game("python_pitkit_ace_pit", {"recall": 3})
    assert game.information_state_tensor_shape() == [4 * 171]
    state = dealt(game, 2)
    play(state, 3, random.Random(1))
    assert len(state.information_state_tensor(0)) == 4 * 171
    play(state, 1, random.Random(1))
    with pytest.raises(openspiel.RecallBoundError, match="larger `recall`"):
        state.information_state_tensor(0)


@pytest.mark.parametrize("name", NAMES)
def test_the_information_state_is_what_the_seat_saw(name: str) -> None:
    """Perfect recall: the information state grows with every move; a world
    the seat cannot tell apart (its unseen cards dealt anew) has the same
    one, while another seat's differs, as its own cards differ."""
    game = pyspiel.load_game(name, {"hands": 1})
    assert game.get_type().provides_information_state_string
    state = dealt(game, 4242)
    rng = random.Random(7)
    before = state.information_state_string(0)
    play(state, 6, rng)
    seat = 0
    now = state.information_state_string(seat)
    assert now.startswith(before) and len(now) > len(before)
    world = openspiel.resample(state, seat, random.Random(1))
    assert world.information_state_string(seat) == now
    assert state.information_state_string(1) != now
    assert "secret" not in now and "order" not in now  # no shuffle's order


# -- search and learning ----------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_resample_keeps_to_what_the_seat_knows(name: str) -> None:
    game = pyspiel.load_game(name, {"hands": 1})
    state = dealt(game, 321)
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
    players = TABLES[name]
    game = pyspiel.load_game(name, {"players": players, "hands": 1})
    bot = openspiel.ismcts_bot(game, seed=1, simulations=8)
    rng = random.Random(2)
    state = dealt(game, 77)
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


@pytest.mark.parametrize("name", ["python_pitkit_ace_pit", "python_pitkit_pitch"])
def test_ismcts_plays_in_evaluate_bots(name: str) -> None:
    """OpenSpiel's `evaluate_bots` restarts every bot at the first state."""
    from open_spiel.python.algorithms import evaluate_bots

    players = TABLES[name]
    game = pyspiel.load_game(name, {"players": players})
    bots = [openspiel.ismcts_bot(game, seed=3, simulations=4)]
    bots += [pyspiel.make_uniform_random_bot(seat, seat) for seat in range(1, players)]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(5))
    assert len(returns) == players and sum(returns) == pytest.approx(0.0)


def test_openspiel_resample_from_infostate_is_the_pitkit_resampler() -> None:
    game = pyspiel.load_game("python_pitkit_ace_pit", {"hands": 1})
    state = dealt(game, 9)
    world = state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert isinstance(world, openspiel.PitkitState)
    assert world.observation_string(0) == state.observation_string(0)


def test_outcome_sampling_mccfr_learns_on_ace_pit() -> None:
    """Outcome-sampling MCCFR runs (its speed is benchmarks/adapters_speed.py's)."""
    from open_spiel.python.algorithms import outcome_sampling_mccfr

    game = pyspiel.load_game("python_pitkit_ace_pit")
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    np.random.seed(1)
    for _ in range(30):
        solver.iteration()
    policy = solver.average_policy()
    state = dealt(game, 1)
    probabilities = policy.action_probabilities(state)
    assert set(probabilities) == set(state.legal_actions())
    assert sum(probabilities.values()) == pytest.approx(1.0)
    assert len(solver._infostates) > 100  # visited information states
