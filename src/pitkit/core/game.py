"""A game definition: what the registry holds for each of the five games,
and the protocol every bot follows."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from pitkit.core.actions import Action
from pitkit.core.chance import Chance
from pitkit.core.errors import BadOption, UnknownName
from pitkit.core.events import Event
from pitkit.core.match import Match
from pitkit.core.rules import RuleSet
from pitkit.core.state import State

__all__ = ["Bot", "BotFactory", "BotInfo", "Game", "match_event_text", "plain_event_text"]


class Bot(Protocol):
    """A player program. It must decide from what `player` may see: its view,
    or the state's seat-visible facts; search bots first call
    `state.redeal_unseen(player, ...)` so they cannot peek."""

    def choose(self, state: State[Any], player: int) -> Action:
        """The action to play for `player`, one of `state.legal_actions(player)`."""
        ...


BotFactory = Callable[[int | None], Bot]
"""Makes a bot from a seed (None: fresh entropy)."""


@dataclass(frozen=True)
class BotInfo:
    """A registered bot: its one-line description and its factory."""

    description: str
    make: BotFactory


def match_event_text(event: Mapping[str, Any]) -> str | None:
    """A line for the events every match logs alike (scores, its end), else None."""
    kind = event.get("type")
    if kind == "scores":
        if event["scores"] is None:
            return f"Hand {event['hand']} is over (scores are hidden until the end)."
        scores = ", ".join(f"seat {seat} {score}" for seat, score in enumerate(event["scores"]))
        return f"After hand {event['hand']}: {scores}"
    if kind == "match_over":
        return str(event["result"]["summary"]).capitalize() + "."
    return None


def plain_event_text(event: Mapping[str, Any]) -> str | None:
    """A one-line description of an event as one seat saw it (None: not worth showing).

    Games pass their own `Game.describe` for richer wording; this is the fallback.
    """
    kind = event.get("type")
    if kind == "action":
        return f"seat {event['seat']}: {event['action']}"
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
    describe: Callable[[Mapping[str, Any]], str | None] = field(
        default=lambda e: plain_event_text(e)
    )
    bots: Mapping[str, BotInfo] = field(default_factory=dict)
    realtime: bool = False
    """True for games played in real time (Pit): `pitkit play` and `simulate`
    then use the real-time runner in `pitkit.realtime`."""
    judge: Callable[[Sequence[str]], str] | None = None
    """Optional rules judge for disputes at the table: `pitkit judge GAME ARGS...`
    passes the raw arguments and prints the returned verdict; ValueError means bad input."""

    def make_rules(
        self, options: RuleSet | Mapping[str, Any] | Iterable[str] | None = None
    ) -> RuleSet:
        """This game's rules from a rules object, a dict or ``k=v`` texts."""
        if options is None:
            return self.rules()
        if isinstance(options, RuleSet):
            if not isinstance(options, self.rules):
                raise BadOption(f"{type(options).__name__} are not the rules of {self.name}")
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
            raise BadOption(
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
            raise UnknownName(f"this log is of {header.get('game')!r}, not {self.name!r}")
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
