"""The score sheet: match end (C9, C10) and the tournament records (C11;
topics 10, 11, 31, 35-38), for a game scored from a physical table."""

from __future__ import annotations

import pytest

from pitkit.cards import Card, Suit
from pitkit.core import BadOptionError
from pitkit.games.pitch import (
    Confirm,
    GoRound,
    HandResult,
    Misdeal,
    Misplay,
    Rules,
    ScoreSheet,
    cut_for_deal,
    score_hand,
)
from pitkit.games.pitch.sheet import cut_offered_to, ruling_from_json, ruling_to_json

TOURNAMENT = Rules(mode="tournament")


def fake(
    deltas: tuple[int, ...],
    pitcher: int = 0,
    made: bool = True,
    bid: int = 2,
    seats: tuple[int, ...] | None = None,
) -> HandResult:
    """A hand result with the given score changes (`seats` playing alone; default all)."""
    played = tuple(range(len(deltas))) if seats is None else seats
    sides = tuple((s,) for s in played)
    zeros = (0,) * len(sides)
    return HandResult(Suit.SPADES, pitcher, bid, sides, (), zeros, zeros, made, deltas)


# -- the informal end (C9; topics 1 and 5) ----------------------------------------


def test_topic_5_informal_first_to_the_target() -> None:
    sheet = ScoreSheet(Rules(target=5), 3, first_dealer=0)
    sheet.record_hand(fake((2, 1, 1)))
    assert sheet.outcome is None and sheet.dealer == 1  # the deal passes to the left
    sheet.record_hand(fake((-2, 4, 1), pitcher=0, made=False))
    assert sheet.outcome is not None
    assert sheet.outcome.ranks == (3, 1, 2) and sheet.outcome.winners == (1,)


def test_c9_the_pitcher_who_makes_the_bid_and_reaches_the_target_wins() -> None:
    sheet = ScoreSheet(Rules(target=11), 3, first_dealer=0)
    sheet.scores = [9, 10, 0]
    # Seat 0 pitches and reaches 11; seat 1 reaches 12 but did not pitch.
    sheet.record_hand(fake((2, 2, 0), pitcher=0))
    assert sheet.outcome is not None and sheet.outcome.winners == (0,)
    assert "pitcher bid out" in sheet.outcome.summary


def test_c9_otherwise_the_highest_over_the_target_wins_and_a_tie_plays_on() -> None:
    sheet = ScoreSheet(Rules(target=11), 3, first_dealer=0)
    sheet.scores = [9, 10, 10]
    sheet.record_hand(fake((-2, 1, 1), pitcher=0, made=False))
    assert sheet.outcome is None  # 11 and 11: a tie plays on
    sheet.record_hand(fake((1, 2, 0), pitcher=1, made=False, bid=3))
    assert sheet.outcome is not None and sheet.outcome.winners == (1,)


def test_topic_1_informal_fixed_number_of_deals() -> None:
    sheet = ScoreSheet(Rules(hands=2), 2, first_dealer=0)
    sheet.record_hand(fake((30, 0)))
    assert sheet.outcome is None  # the target does not apply
    sheet.record_hand(fake((0, 30)))
    assert sheet.outcome is not None and sheet.outcome.is_draw


def test_hand_limit_stops_an_endless_tie() -> None:
    sheet = ScoreSheet(Rules(target=1, hand_limit=3), 2, first_dealer=0)
    for _ in range(3):
        sheet.record_hand(fake((1, 1), made=False))
    assert sheet.outcome is not None and "hand limit" in sheet.outcome.summary


def test_teams_share_a_score_and_win_together() -> None:
    sheet = ScoreSheet(Rules(teams="3x2", target=3), 6, first_dealer=0)
    result = score_hand(["0:AH 1:2H 2:3C 3:4C 4:5C 5:6C"], pitcher=0, bid=2, teams=sheet.teams)
    sheet.record_hand(result)
    assert sheet.scores == [2, 1, 0, 2, 1, 0]
    sheet.record_hand(
        score_hand(["1:AH 2:2H 3:3C 4:4C 5:5C 0:6C"], pitcher=1, bid=2, teams=sheet.teams)
    )
    assert sheet.scores == [2, 3, 1, 2, 3, 1]
    assert sheet.outcome is not None and sheet.outcome.winners == (1, 4)
    sheet = ScoreSheet(Rules(teams="3x2", target=3), 6, first_dealer=0)
    with pytest.raises(ValueError, match="teams"):
        sheet.record_hand(score_hand(["2:AH 3:2H 4:3C 5:4C 0:5C 1:6C"], pitcher=2, bid=2))


