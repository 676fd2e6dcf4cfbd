"""The first dealer of a Pits game at a BGA continuous tournament (seeds/pits-bga.txt:
"In the first hand the dealer is chosen at random, usually the first person to turn
up a Jack"; ruling P1).

The scorer records who deals the first hand (``first_dealer`` {game, dealer}), or
asks the server to draw it (``first_dealer`` {game, draw: true, seed?}): the server
shuffles the Pits pack (54 cards, both Jokers) from the seed and turns the cards up
one at a time round the table, from the first seat on, until a Jack turns up; whoever
gets it deals. The server writes the seed, the dealer and the cards turned up into
the entry, so the log holds the draw and a replay makes it again from the seed (and
refuses a log whose dealer the seed does not draw). At a game played online, the
table's own first dealer is entered by the table.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pitkit.cards import Rank, standard_deck
from pitkit.core.chance import Chance
from pitkit.tournaments.log import Entry, RefusedError, entry_name

__all__ = ["FIRST_DEALER", "FirstDealer", "decide", "draw", "first_dealer"]

FIRST_DEALER = "first_dealer"
"""The entry that records who deals a game's first hand."""

_SERVER_FIELDS = ("seed", "turned")


@dataclass(frozen=True)
class FirstDealer:
    """Who dealt a game's first hand, how it was decided ("chosen" by the scorer,
    "drawn" by the server, "online": by the table), the entry that says so, and for a
    draw, its seed and the cards turned up (player, card) until the Jack."""

    player: str
    how: str
    entry: int
    seed: int | None = None
    turned: tuple[tuple[str, str], ...] = ()

    def to_json(self) -> dict[str, Any]:
        """As the game's view shows it."""
        return {
            "player": self.player,
            "how": self.how,
            "entry": self.entry,
            "seed": self.seed,
            "turned": [list(pair) for pair in self.turned],
        }


def draw(players: Sequence[str], seed: int) -> tuple[str, list[tuple[str, str]]]:
    """The first dealer drawn "as the first Jack turned up": the pack shuffled from
    `seed`, its cards turned up one at a time to `players` in seat order, from the
    first; returns who got the first Jack, and every (player, card) turned up."""
    deck = Chance(seed).shuffle(standard_deck(jokers=True))
    turned: list[tuple[str, str]] = []
    for index, card in enumerate(deck):
        player = players[index % len(players)]
        turned.append((player, str(card)))
        if not card.is_joker and card.rank == Rank.JACK:
            return player, turned
    raise AssertionError("a Pits pack has four Jacks")  # pragma: no cover


def decide(players: Sequence[str], data: Mapping[str, Any]) -> dict[str, Any]:
    """What the server writes into a ``first_dealer`` entry that asks for the draw:
    its seed (the one given, or a new one), the dealer and the cards turned up.
    Nothing for a dealer the scorer names. RefusedError: neither, or both."""
    for field in _SERVER_FIELDS:
        if field in data and not (field == "seed" and data.get("draw") is True):
            raise RefusedError(f"the server writes the draw's {field} into this entry")
    if data.get("draw") is not True:
        if "draw" in data:
            raise RefusedError('ask for the draw with "draw": true, or name the dealer')
        return {}
    if "dealer" in data:
        raise RefusedError("name the first dealer or ask the server to draw one, not both")
    seed = data.get("seed")
    if seed is None:
        seed = secrets.randbelow(2**31)
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise RefusedError("a draw's seed is a whole number, 0 or more")
    dealer, turned = draw(players, seed)
    return {"seed": seed, "dealer": dealer, "turned": [list(pair) for pair in turned]}


def first_dealer(entry: Entry, players: Sequence[str], hands: int) -> FirstDealer:
    """The first dealer a ``first_dealer`` entry records at a game whose players in seat
    order are `players`, with `hands` hands on its sheet; a draw is made again from its
    seed and must name the same dealer. RefusedError if it cannot be."""
    data = entry.data
    drawn = data.get("draw") is True
    if drawn and hands:
        raise RefusedError(
            f"game {data.get('game')} has hands on its sheet: its first dealer was chosen at "
            "the table; name them"
        )
    seed = data.get("seed")
    if drawn and (not isinstance(seed, int) or isinstance(seed, bool) or "dealer" not in data):
        raise RefusedError("a draw is made by the server: a correction names the dealer")
    dealer = entry_name(data, "dealer")
    if dealer not in players:
        raise RefusedError(f"{dealer} does not play game {data.get('game')}")
    if not drawn:
        how = "online" if entry.role == "table" else "chosen"
        return FirstDealer(dealer, how, entry.seq)
    assert isinstance(seed, int)
    jack, turned = draw(players, seed)
    if jack != dealer:
        raise RefusedError(f"the draw from seed {seed} turns up {jack}'s Jack, not {dealer}'s")
    return FirstDealer(dealer, "drawn", entry.seq, seed, tuple(turned))
