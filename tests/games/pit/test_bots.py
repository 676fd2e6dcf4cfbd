"""Pit's traders: what each does, and that they decide from what they may see."""

from __future__ import annotations

import copy
import random

import pytest

from pit_survey import survey
from pitkit import bots as bot_registry
from pitkit import games
from pitkit.bots import RandomBot
from pitkit.games.pit import (
    Accept,
    Corner,
    Offer,
    Open,
    PitHand,
    RandomTrader,
    SensibleTrader,
    StrongTrader,
    Withdraw,
)
from pitkit.play.realtime import RealtimeBot, VirtualRun
from tests.games.pit.helpers import stacked_hand

GAME = games.get("pit")
TRADERS = [RandomTrader, SensibleTrader, StrongTrader]


def bull_and_bear_table() -> PitHand:
    """A Bull & Bear table just opened: seat 1, who collects barley, holds the Bear."""
    return stacked_hand(
        [
            "5 wheat, 2 barley, 3 corn",
            "4 wheat, 5 barley, bear",
            "2 barley, 5 corn, 2 rye",
            "7 rye, 1 corn, bull",
        ],
        dealer=3,
        bull_and_bear=True,
    )


def barley_offered() -> PitHand:
    """That table, where seat 2 has just offered one barley."""
    hand = bull_and_bear_table()
    hand.apply(2, "offer 1 barley")
    return hand


@pytest.mark.parametrize("kind", TRADERS)
def test_traders_are_realtime_bots_that_open_and_corner(kind: type[SensibleTrader]) -> None:
    bot = kind(1)
    assert isinstance(bot, RealtimeBot)
    hand = stacked_hand(["9 wheat", "9 barley", "9 corn"], dealer=1, opened=False)
    assert bot.act(hand, 1) == Open()
    assert bot.act(hand, 0) is None, "before the opening only the dealer acts"
    hand.apply(1, "open")
    assert bot.act(hand, 2) == Corner(), "the checked call: never a penalty"
    assert bot.choose(hand, 2) == Corner()


def test_sensible_offers_its_weakest_cards_with_the_bear() -> None:
    hand = bull_and_bear_table()
    bot = SensibleTrader(1)
    assert bot.act(hand, 0) == Offer(2, hand.commodities[1])  # 2 barley: its fewest
    # Seat 1 collects barley, and gives away the Bear with its wheat.
    assert bot.act(hand, 1) == Offer(4, hand.commodities[0], bear=True)


def test_sensible_pays_with_junk_and_gets_rid_of_the_bear() -> None:
    hand = barley_offered()
    action = SensibleTrader(1).act(hand, 1)
    assert action == Accept(2, bear=True, offer=1), "the Bear goes first"
    hand.apply(0, "offer 3 corn")
    # Seat 3 cannot pay seat 0's 3 cards without its rye or the Bull; it
    # takes seat 2's one card, paying with its one junk card.
    assert SensibleTrader(1).act(hand, 3) == Accept(2, hand.commodities[2], offer=1)


def test_sensible_withdraws_an_offer_of_what_it_now_collects() -> None:
    hand = stacked_hand(
        ["4 wheat, 3 barley, 2 corn", "4 barley, 5 corn", "5 wheat, 2 barley, 2 corn"]
    )
    hand.apply(0, "offer 2 corn")
    # Now make corn its largest holding: it takes 3 corn for 3 barley.
    hand.apply(1, "offer 3 corn")
    hand.apply(0, "accept 1 barley")
    hand.apply(0, "withdraw")
    hand.apply(0, "offer 2 corn")
    hand.apply(2, "offer 2 wheat")
    hand.apply(0, "accept 2 wheat")
    bot = SensibleTrader(1)
    assert hand.holding(0)[2] == 5  # corn
    assert bot.act(hand, 0) == Withdraw()