# -- the tournament end (C10; topics 1 and 5) -------------------------------------


def test_topic_5_tournament_most_points_after_everyone_dealt_twice() -> None:
    sheet = ScoreSheet(TOURNAMENT, 3, first_dealer=2)
    dealers = []
    for _ in range(5):
        dealers.append(sheet.dealer)
        sheet.record_hand(fake((1, 0, 0)))
        assert sheet.outcome is None
    dealers.append(sheet.dealer)
    sheet.record_hand(fake((0, 2, 0)))
    assert dealers == [2, 0, 1, 2, 0, 1]
    assert sheet.outcome is not None and sheet.outcome.winners == (0,)


def test_c10_tied_leaders_alone_play_extra_hands() -> None:
    sheet = ScoreSheet(TOURNAMENT, 3, first_dealer=0)
    for deltas in [(2, 2, 0)] * 6:
        sheet.record_hand(fake(deltas))
    assert sheet.outcome is None
    assert sheet.seated == [0, 1]  # seat 2 is not a leader and sits out
    assert sheet.dealer == 0  # the deal goes on rotating among them (2 dealt last)
    sheet.record_hand(fake((1, 1, 0), seats=(0, 1)))
    assert sheet.outcome is None and sheet.seated == [0, 1]
    with pytest.raises(ValueError, match="seats \\[0, 1\\]"):
        sheet.record_hand(fake((1, 0, 0)))
    sheet.record_hand(fake((2, 0, 0), seats=(0, 1)))
    assert sheet.outcome is not None and sheet.outcome.winners == (0,)


# -- the first dealer (C3; topic 6) and the cut (topic 8) -----------------------


def test_topic_6_the_high_cut_deals_and_ties_cut_again() -> None:
    cards = {0: Card.parse("KD"), 1: Card.parse("KS"), 2: Card.parse("9H")}
    assert cut_for_deal(cards) == (0, 1)  # suits are equal: a tie
    assert cut_for_deal({0: Card.parse("KD"), 1: Card.parse("AC")}) == (1,)
    with pytest.raises(ValueError):
        cut_for_deal({})


def test_topic_8_the_cut_is_offered_to_the_dealers_right() -> None:
    assert cut_offered_to(2, [0, 1, 2, 3]) == 1
    assert cut_offered_to(0, [0, 1, 2, 3]) == 3
    assert cut_offered_to(0, [0, 2]) == 2


# -- misdeals (C11; topics 10 and 11) ----------------------------------------------


def test_topic_11_a_misdeal_before_play_is_redealt_by_the_same_dealer() -> None:
    for rules in (Rules(), TOURNAMENT):
        sheet = ScoreSheet(rules, 3, first_dealer=1)
        entry = sheet.rule(Misdeal("before_play", judge="JD"))
        assert entry.kind == "redeal" and entry.redeal and entry.judge == "JD"
        assert sheet.dealer == 1 and sheet.deals == [0, 0, 0] and sheet.scores == [0, 0, 0]


def test_topic_11_informal_misdeal_during_play_is_also_redealt_by_the_dealer() -> None:
    sheet = ScoreSheet(Rules(), 3, first_dealer=1)
    entry = sheet.rule(Misdeal("during_play"))
    assert entry.kind == "redeal" and sheet.dealer == 1
    with pytest.raises(ValueError, match="a finished hand stands"):
        sheet.rule(Misdeal("after_hand"))


def test_topic_11b_tournament_misdeal_during_play_voids_and_forfeits_the_deal() -> None:
    sheet = ScoreSheet(TOURNAMENT, 3, first_dealer=1)
    entry = sheet.rule(Misdeal("during_play"))
    assert entry.kind == "void" and entry.dealer == 1 and entry.redeal
    assert sheet.deals == [0, 1, 0]  # the forfeited deal counts as seat 1's
    assert sheet.dealer == 2  # the player to the left deals
    assert sheet.scores == [0, 0, 0]


