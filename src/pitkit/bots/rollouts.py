"""A rollout bot for every game: the game's heuristic, improved by search.

The rollout algorithm (Tesauro and Galperin 1996; Bertsekas, "rollout
policies"): to choose a move, play each candidate move out to the end of the
hand many times, every seat then following the game's heuristic bot, and
keep the move that does best. Its expected play is at least as good as the
heuristic it rolls out, and usually better, because it looks at what each
move leads to instead of judging the move on its own.

Each iteration:

1. **Determinize.** Deal the cards the bot's seat cannot see with
   `Game.sample_unseen`, the game's sampler, which keeps to everything that
   seat knows.
2. **Play every candidate in that deal**, then finish the hand with the
   heuristic for every seat, from one random seed shared by all candidates
   (common random numbers): the candidates meet the same cards and the same
   luck, so the differences between their outcomes measure the moves, not
   the deal.
3. **Record** each candidate's utility (as `pitkit.bots.search.utilities`)
   less that of the heuristic's own choice in the same deal.

The heuristic's choice is played unless another candidate's mean difference
beats it by `confidence` standard errors. When a seat has more legal moves
than `width`, the candidates are the heuristic's `width` favourites (a bot
that can rank moves has a ``rank(state, player)`` method), or its choice and
a random sample of the others. In real-time play (Pit) a playout is a race
on the virtual clock, as at the table: the candidate may lose it.

Names: ``rollouts`` (`DEFAULT_ITERATIONS` deals a move), ``rollouts:1s`` or
``rollouts:250ms`` (time a move), ``rollouts:200`` (deals a move).
"""

from __future__ import annotations

import math
import random
from typing import Any, ClassVar, Protocol, runtime_checkable

from pitkit.bots.playout import (
    Sampler,
    finish,
    game_of,
    heuristic,
    rebased,
    sample_unseen,
    utilities,
)
from pitkit.bots.playout import policy as make_policy
from pitkit.bots.search import Budget, SearchSpec
from pitkit.core.actions import Action
from pitkit.core.game import Bot, Game
from pitkit.core.state import State
from pitkit.play.realtime import DEFAULT_THINK, RealtimeBot, StalledError, VirtualRun

__all__ = ["DEFAULT_ITERATIONS", "WIDTH", "Ranker", "RolloutBot", "play_out"]

#: Deals a move of the plain ``rollouts`` bot.
DEFAULT_ITERATIONS = 30
#: Most candidate moves compared at once.
WIDTH = 6
#: How many standard errors a move must gain over the heuristic's choice to be played instead.
CONFIDENCE = 2.0
#: Virtual seconds of nobody trading after which a real-time playout goes on in turns.
QUIET = 60.0


@runtime_checkable
class Ranker(Protocol):
    """A bot that can order a seat's legal moves, its favourite first."""

    def rank(self, state: State[Any], player: int) -> list[Action]:
        """`player`'s legal actions, best first by the bot's judgement."""
        ...


class _Candidate:
    """A candidate move's paired differences from the heuristic's choice."""

    __slots__ = ("count", "squares", "total")

    def __init__(self) -> None:
        self.count = 0
        self.total = 0.0
        self.squares = 0.0

    def add(self, difference: float) -> None:
        self.count += 1
        self.total += difference
        self.squares += difference * difference

    def mean(self) -> float:
        """The mean difference (0 before any deal)."""
        return self.total / self.count if self.count else 0.0

    def error(self) -> float:
        """The standard error of `mean` (infinite with fewer than two deals)."""
        n = self.count
        if n < 2:
            return math.inf
        variance = max(0.0, (self.squares - self.total * self.total / n) / (n - 1))
        return math.sqrt(variance / n)


