"""The Darrtown Pitch tournament as a `Kind`: its options, who may make which
entry, what the server decides, and its games played at pitkit tables.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pitkit.games.pitch.match import PitchMatch
from pitkit.tournaments import checkin
from pitkit.tournaments.checkin import CHECK_IN, Presence
from pitkit.tournaments.log import (
    DIFFERS,
    OPEN_TABLE,
    Actor,
    Entry,
    ForbiddenError,
    Online,
    RefusedError,
    by_its_table,
    said_by_its_table,
)
from pitkit.tournaments.pitch import played, views
from pitkit.tournaments.pitch.entries import TYPES, offline_table, sheet_of
from pitkit.tournaments.pitch.seating import seating
from pitkit.tournaments.pitch.state import (
    DEFAULT_ADVANCE,
    MAX_SEATS,
    MIN_SEATS,
    RULES,
    GoRoundTable,
    PitchTournamentState,
)

__all__ = ["KIND", "PitchKind"]

_MANAGER = frozenset({"add_player", "add_judge", "seat_round", "assign_judge", OPEN_TABLE})
_FROM_TABLE = frozenset({"cut", "hand", "bidding"})  # what an online table enters
_DEALT = frozenset({"hand", "bidding"})  # what the dealer records
_WORDS = {
    "cut": "enter the cut for the deal",
    "hand": "record this hand",
    "bidding": "record this hand's bidding",
    "confirm": "confirm a hand",
    "misdeal": "rule a misdeal",
    "appeal": "appeal a misplay",
    "rule_misplay": "rule on a misplay",
    "dismiss_appeal": "dismiss an appeal",
}


class PitchKind:
    """The `pitch-tournament` kind of tournament."""

    name = "pitch-tournament"
    title = "Darrtown Pitch tournament"
    links: Mapping[str, str] = {"add_player": "player", "add_judge": "judge"}
    correctable = frozenset({"hand", "cut", "bidding"})

    def options(self, given: Mapping[str, Any]) -> dict[str, Any]:
        """`advance`: how many go on from each table to the next Go-Round
        (default 1, the table's winner; at most 3, as a table always eliminates);
        `check_in` (`checkin.option`)."""
        unknown = sorted(set(given) - {"advance", checkin.OPTION})
        if unknown:
            raise RefusedError(
                f"a Pitch tournament's only option is advance (and check_in, for a check-in "
                f"desk), not {unknown}"
            )
        advance = given.get("advance", DEFAULT_ADVANCE)
        if not isinstance(advance, int) or isinstance(advance, bool):
            raise RefusedError("advance is a whole number")
        if not 1 <= advance <= MAX_SEATS - 1:
            raise RefusedError(
                f"advance is 1 to {MAX_SEATS - 1}: tables seat {MIN_SEATS} to {MAX_SEATS} "
                "players, and each table eliminates at least one"
            )
        return {"advance": advance, **checkin.option(given)}

    def start(self, options: Mapping[str, Any]) -> PitchTournamentState:
        """A tournament with nobody on the rosters yet."""
        return PitchTournamentState(
            advance=int(options.get("advance", DEFAULT_ADVANCE)),
            check_in=Presence(on=bool(options.get(checkin.OPTION))),
        )

    def check(
        self,
        state: PitchTournamentState,
        actor: Actor,
        type: str,
        data: Mapping[str, Any],
        correcting: bool,
    ) -> None:
        """The manager may do anything. A table's judge enters the cut, confirms
        hands, rules misdeals and misplays (and hears appeals) at that table, and
        may correct its unconfirmed hands. A player at a table records the hand
        they dealt, and appeals a misplay there."""
        if type not in TYPES:
            raise RefusedError(f"a Pitch tournament has no {type!r} entries")
        if correcting:
            _check_correction(state, type, data)
        if type == CHECK_IN:
            state.check_in.check(actor, data)
            return
        if type == DIFFERS:
            spot = state.table(data)
            said_by_its_table(actor, spot.online, spot.label)
            return
        if type in _FROM_TABLE and not correcting:
            table = state.table(data)
            what = "its cut, its hands and their bidding"
            if by_its_table(actor, table.online, table.label, what):
                return
        if type == "seat_round" and "seating" in data:
            raise RefusedError(
                "the server seats the players and stores the seating in the entry: "
                "give by=draw (and a seed, if you like) or by=standing"
            )
        if actor.role == "manager":
            return
        if type in _MANAGER:
            raise ForbiddenError("only the tournament manager may do this")
        table = state.table_of(type, data)
        if actor.role == "judge":
            _check_judge(actor, type, table, correcting)
        elif actor.role == "player":
            _check_player(state, actor, type, data, table, correcting)
        else:
            raise ForbiddenError("this link may not make entries")

    def decide(
        self, state: PitchTournamentState, type: str, data: Mapping[str, Any]
    ) -> dict[str, Any]:
        """A Go-Round's seating, drawn (with its seed) or by standing."""
        return seating(state, data) if type == "seat_round" else {}

    def apply(self, state: PitchTournamentState, entry: Entry) -> None:
        """Apply one entry (RefusedError: the rules do not allow it)."""
        try:
            TYPES[entry.type](state, entry)
        except RefusedError:
            raise
        except ValueError as exc:  # the sheet's refusals
            raise RefusedError(str(exc)) from None

    def view(self, state: PitchTournamentState) -> dict[str, Any]:
        """The rosters, every Go-Round with its tables and pads, the pending hands
        and open appeals, the misplay register, the standings and the champion."""
        return views.view(state)

    def own(self, state: PitchTournamentState, actor: Actor) -> dict[str, Any]:
        """A judge's or a player's own part (``mine``): their tables now, the pending
        hands and open appeals there."""
        return views.own(state, actor)

    def seat_of(self, state: PitchTournamentState, role: str, name: str) -> str | None:
        """Where `name` plays or judges in the Go-Round now, in words, if anywhere."""
        return views.seat_of(state, role, name)

    def csv(self, state: PitchTournamentState) -> dict[str, str]:
        """`pads.csv`: every line of every table's pad; `standings.csv`: each Go-Round's."""
        return views.csv(state)

    def online(self, state: PitchTournamentState, data: Mapping[str, Any]) -> Online:
        """A pitkit table for a table of the current Go-Round (`round`, `table`)
        whose players have not cut yet: the tournament rules, its players in seat order."""
        table = offline_table(state, data)
        return Online("pitch", RULES.to_json(), tuple(table.players))

    def seat_at(self, state: PitchTournamentState, table_id: str, name: str) -> int:
        """`name`'s seat at the Go-Round table played at `table_id`."""
        table = state.at_table(table_id)
        if table is None:
            raise ForbiddenError("this table plays none of the event's tables")
        if name not in table.players:
            raise ForbiddenError(f"{name} does not play at {table.label}")
        if name in state.disqualified:
            raise ForbiddenError(f"{name} is disqualified")
        return table.players.index(name)

    def sync(
        self, state: PitchTournamentState, table_id: str, match: PitchMatch
    ) -> list[tuple[str, dict[str, Any]]]:
        """The cut once the table has cut for the deal, then each hand the table
        has scored that the pad lacks, as the dealer would record it (topic 35), with
        its bidding and each player's counted game points, if every hand on the pad is
        the hand played or the manager's correction of it; before them, a `DIFFERS`
        entry for each hand on the pad not as played (once for each version of it);
        after them, the bidding of the hand in play once it is over
        (`played.sync`)."""
        table = state.at_table(table_id)
        if table is None:
            return []
        return played.sync(state, table, match)

    def vacated(self, state: PitchTournamentState, entry: Entry) -> list[tuple[str, int]]:
        """None: nobody leaves a Pitch table's seat by an entry."""
        return []


def _check_judge(actor: Actor, type: str, table: GoRoundTable, correcting: bool) -> None:
    """A judge enters what a judge does, at the tables they judge."""
    if type in _DEALT and not correcting:
        raise ForbiddenError(
            "the dealer records each hand (and its bidding); the judge confirms it"
        )
    if table.judge != actor.name:
        judge = f"judge {table.judge}" if table.judge else "no judge yet"
        raise ForbiddenError(
            f"judge {actor.name} does not judge {table.label} ({judge}): only its judge "
            f"or the manager may {_WORDS[type]} there"
        )


def _check_player(
    state: PitchTournamentState,
    actor: Actor,
    type: str,
    data: Mapping[str, Any],
    table: GoRoundTable,
    correcting: bool,
) -> None:
    """A player at the table appeals, and records the hands they deal."""
    if actor.name not in table.players:
        raise ForbiddenError(f"{actor.name} does not play at {table.label}")
    if actor.name in state.disqualified:
        raise ForbiddenError(f"{actor.name} is disqualified")
    if type == "appeal":
        return
    if type in _DEALT:
        dealer = _dealer(table, data, correcting and type == "hand")
        if dealer != actor.name:
            raise ForbiddenError(
                f"{dealer} deals this hand: only the dealer, the table's judge or the "
                "manager may record it"
            )
        return
    raise ForbiddenError(f"only the judge of {table.label} or the manager may {_WORDS[type]}")


def _check_correction(state: PitchTournamentState, type: str, data: Mapping[str, Any]) -> None:
    """A cut may be corrected before the pad's first line; a pad line until confirmed."""
    table = state.table(data)
    sheet = sheet_of(table)
    if type == "cut":
        if sheet.entries:
            raise RefusedError(f"{table.label} has lines on its pad: the cut for the deal stands")
        return
    if type == "bidding":
        if table.bidding is None:
            raise RefusedError(
                f"the hand of that bidding is over at {table.label}: correct its line on the "
                "pad, with the bidding, instead"
            )
        return
    line = data.get("line")
    if not isinstance(line, int) or not 1 <= line <= len(sheet.entries):
        raise RefusedError(f"there is no line {line} on {table.label}'s pad")
    done = sheet.entries[line - 1]
    if done.judge is not None:
        raise RefusedError(
            f"line {line} of {table.label} is confirmed by {done.judge}: it stands as confirmed"
        )


def _dealer(table: GoRoundTable, data: Mapping[str, Any], correcting: bool) -> str:
    """Who deals the hand an entry records: the sheet's dealer, or for a
    correction, the dealer of that line."""
    sheet = sheet_of(table)
    if correcting:
        line = data.get("line")
        assert isinstance(line, int)  # _check_correction checked it
        return table.players[sheet.entries[line - 1].dealer]
    if sheet.outcome is not None:
        raise RefusedError(f"the game at {table.label} is over")
    return table.players[sheet.dealer]


KIND = PitchKind()
