"""The Python side of a pitkit game in OpenSpiel: what a state holds, made
cheap to copy, and what each seat remembers (`pitkit.adapters.openspiel`
wraps it; nothing here imports OpenSpiel).

A `Table` is dealt from a 64-bit match seed that chance draws a byte at a
time (`SEED_BYTES` chance nodes of 256 outcomes each), then plays the match
move by move. A small game may instead list its deals (`Deals`): one chance
node whose outcomes are the distinct deals of its deck, each with its true
probability, so that exact algorithms can walk the whole tree.

OpenSpiel copies a state by deep-copying its attributes:
`Table.__deepcopy__` copies only the match (`Match.clone`), and the match
draws from a `SharedChance`, so a copy does not copy the generator either.

A table keeps what each seat has seen, its perfect-recall information
state: the events of the match as the seat saw them, as JSON lines (the
string), and its observation after every move (the tensor, up to a bound).
Both are `Kept` lists, shared with the table's copies and grown as the
match goes on, so neither is built again from the start at each move.
"""

from __future__ import annotations

import functools
import itertools
import json
import math
import random
from collections.abc import Iterator, Sequence
from typing import Any, Generic, NamedTuple, Self, TypeVar

from pitkit import games
from pitkit.adapters.acepit import AcePitEncoding
from pitkit.adapters.encoding import Encoding, Observation
from pitkit.adapters.pitch import PitchEncoding
from pitkit.adapters.pits import PitsEncoding
from pitkit.adapters.pittypat import PittyPatEncoding
from pitkit.core.chance import Chance
from pitkit.core.errors import BadOptionError
from pitkit.core.events import Event
from pitkit.core.game import Game
from pitkit.core.match import Match
from pitkit.core.rules import RuleSet

__all__ = [
    "CHANCE_MODELS",
    "CHANCE_OUTCOMES",
    "ENCODINGS",
    "LONGEST_RECALL",
    "MOST_ORDERS",
    "SEEDS",
    "SEED_BYTES",
    "ChanceBeyondDealError",
    "Deals",
    "Kept",
    "ListedChance",
    "RecallBoundError",
    "Setup",
    "SharedChance",
    "Stretch",
    "Table",
    "default_recall",
    "seed_bytes",
    "setup",
]

SEED_BYTES = 8
"""Chance nodes at the start of every game: the match seed's bytes, high first."""
SEEDS = 1 << (8 * SEED_BYTES)
"""The number of match seeds chance chooses among, uniformly."""
CHANCE_OUTCOMES = tuple((byte, 1.0 / 256) for byte in range(256))
"""Every chance node's outcomes: a byte, uniformly (one list, built once)."""
LONGEST_RECALL = 160
"""The most moves a hand may fill of the information-state tensor by default
(Pits and Pitty Pat; random play's longest hands in 300: 144 and 72)."""
ENCODINGS: tuple[type[Encoding], ...] = (
    PitsEncoding,
    AcePitEncoding,
    PittyPatEncoding,
    PitchEncoding,
)
"""The turn-based games' encodings: the games OpenSpiel gets."""
CHANCE_MODELS = ("seed", "deals")
"""How chance deals: the match seed a byte a node, or one node of every deal."""
MOST_ORDERS = 1_000_000
"""The most orders of chance's outcomes `Deals` will play through to list
the deals (a deck of 9 cards has 362,880; of 10, 3,628,800)."""
UNORDERED = ("hand ", "pairs ", "won ")
"""Zones whose order the games ignore: a deal's hands in another order is the same deal."""

Row = tuple[Observation, ...]
"""Each seat's observation at one point of the match."""
T = TypeVar("T")


def seed_bytes(seed: int) -> list[int]:
    """The chance outcomes that draw match seed `seed` (0 to `SEEDS` - 1), in order."""
    if not 0 <= seed < SEEDS:
        raise ValueError(f"a match seed is from 0 to 2**{8 * SEED_BYTES} - 1, not {seed}")
    return [(seed >> (8 * i)) & 0xFF for i in reversed(range(SEED_BYTES))]


class RecallBoundError(ValueError):
    """A match longer than its information-state tensor can hold."""


class ChanceBeyondDealError(ValueError):
    """A match that asked for chance after its listed deal (a second hand, a restock)."""


class SharedChance(Chance):
    """A `Chance` whose copies share one generator until one of them draws.

    Copying the generator (2.5 KB of state, twice a match clone: the match's
    and its hand's) was most of what cloning a match cost; a match that draws
    nothing more after the deal (most hands) now never copies it. Whichever
    holder draws first takes a copy of its own, so each still draws exactly
    what it would have drawn.
    """

    _shared = False

    def stream(self, kind: str, n: int) -> random.Random:
        """The seed's one stream, made this copy's own before its first draw."""
        if self._shared:
            own = random.Random(0)  # replaced at once by the shared state
            own.setstate(self._rng.getstate())
            self._rng = own
            self._shared = False
        return self._rng

    def clone(self, sink: list[Event] | None) -> Self:
        """A copy that will give the same outcomes, recording to `sink`."""
        copy = type(self).__new__(type(self))
        copy.__dict__.update(self.__dict__)
        copy.sink = sink
        copy._shared = self._shared = True
        return copy


