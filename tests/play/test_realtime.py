"""The real-time runner: arrival order, races, late actions, the sorting
period, the virtual clock and the asyncio runner."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from pitkit import games
from pitkit.bots import RandomBot
from pitkit.core import State
from pitkit.games.pit import PitMatch, SensibleTrader, StrongTrader
from pitkit.play.realtime import (
    DEFAULT_THINK,
    Arrival,
    StalledError,
    TradingPit,
    VirtualRun,
    decide,
    play_virtual,
    think_range,
)
from pitkit.play.wallclock import RealtimeRunner
from tests.games.pit.helpers import stacked_match
from tests.waiting import patience, until

GAME = games.get("pit")
HANDS = ["5 wheat, 4 corn", "4 wheat, 5 corn", "9 barley"]
RACE = ["5 wheat, 2 corn, 2 barley", "4 wheat, 5 corn", "2 corn, 7 barley"]


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_arrivals_are_taken_in_order_and_a_lost_race_says_who_won() -> None:
    match = stacked_match(HANDS, dealer=2)
    table = TradingPit(match, Clock())
    seen: list[str] = []
    table.listeners.append(lambda a: seen.append(f"{a.seat}:{a.accepted}"))
    assert table.submit(2, "offer 2 barley").accepted
    first = table.submit(0, "accept 2 wheat #1")
    second = table.submit(1, "accept 2 corn #1")
    assert first.accepted and [e.type for e in first.events] == ["action", "trade"]
    assert not second.accepted
    assert second.reason == "seat 2's offer #1 was taken by seat 0"
    assert seen == ["2:True", "0:True", "1:False"]
    assert table.trades == 1 and table.refused == 1


def test_take_says_whether_an_action_was_taken_and_listeners_still_hear() -> None:
    match = stacked_match(HANDS, dealer=2)
    table = TradingPit(match, Clock())
    assert table.take(2, "offer 2 barley") and table.take(0, "accept 2 wheat #1")
    heard: list[str | None] = []
    table.listeners.append(lambda a: heard.append(a.reason))
    assert not table.take(1, "accept 2 corn #1")
    assert heard == ["seat 2's offer #1 was taken by seat 0"]
    assert table.trades == 1 and table.refused == 1 and table.version == 2


def test_the_virtual_run_counts_the_actions_taken_not_those_refused() -> None:
    # Three hands: random traders rarely corner, and a whole match took 800,000 decisions.
    match = GAME.new_match(5, {"hand_limit": 3}, 3)
    run = VirtualRun(match, [RandomBot(s) for s in range(5)], 3)
    decisions = run.run()
    assert decisions == sum(1 for e in match.log if e.type == "action")
    assert run.table.refused > 0, "races were lost, and not counted"


def test_bad_input_is_refused_never_raised() -> None:
    table = TradingPit(stacked_match(HANDS, dealer=2), Clock())
    for junk in ("xyzzy", "", 42, {"kind": None}, "offer 9 wheat"):
        arrival = table.submit(0, junk)  # type: ignore[arg-type]
        assert not arrival.accepted and arrival.reason


def test_an_action_decided_in_a_finished_hand_is_too_late() -> None:
    match = stacked_match(HANDS, dealer=0)
    clock = Clock()
    table = TradingPit(match, clock)
    table.submit(0, "offer 1 wheat")
    hand = table.hand_number
    clock.now = 5.0
    corner = table.submit(2, "corner")
    assert corner.accepted and table.hand_number == 2
    late = table.submit(1, "offer 2 corn", hand)  # would be early trading in hand 2
    assert not late.accepted
    assert late.reason == "too late: that hand is over (seat 2 cornered barley for 85)"
    assert match.scores == [0, 0, 85]
    assert table.timings[0].cornered and table.timings[0].ended == 5.0
    assert table.timings[1].dealt == 5.0
    assert table.hand_at(4.9) == 1 and table.hand_at(5.0) == 2


def test_the_dealer_may_not_open_during_the_sorting_period() -> None:
    match = stacked_match(HANDS, dealer=1, opened=False)
    clock = Clock()
    table = TradingPit(match, clock, sorting=30)
    clock.now = 12.2
    refused = table.submit(1, "open")
    assert refused.reason == (
        "the sorting period has 18 s left: ring the bell when it is over (T3)"
    )
    assert not table.is_open
    clock.now = 30.0
    assert table.submit(1, "open").accepted and table.is_open
    assert table.timings[0].opened == 30.0


def test_think_times_and_deciding() -> None:
    assert think_range(RandomBot(1)) == DEFAULT_THINK
    assert think_range(SensibleTrader(1)) == SensibleTrader.think_time
    match = GAME.new_match(3, None, 1)
    assert decide(RandomBot(1), match, match.dealer) is not None


def test_play_virtual_plays_to_the_end_with_any_bots() -> None:
    for bots in ([RandomBot(s) for s in range(4)], [StrongTrader(s) for s in range(4)]):
        match = GAME.new_match(4, None, 9)
        decisions = play_virtual(match, bots, 5)
        assert match.is_over and decisions > 0


def test_the_virtual_clock_is_deterministic_from_the_seeds() -> None:
    def run(seed: int) -> tuple[list[Any], float]:
        match = GAME.new_match(4, {"bull_and_bear": True}, 3)
        virtual = VirtualRun(match, [SensibleTrader(s) for s in range(4)], seed)
        virtual.run()
        return [e.to_json() for e in match.log], virtual.now

    assert run(1) == run(1)
    assert run(1) != run(2), "the runner's seed decides the arrival order"


def test_a_run_can_join_a_hand_under_way_with_a_move_already_sent() -> None:
    """`send` queues a move decided before the run: it arrives one think time
    later and may lose its race; with `staggered`, the others' first looks
    come part-way through a think, so some of them act before it."""
    lost = overtaken = 0
    for seed in range(40):
        hand = stacked_match(RACE, dealer=2).hand
        hand.apply(2, "offer 2 corn")  # seat 1 collects corn, seat 0 has junk to pay
        run = VirtualRun(hand, [SensibleTrader(s) for s in range(3)], seed, staggered=True)
        arrivals: list[Arrival] = []
        run.table.listeners.append(arrivals.append)
        run.send(0, hand.parse_action("accept 2 barley #1"))
        run.run()
        assert hand.is_over
        mine = next(a for a in arrivals if a.seat == 0)
        assert mine.action == "accept 2 barley #1"
        assert DEFAULT_THINK[0] <= mine.time <= DEFAULT_THINK[1]
        lost += not mine.accepted and mine.reason == "seat 2's offer #1 was taken by seat 1"
        overtaken += arrivals[0].seat != 0
    assert 0 < lost < 40, "seat 1 sometimes gets there first, sometimes not"
    assert overtaken >= lost

    # Without staggering, a run starts afresh: every seat looks after a whole
    # think, so nobody's first move arrives before the sent one could.
    hand = stacked_match(RACE, dealer=2).hand
    run = VirtualRun(hand, [SensibleTrader(s) for s in range(3)], 1)
    arrivals = []
    run.table.listeners.append(arrivals.append)
    run.run()
    assert min(a.time for a in arrivals) >= 2 * DEFAULT_THINK[0]


def test_the_virtual_run_needs_a_bot_a_seat_and_notices_stuck_bots() -> None:
    match = GAME.new_match(3, None, 1)
    with pytest.raises(ValueError, match="3 seats need 3 bots"):
        VirtualRun(match, [RandomBot(1)], 1)

    class Idle:
        think_time = (1.0, 2.0)

        def act(self, state: State[Any], player: int) -> None:
            return None

    with pytest.raises(StalledError, match="nobody acted"):
        VirtualRun(match, [Idle(), Idle(), Idle()], 1, max_quiet=100).run()


def test_the_asyncio_runner_plays_bots_and_a_person_concurrently() -> None:
    match = GAME.new_match(3, {"hand_limit": 2, "trades_per_player": 10}, 4)
    assert isinstance(match, PitMatch)
    person = (match.dealer + 2) % 3  # deals neither of the two hands
    players: list[object | None] = [SensibleTrader(s) for s in range(3)]
    players[person] = None
    runner = RealtimeRunner(match, players, seed=2, sorting=0.05, pace=0.002)

    async def play() -> list[str]:
        replies = []
        task = asyncio.create_task(runner.run())
        await asyncio.sleep(0)
        commodity = match.view(person)["hand"][0]
        early = runner.submit(person, f"offer 1 {commodity}")  # during sorting: T3
        replies.append(str(early.accepted))
        await until(lambda: runner.table.is_open, 10, "the pit to open")
        replies.append(runner.submit(person, "corner").reason or "")
        await asyncio.wait_for(task, patience(20))
        return replies

    replies = asyncio.run(play())
    assert replies[0] == "True"
    assert replies[1].startswith("you hold no corner")
    assert match.is_over and len(match.results) == 2
    assert match.results[0].points[person] <= -20
    assert all(t.cornered or t.trades for t in runner.table.timings)
    assert runner.table.timings[0].opened is not None and runner.table.timings[0].opened >= 0.05


def test_a_turn_based_bot_with_an_act_method_is_asked_to_choose() -> None:
    # Pitch's heuristic bot has an `act` helper of its own but is no real-time
    # bot: servers and runners must ask it through `choose`.
    from pitkit import bots, games
    from pitkit.play.realtime import decide

    game = games.get("pitch")
    match = game.new_match(4, seed=1)
    seat = min(match.to_act)
    action = decide(bots.make(game, "heuristic", 1), match, seat)
    assert action in match.legal_actions(seat)
