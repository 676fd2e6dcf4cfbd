"""The BGA continuous Pits score sheet (ruling P10).

A sheet holds games; a game is a series of hands by five seats, scored 2 to
1st and 1 to 2nd. Before 10 hands, a player who quits has their score frozen
and a replacement takes the seat from 0; from 10 hands on, a quit ends the
game, which is ruled off and signed by every player at the table. A player's
percentage is 100 x points / (2 x hands), counted over every hand of every
game the player took part in, and prizes go to the most points and to the
best percentage among players with at least 4 games of at least 10 hands.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from pitkit.core.export import Cell, cell
from pitkit.games.pits.state import PLAYERS, POINTS

__all__ = [
    "MIN_GAMES",
    "MIN_HANDS",
    "Game",
    "ScoreSheet",
    "SheetError",
    "Standing",
    "match_sheet",
]

MIN_HANDS = 10  # a full game (P10)
MIN_GAMES = 4  # full games needed to compete for the percentage prize


class SheetError(ValueError):
    """Something a score sheet does not allow (a sixth player, a hand after ruling off...)."""


@dataclass
class Game:
    """One game on the sheet: five seats, their occupants, and every hand."""

    seats: list[list[str]]  # each seat's occupants, in order; the last one sits there now
    hands: list[tuple[str, ...]] = field(default_factory=list)  # finishing order of each hand
    points: dict[str, int] = field(default_factory=dict)
    ruled_off: bool = False
    signatures: list[str] = field(default_factory=list)

    @staticmethod
    def start(players: Sequence[str]) -> Game:
        """A new game for five players, in seat order."""
        if len(players) != PLAYERS or len(set(players)) != PLAYERS:
            raise SheetError(f"a game is for {PLAYERS} different players, not {list(players)}")
        return Game([[p] for p in players], points=dict.fromkeys(players, 0))

    @property
    def table(self) -> list[str]:
        """The players seated now."""
        return [seat[-1] for seat in self.seats]

    @property
    def players(self) -> list[str]:
        """Everyone who took part, replaced players included."""
        return [p for seat in self.seats for p in seat]

    @property
    def complete(self) -> bool:
        """Whether the game reached the 10 hands a BGA game asks for."""
        return len(self.hands) >= MIN_HANDS

    @property
    def confirmed(self) -> bool:
        """Ruled off and signed by every player at the table."""
        return self.ruled_off and set(self.table) <= set(self.signatures)

    def record_hand(self, order: Sequence[str]) -> None:
        """Record a hand by its finishing order, 1st to 5th."""
        self._open()
        if sorted(order) != sorted(self.table):
            raise SheetError(f"the finishing order must name the five at the table: {self.table}")
        self.hands.append(tuple(order))
        for place, player in enumerate(order):
            self.points[player] += POINTS[place]

    def quit(self, player: str, replacement: str | None = None) -> None:
        """`player` leaves. Before 10 hands the score freezes and `replacement`
        takes the seat from 0; from 10 hands on, the game ends and is ruled off."""
        self._open()
        if player not in self.table:
            raise SheetError(f"{player} is not at the table")
        if self.complete:
            self.ruled_off = True
            return
        if replacement is None:
            raise SheetError(f"{player} quits before {MIN_HANDS} hands: name a replacement")
        if replacement in self.players:
            raise SheetError(f"{replacement} has already played in this game")
        self.seats[self.table.index(player)].append(replacement)
        self.points[replacement] = 0

    def rule_off(self) -> None:
        """End the game: no more hands; it waits for the players' signatures."""
        self.ruled_off = True

    def sign(self, player: str) -> None:
        """`player` confirms the scores of a ruled-off game."""
        if not self.ruled_off:
            raise SheetError("the game must be ruled off before it is signed")
        if player not in self.table:
            raise SheetError(f"{player} is not at the table and cannot sign")
        if player not in self.signatures:
            self.signatures.append(player)

    def _open(self) -> None:
        if self.ruled_off:
            raise SheetError("the game has been ruled off")


@dataclass(frozen=True)
class Standing:
    """One player's line in the prize tables."""

    player: str
    games: int
    full_games: int
    hands: int
    points: int

    @property
    def percentage(self) -> float:
        """100 x points / (2 x hands): the share of the points there were to win."""
        return 100 * self.points / (2 * self.hands) if self.hands else 0.0

    @property
    def eligible(self) -> bool:
        """At least 4 games of at least 10 hands: in the running for best percentage."""
        return self.full_games >= MIN_GAMES


