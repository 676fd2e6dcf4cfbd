"""A search bot for every game: information-set Monte Carlo tree search.

The bot is written once, against the common interface. Each iteration:

1. **Determinize.** Deal the cards the bot's seat cannot see with
   `Game.sample_unseen`, the game's sampler, which keeps to everything that
   seat knows (voids, exchanged cards, cards known from a pick-up).
2. **Select and expand.** Walk down one tree shared by all determinizations
   (single-observer ISMCTS, Cowling, Powley and Whitehouse 2012). A node's
   edges are (seat, action); an action that is legal only in some deals is
   judged by UCB over the iterations in which it was *available*, not over
   the node's visits. At the first edge not yet in the tree, add it.
3. **Roll out.** Play the deal to the end of the hand: uniformly at random,
   or with a registered bot of the game (the `rollout` policy).
4. **Back up.** Every edge on the path adds the outcome's utility for the
   seat that chose it.

5. **Decide.** The game's own heuristic bot (`Game.heuristic`)
   proposes a move, and the search plays another only if that move's mean
   utility beats the proposal's by `CONFIDENCE` standard errors. Where the
   rollouts cannot tell the moves apart (Pitty Pat's close discards), the bot
   plays no worse than the heuristic; where they can, it plays better. A game
   without a bot of its own gets the most visited move.

Utility is a seat's points in the hand minus the table's mean, plus a little
for its place (so that third beats fifth in Pits, where both score nothing).
UCB's exploration is scaled by the spread of utilities seen so far, so one
constant suits games scoring one point a hand and games scoring a hundred.

The search covers the current hand only: in a match, the hand's outcome
stands in for its effect on the match. The bot never peeks: everything it
touches at the root comes from its seat's legal actions and from sampled
deals, which depend only on what the seat may see and on the bot's seed.

Names: ``search`` (the default budget, `DEFAULT_ITERATIONS` iterations),
``search:1s`` or ``search:250ms`` (time a move), ``search:2000`` (iterations
a move), and a rollout policy after another colon: ``search:1s:heuristic``.
"""

from __future__ import annotations

import math
import random
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, ClassVar

from pitkit.bots.playout import (
    Sampler,
    actor,
    finish,
    game_of,
    heuristic,
    rebased,
    sample_unseen,
    utilities,
)
from pitkit.bots.playout import policy as make_policy
from pitkit.core.actions import Action
from pitkit.core.errors import UnknownNameError
from pitkit.core.game import Bot, Game
from pitkit.core.state import State

__all__ = [
    "DEFAULT_ITERATIONS",
    "Budget",
    "SearchBot",
    "SearchSpec",
    "utilities",
]

#: Iterations a move of the plain ``search`` bot: deterministic for a seed,
#: a fraction of a second a move in every game.
DEFAULT_ITERATIONS = 400
#: UCB's exploration constant, in units of the spread of utilities seen.
EXPLORATION = 0.7
#: How many standard errors a move must gain over the guide's proposal to overrule it.
CONFIDENCE = 1.5

_BUDGET = re.compile(r"^(\d+(?:\.\d+)?)(s|ms)?$")


@dataclass(frozen=True)
class Budget:
    """How long a move may take: iterations, seconds, or both (whichever ends first)."""

    iterations: int | None = DEFAULT_ITERATIONS
    seconds: float | None = None

    def __post_init__(self) -> None:
        if self.iterations is None and self.seconds is None:
            raise ValueError("a budget needs iterations or seconds")
        if self.iterations is not None and self.iterations < 1:
            raise ValueError("a budget needs at least one iteration")
        if self.seconds is not None and self.seconds <= 0:
            raise ValueError("a time budget must be positive")

    @classmethod
    def parse(cls, text: str) -> Budget:
        """``1s``, ``0.5s`` and ``250ms`` are times a move; a bare number is iterations."""
        m = _BUDGET.match(text.strip())
        if m is None:
            raise ValueError(f"a search budget is like 1s, 250ms or 2000, not {text!r}")
        value, unit = m.groups()
        if unit is None:
            if "." in value:
                raise ValueError(f"iterations are a whole number, not {value}")
            return cls(iterations=int(value))
        seconds = float(value) / (1000 if unit == "ms" else 1)
        return cls(iterations=None, seconds=seconds)

    def iterate(self) -> Iterator[int]:
        """Count off one move's iterations until the budget is spent (at least one)."""
        limit = self.iterations if self.iterations is not None else math.inf
        deadline = math.inf if self.seconds is None else time.perf_counter() + self.seconds
        done = 0
        while done < limit and (done == 0 or time.perf_counter() < deadline):
            yield done
            done += 1

    def __str__(self) -> str:
        if self.seconds is None:
            return f"{self.iterations} iterations"
        return f"{self.seconds:g} s"


