"""The Darrtown Pitch tournament (seeds/pitch.txt, tournament column; C1-C11).

The tournament is played in Go-Rounds. The manager seats the players at
tables of 2 to 4 (C1), by draw or by standing, and assigns a judge to each
table. The players at a table cut for the deal (C3), and after each hand the
dealer records it on the table's score pad: the bid, the pitcher, trump, and
who won high, low, Jack and game (topic 35). The table's judge confirms each
line with initials; until then it is pending. A player at the table, or its
judge, appeals a misplay naming the offender; the judge rules it correctable
or not, and every misplay goes on the manager's register: two in one
Go-Round disqualify at once (topics 36-38, C11). A table's game ends once
everyone has dealt twice and one player leads (C10); its winner (option
`advance`: its best players) goes on to the next Go-Round, until a Go-Round
of one table, the final, whose winner is the champion.

The rules themselves are `pitkit.games.pitch.sheet` (one `ScoreSheet` a
table, one `GoRound` a round) and `score_pad`; this package says who may
enter what, in four parts: the tournament's state (`state.py`), what each
entry does to it (`entries.py`, and `seating.py` for a Go-Round's seating),
the kind that checks who may make which entry (`kind.py`), and the views and
CSV files as functions of the state (`views.py`). Players and judges are
named; a table is named by its Go-Round and number (``round``, ``table``,
from 1). The entries:

- ``add_player`` {name}, ``add_judge`` {name, initials?}: the manager; each
  makes a link. The roster closes when Go-Round 1 is seated.
- ``seat_round`` {by: draw | standing, seed?, tables?, players?, judges?}: the
  manager. The server seats the players (the fewest tables of 2 to 4 unless
  ``tables`` says) and writes ``seating`` (and the draw's ``seed``) into the
  entry, so a replay reads the seating and never draws.
- ``assign_judge`` {round, table, judge}: the manager.
- ``open_table`` {round, table, bot_delay?}: the manager, before the cut: the
  table is played online (`pitkit.server.tournaments.online`), and that
  pitkit table enters its cut and its hands (role "table").
- ``cut`` {round, table, dealer}: the table's judge, the winner of the cut (C3).
- ``bidding`` {round, table, calls}: the dealer of the hand in play, once its
  bidding is over: every call in order (``pass``, ``2``-``4``, ``steal``, ``take``,
  ``run``, ``sell``), checked by the game's bidding rules (`bidding.py`). It gives
  the hand's pitcher and bid, and a misplay's highest bid. Correctable until the
  hand's line is recorded.
- ``hand`` {round, table, line, bid, pitcher, trump, high, low, jack, game,
  bidding?, counts?}: the hand's dealer; ``jack`` null when not dealt, ``game`` null
  for a tie; ``bid`` and ``pitcher`` follow from the bidding when it is recorded, and
  ``game`` from each player's counted game points when given (`pad.py`, `counts.py`).
  Correctable (by its dealer or the judge) until it is confirmed.
- ``confirm`` {round, table, line, initials?, counts?}: the table's judge, who may
  give each player's counted game points (they must give the game point as the line
  does).
- ``misdeal`` {round, table, found}: the table's judge (C11).
- ``appeal`` {round, table, offender, note?}: a player at the table or its judge.
- ``rule_misplay`` {appeal, correctable, highest_bid?}, ``dismiss_appeal``
  {appeal}: the table's judge; the highest bid is the recorded bidding's, or, with
  none recorded, the judge's.
- ``differs`` {round, table, line, played, sheet, note}: an online table, where a
  line of its pad is not the hand it played (`pitkit.tournaments.log.DIFFERS`).
- ``check_in`` {player, present?}: a player for themselves, or the manager, at an
  event opened with the option ``check_in`` (`pitkit.tournaments.checkin`): only
  players present are seated in a Go-Round.

The manager may make every entry but ``differs``; a cut or a line an online
table entered is corrected by the manager only.
"""

from __future__ import annotations

from pitkit.tournaments.pitch.kind import KIND, PitchKind
from pitkit.tournaments.pitch.state import PitchTournamentState

__all__ = ["KIND", "PitchKind", "PitchTournamentState"]
