"""The Gymnasium environment: one seat against the game's bots."""

from __future__ import annotations

import warnings
from typing import SupportsFloat

import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

import numpy as np
from gymnasium.utils.env_checker import check_env

from pitkit import adapters, games
from pitkit.adapters.gym import PitkitGym


def fast_bot(name: str) -> str:
    """The game's heuristic bot (quicker than some opponents, Pitch's lookahead)."""
    return games.get(adapters.encoding(name).game).heuristic or "random"


@pytest.mark.parametrize("name", adapters.names())
def test_check_env(name: str) -> None:
    env = PitkitGym(name, short=True, opponent=fast_bot(name))
    with warnings.catch_warnings():
        # An unbounded Box: scores may run below zero, as documented.
        warnings.simplefilter("ignore", UserWarning)
        check_env(env, skip_render_check=True)


@pytest.mark.parametrize("name", adapters.names())
def test_masked_random_play_ends_with_a_reward(name: str) -> None:
    env = PitkitGym(name, seat=1, short=True, opponent=fast_bot(name), max_steps=5_000)
    observation, info = env.reset(seed=11)
    rng = np.random.default_rng(11)
    terminated = truncated = False
    reward: SupportsFloat = 0.0
    while not (terminated or truncated):
        assert np.array_equal(info["action_mask"], env.action_masks())
        assert observation.shape == env.observation_space.shape
        action = int(rng.choice(np.flatnonzero(env.action_masks())))
        observation, reward, terminated, truncated, info = env.step(action)
    if terminated:
        assert -1.0 <= float(reward) <= 1.0
        assert env.match.is_over


def test_the_same_seed_plays_the_same_match() -> None:
    def run() -> list[float]:
        env = PitkitGym("pitkit/pitty_pat-v0", short=True)
        observation, _ = env.reset(seed=4)
        rng = np.random.default_rng(0)
        seen = [float(observation.sum())]
        for _ in range(20):
            action = int(rng.choice(np.flatnonzero(env.action_masks())))
            observation, _, terminated, _, _ = env.step(action)
            seen.append(float(observation.sum()))
            if terminated:
                break
        return seen

    assert run() == run()


def test_reset_always_leaves_the_seat_a_move() -> None:
    # Pitty Pat's bots may finish a match before the seat's first turn: dealt again.
    env = PitkitGym("pitkit/pitty_pat-v0", seat=3, players=4, short=True)
    for seed in range(60):
        env.reset(seed=seed)
        assert not env.match.is_over and env.action_masks().any()


def test_gymnasium_make() -> None:
    import gymnasium

    from pitkit.adapters.gym import register

    assert register() == adapters.names()
    env = gymnasium.make("pitkit/pitch-v0", players=4, short=True, opponent="heuristic")
    observation, info = env.reset(seed=2)
    assert observation.shape == env.observation_space.shape
    assert info["action_mask"].any()
