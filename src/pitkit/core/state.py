"""The one game interface: a `State` that players act on, and its `Outcome`.

A state is a hand, or a whole match of hands (see `pitkit.core.match`); both
speak the same interface, so a bot, the terminal, a server or an RL wrapper
written once works for every game:

- `to_act`: the seats that may act now. A set, since in some games several
  players act at once (Pits' concealed exchange, Pit's open trading).
- `legal_actions(seat)` and `apply(seat, action)`. An illegal action raises
  `IllegalAction` and changes nothing.
- `view(seat)`: exactly what that seat may see at the table, as JSON.
- `log`: every event so far; a log replays to the same state.
- `zones()`: where every card is, for tests and for samplers of hidden cards.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Self, TypeVar, cast

from pitkit.core.actions import Action, ActionCodec
from pitkit.core.chance import Chance
from pitkit.core.errors import IllegalActionError
from pitkit.core.events import Event

__all__ = ["Outcome", "State"]

A = TypeVar("A", bound=Action)


@dataclass(frozen=True)
class Outcome:
    """How a hand or a match ended.

    `ranks` gives each seat's place (1 is best; equal places tie; seats that
    did not take part share the last place). `points` is what the game
    scored for each seat. `detail` holds game-specific JSON facts.
    """

    ranks: tuple[int, ...]
    points: tuple[float, ...]
    summary: str
    detail: Mapping[str, Any] = field(default_factory=dict)

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats in first place (all of them when everyone ties)."""
        return tuple(seat for seat, rank in enumerate(self.ranks) if rank == 1)

    @property
    def is_draw(self) -> bool:
        """True when every seat shares first place."""
        return all(rank == 1 for rank in self.ranks)

    def to_json(self) -> dict[str, Any]:
        """This outcome as JSON."""
        return {
            "ranks": list(self.ranks),
            "points": list(self.points),
            "summary": self.summary,
            "detail": dict(self.detail),
        }

    @staticmethod
    def ranking(scores: Sequence[float]) -> tuple[int, ...]:
        """Competition ranks for scores where higher is better: 10, 7, 7, 3 -> 1, 2, 2, 4."""
        return tuple(1 + sum(other > mine for other in scores) for mine in scores)


