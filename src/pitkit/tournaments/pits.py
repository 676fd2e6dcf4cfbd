"""The BGA continuous Pits tournament (seeds/pits-bga.txt, ruling P10).

Through the evening, games start at tables of five from the roster. Each
table's scorer (a player at it, chosen by the manager) enters every hand's
finishing order, 1st to 5th: 1st scores 2, 2nd scores 1, 3rd deals next (P7).
Before ten hands a player who quits keeps a frozen score and a replacement
takes the seat from 0; from ten hands on a quit ends the game. An ended game
is ruled off and signed by every player at the table, each from their own
link or through the manager. The standings count every game: points, and the
percentage 100 x points / (2 x hands) over every hand of every game a player
took part in; the percentage prize needs 4 games of at least 10 hands.
A game may instead be played online (``open_table`` {game, hands?, bot_delay?},
by the manager before its first hand; `pitkit.server.tournaments.online`): its pitkit table then
enters each hand's finishing order (role "table"), and nobody else does; only the manager
corrects those, and the table says where the sheet differs from its play (``differs``).
There, before ten hands, only the manager records a quit and names the replacement.
Who deals a game's first hand is recorded by its scorer, chosen or drawn by the server
"as the first Jack turned up" (``first_dealer``; `first_dealer.py`); an online table
enters its own.
With the option ``check_in`` the event keeps a check-in desk (`checkin.py`): only the
players checked in are seated, at a new game or as a replacement.
The rules themselves are `pitkit.games.pits.sheet`; this module says who may
enter what.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pitkit.core.export import Cell, csv_text
from pitkit.games.pits.match import PitsMatch
from pitkit.games.pits.sheet import MIN_GAMES, MIN_HANDS, Game, ScoreSheet, SheetError, Standing
from pitkit.games.pits.state import PLAYERS, POINTS
from pitkit.tournaments import checkin, first_dealer
from pitkit.tournaments.checkin import CHECK_IN, Presence
from pitkit.tournaments.first_dealer import FIRST_DEALER, FirstDealer
from pitkit.tournaments.log import (
    DIFFERS,
    NAME_CHARS,
    OPEN_TABLE,
    Actor,
    Entry,
    ForbiddenError,
    Online,
    RefusedError,
    by_its_table,
    entry_name,
    said_by_its_table,
)

__all__ = ["KIND", "PitsKind", "PitsTournamentState", "TableOfFive", "csv", "view"]


@dataclass
class TableOfFive:
    """A game's place in the hall and who keeps its sheet; `online` is the pitkit
    table it is played at, if it is (its hands are then entered by that table)."""

    label: str
    scorer: str
    online: str | None = None


@dataclass
class PitsTournamentState:
    """The tournament's state: the roster, the score sheet and each game's table of five."""

    players: list[str] = field(default_factory=list)
    folded: set[str] = field(default_factory=set)  # the roster's names, casefolded
    sheet: ScoreSheet = field(default_factory=ScoreSheet)
    tables: list[TableOfFive] = field(default_factory=list)
    entered: list[list[int]] = field(default_factory=list)  # per game, each hand's entry
    # per game, the role of who made each hand as it stands (a correction's, if corrected)
    entered_by: list[list[str]] = field(default_factory=list)
    # what online tables said differs: (game, hand) -> the sheet's order they saw
    differs: dict[tuple[int, int], tuple[str, ...]] = field(default_factory=dict)
    sat: dict[str, int] = field(default_factory=dict)  # the last game each sat down at
    first_dealers: dict[int, FirstDealer] = field(default_factory=dict)  # by game number
    check_in: Presence = field(default_factory=Presence)

    def game(self, number: Any) -> Game:
        """Game `number` (1-based), or RefusedError."""
        if not isinstance(number, int) or not 1 <= number <= len(self.sheet.games):
            raise RefusedError(f"there is no game {number}")
        return self.sheet.games[number - 1]

    def named_game(self, data: Mapping[str, Any]) -> tuple[int, Game]:
        """The game an entry names (``game``), with its number, or RefusedError."""
        game = self.game(data.get("game"))
        return int(data["game"]), game

    def numbered(self) -> list[tuple[int, Game, TableOfFive]]:
        """Every game with its number (from 1) and its table."""
        pairs = zip(self.sheet.games, self.tables, strict=True)
        return [(number, game, table) for number, (game, table) in enumerate(pairs, 1)]

    def at_table(self, table_id: str) -> tuple[int, Game] | None:
        """The game played online at pitkit table `table_id`, with its number."""
        for number, game, table in self.numbered():
            if table.online == table_id:
                return number, game
        return None

    def first_seated(self, number: int) -> list[str]:
        """Who sat at game `number` for its first hand, in seat order (those at the
        table now, before it)."""
        game = self.sheet.games[number - 1]
        if not game.hands:
            return list(game.table)
        first = set(game.hands[0])
        return [next(p for p in seat if p in first) for seat in game.seats]

    def playing(self, player: str) -> int | None:
        """The open game `player` sits at now, if any."""
        # Only the last game they sat down at can be: nobody sits at two open games,
        # and nobody sits again at a game they left.
        number = self.sat.get(player)
        if number is None:
            return None
        game = self.sheet.games[number - 1]
        return number if not game.ruled_off and player in game.table else None


def _differences(
    state: PitsTournamentState, number: int, game: Game, played: Sequence[Sequence[int]]
) -> tuple[list[tuple[str, dict[str, Any]]], bool]:
    """Where game `number`'s sheet differs from the hands played at its online table
    (`played`: each hand's finishing order by seat): a `DIFFERS` entry for each hand
    not said yet, and whether the sheet stands (each such hand is the manager's)."""
    seat_of = {player: seat for seat, occupants in enumerate(game.seats) for player in occupants}
    roles = state.entered_by[number - 1]
    entries: list[tuple[str, dict[str, Any]]] = []
    stands = True
    for hand, (order, role, seats) in enumerate(zip(game.hands, roles, played, strict=False), 1):
        if [seat_of[player] for player in order] == list(seats):
            continue
        stands = stands and role == "manager"
        if state.differs.get((number, hand)) == order:
            continue
        sat = {seat_of[player]: player for player in order}
        as_played = [sat[seat] for seat in seats]
        then = (
            "the manager's correction stands"
            if role == "manager"
            else "the table enters no more hands until the manager corrects it"
        )
        note = (
            f"hand {hand} of game {number} was played {', '.join(as_played)} (1st to 5th) "
            f"at the online table, but the sheet says {', '.join(order)}: {then}"
        )
        data = {"game": number, "hand": hand, "played": as_played, "sheet": list(order)}
        entries.append((DIFFERS, {**data, "note": note}))
    return entries, stands


def _names(data: Mapping[str, Any], key: str) -> list[str]:
    value = data.get(key)
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise RefusedError(f"give {key} as a list of names")
    return [" ".join(v.split()) for v in value]


def _check_player(
    state: PitsTournamentState, actor: Actor, type: str, data: Mapping[str, Any]
) -> None:
    """What a player may enter: the hands of the table they keep the sheet of, and
    ruling it off after ten; their own quit and signature."""
    number, game = state.named_game(data)
    table = state.tables[number - 1]
    if type in ("hand", "rule_off", FIRST_DEALER):
        if table.scorer != actor.name:
            raise ForbiddenError(f"only the table's scorer ({table.scorer}) or the manager may")
        if type == "rule_off" and not game.complete:
            raise ForbiddenError(
                f"before {MIN_HANDS} hands only the manager may rule the sheet off"
            )
        return
    if data.get("player") != actor.name:
        raise ForbiddenError("a player may only quit or sign for themselves")
    online = type == "quit" and table.online is not None
    if online and (data.get("replacement") is not None or not game.complete):
        # The replacement gets a seat's secret at the online table: a quitter may
        # not hand their seat to whom they like.
        raise ForbiddenError(
            f"game {number} is played online: before {MIN_HANDS} hands only the manager "
            "records a quit, and names the replacement who takes the seat"
        )


class PitsKind:
    """The `pits-continuous` kind of tournament."""

    name = "pits-continuous"
    title = "BGA continuous Pits tournament"
    links: Mapping[str, str] = {"add_player": "player"}
    correctable = frozenset({"hand", FIRST_DEALER})

    def options(self, given: Mapping[str, Any]) -> dict[str, Any]:
        """The BGA rules (10 hands a game, 4 games for the percentage prize); the one
        option is `check_in` (`checkin.option`)."""
        unknown = sorted(set(given) - {checkin.OPTION})
        if unknown:
            raise RefusedError(f"a Pits tournament's only option is check_in, not {unknown}")
        return checkin.option(given)

    def start(self, options: Mapping[str, Any]) -> PitsTournamentState:
        """A tournament with nobody on the roster yet."""
        return PitsTournamentState(check_in=Presence(on=bool(options.get(checkin.OPTION))))

    def check(
        self,
        state: PitsTournamentState,
        actor: Actor,
        type: str,
        data: Mapping[str, Any],
        correcting: bool,
    ) -> None:
        """The manager may do anything; a table's scorer enters and corrects its hands
        and rules it off once it has ten; a player at a table quits it or signs for
        themselves (at a game played online, before ten hands, only the manager
        records a quit: the replacement takes a seat at the table). An online table
        enters its game's hands, and says where the sheet differs from its play."""
        if type not in _TYPES:
            raise RefusedError(f"a Pits tournament has no {type!r} entries")
        if correcting and state.game(data.get("game")).ruled_off:
            raise RefusedError("that game's sheet is ruled off: its hands stand as signed")
        if type == CHECK_IN:
            state.check_in.check(actor, data)
            return
        if type == DIFFERS:
            number = state.named_game(data)[0]
            said_by_its_table(actor, state.tables[number - 1].online, f"game {number}")
            return
        if type in ("hand", FIRST_DEALER) and not correcting:
            online = state.tables[state.named_game(data)[0] - 1].online
            what = "its hands and its first dealer"
            if by_its_table(actor, online, f"game {data.get('game')}", what):
                return
        if actor.role == "manager":
            return
        if actor.role != "player" or type in ("add_player", "start_game", OPEN_TABLE):
            raise ForbiddenError("only the tournament manager may do this")
        _check_player(state, actor, type, data)

    def decide(
        self, state: PitsTournamentState, type: str, data: Mapping[str, Any]
    ) -> dict[str, Any]:
        """A first dealer drawn "as the first Jack turned up": its seed, the dealer
        and the cards turned up (`first_dealer.decide`); every other entry says all
        it means."""
        if type != FIRST_DEALER:
            return {}
        number = state.named_game(data)[0]
        return first_dealer.decide(state.first_seated(number), data)

    def apply(self, state: PitsTournamentState, entry: Entry) -> None:
        """Apply one entry (RefusedError: the sheet does not allow it)."""
        try:
            _TYPES[entry.type](state, entry)
        except SheetError as exc:
            raise RefusedError(str(exc)) from None

    def online(self, state: PitsTournamentState, data: Mapping[str, Any]) -> Online:
        """A pitkit table for an open game (`game`), with `hands` (10 or more, the
        sheet's minimum; default 10) in its match."""
        _number, game = _offline_game(state, data)
        return Online("pits", {"hands": _hands(data)}, tuple(game.table))

    def seat_at(self, state: PitsTournamentState, table_id: str, name: str) -> int:
        """`name`'s seat at the game played at `table_id`: a player's or a replacement's."""
        found = state.at_table(table_id)
        if found is None:
            raise ForbiddenError("this table plays none of the event's open games")
        number, game = found
        if game.ruled_off:
            raise ForbiddenError(f"game {number} is ruled off")
        if name not in game.table:
            raise ForbiddenError(f"{name} does not play game {number} now")
        return game.table.index(name)

    def sync(
        self, state: PitsTournamentState, table_id: str, match: PitsMatch
    ) -> list[tuple[str, dict[str, Any]]]:
        """Each hand the table has finished and the sheet lacks, with its finishing
        order named by who sits in each seat now, if every hand on the sheet is the
        hand played or the manager's correction of it; before them, a `DIFFERS` entry
        for each hand on the sheet not as played (once for each version of it).
        Nothing once the sheet is ruled off."""
        found = state.at_table(table_id)
        if found is None or found[1].ruled_off:
            return []
        number, game = found
        played = [list(result.detail["order"]) for result in match.results]
        entries, stands = _differences(state, number, game, played)
        # The table drew its first dealer (P1) when it dealt its first hand. (A match
        # given without its log, a summary of its results, says nothing of it.)
        if number not in state.first_dealers:
            log = getattr(match, "log", ())
            seat = next((e.public["dealer"] for e in log if e.type == "deal"), None)
            if seat is not None:
                dealer = state.first_seated(number)[seat]
                entries.insert(0, (FIRST_DEALER, {"game": number, "dealer": dealer}))
        if not stands:
            return entries
        for hand in range(len(game.hands), len(played)):
            order = [game.table[seat] for seat in played[hand]]
            entries.append(("hand", {"game": number, "hand": hand + 1, "order": order}))
        return entries

    def vacated(self, state: PitsTournamentState, entry: Entry) -> list[tuple[str, int]]:
        """The quitter's seat, when `entry` is a quit from a game played online: its
        secret dies at the quit (a stand-in plays it until the replacement sits)."""
        if entry.type != "quit" or entry.corrects is not None:
            return []
        number, game = state.named_game(entry.data)
        online = state.tables[number - 1].online
        player = " ".join(str(entry.data.get("player")).split())
        seats = [seat for seat, occupants in enumerate(game.seats) if player in occupants]
        return [(online, seats[0])] if online is not None and seats else []

    def view(self, state: PitsTournamentState) -> dict[str, Any]:
        """The roster, every game with its hands, and both prize tables."""
        return view(state)

    def own(self, state: PitsTournamentState, actor: Actor) -> dict[str, Any]:
        """Nothing: everyone sees the whole sheet."""
        return {}

    def seat_of(self, state: PitsTournamentState, role: str, name: str) -> str | None:
        """Where player `name` sits now, in words ("Table A, seat 2, game 3"), if at an
        open game."""
        number = state.playing(name) if role == "player" else None
        if number is None:
            return None
        game = state.sheet.games[number - 1]
        label = state.tables[number - 1].label
        return f"{label}, seat {game.table.index(name) + 1}, game {number}"

    def csv(self, state: PitsTournamentState) -> dict[str, str]:
        """`sheets.csv`: every hand of every game; `standings.csv`: the prize tables."""
        return csv(state)


# -- views: pure functions of the state ------------------------------------------------


def view(state: PitsTournamentState) -> dict[str, Any]:
    """The roster, every game with its hands, and both prize tables."""
    games = []
    for number, (game, table) in enumerate(zip(state.sheet.games, state.tables, strict=True), 1):
        first = state.first_dealers.get(number)
        hands = []
        for index, order in enumerate(game.hands, 1):
            # Hand 1 is dealt by the first dealer, each later one by the last hand's 3rd (P7).
            dealt = game.hands[index - 2][2] if index > 1 else first.player if first else None
            hands.append(
                {
                    "hand": index,
                    "order": list(order),
                    "points": {p: POINTS[place] for place, p in enumerate(order)},
                    "dealt": dealt,
                    "dealer": order[2],
                    "entry": state.entered[number - 1][index - 1],
                }
            )
        games.append(
            {
                "game": number,
                "table": table.label,
                "scorer": table.scorer,
                "online": table.online,
                "first_dealer": None if first is None else first.to_json(),
                "seats": [list(seat) for seat in game.seats],
                "at_table": game.table,
                "hands": hands,
                "points": dict(game.points),
                "complete": game.complete,
                "ruled_off": game.ruled_off,
                "signatures": list(game.signatures),
                "confirmed": game.confirmed,
            }
        )
    return {
        "players": list(state.players),
        "games": games,
        "standings": {
            "points": _ranked(state.sheet.most_points(), lambda s: s.points),
            "percentage": _ranked(state.sheet.best_percentage(), lambda s: s.percentage),
        },
        "rules": {"hands_a_game": MIN_HANDS, "games_for_percentage": MIN_GAMES},
        "check_in": state.check_in.view(state.players),
    }


def csv(state: PitsTournamentState) -> dict[str, str]:
    """`sheets.csv`: every hand of every game; `standings.csv`: the prize tables. Every
    cell is safe to open in a spreadsheet (`export.cell`)."""
    sheets: list[list[Cell]] = []
    for number, (game, table) in enumerate(zip(state.sheet.games, state.tables, strict=True), 1):
        first = state.first_dealers.get(number)
        if first is not None:
            sheets.append([number, table.label, "first dealer", first.player, _HOW[first.how]])
        for index, order in enumerate(game.hands, 1):
            sheets.append([number, table.label, index, *order])
        status = "signed" if game.confirmed else "ruled off" if game.ruled_off else "open"
        totals = "; ".join(f"{p} {n}" for p, n in game.points.items())
        sheets.append([number, table.label, "total", totals, status])
    standings: list[list[Cell]] = [
        [
            f"{line['rank']}{'=' if line['tied'] else ''}",
            line["player"],
            line["points"],
            line["games"],
            line["full_games"],
            line["hands"],
            f"{line['percentage']:.1f}",
            "yes" if line["eligible"] else "no",
        ]
        for line in _ranked(state.sheet.most_points(), lambda s: s.points)
    ]
    return {
        "sheets.csv": csv_text(
            ["game", "table", "hand", "1st", "2nd", "3rd (deals next)", "4th", "5th"], sheets
        ),
        "standings.csv": csv_text(
            ["rank", "player", "points", "games", "full games", "hands", "percentage", "eligible"],
            standings,
        ),
    }


_HOW = {"chosen": "chosen", "drawn": "drawn: the first Jack turned up", "online": "online table"}
"""How a first dealer was decided, in words (sheets.csv)."""


def _ranked(lines: Sequence[Standing], key: Callable[[Standing], float]) -> list[dict[str, Any]]:
    """Standings with ranks: a line's rank is 1 + the number of lines with a better
    value, so equal values share a rank, and are marked tied. (Counted once for
    each value: a hall of two thousand players is ranked in a blink.)"""
    counts = Counter(key(line) for line in lines)
    better: dict[float, int] = {}
    above = 0
    for value in sorted(counts, reverse=True):
        better[value] = above
        above += counts[value]
    out = []
    for line in lines:
        value = key(line)
        out.append(
            {
                "rank": 1 + better[value],
                "tied": counts[value] > 1,
                "player": line.player,
                "points": line.points,
                "games": line.games,
                "full_games": line.full_games,
                "hands": line.hands,
                "percentage": round(line.percentage, 2),
                "eligible": line.eligible,
            }
        )
    return out


def _add_player(state: PitsTournamentState, entry: Entry) -> None:
    data = entry.data
    name = entry_name(data)
    if name.casefold() in state.folded:
        raise RefusedError(f"{name} is on the roster already")
    state.players.append(name)
    state.folded.add(name.casefold())


def _start_game(state: PitsTournamentState, entry: Entry) -> None:
    data = entry.data
    players = _names(data, "players")
    if len(players) != PLAYERS or len(set(players)) != PLAYERS:
        raise RefusedError(f"a game is for {PLAYERS} different players")
    for player in players:
        if player not in state.players:
            raise RefusedError(f"{player} is not on the roster")
        busy = state.playing(player)
        if busy is not None:
            raise RefusedError(f"{player} is playing game {busy}")
        state.check_in.require(player)
    scorer = data.get("scorer") or players[0]
    if scorer not in players:
        raise RefusedError(f"the scorer must be one of the five at the table, not {scorer}")
    label = data.get("table")
    if label is not None and (not isinstance(label, str) or len(label) > NAME_CHARS):
        raise RefusedError(f"a table's name has at most {NAME_CHARS} characters")
    label = " ".join((label or "").split())
    state.sheet.new_game(players)
    state.sat.update(dict.fromkeys(players, len(state.sheet.games)))
    state.tables.append(TableOfFive(label or f"Table {len(state.tables) + 1}", scorer))
    state.entered.append([])
    state.entered_by.append([])


def _hand(state: PitsTournamentState, entry: Entry) -> None:
    data = entry.data
    number, game = state.named_game(data)
    hand = data.get("hand")
    expected = len(game.hands) + 1
    if hand != expected:
        if isinstance(hand, int) and 1 <= hand < expected:
            raise RefusedError(
                f"hand {hand} of game {number} is entered already (entry "
                f"#{state.entered[number - 1][hand - 1]}); correct that entry to change it"
            )
        raise RefusedError(f"the next hand of game {number} is hand {expected}")
    order = _names(data, "order")
    if len(order) != PLAYERS or len(set(order)) != PLAYERS:
        raise RefusedError(
            f"a finishing order names the {PLAYERS} players once each, 1st to 5th "
            "(one first, one second, the third deals next)"
        )
    game.record_hand(order)
    state.entered[number - 1].append(entry.seq)
    state.entered_by[number - 1].append(entry.role)


def _offline_game(state: PitsTournamentState, data: Mapping[str, Any]) -> tuple[int, Game]:
    """The open game `data` names, not yet at a pitkit table, or RefusedError."""
    number, game = state.named_game(data)
    if game.ruled_off:
        raise RefusedError(f"game {number} is ruled off")
    if state.tables[number - 1].online is not None:
        raise RefusedError(f"game {number} is played online already")
    if game.hands or number in state.first_dealers:
        what = "hands" if game.hands else "its first dealer"
        raise RefusedError(f"game {number} has {what} on its sheet: it is played with cards")
    return number, game


def _hands(data: Mapping[str, Any]) -> int:
    hands = data.get("hands", MIN_HANDS)
    if not isinstance(hands, int) or isinstance(hands, bool) or not MIN_HANDS <= hands <= 100:
        raise RefusedError(f"an online game has {MIN_HANDS} to 100 hands")
    return hands


def _open_table(state: PitsTournamentState, entry: Entry) -> None:
    data = entry.data
    number, _game = _offline_game(state, data)
    _hands(data)
    table_id = data.get("table_id")
    if not isinstance(table_id, str):
        raise RefusedError("the server writes the table's id into this entry")
    state.tables[number - 1].online = table_id


def _quit(state: PitsTournamentState, entry: Entry) -> None:
    data = entry.data
    number, game = state.named_game(data)
    player = entry_name(data, "player")
    replacement = data.get("replacement")
    if replacement is not None:
        replacement = entry_name(data, "replacement")
        if replacement not in state.players:
            raise RefusedError(f"{replacement} is not on the roster: add them first")
        busy = state.playing(replacement)
        if busy is not None:
            raise RefusedError(f"{replacement} is playing game {busy}")
        state.check_in.require(replacement)
    if game.complete and replacement is not None:
        raise RefusedError(
            f"after {MIN_HANDS} hands a quit ends the game: it is ruled off, with no replacement"
        )
    game.quit(player, replacement)
    if replacement is not None:
        state.sat[replacement] = number


def _differs(state: PitsTournamentState, entry: Entry) -> None:
    number, _game = state.named_game(entry.data)
    hand, sheet = entry.data.get("hand"), entry.data.get("sheet")
    if not isinstance(hand, int) or not isinstance(sheet, list):
        raise RefusedError("the online table names the hand and the sheet's order")
    state.differs[number, hand] = tuple(sheet)


def _rule_off(state: PitsTournamentState, entry: Entry) -> None:
    data = entry.data
    game = state.game(data.get("game"))
    if game.ruled_off:
        raise RefusedError(f"game {data.get('game')} is ruled off already")
    game.rule_off()


def _sign(state: PitsTournamentState, entry: Entry) -> None:
    data = entry.data
    game = state.game(data.get("game"))
    player = entry_name(data, "player")
    if player in game.signatures:
        raise RefusedError(f"{player} has signed already")
    game.sign(player)


def _first_dealer(state: PitsTournamentState, entry: Entry) -> None:
    number, game = state.named_game(entry.data)
    if game.ruled_off:
        raise RefusedError(f"game {number} is ruled off")
    made = state.first_dealers.get(number)
    if made is not None:
        raise RefusedError(
            f"the first dealer of game {number} is recorded already (entry #{made.entry}): "
            "correct that entry to change it"
        )
    players = state.first_seated(number)
    state.first_dealers[number] = first_dealer.first_dealer(entry, players, len(game.hands))


def _check_in(state: PitsTournamentState, entry: Entry) -> None:
    state.check_in.apply(entry, state.players)


_TYPES = {
    "add_player": _add_player,
    "start_game": _start_game,
    "hand": _hand,
    OPEN_TABLE: _open_table,
    "quit": _quit,
    "rule_off": _rule_off,
    "sign": _sign,
    DIFFERS: _differs,
    CHECK_IN: _check_in,
    FIRST_DEALER: _first_dealer,
}

KIND = PitsKind()
