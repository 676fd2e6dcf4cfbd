"""The baselines of docs/baselines.md, in small: each game trains a few hundred
steps (self-play, or against the game's heuristic bot as Pits' baseline does),
and its snapshot plays duplicate matches by name. Skipped without the `train` extra."""

from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

import torch

from examples import policies, ppo_bot, selfplay, train_maskable_ppo
from pitkit import games

TINY: dict[str, Any] = {
    "log_every": 128,
    "refresh": 128,
    "n_steps": 128,
    "batch_size": 64,
    "n_epochs": 1,
    "policy_kwargs": {"net_arch": [16, 16]},
}
OPPONENTS = {"ace-pit": "self", "pitty-pat": "self", "pitch": "self", "pit": "self"}
"""As trained in docs/baselines.md; the rest train against their heuristic bot."""


def opponent_of(game: str) -> str:
    heuristic = games.get(game).heuristic
    assert heuristic is not None
    return OPPONENTS.get(game, heuristic)


@pytest.mark.parametrize("game", ["ace-pit", "pitty-pat", "pitch", "pit", "pits"])
def test_a_baseline_trains_and_plays_by_name(game: str, tmp_path: Path) -> None:
    model, curve = train_maskable_ppo.train(
        256, seed=2, opponent=opponent_of(game), game=game, **TINY
    )
    # A point every 128 steps in which an episode ended (a Pit hand may take longer).
    assert {p[0] for p in curve.points} <= {128, 256}
    assert all(-1 <= p[1] <= 1 and 0 <= p[2] <= 1 for p in curve.points)
    path = tmp_path / train_maskable_ppo.policy_file(game)
    train_maskable_ppo.snapshot(model, game, {"steps": 256}).save(path)
    snapshot = policies.Snapshot.load(path)
    assert snapshot.info == {"steps": 256}

    # The snapshot's logits are the torch actor's, and its choice is predict's.
    match = games.get(game).new_match(rules=ppo_bot.match_rules(game), seed=5)
    seat = min(s for s in range(match.players) if match.legal_actions(s))
    encoding = snapshot.encoding(match.players)
    observation, mask = encoding.observe(match, seat), encoding.mask(match, seat)
    with torch.no_grad():
        features = model.policy.mlp_extractor.forward_actor(torch.as_tensor(observation[None]))
        logits = model.policy.action_net(features).numpy()[0]
    assert np.allclose(snapshot.logits(observation), logits, atol=1e-5)
    expected, _ = model.predict(observation, action_masks=mask.astype(bool), deterministic=True)
    assert snapshot.best(observation, mask) == int(expected)

    heuristic = games.get(game).heuristic
    assert heuristic is not None
    record = ppo_bot.evaluate(path, [heuristic], deals=2, seed=1)[heuristic]
    players = games.get(game).default_players
    assert record.standing.bot == ppo_bot.bot_name(game)
    assert record.standing.seats == 2 * players  # two deals, in every seating of one policy
    low, high = record.standing.ci
    assert low - 1e-9 <= record.standing.win_share <= high + 1e-9


def test_self_play_refreshes_the_frozen_copy(monkeypatch: pytest.MonkeyPatch) -> None:
    frozen: list[policies.Snapshot] = []
    monkeypatch.setattr(selfplay, "freeze", frozen.append)
    train_maskable_ppo.train(256, seed=2, opponent="self", **TINY)
    # The untrained policy first, then a copy every 128 steps.
    assert len(frozen) == 3
    assert {s.game for s in frozen} == {"ace-pit"}
    first, last = frozen[0].layers[-1][0], frozen[-1].layers[-1][0]
    assert not np.array_equal(first, last)  # it learned in between


def test_self_play_is_seeded() -> None:
    def run() -> list[Any]:
        model, _ = train_maskable_ppo.train(128, seed=5, opponent="self", game="pitch", **TINY)
        return [p.detach().clone() for p in model.policy.parameters()]

    first, second = run(), run()
    assert all((a == b).all() for a, b in zip(first, second, strict=True))


def test_the_command_line_trains_and_saves(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "pitch"
    command = "--game pitch --opponent self --net 8,8 --steps 64 --log-every 512 --no-zip"
    monkeypatch.setattr("sys.argv", ["train", *command.split(), "--out", str(out)])
    train_maskable_ppo.main()  # one rollout of 1,024 steps: PPO's least
    snapshot = policies.Snapshot.load(out / "policy-pitch.npz")
    assert snapshot.game == "pitch"
    assert snapshot.info["steps"] == 1024 and snapshot.info["opponent"] == "self"
    assert snapshot.info["net"] == [8, 8] and snapshot.info["cpu_seconds"] >= 0
    assert [w.shape[1] for w, _ in snapshot.layers] == [8, 8, 62]
    header = (out / "learning-curve.csv").read_text().splitlines()[0]
    assert header == "steps,mean_reward,place_share,episodes"  # four seats: not a win share
    assert (out / "learning-curve.png").stat().st_size > 0
    assert not (out / "maskable-ppo-pitch.zip").exists()
