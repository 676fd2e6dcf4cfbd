"""The batched environments: each match plays as a single environment would,
step for step; masks allow exactly the legal moves; ends deal again; bad
actions are refused before any match moves; the same seed, the same arrays."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium.vector import AutoresetMode, SyncVectorEnv
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pitkit import adapters
from pitkit.adapters import PitkitAEC, PitkitParallel
from pitkit.adapters.gym import PitkitGym
from pitkit.adapters.vector import PitkitVectorAEC, PitkitVectorEnv, PitkitVectorParallel
from pitkit.core.errors import IllegalActionError

NAMES = adapters.names()
PIT = "pitkit/pit-v0"
TURN_BASED = [n for n in NAMES if n != PIT]
MODES = [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP]
AllSeats = PitkitVectorAEC | PitkitVectorParallel
Batch = PitkitVectorEnv | AllSeats


def pick(masks: npt.NDArray[np.bool_], rng: np.random.Generator) -> npt.NDArray[np.int64]:
    """A random legal id for each row of `masks` (0 for a row with none)."""
    rows = masks.reshape(-1, masks.shape[-1])
    ids = [int(rng.choice(np.flatnonzero(row))) if row.any() else 0 for row in rows]
    return np.array(ids, np.int64).reshape(masks.shape[:-1])


def batch(name: str, n: int, **kwargs: Any) -> AllSeats:
    """The all-seats batch of `name`: AEC, or Parallel for Pit."""
    if name == PIT:
        return PitkitVectorParallel(name, n, players=4, short=True, max_ticks=40, **kwargs)
    return PitkitVectorAEC(name, n, short=True, **kwargs)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", NAMES)
def test_the_one_seat_batch_plays_as_gymnasium_s_sync_vector_env(
    name: str, mode: AutoresetMode
) -> None:
    n = 3
    keywords: dict[str, Any] = {"short": True, "opponent": "random", "max_steps": 25}
    ours = PitkitVectorEnv(name, n, seat=1, autoreset_mode=mode, **keywords)
    makers: list[Callable[[], gymnasium.Env[Any, Any]]] = [
        lambda: PitkitGym(name, seat=1, **keywords)
    ] * n
    theirs: Any = SyncVectorEnv(makers, autoreset_mode=mode)
    observations, infos = ours.reset(seed=5)
    expected, their_infos = theirs.reset(seed=5)
    rng = np.random.default_rng(5)
    ends = 0
    for _ in range(120):
        assert np.array_equal(observations, expected)
        assert np.array_equal(infos["action_mask"], their_infos["action_mask"].astype(bool))
        actions = pick(ours.action_masks(), rng)
        observations, rewards, terminations, truncations, infos = ours.step(actions)
        expected, their_rewards, their_ends, their_cuts, their_infos = theirs.step(actions)
        assert np.array_equal(rewards, their_rewards)
        assert np.array_equal(terminations, their_ends)
        assert np.array_equal(truncations, their_cuts)
        if mode is AutoresetMode.SAME_STEP and "final_obs" in their_infos:
            kept = their_infos["_final_obs"]
            assert np.array_equal(infos["_final_obs"], kept)
            for final, their_final in zip(
                infos["final_obs"][kept], their_infos["final_obs"][kept], strict=True
            ):
                assert np.array_equal(final, their_final)
        ends += int(terminations.sum() + truncations.sum())
    assert ends >= n, "too few matches ended to try the autoreset"


def aec_row(env: PitkitAEC) -> tuple[Any, Any, int]:
    """What a batch's row should show of `env`: observation, mask, seat."""
    agent = env.agent_selection
    seen = env.observe(agent)
    return seen["observation"], seen["action_mask"].astype(bool), env.seat[agent]


@pytest.mark.parametrize("name", TURN_BASED)
def test_the_aec_batch_plays_as_n_aec_environments(name: str) -> None:
    n = 3
    ours = PitkitVectorAEC(name, n, short=True, max_steps=60)
    envs = [PitkitAEC(adapters.encoding(name), short=True, max_steps=60) for _ in range(n)]
    ours.reset(seed=8)
    for i, env in enumerate(envs):
        env.reset(seed=8 + i)
    rng = np.random.default_rng(8)
    ends = 0
    for _ in range(150):
        for i, env in enumerate(envs):
            observation, mask, seat = aec_row(env)
            assert np.array_equal(ours.observations[i], observation)
            assert np.array_equal(ours.masks[i], mask)
            assert ours.to_act[i] == seat
        actions = pick(ours.masks, rng)
        _, rewards, terminations, truncations, _ = ours.step(actions)
        for i, env in enumerate(envs):
            if env.terminations[env.agent_selection] or env.truncations[env.agent_selection]:
                env.reset()  # the batch deals again, from the match's next seed
                continue
            env.step(int(actions[i]))
            assert list(rewards[i]) == [env.rewards[a] for a in env.possible_agents]
            assert terminations[i] == env.terminations[env.agent_selection]
            assert truncations[i] == env.truncations[env.agent_selection]
        ends += int(terminations.sum() + truncations.sum())
    assert ends >= n