class RolloutBot:
    """Plays each candidate move out with the game's heuristic over sampled
    deals, and keeps the heuristic's choice unless another move is clearly
    better (see the module). With an iteration budget the bot is
    deterministic for its seed."""

    slow: ClassVar[bool] = True
    """It thinks for its whole budget (`pitkit.core.game.is_slow`)."""

    def __init__(
        self,
        seed: int | None = None,
        budget: Budget | None = None,
        width: int = WIDTH,
        confidence: float = CONFIDENCE,
        sample: Sampler | None = None,
    ) -> None:
        # The guide gets `seed` itself (see `playout.heuristic`); the
        # searching draws from a stream of its own.
        self.seed = seed
        self.rng = random.Random(None if seed is None else f"{seed}/rollouts")
        self.budget = budget or Budget(iterations=DEFAULT_ITERATIONS)
        self.width = width
        self.confidence = confidence
        #: How worlds are drawn: by default the game's sampler (`Game.sample_unseen`).
        self.sample: Sampler = sample or sample_unseen
        self._guides: dict[str, tuple[str | None, Bot | None]] = {}
        #: Deals played by the last `choose` (for tests and benchmarks).
        self.last_iterations = 0

    @classmethod
    def from_name(cls, name: str, seed: int | None = None) -> RolloutBot:
        """The bot a registry name such as ``rollouts:1s`` stands for."""
        spec = SearchSpec.parse(name, base="rollouts", default=Budget(DEFAULT_ITERATIONS))
        if spec.rollout is not None:
            raise ValueError(f"{name!r}: a rollout bot always rolls out the game's heuristic")
        return cls(seed, spec.budget)

    #: Seconds between seeing the table and acting, in real-time play.
    think_time: tuple[float, float] = DEFAULT_THINK

    def act(self, state: State[Any], player: int) -> Action | None:
        """Real-time play (Pit): wait when the heuristic would wait, else
        search from its move as `choose` does."""
        hand = state.current_hand
        _, guide = self._guide(game_of(hand))
        if isinstance(guide, RealtimeBot):
            proposal = guide.act(hand, player)
            if proposal is None:
                return None
            return self._decide(hand, player, _first(proposal, guide, hand, player))
        return self.choose(state, player)

    def choose(self, state: State[Any], player: int) -> Action:
        """The heuristic's move, or a candidate that beats it beyond doubt."""
        hand = state.current_hand
        _, guide = self._guide(game_of(hand))
        # The guide is asked once a move, as the heuristic bot would ask itself.
        if guide is None:
            return self._decide(hand, player, [self.rng.choice(hand.legal_actions(player))])
        if isinstance(guide, Ranker) and not isinstance(guide, RealtimeBot):
            return self._decide(hand, player, guide.rank(hand, player))
        return self._decide(hand, player, _first(guide.choose(hand, player), guide, hand, player))

    def _decide(self, hand: State[Any], player: int, favourites: list[Action]) -> Action:
        """The heuristic's move (the first of its `favourites`), unless another
        beats it beyond doubt."""
        actions: list[Action] = hand.legal_actions(player)
        self.last_iterations = 0
        if len(actions) == 1:
            return actions[0]
        proposal = favourites[0]
        name, _ = self._guide(game_of(hand))
        candidates = self._candidates(actions, favourites)
        root = rebased(hand)
        stats = {c: _Candidate() for c in candidates if c != proposal}
        for _ in self.budget.iterate():
            world = self.sample(root, player, self.rng)
            seed = self.rng.getrandbits(64)
            base = play_out(world, player, proposal, name, seed)
            for move, record in stats.items():
                record.add(play_out(world, player, move, name, seed) - base)
            self.last_iterations += 1
        best = max(stats, key=lambda c: stats[c].mean())
        if stats[best].mean() > self.confidence * stats[best].error():
            return best
        return proposal

    def _guide(self, game: Game) -> tuple[str | None, Bot | None]:
        """The game's heuristic bot (`Game.heuristic`), or none."""
        if game.name not in self._guides:
            self._guides[game.name] = heuristic(game, self.seed)
        return self._guides[game.name]

    def _candidates(self, actions: list[Action], favourites: list[Action]) -> list[Action]:
        """The moves to compare: all, or the guide's `width` favourites when
        there are many (its choice and a random sample, if it ranks none)."""
        if len(actions) <= self.width:
            return actions
        if len(favourites) > 1:
            return favourites[: self.width]
        others = [a for a in actions if a != favourites[0]]
        return [favourites[0], *self.rng.sample(others, self.width - 1)]


def play_out(world: State[Any], player: int, move: Action, policy: str | None, seed: int) -> float:
    """`player`'s utility when it plays `move` in `world` and every seat then
    plays as the bot named `policy` (None: at random), luck drawn from `seed`."""
    game = game_of(world)
    state = world.clone()
    # A bot a seat (see `finish`): Pit's traders remember their offer
    # and what they collect.
    policies: list[Any] = [
        make_policy(game, policy or "random", seed + s) for s in range(state.players)
    ]
    if isinstance(policies[0], RealtimeBot):
        _trade_out(state, policies, player, move, seed)
    else:
        state.step(player, move)
        finish(state, policies, random.Random(seed))
    assert state.outcome is not None
    return utilities(state.outcome)[player]


def _first(proposal: Action, guide: Bot, hand: State[Any], player: int) -> list[Action]:
    """The guide's `proposal`, then its other moves best first if it ranks
    them (a real-time bot's ranking judges moves on their own, not whether
    to act now, so its choice comes first, whatever the ranking says)."""
    if not isinstance(guide, Ranker):
        return [proposal]
    return [proposal, *(a for a in guide.rank(hand, player) if a != proposal)]


def _trade_out(
    state: State[Any], policies: list[Any], player: int, move: Action, seed: int
) -> None:
    """Play a real-time hand out on a virtual clock, as at the table:
    `player`'s `move` arrives one think time from now, and may lose a race
    to it, while every other seat is part-way through a think of its own.
    Should every trader wait for `QUIET` virtual seconds, the hand is
    finished in turns, each trading as its `choose` says."""
    run = VirtualRun(state, policies, seed, staggered=True, max_quiet=QUIET)
    run.send(player, move)
    try:
        run.run()
    except StalledError:
        finish(state, policies, random.Random(seed))
