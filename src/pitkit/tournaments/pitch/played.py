"""What a Pitch table played online gives the tournament's pad (`PitchKind.sync`): the
cut, each scored hand as its dealer would record it (topic 35) with its bidding (every
call, in order, as the table's log holds it) and each player's counted game points
(topic 31), and the bidding of the hand in play once it is over, so that a misplay
ruled there loses the highest bid made. Where a line of the pad is not the hand
played, a `DIFFERS` entry says so.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pitkit.core.events import Event
from pitkit.games.pitch.match import PitchMatch
from pitkit.games.pitch.scoring import HandResult
from pitkit.tournaments.log import DIFFERS
from pitkit.tournaments.pitch.counts import game_from
from pitkit.tournaments.pitch.state import GoRoundTable, PitchTournamentState

__all__ = ["calls", "sync"]


def sync(
    state: PitchTournamentState, table: GoRoundTable, match: PitchMatch
) -> list[tuple[str, dict[str, Any]]]:
    """The entries that bring `table`'s pad up to date with the match played at its
    online table (`PitchKind.sync`)."""
    where = {"round": table.round, "table": table.number}
    names = table.players
    results = [done.result for done in match.sheet.entries if done.result is not None]
    pads = [_pad(result, names) for result in results]
    # A match given without its log (a summary of its results) has no calls to give.
    scored, live = calls(getattr(match, "log", ()))
    more = [_more(result, names, hand) for result, hand in _paired(results, scored)]
    if table.sheet is None:
        cut = ("cut", {**where, "dealer": names[match.sheet.first_dealer]})
        hands = _hands(where, pads, more, 1)
        return [cut, *hands, *_live(where, live, bool(hands) or table.bidding is None)]
    entries, stands, done = _differences(state, table, pads)
    if not stands:
        return entries
    line = len(table.sheet.entries) + 1
    hands = _hands(where, pads[done:], more[done:], line)
    return [*entries, *hands, *_live(where, live, bool(hands) or table.bidding is None)]


def calls(log: Iterable[Event]) -> tuple[list[list[str]], list[str] | None]:
    """The calls of each hand a match's log shows scored, in order, and those of the
    hand in play once its bidding is over (None before). A hand dealt again (a
    misdeal) leaves no calls."""
    scored: list[list[str]] = []
    hand: list[str] = []
    over = False
    for event in log:
        if event.type == "deal":
            hand, over = [], False
        elif event.type == "action" and not str(event.public["action"]).startswith("play"):
            hand.append(str(event.public["action"]))
        elif event.type == "contract":
            over = True
        elif event.type == "hand_end":
            scored.append(hand)
            hand, over = [], False
    return scored, hand if over else None


def _paired(
    results: Sequence[HandResult], scored: Sequence[list[str]]
) -> list[tuple[HandResult, list[str] | None]]:
    """Each scored hand with its calls, when the log gave them."""
    return [(r, scored[n] if n < len(scored) else None) for n, r in enumerate(results)]


def _more(result: HandResult, names: Sequence[str], hand: list[str] | None) -> dict[str, Any]:
    """What a hand's line holds beside the pad's columns: its bidding, and each
    player's counted game points when they are the counts the game point came from (a
    result scored from a pad line has none: all its counts are 0)."""
    more: dict[str, Any] = {} if hand is None else {"bidding": list(hand)}
    counts = {names[side[0]]: n for side, n in zip(result.sides, result.game_count, strict=True)}
    game = result.award("game").credited
    if game_from(counts) == (names[game[0]] if game else None):
        more["counts"] = counts
    return more


def _live(
    where: Mapping[str, Any], live: list[str] | None, free: bool
) -> list[tuple[str, dict[str, Any]]]:
    """The `bidding` entry of the hand in play, once its bidding is over, if the pad
    has none for it (`free`)."""
    return [] if live is None or not free else [("bidding", {**where, "calls": list(live)})]


def _pad(result: HandResult, names: Sequence[str]) -> dict[str, Any]:
    """A scored hand of the match as its dealer writes it on the pad."""
    won = {award.point: award.credited for award in result.awards}
    pad: dict[str, Any] = {
        point: names[won[point][0]] if won[point] else None
        for point in ("high", "low", "jack", "game")
    }
    pad.update(bid=result.bid, pitcher=names[result.pitcher], trump=result.trump.letter)
    return pad


def _hands(
    where: Mapping[str, Any],
    pads: Sequence[Mapping[str, Any]],
    more: Sequence[Mapping[str, Any]],
    line: int,
) -> list[tuple[str, dict[str, Any]]]:
    """The `hand` entries of the pads (with their bidding and counts), from pad line `line`."""
    return [
        ("hand", {**where, "line": line + n, **pad, **extra})
        for n, (pad, extra) in enumerate(zip(pads, more, strict=True))
    ]


def _words(pad: Mapping[str, Any] | None) -> str:
    """A pad line in words: "Ann bid 3 in H; high Ann, low Bob, jack -, game Cat"."""
    pad = pad or {}
    won = ", ".join(f"{point} {pad.get(point) or '-'}" for point in ("high", "low", "jack", "game"))
    return f"{pad.get('pitcher')} bid {pad.get('bid')} in {pad.get('trump')}; {won}"


def _differences(
    state: PitchTournamentState, table: GoRoundTable, pads: Sequence[Mapping[str, Any]]
) -> tuple[list[tuple[str, dict[str, Any]]], bool, int]:
    """Where the table's pad differs from the hands played at its online table: a
    `DIFFERS` entry for each line not said yet, whether the pad stands (each such
    line is the manager's), and how many scored hands the pad holds."""
    assert table.sheet is not None
    hands = [
        (done.line, meta)
        for done, meta in zip(table.sheet.entries, table.lines, strict=True)
        if done.kind == "hand"
    ]
    entries: list[tuple[str, dict[str, Any]]] = []
    stands = True
    for (line, meta), pad in zip(hands, pads, strict=False):
        if meta.pad == pad:
            continue
        stands = stands and meta.role == "manager"
        if state.differs.get((table.round, table.number, line)) == meta.pad:
            continue
        then = (
            "the manager's correction stands"
            if meta.role == "manager"
            else "the table enters no more hands until the manager corrects it"
        )
        note = (
            f"line {line} of {table.label}'s pad was played {_words(pad)} at the online "
            f"table, but the pad says {_words(meta.pad)}: {then}"
        )
        where = {"round": table.round, "table": table.number, "line": line}
        data = {**where, "played": dict(pad), "sheet": dict(meta.pad or {}), "note": note}
        entries.append((DIFFERS, data))
    return entries, stands, len(hands)