def test_the_parallel_batch_plays_as_n_parallel_environments() -> None:
    n = 2
    ours = PitkitVectorParallel(PIT, n, players=4, short=True, max_ticks=30)
    envs = [PitkitParallel(adapters.encoding(PIT), 4, short=True, max_ticks=30) for _ in range(n)]
    ours.reset(seed=3)
    seen = [env.reset(seed=3 + i)[0] for i, env in enumerate(envs)]
    rng = np.random.default_rng(3)
    ends = 0
    for _ in range(70):
        for i, env in enumerate(envs):
            for seat, agent in enumerate(env.possible_agents):
                assert np.array_equal(ours.observations[i, seat], seen[i][agent]["observation"])
                assert np.array_equal(ours.masks[i, seat], seen[i][agent]["action_mask"] != 0)
        actions = pick(ours.masks, rng)
        _, rewards, terminations, truncations, infos = ours.step(actions)
        for i, env in enumerate(envs):
            if not env.agents:
                seen[i] = env.reset()[0]
                continue
            moves = {a: int(actions[i, s]) for s, a in enumerate(env.possible_agents)}
            seen[i], their_rewards, their_ends, their_cuts, their_infos = env.step(moves)
            assert list(rewards[i]) == list(their_rewards.values())
            assert terminations[i] == any(their_ends.values())
            assert truncations[i] == any(their_cuts.values())
            refused = {env.seat[a]: v["refused"] for a, v in their_infos.items() if v}
            assert infos["refused"][i] == refused
        ends += int(terminations.sum() + truncations.sum())
    assert ends >= n


@pytest.mark.parametrize("name", NAMES)
def test_the_same_seed_gives_the_same_arrays(name: str) -> None:
    def run(seed: int) -> list[npt.NDArray[Any]]:
        envs = batch(name, 4, copy=True)
        observations, _ = envs.reset(seed=seed)
        rng = np.random.default_rng(0)
        arrays = [observations, envs.masks.copy()]
        for _ in range(30):
            observations, rewards, terminations, truncations, _ = envs.step(pick(envs.masks, rng))
            arrays += [observations, rewards, terminations, truncations, envs.masks.copy()]
        return arrays

    first = run(11)
    assert all(np.array_equal(a, b) for a, b in zip(first, run(11), strict=True))
    assert not all(np.array_equal(a, b) for a, b in zip(first, run(12), strict=True))


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    name=st.sampled_from(NAMES),
    seed=st.integers(0, 2**32),
    steps=st.integers(0, 60),
)
def test_the_masks_allow_exactly_the_legal_moves(name: str, seed: int, steps: int) -> None:
    envs = batch(name, 3)
    envs.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        envs.step(pick(envs.masks, rng))
    encoding = envs.encoding
    for i in range(3):
        if isinstance(envs, PitkitVectorParallel):
            match = envs.zoos[i].match
            rows = [(seat, envs.masks[i, seat]) for seat in range(envs.players)]
        else:
            match = envs.matches[i]
            rows = [(int(envs.to_act[i]), envs.masks[i])]
        for seat, mask in rows:
            legal = match.legal_actions(seat)
            allowed = set(np.flatnonzero(mask).tolist())
            assert allowed == {encoding.encode(match, seat, a) for a in legal} | set(
                encoding.always
            )
            for action_id in allowed - set(encoding.always):
                assert encoding.decode(match, seat, action_id) in legal


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", ["pitkit/ace_pit-v0", PIT])
def test_a_match_that_ends_is_dealt_again_from_its_next_seed(
    name: str, mode: AutoresetMode
) -> None:
    envs = batch(name, 2, autoreset_mode=mode)
    envs.reset(seed=21)
    rng = np.random.default_rng(21)
    for _ in range(500):
        before = envs.observations.copy()
        _, rewards, terminations, truncations, infos = envs.step(pick(envs.masks, rng))
        ended = terminations | truncations
        if ended.any():
            break
    else:
        pytest.fail("no match ended")
    i = int(np.flatnonzero(ended)[0])
    if mode is AutoresetMode.SAME_STEP:
        # Dealt at once: the row shows the new match, the last one is in the infos.
        assert infos["_final_obs"][i]
        assert not np.array_equal(infos["final_obs"][i], envs.observations[i])
        assert not np.array_equal(before[i], envs.observations[i])
        return
    # Next step: the match's action is ignored (even one no mask allows),
    # and the row shows a new match, with reward 0 and no end.
    actions = pick(envs.masks, rng)
    actions[i] = envs.encoding.actions - 1
    _, rewards, terminations, truncations, _ = envs.step(actions)
    assert not terminations[i] and not truncations[i]
    assert not rewards[i].any()
    match = envs.zoos[i].match if isinstance(envs, PitkitVectorParallel) else envs.matches[i]
    assert not match.is_over and len(match.results) == 0


