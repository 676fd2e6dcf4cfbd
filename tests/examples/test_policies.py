"""Policies saved as NumPy arrays, as bots: no torch needed (the `adapters` extra is).

The committed baselines (docs/baselines.md) load into their bots and play
duplicate matches by name here, in every `make test`.
"""

import itertools
from pathlib import Path

import numpy as np
import pytest
from examples.policies import PolicyTrader, Snapshot, env_of, seat, uniform
from hypothesis import given
from hypothesis import strategies as st

from examples import ppo_bot, selfplay
from pitkit import adapters, bots, games
from pitkit.adapters.envs import WAIT
from pitkit.arena.tournament import MatchResult
from pitkit.core.errors import IllegalActionError
from pitkit.games.pit import Open
from pitkit.play import play_match

BASELINES = Path(__file__).resolve().parents[2] / "docs" / "baselines"
COMMITTED = sorted(BASELINES.glob("*/policy-*.npz"))


def random_snapshot(game: str, hidden: tuple[int, ...] = (8,), seed: int = 0) -> Snapshot:
    """A snapshot of `game` with random weights: a policy that plays, badly."""
    env = env_of(game)
    sample = adapters.encoding(env)(games.get(game).default_players)
    widths = [sample.size, *hidden, sample.actions]
    rng = np.random.default_rng(seed)
    layers = [
        (rng.normal(size=(a, b)).astype(np.float32), rng.normal(size=b).astype(np.float32))
        for a, b in itertools.pairwise(widths)
    ]
    return Snapshot(env, layers, info={"game": game, "steps": 0})


def within(mean: float, ci: tuple[float, float], least: float, most: float) -> None:
    """`ci` holds `mean` (but for rounding: the arena sums by seat, the
    interval by deal) and lies in [least, most]."""
    low, high = ci
    assert least <= low <= mean + 1e-9 and mean - 1e-9 <= high <= most


def a_position(game: str, seed: int = 3):
    """A one-hand match of `game` just dealt, and a seat that may act in it."""
    match = games.get(game).new_match(rules=ppo_bot.match_rules(game), seed=seed)
    seat_ = min(s for s in range(match.players) if match.legal_actions(s))
    return match, seat_


def test_a_snapshot_saves_and_loads_as_it_was(tmp_path):
    snapshot = random_snapshot("pitch", hidden=(8, 4))
    snapshot.save(tmp_path / "p.npz")
    loaded = Snapshot.load(tmp_path / "p.npz")
    assert (loaded.env, loaded.game, loaded.activation) == ("pitkit/pitch-v0", "pitch", "Tanh")
    assert loaded.info == {"game": "pitch", "steps": 0}
    match, seat_ = a_position("pitch")
    observation = loaded.encoding(4).observe(match, seat_)
    assert np.array_equal(loaded.logits(observation), snapshot.logits(observation))


def test_a_snapshot_that_does_not_fit_its_encoding_is_refused():
    good = random_snapshot("ace-pit")
    (w0, b0), (w1, b1) = good.layers
    with pytest.raises(ValueError, match="observes 171 values"):
        Snapshot(good.env, [(w0[1:], b0), (w1, b1)])
    with pytest.raises(ValueError, match="has 1430 now"):
        Snapshot(good.env, [(w0, b0), (w1[:, 1:], b1[1:])])
    with pytest.raises(ValueError, match="activation"):
        Snapshot(good.env, good.layers, activation="Swish")
    with pytest.raises(ValueError, match="no environment"):
        ppo_bot.env_for(170, 1430)


@given(st.integers(0, 2**32 - 1), st.lists(st.booleans(), min_size=62, max_size=62))
def test_the_masked_argmax_is_the_legal_id_rated_highest(seed, bits):
    snapshot = random_snapshot("pitch", seed=seed % 7)
    mask = np.array(bits, dtype=np.int8)
    mask[seed % 62] = 1  # at least one legal id
    observation = np.random.default_rng(seed).normal(size=482).astype(np.float32)
    best = snapshot.best(observation, mask)
    logits = snapshot.logits(observation)
    assert mask[best]
    assert logits[best] == logits[mask.astype(bool)].max()


def test_sampling_draws_legal_ids_from_its_seed():
    snapshot = random_snapshot("ace-pit")
    match, seat_ = a_position("ace-pit")
    encoding = snapshot.encoding(2)
    observation, mask = encoding.observe(match, seat_), encoding.mask(match, seat_)

    def draws(seed: int) -> list[int]:
        policy = snapshot.sampler(seed)
        return [int(policy(observation, mask)) for _ in range(40)]

    first = draws(5)
    assert first == draws(5)
    assert all(mask[i] for i in first)
    assert len(set(first)) > 1  # it samples: the argmax alone would repeat one id
    only = np.zeros_like(mask)
    only[first[0]] = 1
    assert snapshot.sampler(9)(observation, only) == first[0]