class ListedChance(SharedChance):
    """A `SharedChance` that plays back its queued outcomes (a listed deal)
    and refuses to draw anything more: in a game whose chance is its list
    of deals, any later draw would be chance the tree does not hold."""

    def stream(self, kind: str, n: int) -> random.Random:
        """The seed's stream for a queued outcome; `ChanceBeyondDealError` past them."""
        if not self.queued:
            raise ChanceBeyondDealError(
                f"the match asked chance for a {kind} of {n} after its listed deal: with "
                "chance=deals, choose rules under which nothing is drawn after the deal "
                "(one hand; in Pitty Pat a turn limit no longer than the stock)"
            )
        return super().stream(kind, n)


class Deals:
    """Every distinct deal of a small game, each with its probability: what
    chance's one node lists when a game is loaded with ``chance=deals``.

    The deal's random outcomes (who deals first, the shuffle) are found by
    dealing once; then every order of them is dealt, and deals that leave
    every card in the same place (a hand's cards in any order) are one
    outcome, with the summed probability. Deal `i` is dealt again by
    `chance(i)`, a `ListedChance` that plays back its outcomes."""

    def __init__(self, game: Game, players: int, rules: RuleSet) -> None:
        found: dict[tuple[Any, ...], list[Any]] = {}
        total = 0
        for outcomes in _orders(_draws(game, players, rules)):
            match = game.new_match(players, rules, chance=_listed(outcomes))
            entry = found.setdefault(_deal_key(match), [outcomes, 0])
            entry[1] += 1
            total += 1
        self.outcomes_of: tuple[tuple[tuple[str, Any], ...], ...] = tuple(
            outcomes for outcomes, _ in found.values()
        )
        """Each deal's random outcomes, in the order the match draws them."""
        self.outcomes: tuple[tuple[int, float], ...] = tuple(
            (i, count / total) for i, (_, count) in enumerate(found.values())
        )
        """Chance's outcomes: each deal's index and probability."""

    def chance(self, index: int) -> ListedChance:
        """A chance that deals deal `index`, and draws nothing after it."""
        return _listed(self.outcomes_of[index])


def _draws(game: Game, players: int, rules: RuleSet) -> list[tuple[str, int]]:
    """The random outcomes a match draws to deal: ("pick", n) or ("shuffle", n)."""
    log = game.new_match(players, rules, seed=0).log
    draws = [
        (e.type, int(e.public["range" if e.type == "pick" else "size"]))
        for e in log
        if e.type in ("pick", "shuffle")
    ]
    orders = math.prod(n if kind == "pick" else math.factorial(n) for kind, n in draws)
    if orders > MOST_ORDERS:
        raise BadOptionError(
            f"listing the deals would play through {orders:,} orders of the cards, more than "
            f"{MOST_ORDERS:,}: cut the deck further (the ranks and suits options)"
        )
    return draws


def _orders(draws: Sequence[tuple[str, int]]) -> Iterator[tuple[tuple[str, Any], ...]]:
    """Every combination of the outcomes of `draws`, each equally likely."""
    choices = [
        [(kind, v) for v in (range(n) if kind == "pick" else itertools.permutations(range(n)))]
        for kind, n in draws
    ]
    return itertools.product(*choices)


def _listed(outcomes: Sequence[tuple[str, Any]]) -> ListedChance:
    chance = ListedChance(0)
    for kind, value in outcomes:
        if kind == "pick":
            chance.queue_pick(value)
        else:
            chance.queue_shuffle(value)
    return chance


def _deal_key(match: Match[Any, Any]) -> tuple[Any, ...]:
    """Where every card lies after the deal, and who deals: equal for two
    deals that differ only in the order of cards within a hand."""
    zones = sorted(match.zones().items())
    return (match.dealer, *(tuple(sorted(c) if n.startswith(UNORDERED) else c) for n, c in zones))


