"""Bots cost nobody else their turn: every bot that may think for milliseconds says so
and thinks in the worker processes, people's tables first; the worker's bots share one
budget of moves a second, people's tables first and the others in turn; a table of bots
alone plays slower, and its match stops sooner, than a table where people sit."""

from __future__ import annotations

import asyncio
import dataclasses
import statistics
import time
from pathlib import Path

from pitkit import bots as bot_registry
from pitkit import games, play
from pitkit.core.game import is_slow
from pitkit.server import Limits
from pitkit.server.live.budget import BotBudget, BotPace
from pitkit.server.live.thinking import Slots, Thinker
from tests.server.conftest import FAST, ServerThread, run
from tests.waiting import patience

#: A decision longer than this on average is not one a server may make on its event loop.
QUICK_SECONDS = 0.001


def _mean_decision(game_name: str, bot_name: str, decisions: int = 40) -> float:
    """A bot's mean time to decide, playing every seat of a match (seconds of this
    thread's CPU: what it would cost the event loop, however busy the machine is)."""
    game = games.get(game_name)
    match = game.new_match(game.default_players, {}, 11)
    bots = [bot_registry.make(game, bot_name, 11 + i) for i in range(match.players)]
    times: list[float] = []
    while not match.is_over and len(times) < decisions:
        seats = range(match.players) if game.realtime else sorted(match.to_act)
        for seat in seats:
            state = match.clone()
            started = time.thread_time()
            action = play.decide(bots[seat], state, seat)
            times.append(time.thread_time() - started)
            if action is not None and action in match.legal_actions(seat):
                match.apply(seat, action)
                break
    return statistics.mean(times)


def test_every_bot_that_thinks_for_milliseconds_says_so() -> None:
    for name in games.names():
        game = games.get(name)
        for bot in ("search:10", "rollouts:10"):
            assert is_slow(bot_registry.make(game, bot, 1)), (name, bot)
        for bot in game.bots:
            if _mean_decision(name, bot) > QUICK_SECONDS:
                assert is_slow(bot_registry.make(game, bot, 1)), f"{name}'s {bot} is slow"
    assert is_slow(bot_registry.make(games.get("pitch"), "lookahead", 1))


class _Table:
    """Stands for a table asking."""


def test_slow_bots_think_in_another_process() -> None:
    """Pitch's look-ahead bot (up to tenths of a second a move) thinks in a worker
    process, not in the server's threads; a quick bot decides at once."""

    async def main() -> None:
        # Its first move starts the worker process, which a busy machine takes its time
        # over: the bot's time is scaled like any wait.
        thinker = Thinker(Limits(bot_processes=1, bot_seconds=patience(10.0)))
        try:
            game = games.get("pitch")
            match = game.new_match(4, {}, 5)
            seat = sorted(match.to_act)[0]
            slow = thinker.make(game, "lookahead", 3)
            action, after = await thinker.decide(_Table(), slow, match.clone(), seat)
            assert action in match.legal_actions(seat)
            assert after is not slow  # a copy, back from the worker process
            quick = thinker.make(game, "heuristic", 3)
            action, after = await thinker.decide(_Table(), quick, match.clone(), seat)
            assert action in match.legal_actions(seat) and after is quick
        finally:
            await thinker.close()

    run(main())


def test_the_pool_serves_peoples_tables_first() -> None:
    async def main() -> None:
        slots = Slots(1)
        served: list[str] = []

        async def decide(who: str, urgent: bool) -> None:
            async with slots.lend(urgent):
                served.append(who)
                await asyncio.sleep(0.01)

        first = asyncio.create_task(decide("first", False))
        await asyncio.sleep(0)
        waiting = [
            asyncio.create_task(decide(who, urgent))
            for who, urgent in (("bots", False), ("people", True), ("more bots", False))
        ]
        await asyncio.gather(first, *waiting)
        assert served == ["first", "people", "bots", "more bots"]

    run(main())


async def _moves(
    budget: BotBudget, tables: dict[str, bool], seconds: float
) -> tuple[dict[str, int], float]:
    """How many moves each table (by name: whether people sit there) gets from `budget`
    when all of them ask all the time, for `seconds` (a duration under test, not scaled);
    and the seconds that actually took (more on a busy machine)."""
    made = dict.fromkeys(tables, 0)

    async def ask(name: str, people: bool) -> None:
        owner = _Table()  # one table, however many times it asks
        while True:
            await budget.turn(owner, people)
            made[name] += 1

    started = time.monotonic()
    tasks = [asyncio.create_task(ask(name, people)) for name, people in tables.items()]
    await asyncio.sleep(seconds)
    for task in tasks:
        task.cancel()
    elapsed = time.monotonic() - started
    await asyncio.gather(*tasks, return_exceptions=True)
    return made, elapsed


def test_the_workers_bots_share_one_budget_in_turn() -> None:
    """Thirty tables of bots alone, asking all the time: together they get the worker's
    budget and no more, and each gets its share."""
    made, elapsed = run(_moves(BotBudget(200), {f"bots {i}": False for i in range(30)}, 0.5))
    assert sum(made.values()) <= 200 * elapsed + 3
    assert max(made.values()) - min(made.values()) <= 2  # the first, then rounds


def test_peoples_tables_go_first() -> None:
    tables = {"people": True, **{f"bots {i}": False for i in range(5)}}
    made, _ = run(_moves(BotBudget(100), tables, 0.5))
    assert made["people"] >= 0.8 * sum(made.values()), made


def test_the_pace_of_bots_alone() -> None:
    pace = BotPace.of(Limits())
    assert pace.alone < pace.per_table < pace.worker
    assert pace.alone_moves < Limits().match_actions


def test_a_table_of_bots_alone_plays_slower(tmp_path: Path, database: str) -> None:
    """Two Pit tables of random traders: one of bots alone, one where a person sits
    (away: the stand-in plays for her). The first plays at a table of bots alone's
    pace, the other faster."""
    limits = dataclasses.replace(FAST, bot_actions_per_second=16, bot_alone_actions_per_second=2)
    alone = BotPace.of(limits).alone
    server = ServerThread(tmp_path, limits, database=database)
    try:
        traders = ["random-trader"] * 3
        started = time.monotonic()  # before the table of bots alone plays its first move
        bots = server.create(game="pit", players=4, seats=["random-trader", *traders])
        people = server.create(
            game="pit", players=4, seats=[None, *traders], settings={"away_timeout": 0.1}
        )
        joined = {"token": people["seats"][0]["token"], "name": "Ann"}
        assert server.http.post(f"/api/tables/{people['table']['id']}/join", json=joined)
        time.sleep(1.5)  # the pace under test: a duration, measured below (not scaled)
        versions = [server.table(t["table"]["id"])["version"] for t in (bots, people)]
        elapsed = time.monotonic() - started
        assert versions[0] <= 2 + alone * elapsed, versions
        assert versions[1] > versions[0], versions
    finally:
        server.stop()


def test_a_match_of_bots_alone_stops_sooner(tmp_path: Path, database: str) -> None:
    limits = dataclasses.replace(FAST, match_actions=30)
    server = ServerThread(tmp_path, limits, database=database)
    try:
        seats = ["random"] * 4
        tid = server.create(game="pitch", rules={"target": 1000}, seats=seats)["table"]["id"]
        info = server.wait_for(tid, "closed")
        assert info["version"] == 30
        assert info["problem"].endswith("the most this server plays in one match of bots alone")
    finally:
        server.stop()
