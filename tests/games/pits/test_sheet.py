"""The BGA tournament sheet (P10)."""

from __future__ import annotations

import csv
import io

import pytest

from pitkit.games.pits.sheet import Game, ScoreSheet, SheetError

FIVE = ["Ann", "Bob", "Cat", "Dan", "Eve"]


def play_hands(game: Game, n: int) -> None:
    for i in range(n):
        table = game.table
        game.record_hand(table[i % 5 :] + table[: i % 5])  # rotate who wins


def test_points_are_two_for_first_and_one_for_second() -> None:
    game = Game.start(FIVE)
    game.record_hand(["Cat", "Ann", "Bob", "Dan", "Eve"])
    assert game.points == {"Ann": 1, "Bob": 0, "Cat": 2, "Dan": 0, "Eve": 0}
    with pytest.raises(SheetError, match="five at the table"):
        game.record_hand(["Cat", "Ann", "Bob", "Dan", "Zed"])


def test_a_game_needs_five_different_players() -> None:
    with pytest.raises(SheetError):
        Game.start(["Ann", "Bob", "Cat", "Dan"])
    with pytest.raises(SheetError):
        Game.start(["Ann", "Ann", "Cat", "Dan", "Eve"])


def test_quitting_before_ten_hands_freezes_the_score_and_a_replacement_starts_at_zero() -> None:
    game = Game.start(FIVE)
    play_hands(game, 4)
    frozen = game.points["Bob"]
    with pytest.raises(SheetError, match="replacement"):
        game.quit("Bob")
    game.quit("Bob", "Fay")
    assert game.table == ["Ann", "Fay", "Cat", "Dan", "Eve"]
    assert game.points["Fay"] == 0
    play_hands(game, 6)
    assert game.points["Bob"] == frozen
    assert not game.ruled_off and game.complete


def test_quitting_after_ten_hands_ends_the_game_which_every_player_signs() -> None:
    game = Game.start(FIVE)
    play_hands(game, 11)  # "There is no maximum limit set."
    game.quit("Eve")
    assert game.ruled_off
    with pytest.raises(SheetError, match="ruled off"):
        game.record_hand(FIVE)
    for player in FIVE[:4]:
        game.sign(player)
    assert not game.confirmed
    game.sign("Eve")
    assert game.confirmed
    with pytest.raises(SheetError):
        game.sign("Zed")


def test_percentage_counts_every_hand_of_every_game_taken_part_in() -> None:
    sheet = ScoreSheet()
    game = sheet.new_game(FIVE)
    game.record_hand(["Ann", "Bob", "Cat", "Dan", "Eve"])
    game.record_hand(["Ann", "Bob", "Cat", "Dan", "Eve"])
    game.quit("Bob", "Fay")  # Bob misses the next two hands, which still count for him
    game.record_hand(["Fay", "Ann", "Cat", "Dan", "Eve"])
    game.record_hand(["Fay", "Ann", "Cat", "Dan", "Eve"])
    bob = sheet.standing("Bob")
    assert (bob.points, bob.hands) == (2, 4)
    assert bob.percentage == pytest.approx(100 * 2 / (2 * 4))
    ann = sheet.standing("Ann")
    assert ann.percentage == pytest.approx(100 * 6 / 8)


def test_prize_tables_and_the_eligibility_rule() -> None:
    sheet = ScoreSheet()
    for _ in range(4):
        game = sheet.new_game(FIVE)
        play_hands(game, 10)
        game.rule_off()
    short = sheet.new_game(["Ann", "Bob", "Cat", "Dan", "Gus"])
    for _ in range(9):
        short.record_hand(["Gus", "Ann", "Bob", "Cat", "Dan"])
    assert sheet.standing("Gus").points == 18
    points = [s.points for s in sheet.most_points()]
    assert points == sorted(points, reverse=True)
    assert sheet.standing("Gus").percentage == 100.0
    best = sheet.best_percentage()
    assert "Gus" not in [s.player for s in best]  # 1 game of 9 hands: not eligible
    assert {s.player for s in best} == set(FIVE)
    assert best[0].percentage >= best[-1].percentage


def test_exports() -> None:
    sheet = ScoreSheet()
    game = sheet.new_game(FIVE)
    play_hands(game, 2)
    rows = list(csv.reader(io.StringIO(sheet.to_csv())))
    assert rows[0][0] == "game" and rows[1][:3] == ["1", "1", "Ann 2"]
    text = sheet.to_text()
    assert "Ann" in text and "not eligible" in text


def test_the_sheets_csv_opens_safely_in_a_spreadsheet() -> None:
    """A player named like a formula is written as text (a quote before it), and the
    figures stay numbers (docs/tournaments.md, "Safe exports")."""
    sheet = ScoreSheet()
    names = ["=HYPERLINK(1)", "+cmd", "@SUM(1+1)", "-1", "Eve"]
    play_hands(sheet.new_game(names), 2)
    rows = list(csv.reader(io.StringIO(sheet.to_csv())))
    players = {r[0] for r in rows[rows.index([]) + 2 :]}
    assert players == {"'=HYPERLINK(1)", "'+cmd", "'@SUM(1+1)", "'-1", "Eve"}
    assert all(not c.startswith(("=", "+", "-", "@")) for r in rows for c in r)
