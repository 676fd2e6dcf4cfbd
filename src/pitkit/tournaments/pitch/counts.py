"""The game points each player counted in the tricks they won (topics 30-33): the
judge observes the tricks and confirms each count (topic 31), and the fourth point,
"game", follows from the counts: to the player with the greatest count, to nobody when
two or more share it ("a tie is declared and no game point is awarded", topic 33;
ruling C7). The rule itself is the game's (`pitkit.games.pitch.scoring`); this module
reads a pad's counts and says, in words, when they disagree with the pad.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pitkit.games.pitch.scoring import card_points, game_point, hand_sides
from pitkit.tournaments.log import RefusedError
from pitkit.tournaments.pitch.state import RULES

__all__ = ["DECK_POINTS", "check_game", "count_words", "game_from", "read_counts"]

DECK_POINTS = sum(card_points(card) for card in RULES.deck())
"""Every game point in the pack (80): no count, nor all of them together, is more."""


def read_counts(given: Any, players: Sequence[str]) -> dict[str, int]:
    """The counts an entry gives ({player: points}), one for each of `players` (those
    who played the hand), in their order; RefusedError if they cannot be counts."""
    if not isinstance(given, Mapping):
        raise RefusedError('give the counts as each player\'s points: {"Ann": 14, "Bob": 7}')
    names = {" ".join(str(name).split()): value for name, value in given.items()}
    if set(names) != set(players):
        missing, extra = set(players) - set(names), set(names) - set(players)
        say = [f"no count for {', '.join(sorted(missing))}"] if missing else []
        say += [f"{', '.join(sorted(extra))} did not play this hand"] if extra else []
        raise RefusedError(f"give a count for each player of the hand: {'; '.join(say)}")
    for name, value in names.items():
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= DECK_POINTS:
            raise RefusedError(
                f"{name}'s count is a whole number of game points, 0 to {DECK_POINTS}"
            )
    total = sum(names.values())
    if total > DECK_POINTS:
        raise RefusedError(f"the counts add up to {total}: the whole pack holds {DECK_POINTS}")
    return {name: int(names[name]) for name in players}


def game_from(counts: Mapping[str, int]) -> str | None:
    """Who takes the game point: the greatest count, or nobody for a tie (topic 33)."""
    players = list(counts)
    sides = hand_sides(range(len(players)), None)
    award = game_point([counts[p] for p in players], sides)
    return players[award.credited[0]] if award.credited else None


def count_words(counts: Mapping[str, int]) -> str:
    """The counts in words, best first: "Ann 14, Bob 10, Cat 3"."""
    best = sorted(counts.items(), key=lambda pair: -pair[1])
    return ", ".join(f"{name} {points}" for name, points in best)


def check_game(counts: Mapping[str, int], game: str | None, what: str) -> None:
    """RefusedError unless `what` (a pad line, "line 3") gives the game point as the
    counts do: to `game`, or to nobody (None) for a tie."""
    follows = game_from(counts)
    if follows == game:
        return
    said = f"{what} gives it to {game}" if game else f"{what} says a tie"
    if follows is None:
        top = max(counts.values())
        tied = [name for name, points in counts.items() if points == top]
        raise RefusedError(
            f"the counts ({count_words(counts)}) tie at {top} between {' and '.join(tied)}: "
            f"nobody takes the game point, but {said}"
        )
    raise RefusedError(
        f"the counts ({count_words(counts)}) give the game point to {follows}, but {said}"
    )
