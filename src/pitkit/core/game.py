"""A game definition: what the registry holds for each of the five games,
and the protocol every bot follows."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar, cast

from pitkit.core.actions import Action
from pitkit.core.chance import Chance
from pitkit.core.errors import BadOptionError, UnknownNameError
from pitkit.core.events import Event
from pitkit.core.match import Match
from pitkit.core.narrate import Narrator, plain
from pitkit.core.rules import RuleSet
from pitkit.core.state import State

__all__ = [
    "Bot",
    "BotFactory",
    "BotInfo",
    "Game",
    "is_slow",
    "match_event_text",
    "plain_event_text",
]

S = TypeVar("S", bound=State[Any])


class Bot(Protocol):
    """A player program. It must decide from what `player` may see: its view,
    or the state's seat-visible facts; search bots first call
    `state.redeal_unseen(player, ...)` so they cannot peek.

    A bot that may think for more than about a millisecond a move (it searches,
    or plays moves out over sampled deals) says so with a class attribute
    ``slow = True`` (`is_slow`): a server then runs it away from its players."""

    def choose(self, state: State[Any], player: int) -> Action:
        """The action to play for `player`, one of `state.legal_actions(player)`."""
        ...


def is_slow(bot: object) -> bool:
    """Whether `bot` may think for more than about a millisecond a move, as its
    class declares (``slow = True``); every other bot decides in microseconds."""
    return getattr(bot, "slow", False) is True


BotFactory = Callable[[int | None], Bot]
"""Makes a bot from a seed (None: fresh entropy)."""


@dataclass(frozen=True)
class BotInfo:
    """A registered bot: its one-line description and its factory."""

    description: str
    make: BotFactory


def match_event_text(event: Mapping[str, Any], say: Narrator) -> str | None:
    """A line for the events every match logs alike (scores, its end), else None."""
    kind = event.get("type")
    if kind == "scores":
        if event["scores"] is None:
            return f"Hand {event['hand']} is over (scores are hidden until the end)."
        scores = ", ".join(
            f"{say.name(seat)} {score}" for seat, score in enumerate(event["scores"])
        )
        return f"After hand {event['hand']}: {scores}."
    if kind == "match_over":
        text = say.with_names(str(event["result"]["summary"]))
        return text[:1].upper() + text[1:] + ("" if text.endswith((".", "!")) else ".")
    return None


def plain_event_text(event: Mapping[str, Any], say: Narrator) -> str | None:
    """A one-line description of an event as one seat saw it (None: not worth showing).

    Games pass their own `Game.describe` for richer wording; this is the fallback.
    """
    kind = event.get("type")
    if kind == "action":
        return f"{say.who(int(event['seat']))}: {event['action']}"
    if kind == "shuffle":
        return "The cards are shuffled."
    if kind == "pick":
        return None
    details = ", ".join(f"{k} {v}" for k, v in event.items() if k != "type")
    return f"{kind}: {details}" if details else str(kind)


@dataclass(frozen=True)
class Game:
    """Everything pitkit knows about one game, as held by the registry."""

    name: str
    title: str
    summary: str
    min_players: int
    max_players: int
    default_players: int
    rules: type[RuleSet]
    match: Callable[[Any, int, int | None, Chance | None], Match[Any, Any]]
    render: Callable[[Mapping[str, Any]], str]
    describe: Callable[[Mapping[str, Any], Narrator], str | None] = plain_event_text
    """An event in words, as one seat saw it (`Event.seen_by`), persons and
    names from the `Narrator`; None: not worth a line. The terminal and the
    browser both say what this says."""
    bots: Mapping[str, BotInfo] = field(default_factory=dict)
    heuristic: str | None = None
    """The game's own bot that guides search (`rollouts`, `search`'s checks), one of `bots`."""
    opponent: str = "random"
    """The bot offered by default for an empty seat, and the stand-in for an absent player."""
    belief: Callable[[Any, int | None, random.Random], State[Any]] | None = None
    """What a seat can infer of the cards it cannot see: a copy of a hand with
    those cards dealt at random, consistently with everything the seat knows
    (the game's `belief` module). None: only the sizes of the hidden places
    are known (`State.redeal_unseen`)."""
    view_type: type | None = None
    """The declared type of `State.view` (a `pitkit.core.views.TableView`)."""
    short_match: Mapping[str, Any] = field(default_factory=dict)
    """Rule options that make a match short without changing how a hand is
    played, for tests and benchmarks of random play (Pit: one hand, as
    RULINGS T7 lets a table cap the hands; random traders rarely corner)."""
    realtime: bool = False
    """True for games played in real time (Pit): `pitkit play` and `simulate`
    then use the real-time runner in `pitkit.play`."""
    judge: Callable[[Sequence[str]], str] | None = None
    """Optional rules judge for disputes at the table: `pitkit judge GAME ARGS...`
    passes the raw arguments and prints the returned verdict; ValueError means bad input."""

    def __post_init__(self) -> None:
        for role in (self.heuristic, self.opponent):
            if role is not None and role != "random" and role not in self.bots:
                raise ValueError(f"{self.name}: no bot named {role!r} among {list(self.bots)}")

    def narrate(self, event: Mapping[str, Any], say: Narrator) -> str | None:
        """An event in words (`describe`), or the words every match uses for
        its scores and its end, for players (`plain`: no ruling references);
        None: not worth a line."""
        text = self.describe(event, say) or match_event_text(event, say)
        return plain(text) if text else None

    def sample_unseen(self, state: S, seat: int | None, rng: random.Random) -> S:
        """A copy of `state` (a hand, or a match) in which the cards `seat`
        cannot see are dealt at random, consistently with everything `seat`
        knows: the sampler of hidden cards for search bots. It depends only
        on what `seat` may see and on `rng`, never on where the cards lie."""
        if self.belief is None:
            return state.redeal_unseen(seat, rng)
        if isinstance(state, Match):
            return cast(S, state.with_hand(self.belief(state.hand, seat, rng)))
        return cast(S, self.belief(state, seat, rng))

    def make_rules(
        self, options: RuleSet | Mapping[str, Any] | Iterable[str] | None = None
    ) -> RuleSet:
        """This game's rules from a rules object, a dict or ``k=v`` texts."""
        if options is None:
            return self.rules()
        if isinstance(options, RuleSet):
            if not isinstance(options, self.rules):
                raise BadOptionError(f"{type(options).__name__} are not the rules of {self.name}")
            return options
        return self.rules.from_options(options)

    def new_match(
        self,
        players: int | None = None,
        rules: RuleSet | Mapping[str, Any] | Iterable[str] | None = None,
        seed: int | None = None,
        *,
        chance: Chance | None = None,
    ) -> Match[Any, Any]:
        """A new match for `players` seats (default: the number the rules call
        for, else the game's usual number)."""
        ruleset = self.make_rules(rules)
        n = players if players is not None else ruleset.players() or self.default_players
        if not self.min_players <= n <= self.max_players:
            raise BadOptionError(
                f"{self.title} is for {self.min_players}-{self.max_players} players, not {n}"
            )
        return self.match(ruleset, n, seed, chance)

    def replay(self, header: Mapping[str, Any], events: Iterable[Event]) -> Match[Any, Any]:
        """Rebuild a match from its log: header and events (see `pitkit.core.events`)."""
        *_, match = self.replay_steps(header, events)
        return match

    def replay_steps(
        self, header: Mapping[str, Any], events: Iterable[Event]
    ) -> Iterator[Match[Any, Any]]:
        """Rebuild a match from its log, yielding it before each action and once at the end."""
        if header.get("game") != self.name:
            raise UnknownNameError(f"this log is of {header.get('game')!r}, not {self.name!r}")
        events = list(events)
        seed = header.get("seed")
        match = self.new_match(
            int(header["players"]),
            header.get("rules", {}),
            seed,
            chance=Chance(seed, recorded=events),
        )
        for event in events:
            if event.type == "action":
                yield match
                spelling = event.secret.get("action", event.public.get("action"))
                match.apply(int(event.public["seat"]), spelling)
            elif event.type in match.replayed_events:
                yield match
                match.replay_event(event)
        yield match