@dataclass
class ScoreSheet:
    """Every game of a tournament, and its prize tables."""

    games: list[Game] = field(default_factory=list)

    def new_game(self, players: Sequence[str]) -> Game:
        """Start a game for five players."""
        game = Game.start(players)
        self.games.append(game)
        return game

    def standing(self, player: str) -> Standing:
        """`player`'s totals over every game they took part in."""
        played = [g for g in self.games if player in g.players]
        return Standing(
            player,
            games=len(played),
            full_games=sum(1 for g in played if g.complete),
            hands=sum(len(g.hands) for g in played),
            points=sum(g.points[player] for g in played),
        )

    def standings(self) -> list[Standing]:
        """Every player's standing, in order of first appearance (as `standing`
        gives each, in one pass over the games)."""
        totals: dict[str, list[int]] = {}  # games, full games, hands, points
        for game in self.games:
            for player in dict.fromkeys(game.players):
                line = totals.setdefault(player, [0, 0, 0, 0])
                line[0] += 1
                line[1] += game.complete
                line[2] += len(game.hands)
                line[3] += game.points[player]
        return [Standing(player, *line) for player, line in totals.items()]

    def most_points(self) -> list[Standing]:
        """The points prize table: most points first."""
        return sorted(self.standings(), key=lambda s: -s.points)

    def best_percentage(self) -> list[Standing]:
        """The percentage prize table: eligible players, best percentage first."""
        return sorted((s for s in self.standings() if s.eligible), key=lambda s: -s.percentage)

    def to_csv(self) -> str:
        """Every hand of every game: game, hand, then each seat's player and points;
        then the prize table. Names are made safe to open in a spreadsheet (`cell`)."""
        out = io.StringIO()
        writer = csv.writer(out)

        def row(values: list[Cell]) -> None:
            writer.writerow([cell(value) for value in values])

        row(["game", "hand", *[f"seat {i + 1}" for i in range(PLAYERS)], "order"])
        for number, game in enumerate(self.games, 1):
            for index, order in enumerate(game.hands, 1):
                cells = [f"{p} {POINTS[order.index(p)]}" for p in _seated_at(game, index)]
                row([number, index, *cells, " > ".join(order)])
        row([])
        row(["player", "games", "full games", "hands", "points", "percentage", "eligible"])
        for s in self.most_points():
            figures: list[Cell] = [s.games, s.full_games, s.hands, s.points, f"{s.percentage:.1f}"]
            row([s.player, *figures, s.eligible])
        return out.getvalue()

    def to_text(self) -> str:
        """The prize tables as a readable text table."""
        lines = [f"{'player':<16} {'games':>5} {'full':>4} {'hands':>5} {'points':>6} {'%':>6}"]
        for s in self.most_points():
            mark = "" if s.eligible else "  (not eligible for %)"
            lines.append(
                f"{s.player:<16} {s.games:>5} {s.full_games:>4} {s.hands:>5} "
                f"{s.points:>6} {s.percentage:>6.1f}{mark}"
            )
        return "\n".join(lines)


def _seated_at(game: Game, hand: int) -> list[str]:
    """Who sat in each seat at the `hand`th hand (1-based), from its finishing order."""
    order = set(game.hands[hand - 1])
    return [next(p for p in seat if p in order) for seat in game.seats]


def match_sheet(orders: Sequence[Sequence[int]]) -> dict[str, Any]:
    """A match's BGA sheet, by seat, from each hand's finishing order (1st to 5th):
    each hand's points and who deals next (the 3rd, P7), each seat's total and
    percentage (100 x points / (2 x hands)), and the hands a full game takes."""
    hands = []
    totals = [0] * PLAYERS
    for number, order in enumerate(orders, 1):
        points = [0] * PLAYERS
        for place, seat in enumerate(order):
            points[seat] = POINTS[place]
            totals[seat] += POINTS[place]
        hands.append({"hand": number, "points": points, "dealer": order[2]})
    played = len(hands)
    return {
        "hands": hands,
        "points": totals,
        "percentage": [round(100 * p / (2 * played), 1) if played else 0.0 for p in totals],
        "full": MIN_HANDS,
    }
