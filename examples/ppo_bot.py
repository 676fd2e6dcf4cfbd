"""A trained MaskablePPO policy as a pitkit bot, measured in the duplicate arena.

    python examples/ppo_bot.py docs/maskable-ppo-ace-pit.zip --deals 500 --seed 7

The bot sees what its seat sees, through the same encoding the policy
learned on, and plays the legal move the policy rates highest (the masked
argmax). `evaluate` seats it as ``ppo`` against each opponent in duplicate
play: every deal is played twice, the two bots swapping seats, so the cards
cancel out; the arena's standings give the win share with a 95% interval
over deals. Needs the ``train`` extra.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, cast

import torch
from sb3_contrib import MaskablePPO

from pitkit import games
from pitkit.adapters import encoding as encoding_of
from pitkit.adapters.encoding import Encoding
from pitkit.arena.tournament import Standing, run_matches, schedule, standings
from pitkit.core.actions import Action
from pitkit.core.game import BotInfo, Game
from pitkit.core.match import Match
from pitkit.core.state import State

ENV = "pitkit/ace_pit-v0"
NAME = "ppo"
ONE_HAND = {"hands": 1}  # the matches the policy was trained on


class PPOBot:
    """Plays a seat with a trained policy: the legal move it rates highest."""

    def __init__(self, model: MaskablePPO, encoding: Encoding) -> None:
        self.model = model
        self.encoding = encoding

    def choose(self, state: State[Any], player: int) -> Action:
        """The policy's move for `player` (deterministic: no sampling, so no seed)."""
        assert isinstance(state, Match)  # the arena and the environments play matches
        observation = self.encoding.observe(state, player)
        mask = self.encoding.mask(state, player).astype(bool)
        action, _ = self.model.predict(observation, action_masks=mask, deterministic=True)
        return self.encoding.decode(state, player, int(action))


@contextmanager
def registered(game: Game, name: str, info: BotInfo) -> Iterator[None]:
    """`game` knows the bot `name` inside the block, so the arena can seat it by name."""
    # The arena makes its bots from the game's registry (`pitkit.bots.make`);
    # the games' bot tables are plain dicts, typed read-only for everyone else.
    table = cast(dict[str, BotInfo], game.bots)
    table[name] = info
    try:
        yield
    finally:
        del table[name]


def evaluate(
    model: MaskablePPO,
    opponents: Sequence[str],
    deals: int,
    seed: int,
    rules: Mapping[str, Any] = ONE_HAND,
) -> dict[str, Standing]:
    """The policy's standing against each opponent in duplicate play of `deals` deals."""
    game = games.get("ace-pit")
    encoding = encoding_of(ENV)(game.default_players)
    info = BotInfo("a trained MaskablePPO policy", lambda _seed: PPOBot(model, encoding))
    out = {}
    with registered(game, NAME, info):
        for opponent in opponents:
            lineup = [NAME, opponent]
            specs = schedule(game, lineup, deals, rules=rules, seed=seed, duplicate=True)
            table = standings(lineup, run_matches(specs))
            out[opponent] = next(s for s in table if s.bot == NAME)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("model", type=Path, help="a model saved by train_maskable_ppo.py")
    parser.add_argument("--opponents", default="random,greedy", help="comma-separated bots")
    parser.add_argument("--deals", type=int, default=500, help="deals, each played twice")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--hands", type=int, default=1, help="hands a match (11: a full game)")
    args = parser.parse_args()
    torch.set_num_threads(1)
    model = MaskablePPO.load(args.model, device="cpu")
    start = time.perf_counter()
    results = evaluate(
        model, args.opponents.split(","), args.deals, args.seed, {"hands": args.hands}
    )
    seconds = time.perf_counter() - start
    print(f"{args.deals} deals a pairing, each in both seats; {args.hands} hand(s) a match")
    for opponent, s in results.items():
        low, high = s.ci
        print(
            f"ppo vs {opponent:<8} win share {s.win_share:.3f}  95% [{low:.3f}, {high:.3f}]"
            f"  ({s.seats} matches)"
        )
    print(f"{seconds:.0f} s")


if __name__ == "__main__":
    main()
