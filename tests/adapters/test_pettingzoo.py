"""The PettingZoo environments pass PettingZoo's own checks."""

from __future__ import annotations

import warnings

import pytest

pytest.importorskip("pettingzoo")

import numpy as np
import pettingzoo
from pettingzoo.test import (
    api_test,
    parallel_api_test,
    parallel_seed_test,
    seed_test,
)
from pettingzoo.test.state_test import test_parallel_env as parallel_state_test
from pettingzoo.test.state_test import test_state_space as state_space_test

from pitkit import adapters, games
from pitkit.adapters import PitkitAEC, PitkitParallel
from pitkit.core.errors import IllegalActionError, UnknownNameError

TURN_BASED = [n for n in adapters.names() if n != "pitkit/pit-v0"]


@pytest.fixture(autouse=True)
def _quiet() -> None:
    # PettingZoo's checks warn that a dict observation "should be a Box", and
    # about all-zero masks of seats not to act: both as designed.
    warnings.simplefilter("ignore", UserWarning)


@pytest.mark.parametrize("name", TURN_BASED)
def test_aec_api(name: str) -> None:
    env = adapters.make(name, short=True)
    assert isinstance(env, PitkitAEC)
    api_test(env, num_cycles=300)


@pytest.mark.parametrize("name", TURN_BASED)
def test_aec_seed(name: str) -> None:
    seed_test(lambda: adapters.make(name, short=True), num_cycles=300)


def test_parallel_api() -> None:
    env = adapters.make("pitkit/pit-v0", short=True, players=4)
    assert isinstance(env, PitkitParallel)
    parallel_api_test(env, num_cycles=300)


def test_parallel_seed() -> None:
    parallel_seed_test(lambda: adapters.make("pitkit/pit-v0", short=True), num_cycles=300)


@pytest.mark.parametrize("name", TURN_BASED)
def test_a_match_plays_to_the_end_with_final_rewards(name: str) -> None:
    # Two hands: a second hand differs (Pits' exchange, with two seats at once).
    env = adapters.make(name, rules={"hands": 2})
    assert isinstance(env, PitkitAEC)
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    total = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter(100_000):
        observation, reward, terminated, truncated, _ = env.last()
        total[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        env.step(int(rng.choice(legal)))
    assert not env.agents and env.match.is_over
    assert sum(total.values()) == pytest.approx(0.0)
    assert all(-1.0 <= r <= 1.0 for r in total.values()) and max(total.values()) > 0


def test_pit_waits_and_trades() -> None:
    env = adapters.make("pitkit/pit-v0", short=True, players=3)
    assert isinstance(env, PitkitParallel)
    observations, _ = env.reset(seed=5)
    rng = np.random.default_rng(5)
    refused = ticks = 0
    while env.agents:
        actions = {}
        for agent in env.agents:
            mask = observations[agent]["action_mask"]
            assert mask[0] == 1, "waiting is always legal"
            actions[agent] = int(rng.choice(np.flatnonzero(mask)))
        observations, _, terminations, truncations, infos = env.step(actions)
        refused += sum("refused" in info for info in infos.values())
        ticks += 1
    assert all(terminations.values()) or all(truncations.values())
    assert env.table.trades > 0 and ticks > 1


def test_an_illegal_id_is_refused() -> None:
    env = adapters.make("pitkit/ace_pit-v0", short=True)
    assert isinstance(env, PitkitAEC)
    env.reset(seed=1)
    mask = env.observe(env.agent_selection)["action_mask"]
    with pytest.raises(IllegalActionError, match="you do not hold"):
        env.step(int(np.flatnonzero(mask == 0)[0]))


def test_unknown_names_list_the_environments() -> None:
    with pytest.raises(UnknownNameError, match="pitkit/pits-v0"):
        adapters.make("pitkit/war-v0")


@pytest.mark.parametrize("name", adapters.names())
def test_pettingzoo_make_makes_the_five(name: str) -> None:
    players = games.get(adapters.encoding(name).game).min_players
    env = pettingzoo.make(adapters.kind(name), name, short=True, players=players)
    assert isinstance(env, PitkitParallel if name == "pitkit/pit-v0" else PitkitAEC)
    assert env.metadata["name"] == name and len(env.possible_agents) == players
    # Without the version, PettingZoo finds the latest.
    assert type(pettingzoo.make(adapters.kind(name), name.removesuffix("-v0"))) is type(env)


@pytest.mark.parametrize("name", TURN_BASED)
def test_the_state_shows_every_seat_s_view_and_no_seat_is_shown_it(name: str) -> None:
    env = adapters.make(name, short=True)
    env.reset(seed=4)
    state_space_test(env)
    size = env.encoding.size
    observations = {a: env.observe(a) for a in env.possible_agents}
    state = env.state()
    assert env.state_space.contains(state)
    assert state.shape == (env.encoding.max_players * size,)
    for seat, agent in enumerate(env.possible_agents):
        assert set(observations[agent]) == {"observation", "action_mask"}
        assert np.array_equal(
            state[seat * size : (seat + 1) * size], observations[agent]["observation"]
        )
    assert not state[len(env.possible_agents) * size :].any()
    # Seat 0's unseen cards dealt otherwise: its observation stays, the state does not.
    env.match = env.match.redeal_unseen(0, 5)
    assert np.array_equal(
        env.observe("player_0")["observation"], observations["player_0"]["observation"]
    )
    assert not np.array_equal(env.state(), state)


def test_pit_has_a_state_too() -> None:
    env = adapters.make("pitkit/pit-v0", short=True, players=4)
    assert isinstance(env, PitkitParallel)
    parallel_state_test(env)
    observations, _ = env.reset(seed=2)
    size = env.encoding.size
    assert np.array_equal(env.state()[size : 2 * size], observations["player_1"]["observation"])
