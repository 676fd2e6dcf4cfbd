"""A game of Pitch through the common interface: players and teams (C1),
the first dealer (C3), the deal's rotation, the end (C9, C10), judge
rulings inside a pitkit game (C11) and their replay from the log."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from pitkit import games
from pitkit.cards import parse_cards
from pitkit.core import BadOptionError, read_log, write_log
from pitkit.games.pitch import (
    GAME,
    Confirm,
    HeuristicBot,
    Misdeal,
    Misplay,
    PitchMatch,
    Rules,
    team_seats,
)

from .helpers import full_deck, stacked_chance


def play_hands(match: PitchMatch, hands: int, seed: int = 0) -> None:
    """Let heuristic bots play `hands` more hands (or to the end)."""
    bots = [HeuristicBot(seed + s) for s in range(match.players)]
    target = len(match.results) + hands
    while not match.is_over and len(match.results) < target:
        seat = min(match.to_act)
        match.apply(seat, bots[seat].choose(match, seat))


def snapshot(match: Any) -> str:
    views = [match.view(seat) for seat in [None, *range(match.players)]]
    log = [e.to_json() for e in match.log]
    return json.dumps([views, log], sort_keys=True, default=str)


def test_pitch_is_registered() -> None:
    assert games.get("pitch") is GAME
    assert {"heuristic", "lookahead"} <= set(GAME.bots)


# -- topics 2 and 3: players and teams (C1) ---------------------------------------


@pytest.mark.parametrize(
    ("players", "options", "why"),
    [
        (7, [], "2-6 players"),
        (1, [], "2-6 players"),
        (5, ["mode=tournament"], "2 to 4"),
        (4, ["teams=2x3"], "needs 6 players"),
        (6, ["mode=tournament", "teams=3x2"], "individuals only"),
        (4, ["mode=tournament", "hands=3"], "dealt twice"),
        (4, ["target=0"], "at least 1"),
    ],
)
def test_topics_2_3_tables_the_rules_refuse(players: int, options: list[str], why: str) -> None:
    with pytest.raises(BadOptionError, match=why):
        GAME.new_match(players, options, seed=1)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_topic_2_informal_two_to_six(players: int) -> None:
    match = GAME.new_match(players, seed=players)
    assert isinstance(match, PitchMatch)
    assert len(match.hand.seated) == players


def test_topic_3_teams_sit_as_c1_says_and_share_their_score() -> None:
    assert team_seats("2x3") == ((0, 2, 4), (1, 3, 5))  # alternately
    assert team_seats("3x2") == ((0, 3), (1, 4), (2, 5))  # opposite
    for teams in ("2x3", "3x2"):
        match = GAME.new_match(6, [f"teams={teams}", "target=15"], seed=4)
        assert isinstance(match, PitchMatch)
        play_hands(match, 200)
        assert match.is_over and match.outcome is not None
        for team in team_seats(teams) or ():
            assert len({match.scores[s] for s in team}) == 1
            assert len({match.outcome.ranks[s] for s in team}) == 1
        assert match.view(0)["teams"] == [list(t) for t in team_seats(teams) or ()]


def test_cli_style_options() -> None:
    rules = GAME.make_rules(["target=15", "teams=2x3", "dealer_steal=same", "jack_to=played"])
    assert isinstance(rules, Rules)
    assert (rules.target, rules.teams, rules.dealer_steal, rules.jack_to) == (
        15,
        "2x3",
        "same",
        "played",
    )


# -- topics 6-9: the first dealer, shuffle, cut, and the deal's rotation ------------


def test_topic_6_informal_first_dealer_is_drawn_and_the_deal_rotates_clockwise() -> None:
    match = PitchMatch(Rules(), 3, chance=stacked_chance(picks=[2]))
    assert match.dealer == 2 and match.hand.order == (0, 1, 2)
    play_hands(match, 3)
    dealers = [e.dealer for e in match.sheet.entries]
    assert dealers == [2, 0, 1]


def test_topic_6_tournament_first_dealer_is_cut_high_card_and_ties_recut() -> None:
    # Each player's cut shows the card 13 places apart in a shuffled pack.
    first = _with_at(full_deck([]), {0: "KD", 13: "KS", 26: "9H"})
    second = _with_at(full_deck([]), {0: "2C", 13: "AC"})
    match = PitchMatch(Rules(mode="tournament"), 3, chance=stacked_chance(first, second))
    cuts = [e.public for e in match.log if e.type == "cut"]
    assert cuts == [
        {"cards": {"0": "KD", "1": "KS", "2": "9H"}, "high": [0, 1]},
        {"cards": {"0": "2C", "1": "AC"}, "high": [1]},
    ]
    assert match.dealer == 1


def _with_at(deck: list[Any], cards: dict[int, str]) -> list[Any]:
    out = list(deck)
    for index, token in cards.items():
        card = parse_cards(token)[0]
        j = out.index(card)
        out[index], out[j] = out[j], out[index]
    return out


def test_topics_7_8_every_hand_is_shuffled_and_the_tournament_cut_is_offered_right() -> None:
    match = GAME.new_match(4, ["mode=tournament"], seed=11)
    assert isinstance(match, PitchMatch)
    play_hands(match, 3)
    deals = [e for e in match.log if e.type == "deal"]
    shuffles = [e for e in match.log if e.type == "shuffle"]
    cuts = [e for e in match.log if e.type == "cut"]
    assert len(shuffles) == len(deals) + len(cuts)
    for deal in deals:
        dealer = deal.public["dealer"]
        assert deal.public["cut_by"] == (dealer - 1) % 4
    informal = GAME.new_match(4, seed=11)
    assert all("cut_by" not in e.public for e in informal.log if e.type == "deal")


# -- topics 1 and 5: the end -------------------------------------------------------------


def test_topic_5_tournament_game_is_two_deals_each_then_a_single_winner() -> None:
    for seed in range(6):
        match = GAME.new_match(3, ["mode=tournament"], seed=seed)
        assert isinstance(match, PitchMatch)
        play_hands(match, 1000, seed)
        assert match.outcome is not None
        assert len(match.results) >= 6
        assert all(d >= 2 for d in match.sheet.deals)
        assert len(match.outcome.winners) == 1
        if len(match.results) > 6:  # C10: extra hands, played by tied leaders only
            assert any(len(e.seated) < 3 for e in match.sheet.entries[6:])


def test_topic_5_informal_to_the_target_through_play() -> None:
    match = GAME.new_match(4, ["target=7"], seed=5)
    assert isinstance(match, PitchMatch)
    play_hands(match, 1000)
    assert match.outcome is not None
    (winner,) = match.outcome.winners
    assert match.scores[winner] >= 7
    assert match.to_act == frozenset()


def test_fixed_number_of_deals() -> None:
    match = GAME.new_match(3, ["hands=4"], seed=2)
    assert isinstance(match, PitchMatch)
    play_hands(match, 1000)
    assert match.is_over and len(match.results) == 4


# -- C11 rulings inside a pitkit game ------------------------------------------------------


def test_misdeal_before_play_redeals_with_the_same_dealer_and_replays() -> None:
    match = GAME.new_match(4, ["mode=tournament"], seed=3)
    assert isinstance(match, PitchMatch)
    dealer, hand = match.dealer, match.hand
    events = match.rule(Misdeal("before_play", judge="JD"))
    assert [e.type for e in events] == ["ruling", "scores", "shuffle", "deal"]
    assert match.hand is not hand and match.dealer == dealer
    _replays(match)


def test_misdeal_during_play_voids_and_passes_the_deal() -> None:
    match = GAME.new_match(4, ["mode=tournament"], seed=3)
    assert isinstance(match, PitchMatch)
    with pytest.raises(ValueError, match="before_play"):
        match.rule(Misdeal("during_play"))
    _to_first_card(match)
    with pytest.raises(ValueError, match="during play"):
        match.rule(Misdeal("before_play"))
    dealer = match.dealer
    match.rule(Misdeal("during_play"))
    assert match.dealer == (dealer + 1) % 4 and match.scores == [0, 0, 0, 0]
    assert match.sheet.deals[dealer] == 1
    _replays(match)


def test_misdeal_after_the_hand_voids_its_points_before_the_next_card() -> None:
    match = GAME.new_match(3, ["mode=tournament"], seed=8)
    assert isinstance(match, PitchMatch)
    play_hands(match, 1)
    assert match.scores != [0, 0, 0]
    match.rule(Misdeal("after_hand", judge="AB"))
    assert match.scores == [0, 0, 0] and match.sheet.entries[0].voided
    play_hands(match, 1)
    _to_first_card(match)
    with pytest.raises(ValueError, match="under way"):
        match.rule(Misdeal("after_hand"))
    _replays(match)


def test_misplay_costs_the_highest_bid_and_the_offender_sits_out() -> None:
    match = GAME.new_match(4, ["mode=tournament"], seed=6)
    assert isinstance(match, PitchMatch)
    _to_first_card(match)
    offender = next(s for s in range(4) if s != match.dealer)
    bid = match.hand.highest_bid
    with pytest.raises(ValueError, match="highest bid of this hand"):
        match.rule(Misplay(offender, correctable=False, highest_bid=bid % 4 + 1 if bid else 1))
    match.rule(Misplay(offender, correctable=False, judge="JD"))
    assert match.scores[offender] == -bid
    assert offender not in match.hand.seated and offender not in match.seated
    assert match.view(offender)["players"][offender]["seated"] is False
    assert match.legal_actions(offender) == []
    play_hands(match, 1)
    assert offender in match.hand.seated
    # A second misplay in the Go-Round disqualifies.
    match.rule(Misplay(offender, correctable=True))
    assert offender in match.sheet.disqualified and offender not in match.hand.seated
    play_hands(match, 1000)
    assert match.outcome is not None and match.outcome.ranks[offender] == 4
    _replays(match)


def test_confirmation_is_recorded_in_the_view_and_the_log() -> None:
    match = GAME.new_match(2, ["mode=tournament"], seed=9)
    assert isinstance(match, PitchMatch)
    play_hands(match, 1)
    events = match.rule(Confirm(1, "JD"))
    assert [e.type for e in events] == ["ruling"]
    sheet = match.view(0)["match"]["sheet"]
    assert sheet["lines"][0]["judge"] == "JD" and sheet["unconfirmed"] == []
    with pytest.raises(ValueError, match="confirmed already"):
        match.rule(Confirm(1, "XY"))
    _replays(match)


def _to_first_card(match: PitchMatch) -> None:
    bots = [HeuristicBot(s) for s in range(match.players)]
    while match.hand.cards_played == 0:
        seat = min(match.to_act)
        match.apply(seat, bots[seat].choose(match, seat))


def _replays(match: PitchMatch) -> None:
    header = match.header()
    replayed = GAME.replay(header, match.log)
    assert snapshot(replayed) == snapshot(match)


def test_a_log_with_rulings_replays_from_disk(tmp_path: Any) -> None:
    match = GAME.new_match(3, ["mode=tournament"], seed=12)
    assert isinstance(match, PitchMatch)
    match.rule(Misdeal("before_play"))
    play_hands(match, 2)
    match.rule(Confirm(2, "JD"))  # line 1 is the redeal
    path = tmp_path / "pitch.jsonl"
    write_log(path, match.header(), match.log)
    header, events = read_log(path)
    assert snapshot(GAME.replay(header, events)) == snapshot(match)
    steps = list(GAME.replay_steps(header, events))
    assert len(steps) > 10


def test_views_hide_other_hands_and_the_stock() -> None:
    match = GAME.new_match(4, seed=21)
    assert isinstance(match, PitchMatch)
    rng = random.Random(0)
    for _ in range(40):
        for seat in [None, 0, 1, 2, 3]:
            other = match.redeal_unseen(seat, rng.getrandbits(32))
            assert other.view(seat) == match.view(seat)
        seat = min(match.to_act)
        match.apply(seat, rng.choice(match.legal_actions(seat)))
    view = match.view(1)
    assert view["stock"] == len(match.hand.stock)
    shown = set(view["hand"])
    for seat in (0, 2, 3):
        assert not shown & {str(card) for card in match.hand.cards[seat]}
    assert "hand" not in match.view(None)
