"""A hand's bidding as the dealer records it on the pad: every call in the order
made (topics 13-21: passes, bids of 2, 3 or 4, the dealer's steal, "take it" for 2,
"run it" and "sell").

The calls are checked by the game's own bidding rules: they are played, one by one,
on a hand of Pitch (`pitkit.games.pitch.state.PitchHand`) dealt to the seats that
play the hand, by its dealer, under the tournament's rules (the Darrtown "take it
for one more" steal). The cards dealt there do not matter: bidding depends on who
calls what, never on the cards. A call the rules forbid, or a bidding that is not
over, is refused in words, and nothing changes. What the bidding decides follows
from it: the pitcher, the bid, and "the highest bid made in the hand" that an
offender loses for a misplay (topic 37).

A call is written as the dealer taps it: ``pass``, ``2``, ``3`` or ``4`` (or
``bid 3``), ``steal`` (the dealer takes it for one more; ``steal 4`` names the
amount), ``take`` (everyone passed: the dealer takes it for 2), ``run`` and ``sell``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pitkit.core.chance import Chance
from pitkit.games.pitch.actions import Bid, Pass, PitchAction, Run, Sell, Steal, Take
from pitkit.games.pitch.rules import MAX_BID, Rules
from pitkit.games.pitch.sheet import next_seat
from pitkit.games.pitch.state import Phase, PitchHand
from pitkit.tournaments.log import RefusedError

__all__ = ["MAX_CALLS", "Bidding", "calling_order", "read_bidding"]

MAX_CALLS = 16
"""The most calls a bidding has: two rounds round a table of four, and the dealer's."""


@dataclass(frozen=True)
class Bidding:
    """A hand's bidding as recorded: each call (who, and what, as the game writes it:
    "pass", "bid 3", "steal 4", "take", "run", "sell"), in order; the entry that
    recorded it; and what it decided."""

    entry: int
    calls: tuple[tuple[str, str], ...]
    pitcher: str
    bid: int
    highest: int
    """The highest bid made in the hand: what an offender loses for a misplay."""

    def to_json(self) -> dict[str, Any]:
        """As the pad shows it: each call with its words."""
        return {
            "entry": self.entry,
            "calls": [
                {"player": who, "call": call, "words": _words(call, self.calls[:n], self.pitcher)}
                for n, (who, call) in enumerate(self.calls)
            ],
            "pitcher": self.pitcher,
            "bid": self.bid,
            "highest": self.highest,
        }

    @property
    def texts(self) -> list[str]:
        """The calls as an entry gives them."""
        return [call for _, call in self.calls]


def calling_order(names: Sequence[str], dealer: int, seated: Sequence[int]) -> list[str]:
    """Who calls, in order: clockwise from the dealer's left, ending with the dealer (topic 13)."""
    order = [next_seat(seated, dealer)]
    while order[-1] != dealer:
        order.append(next_seat(seated, order[-1]))
    return [names[seat] for seat in order]


def read_bidding(
    calls: Any,
    rules: Rules,
    names: Sequence[str],
    dealer: int,
    seated: Sequence[int],
    entry: int,
) -> Bidding:
    """The bidding `calls` make at a hand dealt by seat `dealer` to the seats
    `seated` of a table whose players are `names`, checked call by call against
    `rules` (the tournament's); RefusedError, in words, for a call the rules forbid
    or a bidding that is not over."""
    if not isinstance(calls, list) or not all(isinstance(c, str) for c in calls):
        raise RefusedError('give the bidding as a list of calls, e.g. ["pass", "3", "steal"]')
    if not calls or len(calls) > MAX_CALLS:
        raise RefusedError(f"a bidding has 1 to {MAX_CALLS} calls, not {len(calls)}")
    # The rules' own hand, dealt from a fixed seed: the cards play no part in bidding.
    hand = PitchHand(rules, len(names), dealer, Chance(0), seated=seated)
    made: list[tuple[str, str]] = []
    for number, text in enumerate(calls, 1):
        seat = hand.player
        who = names[seat]
        if hand.phase is not Phase.BIDDING and hand.phase is not Phase.REBIDDING:
            raise RefusedError(
                f"the bidding was over after call {number - 1} ({names[hand.player]} pitches "
                f"for {hand.contract}): call {number}, {text!r}, comes after it"
            )
        action = _action(hand, seat, text, number)
        if not hand.allows(seat, action):
            why = f" ({MAX_BID} is the most a bid can be)" if _amount(action) > MAX_BID else ""
            raise RefusedError(
                f"call {number}: {who} cannot {_verb(action, hand)} now{why}; "
                f"{who} may {_choices(hand, seat)}"
            )
        hand.apply(seat, action)
        made.append((who, str(action)))
    if hand.phase is not Phase.PLAY:
        seat = hand.player
        raise RefusedError(
            f"the bidding is not over: {names[seat]} calls next, and may {_choices(hand, seat)}"
        )
    assert hand.pitcher is not None
    return Bidding(entry, tuple(made), names[hand.pitcher], hand.contract, hand.highest_bid)


def _action(hand: PitchHand, seat: int, text: str, number: int) -> PitchAction:
    """The action a call's text names; a bare "steal" is the one steal the rules allow."""
    word = " ".join(text.lower().split())
    if word.isdigit():
        word = f"bid {word}"
    if word == "steal":
        steals = [a for a in hand.legal_actions(seat) if isinstance(a, Steal)]
        # None allowed: the steal the dealer means, refused below with the reason.
        return steals[0] if steals else Steal(hand.high + 1)
    try:
        action = hand.parse_action(word)
    except ValueError:
        action = None
    if not isinstance(action, Pass | Bid | Steal | Take | Run | Sell):
        raise RefusedError(
            f"call {number}, {text!r}, is not a call: pass, 2, 3, 4, steal (take it for one "
            "more), take (take it for 2), run (run it) or sell"
        )
    return action


def _verb(action: PitchAction, hand: PitchHand) -> str:
    """A call in words, as something a player does: "bid 3", "take it for one more"."""
    if isinstance(action, Bid):
        return f"bid {action.amount}"
    if isinstance(action, Steal):
        how = "one more" if action.amount > hand.high else "the same"
        return f"take it for {how} ({action.amount})"
    return {
        "pass": "pass",
        "take": "take it for 2",
        "run": "run it for 2",
        "sell": "sell the bid",
    }[action.kind]


def _amount(action: PitchAction) -> int:
    """The points a bid or a steal names (0 for other calls)."""
    return action.amount if isinstance(action, Bid | Steal) else 0


def _choices(hand: PitchHand, seat: int) -> str:
    """What `seat` may call now, in words: "pass, bid 3 or bid 4"."""
    words = [_verb(action, hand) for action in hand.legal_actions(seat)]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def _words(call: str, before: Sequence[tuple[str, str]], pitcher: str) -> str:
    """A recorded call in the seed's words, for the pad: "passed", "bid 3", "took it
    for one more (4)", "ran it for 2", "sold the bid to Bob"."""
    kind, _, amount = call.partition(" ")
    if kind == "steal":
        high = max((int(c.split()[1]) for _, c in before if c.startswith("bid ")), default=2)
        return f"took it for {'the same' if int(amount) == high else 'one more'} ({amount})"
    if kind == "sell":
        return f"sold the bid to {pitcher}"
    said = {"pass": "passed", "take": "took it for 2", "run": "ran it for 2"}
    return said.get(kind, f"bid {amount}")