def test_a_policy_trader_waits_on_id_0_and_trades_otherwise():
    match, _ = a_position("pit")
    dealer = match.hand.dealer  # while sorting, only the dealer may move: open the pit

    def patient(observation: np.ndarray, mask: np.ndarray) -> int:  # waits whenever it may
        return WAIT if mask[WAIT] else int(np.flatnonzero(mask)[0])

    waiting = PolicyTrader(adapters.encoding("pitkit/pit-v0"), patient)
    assert waiting.act(match, dealer) is None
    assert waiting.choose(match, dealer) == Open()  # a driver that takes turns gets a move
    trader = seat("pitkit/pit-v0", uniform(4))
    assert isinstance(trader, PolicyTrader)
    moves = {trader.act(match, dealer) for _ in range(20)}
    assert moves == {None, Open()}
    cheat = PolicyTrader(adapters.encoding("pitkit/pit-v0"), lambda obs, mask: 4)
    with pytest.raises(IllegalActionError):
        cheat.act(match, dealer)


def test_self_play_opponents_play_the_frozen_snapshot():
    game = games.get("pitty-pat")
    match, seat_ = a_position("pitty-pat")
    snapshot = random_snapshot("pitty-pat")
    selfplay.freeze(snapshot)
    try:
        bot = bots.make(game, selfplay.NAME, 11, imports=True)
        encoding = snapshot.encoding(match.players)
        draw = snapshot.sampler(11)
        drawn = draw(encoding.observe(match, seat_), encoding.mask(match, seat_))
        expected = encoding.decode(match, seat_, int(drawn))
        assert bot.choose(match, seat_) == expected
    finally:
        selfplay.thaw("pitty-pat")
    # Thawed (and before any freeze): a random legal move.
    assert bots.make(game, selfplay.NAME, 11, imports=True).choose(match, seat_) in (
        match.legal_actions(seat_)
    )


def test_the_mean_place_interval_is_over_deals():
    def result(deal: int, seating: tuple[str, ...], ranks: tuple[int, ...]) -> MatchResult:
        return MatchResult(0, deal, 1, seating, ranks, (0.0,) * 3, 0, 1, 0.0, "")

    me, other = "me", "them"
    results = [
        result(0, (me, other, other), (2, 1, 3)),
        result(0, (other, me, other), (1, 2, 3)),  # deal 0: places 2 and 2
        result(1, (me, other, other), (2, 1, 3)),
        result(1, (other, other, me), (1, 2, 3)),  # deal 1: 2 and 3
    ]
    low, high = ppo_bot.place_interval(me, results, 3)
    assert (low + high) / 2 == pytest.approx(2.25)  # around the mean of the deals' means
    assert 1 < low < 2 and 2.5 < high < 3
    assert ppo_bot.place_interval(me, results[:2], 3) == (2, 2)  # one deal: no spread


def test_the_bot_needs_a_model_named(monkeypatch):
    monkeypatch.delenv(ppo_bot.MODEL, raising=False)
    with pytest.raises(ValueError, match=ppo_bot.MODEL):
        ppo_bot.PPOBot(0)


@pytest.mark.parametrize("game", ["pitty-pat", "pit"])
def test_a_saved_policy_plays_duplicate_matches_by_name(game, tmp_path):
    path = tmp_path / "policy.npz"
    random_snapshot(game).save(path)
    record = ppo_bot.evaluate(path, ["random"], deals=2, seed=1)["random"]
    players = games.get(game).default_players
    assert record.standing.bot == ppo_bot.bot_name(game)
    assert record.standing.seats == 2 * players  # each deal in every seating of one policy
    within(record.standing.win_share, record.standing.ci, 0, 1)
    within(record.standing.mean_place, record.place_ci, 1, players)


@pytest.mark.parametrize("path", COMMITTED, ids=lambda p: p.parent.name)
def test_each_committed_baseline_loads_into_its_bot(path):
    snapshot = Snapshot.load(path)
    game = games.get(snapshot.game)
    assert snapshot.info["game"] == game.name
    assert path.name == f"policy-{game.name}.npz"
    assert path.stat().st_size < 1_000_000
    match = game.new_match(rules=ppo_bot.match_rules(game.name), seed=4)
    name = ppo_bot.bot_name(game.name)
    with ppo_bot.playing(path):
        policy = bots.make(game, name, 0, imports=True)
        assert game.heuristic is not None
        others = [bots.make(game, game.heuristic, s) for s in range(1, match.players)]
        play_match(match, [policy, *others], seed=4)
        fresh_bot = bots.make(game, name, 7, imports=True)
    assert match.is_over
    assert name.endswith(type(policy).__name__)
    # By name, it plays the snapshot: its masked argmax, or in Pit a draw
    # from it with the seat's seed, where id 0 waits.
    fresh, seat_ = a_position(game.name)
    encoding = snapshot.encoding(fresh.players)
    observation, mask = encoding.observe(fresh, seat_), encoding.mask(fresh, seat_)
    if isinstance(fresh_bot, PolicyTrader):
        drawn = int(snapshot.sampler(7)(observation, mask))
        expected = None if drawn == WAIT else encoding.decode(fresh, seat_, drawn)
        assert fresh_bot.act(fresh, seat_) == expected
    else:
        best = snapshot.best(observation, mask)
        assert fresh_bot.choose(fresh, seat_) == encoding.decode(fresh, seat_, best)