class Setup(NamedTuple):
    """What a loaded game's parameters make: the pitkit game, the table's
    size, the rules, the encoding, and `moves`, the most moves of the match
    the information-state tensor holds (`hands` times the ``recall``
    parameter), and the listed `deals` (None: chance draws the match seed).
    One for each set of parameters (`setup`), which a game and all its
    states share; a pickled table names it by its `key`."""

    game: Game
    players: int
    rules: RuleSet
    encoding: Encoding
    moves: int
    key: tuple[str, int, int, int, str, str]
    """What `setup` made it from: the game's name, players, hands, recall,
    rule options and chance model."""
    deals: Deals | None

    @property
    def chance_moves(self) -> int:
        """Chance nodes before the deal: the seed's bytes, or the one of deals."""
        return SEED_BYTES if self.deals is None else 1

    @property
    def chance_outcomes(self) -> tuple[tuple[int, float], ...]:
        """Each chance node's outcomes and their probabilities."""
        return CHANCE_OUTCOMES if self.deals is None else self.deals.outcomes


def default_recall(encoding: type[Encoding]) -> int:
    """The ``recall`` parameter's default: a hand's most moves at the game's
    largest table, at most `LONGEST_RECALL`."""
    game = games.get(encoding.game)
    most = encoding(game.max_players).most_moves(game.make_rules({"hands": 1}))
    return min(most, LONGEST_RECALL)


@functools.cache
def setup(
    game: str, players: int, hands: int, recall: int, rules: str = "", chance: str = "seed"
) -> Setup:
    """The setup of `game` (a registry name) with these parameters: `rules`
    is rule options as ``name:value`` words (``"ranks:3 suits:2"``), and
    `chance` the chance model, ``seed`` or ``deals`` (one hand only)."""
    encoding = next(e for e in ENCODINGS if e.game == game)
    pitkit = games.get(game)
    ruleset = pitkit.make_rules([f"hands={hands}", *_rule_words(rules)])
    if chance not in CHANCE_MODELS:
        raise BadOptionError(f"chance is one of {', '.join(CHANCE_MODELS)}, not {chance!r}")
    if chance == "deals" and hands != 1:
        raise BadOptionError(f"chance=deals lists the deals of one hand: load hands=1, not {hands}")
    deals = Deals(pitkit, players, ruleset) if chance == "deals" else None
    key = (game, players, hands, recall, rules, chance)
    return Setup(pitkit, players, ruleset, encoding(players), hands * recall, key, deals)


def _rule_words(rules: str) -> list[str]:
    """The ``name:value`` words of the ``rules`` parameter as ``name=value``
    options. Not ``=`` and ``,``: OpenSpiel's game strings keep those for its
    own parameters (``python_pitkit_pitch(players=2,rules=ranks:2 suits:2)``)."""
    options = []
    for word in rules.split():
        name, colon, value = word.partition(":")
        if not colon or "=" in word or "," in word:
            raise BadOptionError(f"the rules parameter is name:value words, not {word!r}")
        if name == "hands":
            raise BadOptionError("the number of hands is the game's `hands` parameter, not a rule")
        options.append(f"{name}={value}")
    return options


class Stretch(NamedTuple):
    """Part of a state's past, replayed to rebuild its rows of observations:
    the moves from OpenSpiel history index `start` on, played on a copy of
    `base` (None: the deal from the seed). A world resampled for search
    begins a stretch of its own, since its cards are not the deal's."""

    base: Match[Any, Any] | None
    start: int


class Kept(NamedTuple, Generic[T]):
    """A list a table keeps and shares with its copies, which only ever
    append to it: this table's items are the first `size`. A copy that
    grows it after another did takes a list of its own."""

    items: list[T]
    size: int

    def mine(self) -> list[T]:
        """This table's items."""
        return self.items[: self.size]

    def extended(self, more: Sequence[T]) -> Kept[T]:
        """This list with `more` after its own items."""
        items = self.items
        if len(items) == self.size:
            items.extend(more)  # no copy has added items of its own: share the list
        else:
            items = [*items[: self.size], *more]
        return Kept(items, self.size + len(more))


