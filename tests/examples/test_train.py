"""The MaskablePPO example: a few hundred steps of training, a few duplicate matches."""

from typing import Any

import pytest

pytest.importorskip("sb3_contrib")

from examples import ppo_bot, train_maskable_ppo


def test_train_and_evaluate(tmp_path):
    model, curve = train_maskable_ppo.train(
        256, seed=3, opponent="random", log_every=128, n_steps=128, batch_size=64, n_epochs=1
    )
    assert [p[0] for p in curve.points] == [128, 256]
    assert all(-1 <= p[1] <= 1 and 0 <= p[2] <= 1 for p in curve.points)
    train_maskable_ppo.save_curve(curve, tmp_path, "smoke")
    assert (tmp_path / "learning-curve.png").stat().st_size > 0
    assert (tmp_path / "learning-curve.csv").read_text().count("\n") == 3

    results = ppo_bot.evaluate(model, ["random"], deals=3, seed=1)
    standing = results["random"]
    assert standing.seats == 6  # three deals, each in both seats
    low, high = standing.ci
    assert 0 <= low <= standing.win_share <= high <= 1
    # The bot is gone from the game's registry after the arena.
    from pitkit import bots, games

    assert ppo_bot.NAME not in bots.names(games.get("ace-pit"))


def test_training_is_seeded():
    def run() -> list[Any]:
        model, _ = train_maskable_ppo.train(
            128, seed=5, opponent="random", log_every=128, n_steps=64, batch_size=32, n_epochs=1
        )
        return [p.detach().clone() for p in model.policy.parameters()]

    first, second = run(), run()
    assert all((a == b).all() for a, b in zip(first, second, strict=True))
