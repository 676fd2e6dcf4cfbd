"""A hand's line on a table's score pad, read from its ``hand`` entry (topic 35): the
bid and the pitcher, trump, who took high, low, Jack and game; and, when they are
recorded, the hand's bidding (`bidding.py`) and each player's counted game points
(`counts.py`).

What is recorded decides what follows: with a bidding (given in the entry, or
recorded for the hand in play by a ``bidding`` entry), the pitcher and the bid are the
bidding's, and a pad that names others is refused; with counts, the game point is the
counts' (a tie: nobody's), and a pad that gives it to someone else is refused.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pitkit.games.pitch.scoring import HandResult, score_pad
from pitkit.games.pitch.sheet import ScoreSheet
from pitkit.tournaments.log import Entry, RefusedError, entry_name
from pitkit.tournaments.pitch.bidding import Bidding, read_bidding
from pitkit.tournaments.pitch.counts import check_game, game_from, read_counts
from pitkit.tournaments.pitch.state import PAD, RULES, GoRoundTable

__all__ = ["PadLine", "hand_bidding", "read_pad"]


@dataclass(frozen=True)
class PadLine:
    """A hand's pad line as read: its score, the pad's columns, its bidding and counts."""

    result: HandResult
    pad: dict[str, Any]
    bidding: Bidding | None
    counts: dict[str, int] | None


def hand_bidding(table: GoRoundTable, sheet: ScoreSheet, calls: Any, entry: int) -> Bidding:
    """The bidding `calls` make at the hand in play at `table` (its dealer, the seats
    that play it), or RefusedError."""
    return read_bidding(calls, RULES, table.players, sheet.dealer, sheet.seated, entry)


def _seat(table: GoRoundTable, sheet: ScoreSheet, name: str) -> int:
    """`name`'s seat, if they play this hand; RefusedError otherwise."""
    seat = table.seat(name)
    if seat not in sheet.seated:
        why = "disqualified" if seat in sheet.disqualified else "sitting out"
        raise RefusedError(f"{name} does not play this hand: {why}")
    return seat


def _contract(data: Mapping[str, Any], bidding: Bidding | None) -> tuple[str, Any]:
    """The pitcher and the bid: the bidding's, when it is recorded (a pad that names
    others is refused), else the pad's."""
    if bidding is None:
        return entry_name(data, "pitcher"), data.get("bid")
    given = data.get("pitcher")
    if given is not None and " ".join(str(given).split()) != bidding.pitcher:
        raise RefusedError(
            f"the bidding recorded (entry #{bidding.entry}) gives the pitch to "
            f"{bidding.pitcher}, not {given}"
        )
    if data.get("bid") is not None and data.get("bid") != bidding.bid:
        raise RefusedError(
            f"the bidding recorded (entry #{bidding.entry}) makes the bid {bidding.bid}, "
            f"not {data.get('bid')}"
        )
    return bidding.pitcher, bidding.bid


def _game(data: Mapping[str, Any], counts: dict[str, int] | None) -> str | None:
    """Who took the game point: the pad's (null or missing: a tie), or the counts'."""
    given = None if data.get("game") is None else entry_name(data, "game")
    if counts is None:
        return given
    if "game" in data:
        check_game(counts, given, "the pad")
    return game_from(counts)


def read_pad(
    table: GoRoundTable, sheet: ScoreSheet, entry: Entry, recorded: Bidding | None
) -> PadLine:
    """The pad line a ``hand`` entry records for the hand in play at `table`, with the
    bidding `recorded` for it by an earlier entry (one given in the entry is used in
    its place); RefusedError if the line cannot be the hand's."""
    data = entry.data
    calls = data.get("bidding")
    bidding = recorded if calls is None else hand_bidding(table, sheet, calls, entry.seq)
    pitcher, bid = _contract(data, bidding)
    names = [table.players[s] for s in sheet.seated]
    counts = None if data.get("counts") is None else read_counts(data["counts"], names)
    won: dict[str, str | None] = {"game": _game(data, counts)}
    for key in ("high", "low", "jack"):
        won[key] = entry_name(data, key) if key != "jack" else _maybe(data, key)
    seats = {key: None if name is None else _seat(table, sheet, name) for key, name in won.items()}
    trump = data.get("trump")
    if not isinstance(trump, str):
        raise RefusedError("give trump: C, D, H or S")
    if not isinstance(bid, int) or isinstance(bid, bool):
        raise RefusedError("give bid as a whole number")
    high, low = seats["high"], seats["low"]
    assert high is not None and low is not None
    try:
        result = score_pad(
            sheet.seated,
            pitcher=_seat(table, sheet, pitcher),
            bid=bid,
            trump=trump,
            high=high,
            low=low,
            jack=seats["jack"],
            game=seats["game"],
            players=len(table.players),
        )
    except ValueError as exc:
        raise RefusedError(str(exc)) from None
    pad = {"bid": bid, "pitcher": pitcher, "trump": result.trump.letter, **won}
    return PadLine(result, {key: pad[key] for key in PAD}, bidding, counts)


def _maybe(data: Mapping[str, Any], key: str) -> str | None:
    return None if data.get(key) is None else entry_name(data, key)