def test_strong_reads_the_history_and_never_feeds_a_collector() -> None:
    hand = stacked_hand(
        ["4 wheat, 3 barley, 2 corn", "4 barley, 5 corn", "5 wheat, 2 barley, 2 corn"]
    )
    bot = StrongTrader(3)
    # Seat 0 gives seat 1 barley twice; seat 1 never gives barley back.
    hand.apply(1, "offer 2 corn")
    hand.apply(0, "accept 1 barley")
    bot.act(hand, 0)
    assert bot.collecting(1, hand) is hand.commodities[1]
    hand.apply(1, "offer 1 corn")
    action = bot.act(hand, 0)
    assert isinstance(action, Accept)
    assert action.commodity is not hand.commodities[1], "it does not pay seat 1 in barley"


@pytest.mark.parametrize("kind", [RandomTrader, SensibleTrader, StrongTrader, RandomBot])
def test_bots_decide_from_what_their_seat_sees(kind: type) -> None:
    """A bot's choice is the same in a game whose unseen cards were dealt
    differently: it cannot be peeking."""
    match = GAME.new_match(5, {"bull_and_bear": True}, 21)
    bots = [kind(s) for s in range(5)]
    rng = random.Random(4)
    for _ in range(300):
        if match.is_over:
            break
        seat = rng.choice(sorted(match.to_act))
        twin = copy.deepcopy(bots[seat])
        other = match.redeal_unseen(seat, rng.getrandbits(32))
        act = getattr(bots[seat], "act", bots[seat].choose)
        action = act(match, seat)
        assert getattr(twin, "act", twin.choose)(other, seat) == action
        if action is None:
            action = rng.choice(match.legal_actions(seat))
        match.apply(seat, action)


def test_the_registry_builds_the_traders() -> None:
    names = ["random", "random-trader", "sensible", "strong"]
    assert set(names) <= set(bot_registry.names(GAME))
    for name in names:
        bot = bot_registry.make(GAME, name, 1)
        match = GAME.new_match(3, None, 2)
        VirtualRun(
            match, [bot, bot_registry.make(GAME, name, 2), bot_registry.make(GAME, name, 3)], 1
        ).run()
        assert match.is_over


def test_sensible_and_strong_beat_random_traders() -> None:
    result = survey(GAME, ["sensible", "strong", "random-trader"], 60, seed=1)
    records = result.bots
    assert result.hands == 60 and result.cornered >= 55
    assert records["sensible"].win_rate > 2 * records["random-trader"].win_rate
    assert records["strong"].win_rate > 2 * records["random-trader"].win_rate
    assert result.mean_corner_time > 0


@pytest.mark.parametrize("kind", [SensibleTrader, StrongTrader])
def test_traders_rank_the_legal_moves_without_changing_their_play(
    kind: type[SensibleTrader],
) -> None:
    """A ranking lists exactly the legal actions, and asking for one at every
    look changes none of the trader's own decisions: a search asks while the
    bot plays on, and duplicate play must replay the same game."""

    def play(ranking: bool) -> list[str]:
        match = GAME.new_match(4, {"bull_and_bear": True}, 8)
        traders = [kind(s) for s in range(4)]
        rng = random.Random(2)
        for _ in range(300):
            if match.is_over:
                break
            seat = rng.choice(sorted(match.to_act))
            if ranking:
                ranked = traders[seat].rank(match, seat)
                assert sorted(map(str, ranked)) == sorted(map(str, match.legal_actions(seat)))
            action = traders[seat].act(match, seat)
            match.apply(seat, action or rng.choice(match.legal_actions(seat)))
        return [str(event) for event in match.log]

    played = play(ranking=False)
    assert sum("trade" in line for line in played) >= 5, "the test needs trading to prove much"
    assert play(ranking=True) == played


def test_sensible_ranks_the_bear_first_and_its_collection_last() -> None:
    hand = barley_offered()
    wheat, barley = hand.commodities[0], hand.commodities[1]
    ranked = SensibleTrader(1).rank(hand, 1)  # seat 1 collects barley
    assert ranked[0] == Accept(2, bear=True, offer=1), "dumping the Bear comes first"
    place = {str(action): i for i, action in enumerate(ranked)}
    assert place[str(Offer(1, wheat))] < place[str(Offer(1, barley))]
    assert place[str(Accept(2, wheat, offer=1))] < place[str(Accept(2, barley, offer=1))]
    gives_barley = [i for a, i in place.items() if "barley" in a.split("#")[0]]
    assert min(gives_barley) > max(i for a, i in place.items() if "barley" not in a)