@dataclass(frozen=True)
class SearchSpec:
    """A search bot as named in the registry: ``search[:BUDGET][:ROLLOUT]``."""

    budget: Budget = Budget()
    rollout: str | None = None

    @classmethod
    def parse(cls, name: str, base: str = "search", default: Budget | None = None) -> SearchSpec:
        """Read a name such as ``search``, ``search:1s`` or ``search:500:heuristic``
        (`base` is the name's first part; `default` the budget when none is given)."""
        first, *parts = name.split(":")
        if first != base or len(parts) > 2:
            raise UnknownNameError(
                f"{name!r} is not a {base} bot; write {base}[:BUDGET][:ROLLOUT], e.g. {base}:1s"
            )
        budget, rollout = default or Budget(), None
        for part in parts:
            if _BUDGET.match(part):
                budget = Budget.parse(part)
            elif part and rollout is None:
                rollout = part
            else:
                raise UnknownNameError(f"bad search bot name {name!r}")
        return cls(budget, rollout)


class _Edge:
    """A (seat, action) edge of the tree and the node it leads to."""

    __slots__ = ("available", "children", "seat", "squares", "total", "visits")

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.visits = 0
        self.available = 0  # iterations in which this edge's action was legal here
        self.total = 0.0  # the sum of the utilities to `seat` of the iterations through it
        self.squares = 0.0  # and of their squares, for the root's confidence test
        self.children: dict[tuple[int, Action], _Edge] = {}

    def mean(self) -> float:
        """The mean utility of the iterations through this edge."""
        return self.total / self.visits if self.visits else -math.inf

    def error(self) -> float:
        """The squared standard error of `mean`."""
        n = self.visits
        if n < 2:
            return math.inf
        variance = max(0.0, (self.squares - self.total * self.total / n) / (n - 1))
        return variance / n