def test_topic_11b_tournament_misdeal_found_after_the_hand_voids_its_points() -> None:
    sheet = ScoreSheet(TOURNAMENT, 2, first_dealer=0)
    sheet.record_hand(fake((3, 1)))
    entry = sheet.rule(Misdeal("after_hand", judge="AB"))
    assert sheet.scores == [0, 0] and entry.deltas == (-3, -1)
    assert sheet.entries[0].voided and sheet.dealer == 1 and sheet.deals == [1, 0]
    with pytest.raises(ValueError, match="not a completed hand"):
        sheet.rule(Misdeal("after_hand"))
    sheet.record_hand(fake((1, 2)))
    sheet.rule(Confirm(3, "AB"))
    with pytest.raises(ValueError, match="confirmed by AB: it stands"):
        sheet.rule(Misdeal("after_hand"))


def test_a_misdeal_after_the_last_hand_can_reopen_the_game() -> None:
    sheet = ScoreSheet(TOURNAMENT, 2, first_dealer=0)
    for deltas in [(1, 0), (1, 0), (1, 0), (0, 4)]:
        sheet.record_hand(fake(deltas))
    assert sheet.outcome is not None and sheet.outcome.winners == (1,)
    sheet.rule(Misdeal("after_hand"))
    # 3-0 stands and every deal is counted: seat 0 now wins.
    assert sheet.outcome is not None and sheet.outcome.winners == (0,)


# -- misplays (C11; topics 36-38) ---------------------------------------------------


def test_topic_37_tournament_misplay_costs_the_highest_bid_and_a_hand() -> None:
    sheet = ScoreSheet(TOURNAMENT, 3, first_dealer=0)
    entry = sheet.rule(Misplay(2, correctable=False, highest_bid=3, judge="JD"))
    assert entry.deltas == (0, 0, -3) and sheet.scores == [0, 0, -3]
    assert entry.redeal and sheet.seated == [0, 1] and sheet.dealer == 0
    assert "sits out the next hand" in entry.note
    sheet.record_hand(fake((1, 2, 0), seats=(0, 1)))
    assert sheet.seated == [0, 1, 2]  # back for the hand after
    with pytest.raises(ValueError, match="highest bid"):
        sheet.rule(Misplay(1, correctable=False))


def test_topic_37_an_offending_dealer_forfeits_the_deal() -> None:
    sheet = ScoreSheet(TOURNAMENT, 3, first_dealer=1)
    sheet.rule(Misplay(1, correctable=False, highest_bid=2))
    assert sheet.dealer == 2 and sheet.deals == [0, 1, 0] and sheet.seated == [0, 2]


def test_topic_37_a_correctable_misplay_is_replayed_and_play_goes_on() -> None:
    sheet = ScoreSheet(TOURNAMENT, 3, first_dealer=0)
    entry = sheet.rule(Misplay(1, correctable=True))
    assert not entry.redeal and sheet.scores == [0, 0, 0] and sheet.misplays == [0, 1, 0]


def test_topic_37_informal_misplay_is_corrected_or_redealt_without_penalty() -> None:
    sheet = ScoreSheet(Rules(), 3, first_dealer=0)
    assert not sheet.rule(Misplay(1, correctable=True)).redeal
    entry = sheet.rule(Misplay(1, correctable=False))
    assert entry.redeal and sheet.scores == [0, 0, 0] and sheet.seated == [0, 1, 2]
    assert sheet.disqualified == []  # topic 38: informal players decide for themselves


def test_topic_38_a_second_misplay_in_a_go_round_disqualifies() -> None:
    sheet = ScoreSheet(TOURNAMENT, 3, first_dealer=0)
    sheet.rule(Misplay(1, correctable=True))
    entry = sheet.rule(Misplay(1, correctable=True))
    assert "disqualified" in entry.note and sheet.disqualified == [1]
    assert entry.redeal and sheet.seated == [0, 2]
    # Earlier misplays at other tables of the Go-Round count too.
    other = ScoreSheet(TOURNAMENT, 2, first_dealer=0)
    other.rule(Misplay(0, correctable=False, highest_bid=2, earlier=1))
    assert other.outcome is not None and other.outcome.winners == (1,)
    assert other.outcome.ranks == (2, 1)


