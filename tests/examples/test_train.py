"""The MaskablePPO example: a few hundred steps of training, a few duplicate matches."""

from typing import Any

import pytest

pytest.importorskip("sb3_contrib")

from examples import ppo_bot, train_maskable_ppo
from pitkit import adapters


def test_train_and_evaluate(tmp_path):
    model, curve = train_maskable_ppo.train(
        256, seed=3, opponent="random", log_every=128, n_steps=128, batch_size=64, n_epochs=1
    )
    assert [p[0] for p in curve.points] == [128, 256]
    assert all(-1 <= p[1] <= 1 and 0 <= p[2] <= 1 for p in curve.points)
    train_maskable_ppo.save_curve(curve, tmp_path, "smoke")
    assert (tmp_path / "learning-curve.png").stat().st_size > 0
    assert (tmp_path / "learning-curve.csv").read_text().count("\n") == 3

    model.save(tmp_path / "model.zip")
    results = ppo_bot.evaluate(tmp_path / "model.zip", ["random"], deals=3, seed=1)
    standing = results["random"].standing
    assert standing.seats == 6  # three deals, each in both seats
    low, high = standing.ci
    assert 0 <= low <= standing.win_share <= high <= 1
    # The arena seated it by name: nothing was registered with the game.
    from pitkit import bots, games

    game = games.get("ace-pit")
    assert ppo_bot.NAME not in bots.names(game)
    # By that name the arena gets the policy's masked argmax, as the model plays it.
    with ppo_bot.playing(tmp_path / "model.zip"):
        bot = bots.make(game, ppo_bot.NAME, 0, imports=True)
    match = game.new_match(rules=ppo_bot.ONE_HAND, seed=2)
    seat = next(s for s in range(match.players) if match.legal_actions(s))
    encoding = adapters.encoding(ppo_bot.ENV)(match.players)
    mask = encoding.mask(match, seat).astype(bool)
    expected, _ = model.predict(
        encoding.observe(match, seat), action_masks=mask, deterministic=True
    )
    assert bot.choose(match, seat) == encoding.decode(match, seat, int(expected))


def test_training_is_seeded():
    def run() -> list[Any]:
        model, _ = train_maskable_ppo.train(
            128, seed=5, opponent="random", log_every=128, n_steps=64, batch_size=32, n_epochs=1
        )
        return [p.detach().clone() for p in model.policy.parameters()]

    first, second = run(), run()
    assert all((a == b).all() for a, b in zip(first, second, strict=True))