def match_logs(envs: Batch) -> list[int]:
    if isinstance(envs, PitkitVectorEnv):
        return [len(play.match.log) for play in envs.plays]
    if isinstance(envs, PitkitVectorParallel):
        return [len(zoo.match.log) for zoo in envs.zoos]
    return [len(match.log) for match in envs.matches]


@pytest.mark.parametrize("form", ["one seat", "all seats"])
@pytest.mark.parametrize("name", ["pitkit/pitch-v0", PIT])
def test_bad_actions_are_refused_before_any_match_moves(name: str, form: str) -> None:
    envs: Batch = (
        PitkitVectorEnv(name, 3, short=True, opponent="random")
        if form == "one seat"
        else batch(name, 3)
    )
    envs.reset(seed=4)
    rng = np.random.default_rng(4)
    good = pick(envs.action_masks(), rng)
    kept = (envs.observations.copy(), envs.masks.copy(), match_logs(envs))
    wrong_id = good.copy()
    flat = wrong_id.reshape(-1)
    row = envs.masks.reshape(-1, envs.encoding.actions)[-1]
    flat[-1] = int(np.flatnonzero(~row)[-1])  # an id the last row's mask excludes
    bad_inputs: list[tuple[Any, type[Exception], str]] = [
        (good[:-1], ValueError, "shape"),
        (good.astype(np.float64), ValueError, "integer"),
        ([*good.tolist(), 0], ValueError, "shape"),
        (wrong_id, IllegalActionError, "not legal now"),
    ]
    for actions, error, words in bad_inputs:
        with pytest.raises(error, match=words):
            envs.step(actions)
        assert np.array_equal(envs.observations, kept[0])
        assert np.array_equal(envs.masks, kept[1])
        assert match_logs(envs) == kept[2]
    envs.step(good)
    assert match_logs(envs) != kept[2]


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="one match or more"):
        PitkitVectorAEC("pitkit/ace_pit-v0", 0)
    with pytest.raises(ValueError, match="PitkitVectorParallel"):
        PitkitVectorAEC(PIT, 2)
    with pytest.raises(ValueError, match="PitkitVectorAEC"):
        PitkitVectorParallel("pitkit/pitch-v0", 2)
    with pytest.raises(ValueError, match="no seat 2"):
        PitkitVectorEnv("pitkit/ace_pit-v0", 2, seat=2)
    with pytest.raises(ValueError, match="next-step or same-step"):
        PitkitVectorEnv("pitkit/ace_pit-v0", 2, autoreset_mode=AutoresetMode.DISABLED)


def test_copies_or_the_batch_s_own_arrays() -> None:
    own = PitkitVectorEnv("pitkit/pitty_pat-v0", 2, short=True, opponent="random")
    observations, infos = own.reset(seed=1)
    assert observations is own.observations and infos["action_mask"] is own.masks
    copied = PitkitVectorEnv("pitkit/pitty_pat-v0", 2, short=True, copy=True, opponent="random")
    observations, infos = copied.reset(seed=1)
    assert observations is not copied.observations
    assert np.array_equal(observations, copied.observations)


def test_gymnasium_make_vec_makes_the_batch() -> None:
    from pitkit.adapters.gym import register

    register()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no warning of a missing autoreset mode
        envs = gymnasium.make_vec("pitkit/ace_pit-v0", num_envs=4, short=True, opponent="random")
    assert isinstance(envs.unwrapped, PitkitVectorEnv)
    observations, _ = envs.reset(seed=2)
    assert observations.shape == envs.observation_space.shape == (4, envs.unwrapped.encoding.size)
    assert envs.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