class Table:
    """A game in OpenSpiel, on the Python side: the seed while chance draws
    it, then the match, and what the seats have seen of it."""

    __slots__ = ("drawn", "lines", "match", "past", "rows", "seed", "setup")

    def __init__(
        self,
        setup: Setup,
        seed: int = 0,
        drawn: int = 0,
        match: Match[Any, Any] | None = None,
        past: tuple[Stretch, ...] | None = None,
        rows: Kept[Row] | None = None,
        lines: tuple[Kept[str], ...] = (),
    ) -> None:
        self.setup = setup
        self.seed = seed
        """The match seed drawn so far; with listed deals, the deal's index."""
        self.drawn = drawn
        self.match = match
        self.past = (Stretch(None, setup.chance_moves),) if past is None else past
        self.rows = rows
        """Each seat's observation after every move so far (row 0: just
        dealt), once the tensor was asked for."""
        self.lines = lines
        """For each seat, the JSON lines of the log's events as it saw them."""

    def __deepcopy__(self, memo: dict[int, Any]) -> Table:
        # What OpenSpiel's clone calls: only the match changes in place.
        match = None if self.match is None else self.match.clone()
        return Table(self.setup, self.seed, self.drawn, match, self.past, self.rows, self.lines)

    def __reduce__(self) -> tuple[Any, ...]:
        # OpenSpiel's serialization pickles the state's attributes. What the
        # seats have seen is left out: it is rebuilt when asked for.
        return (_restore, (self.setup.key, self.seed, self.drawn, self.match, self.past))

    def deal(self) -> Match[Any, Any]:
        """The match as dealt from the seed (or as the listed deal), before any move."""
        setup = self.setup
        deals = setup.deals
        chance = SharedChance(self.seed) if deals is None else deals.chance(self.seed)
        return setup.game.new_match(setup.players, setup.rules, self.seed, chance=chance)

    def play(self, action: int) -> None:
        """Chance's next seed byte (or the deal's index), until the deal; then
        a move's id, for the seat to act (the lowest, when several may act)."""
        match = self.match
        if match is None:
            self.seed = action if self.setup.deals is not None else (self.seed << 8) | action
            self.drawn += 1
            if self.drawn == self.setup.chance_moves:
                self.match = self.deal()
            return
        seat = min(match.to_act)
        match.apply(seat, self.setup.encoding.decode(match, seat, action))

    def world(self, match: Match[Any, Any], history: Sequence[int]) -> Table:
        """A table playing `match` (this one's match with unseen cards dealt
        otherwise) from here on, remembering this table's past."""
        past = (*self.past, Stretch(match.clone(), len(history)))
        return Table(self.setup, self.seed, self.drawn, match, past, self.rows, self.lines)

    def seen(self, seat: int) -> str:
        """`seat`'s information-state string: the seat, then every event of
        the match as it saw it (`Event.seen_by`), one JSON object a line. The
        seat comes first because the events alone may read alike for two
        seats (each holding the same cards in two deals), and OpenSpiel's
        solvers key every seat's information states by the string alone."""
        match = self.match
        assert match is not None
        lines = self.lines or tuple(Kept[str]([], 0) for _ in range(self.setup.players))
        kept = lines[seat]
        if kept.size < len(match.log):
            new = match.log[kept.size :]
            kept = kept.extended([json.dumps(e.seen_by(seat), sort_keys=True) for e in new])
            self.lines = (*lines[:seat], kept, *lines[seat + 1 :])
        return "\n".join([json.dumps({"seat": seat}), *kept.mine()])

    def tensor(self, history: Sequence[int], seat: int, out: Observation) -> None:
        """Write `seat`'s information-state tensor into `out`: its observation
        after each move so far, a row a move, zeros after. `history` is the
        state's OpenSpiel history. `RecallBoundError` past `setup.moves`."""
        out.fill(0.0)
        if self.match is None:
            return
        width = self.setup.encoding.size
        for i, row in enumerate(self.remember(history).mine()):
            out[i * width : (i + 1) * width] = row[seat]

    def remember(self, history: Sequence[int]) -> Kept[Row]:
        """This table's `rows`, brought up to date: one more than the moves
        in `history` (the state's OpenSpiel history)."""
        needed = len(history) - self.setup.chance_moves + 1
        if needed > self.setup.moves + 1:
            raise RecallBoundError(
                f"this match has had {needed - 1} moves, and the information-state "
                f"tensor holds {self.setup.moves} (the game's `recall` parameter "
                f"times its hands): load the game with a larger `recall`"
            )
        rows = self.rows
        if rows is not None and rows.size == needed:
            return rows
        assert self.match is not None
        if rows is not None and rows.size == needed - 1:
            rows = rows.extended([self._observe(self.match)])
        else:
            replayed = self._replay(history)
            rows = Kept(replayed, len(replayed))
        self.rows = rows
        return rows

    def _observe(self, match: Match[Any, Any]) -> Row:
        encoding = self.setup.encoding
        return tuple(encoding.observe(match, seat) for seat in range(self.setup.players))

    def _replay(self, history: Sequence[int]) -> list[Row]:
        """Every row of the past, played again stretch by stretch."""
        rows: list[Row] = []
        for k, stretch in enumerate(self.past):
            end = self.past[k + 1].start if k + 1 < len(self.past) else len(history)
            match = self.deal() if stretch.base is None else stretch.base.clone()
            if k == 0:
                rows.append(self._observe(match))
            again = Table(self.setup, match=match)
            for action in history[stretch.start : end]:
                again.play(action)
                rows.append(self._observe(match))
        return rows


def _restore(
    key: tuple[str, int, int, int, str, str],
    seed: int,
    drawn: int,
    match: Match[Any, Any] | None,
    past: tuple[Stretch, ...],
) -> Table:
    """A pickled `Table` back."""
    return Table(setup(*key), seed, drawn, match, past)
