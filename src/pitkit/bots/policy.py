"""A policy as a bot: any function from an encoded observation and its
action mask to an action id plays a seat (`PolicyBot`).

The encoding is an environment's (`pitkit.adapters`, docs/adapters.md): the
same observation vector and the same action ids a policy learns on in
PettingZoo, Gymnasium or OpenSpiel. This module does not import the
adapters (they are an optional extra, and nothing imports them); the
caller passes the encoding class::

    from pitkit.adapters import encoding
    from pitkit.bots.policy import PolicyBot

    def first_legal(observation, mask):
        return int(mask.nonzero()[0][0])

    bot = PolicyBot(encoding("pitkit/ace_pit-v0"), first_legal)
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any, Protocol, SupportsIndex

from pitkit.core.actions import Action
from pitkit.core.errors import BadActionError, IllegalActionError
from pitkit.core.match import Match
from pitkit.core.state import State

__all__ = ["Encoder", "Policy", "PolicyBot"]

Policy = Callable[[Any, Any], SupportsIndex]
"""``policy(observation, mask) -> action id``: the observation is the
encoding's float32 vector, the mask its int8 vector with 1 at each legal id."""


class Encoder(Protocol):
    """What a bot needs of an encoding (`pitkit.adapters.encoding.Encoding`)."""

    def observe(self, match: Match[Any, Any], seat: int) -> Any:
        """What `seat` sees of `match`, as a vector."""
        ...

    def mask(self, match: Match[Any, Any], seat: int) -> Any:
        """1 at the id of each legal action of `seat` now, else 0."""
        ...

    def decode(self, match: Match[Any, Any], seat: int, action_id: int) -> Action:
        """The action that id `action_id` stands for, for `seat` now."""
        ...


class PolicyBot:
    """Plays a seat by asking `policy` for an action id, through an encoding.

    `encoding` makes the encoding for a number of seats: an encoding class,
    such as ``pitkit.adapters.encoding("pitkit/ace_pit-v0")``. Each decision
    the bot encodes what its seat sees and the legal ids, asks the policy,
    and plays the move the id stands for. An id the mask rules out is
    `IllegalActionError`, and anything but an integer `BadActionError`:
    a policy must mask its choices. The bot draws nothing at random; a
    policy that samples should draw from a generator seeded by the factory
    that builds the bot (the arena's seed for the seat). Give `slow=True` if
    the policy may think for more than about a millisecond a move
    (`pitkit.core.game.is_slow`): a server then runs it away from its players.
    It plays the turn-based games (Pit's real-time table asks a bot whether
    to act at all, which an action id does not say).
    """

    def __init__(
        self, encoding: Callable[[int], Encoder], policy: Policy, *, slow: bool = False
    ) -> None:
        self.encoding = encoding
        self.policy = policy
        self.slow = slow
        self._encoders: dict[int, Encoder] = {}

    def encoder(self, players: int) -> Encoder:
        """The encoding for a table of `players` seats (made once)."""
        encoder = self._encoders.get(players)
        if encoder is None:
            encoder = self._encoders[players] = self.encoding(players)
        return encoder

    def choose(self, state: State[Any], player: int) -> Action:
        """The move the policy picks for `player`, by its id."""
        if not isinstance(state, Match):
            raise TypeError("a policy bot plays matches: its encoding reads the whole match")
        encoder = self.encoder(state.players)
        game = getattr(encoder, "game", state.game)
        if game != state.game:
            raise ValueError(f"this policy's encoding is for {game}, not {state.game}")
        mask = encoder.mask(state, player)
        choice = self.policy(encoder.observe(state, player), mask)
        try:
            action_id = operator.index(choice)
        except TypeError:
            raise BadActionError(
                f"the policy returned {choice!r}, not an action id (an integer)"
            ) from None
        if not 0 <= action_id < len(mask) or not mask[action_id]:
            legal = [str(i) for i, bit in enumerate(mask) if bit]
            shown = ", ".join(legal[:12]) + (
                f" and {len(legal) - 12} more" if len(legal) > 12 else ""
            )
            raise IllegalActionError(
                f"the policy chose action id {action_id} for seat {player}, which is not "
                f"legal now; the legal ids are {shown or 'none'}"
            )
        return encoder.decode(state, player, action_id)