class State(ABC, Generic[A]):
    """A game in progress. Subclasses implement the abstract members."""

    #: Parses this game's action spellings.
    codec: ClassVar[ActionCodec]
    #: The registry name of the game.
    game: ClassVar[str]

    players: int
    """Number of seats, numbered 0 to players - 1; seat i + 1 sits to the left of seat i."""

    log: list[Event]
    """Every event so far, in order (a hand inside a match shares the match's log)."""

    log_start: int = 0
    """Where this state's own events begin in `log`."""

    chance: Chance
    """Where the state's random outcomes come from."""

    # -- the interface ---------------------------------------------------

    @property
    @abstractmethod
    def to_act(self) -> frozenset[int]:
        """The seats that may act now; empty once the game is over."""

    @abstractmethod
    def _legal_actions(self, player: int) -> list[A]:
        """Every action `player` may take now (see `legal_actions`)."""

    @property
    @abstractmethod
    def is_over(self) -> bool:
        """True once the game has ended."""

    @property
    @abstractmethod
    def outcome(self) -> Outcome | None:
        """How the game ended, or None while it goes on."""

    @abstractmethod
    def view(self, seat: int | None = None) -> dict[str, Any]:
        """What `seat` may see at the table (None: a spectator), as JSON."""

    @abstractmethod
    def clone(self) -> Self:
        """An independent copy, cheap enough for search."""

    @abstractmethod
    def zones(self) -> dict[str, Sequence[Any]]:
        """Every card of the game by where it lies (all-seeing; never sent to a client)."""

    @abstractmethod
    def hidden_zones(self, seat: int | None) -> list[str]:
        """The zones whose cards, or whose order, `seat` cannot see."""

    @abstractmethod
    def _set_zone(self, name: str, cards: list[Any]) -> None:
        """Replace the cards of one zone (used by `redeal_unseen`)."""

    @abstractmethod
    def _apply(self, player: int, action: A) -> None:
        """Carry out a legal action, appending its events to the log."""

    # -- shared behaviour ------------------------------------------------

    _legal_cache: tuple[int, int, list[A]] | None = None

    def legal_actions(self, player: int) -> list[A]:
        """Every action `player` may take now (empty if they may not act).

        The list is computed once per position and seat; do not modify it.
        """
        cached = self._legal_cache
        version = len(self.log)
        if cached is not None and cached[0] == version and cached[1] == player:
            return cached[2]
        actions = self._legal_actions(player)
        self._legal_cache = (version, player, actions)
        return actions

    def parse_action(self, spelling: str | Mapping[str, Any] | Action) -> A:
        """The action spelled by text, JSON or an Action value; `BadAction` if none."""
        return self.codec.parse(spelling)  # type: ignore[return-value]

    def apply(self, player: int, action: A | str | Mapping[str, Any]) -> list[Event]:
        """Play `action` for `player`; return the events it caused.

        Raises `IllegalAction` (with the reason) and changes nothing when
        the action is malformed, out of turn or not legal now.
        """
        move = action if isinstance(action, Action) else self.parse_action(action)
        if player not in self.to_act:
            if self.is_over:
                raise IllegalActionError("the game is over")
            raise IllegalActionError(f"seat {player} may not act now")
        if not self.allows(player, move):
            raise IllegalActionError(self.why_illegal(player, move))
        start = len(self.log)
        self.log.append(self._action_event(player, move))
        self._apply(player, move)
        return self.log[start:]

    def step(self, player: int, action: A) -> None:
        """`apply` for an action known to be legal (one of `legal_actions`,
        or one `allows` accepts): the same log entry and effect, without
        parsing or checking it again. The fast path of search and playouts."""
        self.log.append(self._action_event(player, action))
        self._apply(player, action)

    @property
    def current_hand(self) -> State[A]:
        """The hand being played: this state itself, or a match's current hand."""
        return self

    def attempt(self, player: int, action: A) -> list[Event] | str:
        """`apply`, for a table that takes whatever arrives: the events, or
        the reason the action is refused (and nothing changed). Real-time
        games refuse many actions that lost a race, and override this to
        refuse them without raising."""
        try:
            return self.apply(player, action)
        except IllegalActionError as exc:
            return str(exc)

    def allows(self, player: int, action: A) -> bool:
        """Whether `apply` accepts `action` from `player`, who may act now.

        By default, exactly the listed legal actions. A game whose rules
        penalize a move rather than forbid it (Pit's false corner) accepts it
        here without listing it, so that random play does not seek it out.
        """
        return action in self.legal_actions(player)

    def _action_event(self, player: int, action: A) -> Event:
        """The log entry for an action: public by default. Games with
        concealed actions override this to hide them, keeping the whole
        action in the event's secret part for replay."""
        return Event("action", {"seat": player, "action": str(action)})

    def why_illegal(self, player: int, action: A) -> str:
        """A reason for refusing `action`; games override this with better ones."""
        legal = ", ".join(str(a) for a in self.legal_actions(player)) or "none"
        return f"{action} is not legal now; legal actions: {legal}"

    def history(self, seat: int | None) -> list[dict[str, Any]]:
        """This state's part of the log, as `seat` saw it."""
        return [event.seen_by(seat) for event in self.log[self.log_start :]]

    def _join(self, log: list[Event] | None, chance: Chance) -> None:
        """Start this state's log (a match's own, when it is a hand of one) and
        take its chance, which records into that log unless it records already."""
        self.log = [] if log is None else log
        self.log_start = len(self.log)
        self.chance = chance
        if chance.sink is None:
            chance.sink = self.log

    def _clone_base(self) -> Self:
        """A shallow copy with its own log and chance; games then copy their
        mutable zones (used by `clone`)."""
        cls = type(self)
        new = cls.__new__(cls)
        # As `copy.copy` does, but by hand: a class compiled with mypyc
        # (hatch_build.py) gives its Python attributes as one `__dict__`
        # entry of its state, which `copy.copy` would share, not copy.
        state = cast(dict[str, Any], self.__getstate__())
        attributes = {**state, **state.get("__dict__", {})}
        attributes.pop("__dict__", None)
        for name, value in attributes.items():
            setattr(new, name, value)
        new._legal_cache = None
        new.log = list(self.log)
        new.chance = self.chance.clone(new.log)
        return new

    def redeal_unseen(self, seat: int | None, seed: int | random.Random) -> Self:
        """A copy in which the cards `seat` cannot see are shuffled among the
        places it cannot see, each place keeping its number of cards.

        The copy looks the same from `seat`; it is the starting point of a
        sampler of hidden cards for search bots, and of the tests that
        check that views leak nothing.
        """
        rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        new = self.clone()
        names = self.hidden_zones(seat)
        zones = new.zones()
        # Sorted first, so the copy depends on the seed alone, not on where the cards lay.
        pool = sorted((card for name in names for card in zones[name]), key=str)
        rng.shuffle(pool)
        for name in names:
            size = len(zones[name])
            new._set_zone(name, pool[:size])
            del pool[:size]
        # Future shuffles are unseen too: the copy draws its own.
        new.set_chance(Chance(rng.getrandbits(64)))
        return new

    def set_chance(self, chance: Chance) -> None:
        """Give the state a new source of random outcomes, recording to its log."""
        chance.sink = self.log
        self.chance = chance