def test_topic_38_go_round_counts_by_name_across_tables() -> None:
    go = GoRound()
    a = ScoreSheet(TOURNAMENT, 2, 0, names=["Ann", "Bo"], go_round=go)
    b = ScoreSheet(TOURNAMENT, 2, 0, names=["Cy", "Ann"], go_round=go)
    a.rule(Misplay(0, correctable=True))
    assert a.disqualified == []
    b.rule(Misplay(1, correctable=True))
    assert b.disqualified == [1] and go.disqualified == ["Ann"]
    with pytest.raises(ValueError, match="names"):
        ScoreSheet(TOURNAMENT, 2, 0, go_round=go)


def test_a_refused_ruling_changes_nothing() -> None:
    sheet = ScoreSheet(TOURNAMENT, 3, first_dealer=0)
    before = sheet.to_json()
    with pytest.raises(ValueError, match="not playing"):
        sheet.rule(Misplay(5, correctable=False, highest_bid=2))
    with pytest.raises(ValueError, match="no line"):
        sheet.rule(Confirm(1, "JD"))
    assert sheet.to_json() == before


# -- judge confirmation (topics 31 and 35) --------------------------------------------


def test_topic_35_the_judge_initials_each_hand() -> None:
    sheet = ScoreSheet(TOURNAMENT, 2, first_dealer=0)
    sheet.record_hand(score_hand(["1:AS 0:2S"], pitcher=1, bid=2))
    assert sheet.unconfirmed == [1]
    entry = sheet.rule(Confirm(1, "J.D."))
    assert entry.judge == "J.D." and sheet.unconfirmed == []
    assert sheet.to_json()["lines"][0]["judge"] == "J.D."
    with pytest.raises(ValueError, match="confirmed already"):
        sheet.rule(Confirm(1, "XY"))
    with pytest.raises(ValueError, match="initials"):
        Confirm(1, "")
    with pytest.raises(ValueError, match="initials"):
        Confirm(1, "12")


def test_topic_31_the_sheet_records_each_sides_game_count() -> None:
    sheet = ScoreSheet(TOURNAMENT, 2, first_dealer=0)
    entry = sheet.record_hand(score_hand(["1:AS 0:TS"], pitcher=1, bid=2))
    assert entry.result is not None and entry.result.game_count == (0, 14)
    assert entry.to_json()["result"]["game_count"] == [0, 14]


def test_a_physical_tournament_game_start_to_finish() -> None:
    sheet = ScoreSheet(
        TOURNAMENT,
        2,
        first_dealer=cut_for_deal({0: Card.parse("4C"), 1: Card.parse("QH")})[0],
        names=["Ann", "Bo"],
    )
    assert sheet.dealer == 1
    hands = [
        (["0:AH 1:2H"], 0),  # Ann pitches: high, low to Bo, game
        (["1:KS 0:3S"], 1),
        (["0:QD 1:AD"], 0),  # Ann set back
        (["1:JC 0:2C"], 1),
    ]
    for n, (tricks, pitcher) in enumerate(hands, 1):
        sheet.record_hand(score_hand(tricks, pitcher=pitcher, bid=2, players=2))
        sheet.rule(Confirm(n, "JD"))
    assert sheet.outcome is not None
    assert sheet.scores == [2 + 1 - 2 + 1, 1 + 2 + 2 + 3]
    assert sheet.outcome.winners == (1,) and "Bo wins" in sheet.outcome.summary


def test_rulings_round_trip_through_json_and_refuse_nonsense() -> None:
    for ruling in (Misdeal("during_play", "JD"), Misplay(2, False, 3, 1, "AB"), Confirm(4, "JD")):
        assert ruling_from_json(ruling_to_json(ruling)) == ruling
    with pytest.raises(ValueError, match="unknown ruling"):
        ruling_from_json({"kind": "bribe"})
    with pytest.raises(ValueError, match="bad misplay"):
        ruling_from_json({"kind": "misplay", "who": 1})
    with pytest.raises(ValueError, match="found is"):
        Misdeal("tomorrow")  # type: ignore[arg-type]


def test_the_sheet_refuses_tables_the_rules_do_not_allow() -> None:
    with pytest.raises(BadOptionError, match="2 to 4"):
        ScoreSheet(TOURNAMENT, 5, 0)
    with pytest.raises(ValueError, match="first dealer"):
        ScoreSheet(Rules(), 3, 3)
    sheet = ScoreSheet(Rules(), 2, 0)
    with pytest.raises(ValueError, match="seats \\[0, 1\\]"):
        sheet.record_hand(fake((1, 0, 0)))