class SearchBot:
    """Information-set Monte Carlo tree search over sampled deals (see the module).

    `budget` bounds each move; `rollout` names a bot of the game to play the
    rollouts (None: uniformly random). With `guided`, the game's heuristic bot
    (`Game.heuristic`, if it has one) proposes a move, and the search overrules
    it only when another move's mean utility beats it by `confidence`
    standard errors: where the search cannot tell moves apart, as in Pitty
    Pat's close choices, it plays no worse than the heuristic. With an
    iteration budget the bot is deterministic for its seed.
    """

    slow: ClassVar[bool] = True
    """It thinks for its whole budget (`pitkit.core.game.is_slow`)."""

    def __init__(
        self,
        seed: int | None = None,
        budget: Budget | None = None,
        rollout: str | None = None,
        exploration: float = EXPLORATION,
        guided: bool = True,
        confidence: float = CONFIDENCE,
        sample: Sampler | None = None,
    ) -> None:
        # The guide gets `seed` itself (see `playout.heuristic`); the search
        # draws from a stream of its own.
        self.seed = seed
        self.rng = random.Random(None if seed is None else f"{seed}/search")
        self.budget = budget or Budget()
        self.rollout_name = rollout
        self.exploration = exploration
        self.guided = guided
        self.confidence = confidence
        #: How worlds are drawn: by default the game's sampler (`Game.sample_unseen`).
        self.sample: Sampler = sample or sample_unseen
        self._guides: dict[str, Bot | None] = {}
        #: Iterations run by the last `choose` (for tests and benchmarks).
        self.last_iterations = 0

    @classmethod
    def from_name(cls, name: str, seed: int | None = None) -> SearchBot:
        """The bot a registry name such as ``search:1s:heuristic`` stands for."""
        spec = SearchSpec.parse(name)
        return cls(seed, spec.budget, spec.rollout)

    def choose(self, state: State[Any], player: int) -> Action:
        """The most visited move for `player` after the budget's iterations."""
        hand = state.current_hand
        actions: list[Action] = hand.legal_actions(player)
        if len(actions) == 1:
            self.last_iterations = 0
            return actions[0]
        root = rebased(hand)
        tree = _Edge(player)
        game = game_of(hand)
        policy = None if self.rollout_name in (None, "random") else self.rollout_name
        guide = self._guide(game) if self.guided else None
        proposal = guide.choose(root, player) if guide is not None else None
        self._spread = 1e-9
        self.last_iterations = 0
        for _ in self.budget.iterate():
            world = self.sample(root, player, self.rng)
            self._iterate(world, tree, game, policy, player)
            self.last_iterations += 1
        edges = {a: e for a in actions if (e := tree.children.get((player, a))) is not None}
        if proposal is not None and proposal in edges:
            # The best mean, if it beats the proposal beyond doubt; else the proposal.
            mine = edges[proposal]
            best = max(edges, key=lambda a: edges[a].mean())
            margin = edges[best].mean() - mine.mean()
            if margin > self.confidence * math.sqrt(edges[best].error() + mine.error()):
                return best
            return proposal
        # Unguided: the move tried most, the better mean breaking ties.
        return max(edges, key=lambda a: (edges[a].visits, edges[a].mean()))

    # -- one iteration ------------------------------------------------------

    def _iterate(
        self, world: State[Any], node: _Edge, game: Game, policy: str | None, player: int
    ) -> None:
        rng = self.rng
        path: list[_Edge] = []
        expanded = False
        while not world.is_over:
            # The searching seat moves first: where several seats may act at once
            # (Pit's trading), the root must hold its own moves.
            seat = player if not path else actor(world, rng)
            legal: list[Action] = world.legal_actions(seat)
            children = node.children
            fresh = [a for a in legal if (seat, a) not in children]
            if fresh:
                action = fresh[0] if len(fresh) == 1 else rng.choice(fresh)
                for a in legal:
                    edge = children.get((seat, a))
                    if edge is not None:
                        edge.available += 1
                child = children[(seat, action)] = _Edge(seat)
                child.available = 1
                expanded = True
            else:
                child, action = self._select(children, seat, legal)
            world.step(seat, action)
            path.append(child)
            node = child
            if expanded:
                break
        self._rollout(world, game, policy)
        assert world.outcome is not None
        values = utilities(world.outcome)
        spread = max(values) - min(values)
        if spread > self._spread:
            self._spread = spread
        for edge in path:
            value = values[edge.seat]
            edge.visits += 1
            edge.total += value
            edge.squares += value * value

    def _select(
        self, children: dict[tuple[int, Action], _Edge], seat: int, legal: list[Action]
    ) -> tuple[_Edge, Action]:
        """The UCB choice among the legal actions, all already in the tree."""
        c = self.exploration * self._spread
        log = math.log
        best_score = -math.inf
        best: tuple[_Edge, Action] | None = None
        for action in legal:
            edge = children[(seat, action)]
            edge.available += 1
            visits = edge.visits or 1
            score = edge.total / visits + c * math.sqrt(log(edge.available) / visits)
            if score > best_score:
                best_score, best = score, (edge, action)
        assert best is not None
        return best

    def _rollout(self, world: State[Any], game: Game, policy: str | None) -> None:
        """Play `world` to its end at random, or with a bot named `policy` in
        every seat (a bot a seat: bots may keep notes on their seat's play)."""
        rng = self.rng
        if policy is None:
            choice = rng.choice
            while not world.is_over:
                seat = actor(world, rng)
                world.step(seat, choice(world.legal_actions(seat)))
            return
        bots = [make_policy(game, policy, rng.getrandbits(32)) for _ in range(world.players)]
        finish(world, bots, rng)

    def _guide(self, game: Game) -> Bot | None:
        """The game's heuristic bot (see `playout.heuristic`), made once per game."""
        if game.name not in self._guides:
            self._guides[game.name] = heuristic(game, self.seed)[1]
        return self._guides[game.name]
