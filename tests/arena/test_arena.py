"""The arena's bookkeeping: schedules, duplicate deals, ratings, workers, JSON."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from pitkit import games
from pitkit.arena.duplicate import DuplicateChance, arrangements
from pitkit.arena.pool import LocalBackend, make_backend
from pitkit.arena.ratings import Ratings
from pitkit.arena.tournament import (
    MatchResult,
    interval,
    run,
    run_match,
    schedule,
    standings,
    tables,
)
from pitkit.bots import make
from pitkit.cards import standard_deck
from pitkit.cli import app
from pitkit.core import Chance, Match
from pitkit.play import play_match

PITTY_PAT = games.get("pitty-pat")


def deals(match: Match[Any, Any]) -> list[dict[str, str]]:
    """Each hand's dealt cards by seat, from the log (all-seeing)."""
    out = []
    for event in match.log:
        if event.type == "deal":
            out.append({str(seat): part["hand"] for seat, part in event.private.items()})
    return out


# -- seatings and schedules --------------------------------------------------------


def test_arrangements_are_every_distinct_seating() -> None:
    assert len(arrangements("abc")) == 6
    assert arrangements("aab") == [("a", "a", "b"), ("a", "b", "a"), ("b", "a", "a")]
    assert len(arrangements("abcde")) == 120


def test_tables_round_robin_or_fill_one_table() -> None:
    assert tables(["a", "b", "c", "d"], 3) == [
        ("a", "b", "c"),
        ("a", "b", "d"),
        ("a", "c", "d"),
        ("b", "c", "d"),
    ]
    assert tables(["a", "b"], 4) == [("a", "b", "a", "b")]
    assert tables(["s", "h", "h", "h"], 4) == [("s", "h", "h", "h")]


def test_ordinary_schedule_rotates_seats_at_every_table() -> None:
    names = ["random", "sensible", "search:2"]
    specs = schedule(PITTY_PAT, names, 9, players=2, seed=1)
    assert len(specs) == 9
    assert len({s.seed for s in specs}) == 9
    seats = Counter((s.seating[0], s.seating[1]) for s in specs)
    # Three tables of two, each played three times, seatings alternating.
    assert seats[("random", "sensible")] == 2 and seats[("sensible", "random")] == 1
    assert {name for s in specs for name in s.seating} == set(names)


def test_duplicate_schedule_plays_each_deal_in_every_seating() -> None:
    specs = schedule(PITTY_PAT, ["random", "sensible"], 2, seed=3, duplicate=True)
    assert [s.deal for s in specs] == [0, 0, 0, 1, 1, 1]
    assert {s.seed for s in specs[:3]} == {specs[0].seed} != {specs[3].seed}
    assert sorted(s.seating for s in specs[:3]) == sorted(arrangements(specs[0].seating))


def test_bad_arenas_are_refused_before_anything_runs() -> None:
    for kwargs in ({"players": 7}, {"rules": ["target=0"]}):
        try:
            schedule(PITTY_PAT, ["random"], 1, **kwargs)
        except ValueError:
            continue
        raise AssertionError(f"accepted {kwargs}")
    try:
        schedule(PITTY_PAT, ["random", "nonesuch"], 1)
    except ValueError as exc:
        assert "nonesuch" in str(exc)
    else:
        raise AssertionError("accepted an unknown bot")


# -- duplicate deals ---------------------------------------------------------------


def test_duplicate_deals_are_the_same_deals_in_every_seating() -> None:
    # Pitty Pat restocks mid-hand a varying number of times; later deals must
    # still be the same cards to the same seats in every seating.
    game = PITTY_PAT
    for seed in (11, 12):
        dealt = []
        for seating in arrangements(("random", "sensible", "random")):
            match = game.new_match(3, {"target": 3}, seed, chance=DuplicateChance(seed))
            play_match(match, [make(game, name, s) for s, name in enumerate(seating)], seed)
            dealt.append(deals(match))
        shortest = min(len(d) for d in dealt)
        assert shortest >= 3
        assert all(d[:shortest] == dealt[0][:shortest] for d in dealt)


def test_a_deal_does_not_depend_on_the_shuffles_before_it() -> None:
    # Why duplicate play needs its own chance: with one stream, a restock in
    # one seating (a shuffle of the pile) would shift every later deal.
    deck = standard_deck()
    plain, dup = Chance(5), DuplicateChance(5)
    plain_again, dup_again = Chance(5), DuplicateChance(5)
    for chance in (plain, dup):
        chance.shuffle(deck)
        chance.shuffle(deck[:13])  # a restock in this seating only
    for chance in (plain_again, dup_again):
        chance.shuffle(deck)
    assert dup.shuffle(deck) == dup_again.shuffle(deck)
    assert plain.shuffle(deck) != plain_again.shuffle(deck)
    assert dup.pick(5) == dup_again.pick(5)
    clone = dup.clone(None)
    assert clone.shuffle(deck) == dup.shuffle(deck)


def test_duplicate_seeds_go_with_the_seats() -> None:
    specs = schedule(PITTY_PAT, ["random", "sensible", "random"], 3, seed=8, duplicate=True)
    for deal in range(3):
        seatings = [s for s in specs if s.deal == deal]
        assert len(seatings) == 3
        assert len({s.bot_seeds for s in seatings}) == 1
    assert len({s.bot_seeds for s in specs}) == 3


def test_bots_that_play_alike_play_the_same_game_in_every_seating() -> None:
    # One deal a rollout bot cannot overrule with (a difference needs two
    # deals to have an error), so it keeps to its guide, seeded as the seat's
    # heuristic: every seating of a deal is then one and the same game, and
    # duplicate play leaves no luck in the result.
    for game, lineup, rules in (
        (PITTY_PAT, ["rollouts:1", "sensible", "sensible"], {"target": 2}),
        (games.get("pits"), ["rollouts:1", *["heuristic"] * 4], {"hands": 1}),
    ):
        specs = schedule(game, lineup, 2, rules=rules, seed=4, duplicate=True)
        for deal in range(2):
            played = [run_match(s) for s in specs if s.deal == deal]
            assert len({(r.ranks, r.points, r.summary, r.decisions) for r in played}) == 1
            bot_wins = sum(
                1 / r.ranks.count(1)
                for r in played
                for seat, name in enumerate(r.seating)
                if name == "rollouts:1" and r.ranks[seat] == 1
            )
            assert abs(bot_wins / len(played) - 1 / len(lineup)) < 1e-9


def test_duplicate_matches_replay_from_their_logs() -> None:
    spec = schedule(PITTY_PAT, ["random", "sensible"], 1, seed=5, duplicate=True)[1]
    match = PITTY_PAT.new_match(3, spec.rules, spec.seed, chance=DuplicateChance(spec.seed))
    play_match(
        match, [make(PITTY_PAT, n, s) for n, s in zip(spec.seating, spec.bot_seeds, strict=True)], 5
    )
    again = PITTY_PAT.replay(match.header(), match.log)
    assert [e.to_json() for e in again.log] == [e.to_json() for e in match.log]


# -- ratings and standings ---------------------------------------------------------


def test_ratings_rise_for_winners_and_grow_surer() -> None:
    ratings = Ratings(["strong", "weak", "middle"])
    start = ratings["strong"]
    for _ in range(20):
        ratings.update(("weak", "middle", "strong"), (3, 2, 1))
    assert [name for name, _ in ratings.ranked()] == ["strong", "middle", "weak"]
    assert ratings["strong"].mu > start.mu and ratings["strong"].sigma < start.sigma
    assert ratings["weak"].mu < start.mu


def test_a_bot_in_several_seats_is_rated_once_a_match() -> None:
    ratings = Ratings(["a", "b"])
    ratings.update(("a", "b", "a", "b"), (1, 2, 3, 4))
    assert ratings.matches == 1
    # a placed first and third, b second and fourth: a comes out ahead.
    assert ratings["a"].mu > ratings["b"].mu


def result(index: int, deal: int, seating: tuple[str, ...], ranks: tuple[int, ...]) -> MatchResult:
    return MatchResult(index, deal, 0, seating, ranks, (0.0,) * len(ranks), 10, 1, 0.1, "")


def test_standings_count_shared_wins_and_intervals() -> None:
    results = [
        result(0, 0, ("a", "b"), (1, 2)),
        result(1, 1, ("b", "a"), (1, 1)),  # a tie: half a win each
        result(2, 2, ("a", "b"), (1, 2)),
    ]
    table = {s.bot: s for s in standings(["a", "b"], results)}
    assert table["a"].win_share == (1 + 0.5 + 1) / 3
    assert table["b"].win_share == 0.5 / 3
    assert table["a"].seats == 3 and table["a"].mean_place == 1.0
    low, high = table["a"].ci
    assert 0 <= low <= table["a"].win_share <= high <= 1
    assert interval([1.0, 1.0, 1.0]) == (1.0, 1.0)


def test_duplicate_standings_take_a_deal_as_one_observation() -> None:
    results = [
        result(0, 0, ("a", "b"), (1, 2)),
        result(1, 0, ("b", "a"), (2, 1)),
        result(2, 1, ("a", "b"), (2, 1)),
        result(3, 1, ("b", "a"), (2, 1)),
    ]
    table = {s.bot: s for s in standings(["a", "b"], results)}
    assert table["a"].win_share == 0.75
    assert table["a"].ci == interval([1.0, 0.5])


# -- running --------------------------------------------------------------------------


def test_workers_give_the_serial_results_in_schedule_order() -> None:
    specs = schedule(PITTY_PAT, ["random", "sensible"], 6, seed=2, duplicate=True)
    serial = run(specs, LocalBackend(1))
    seen: list[int] = []
    backend = make_backend("local", 2)
    try:
        parallel = run(specs, backend, lambda r: seen.append(r.index))
    finally:
        backend.close()
    assert [r.index for r in parallel] == list(range(len(specs)))
    assert sorted(seen) == list(range(len(specs)))

    def same(r: MatchResult) -> tuple[Any, ...]:
        return (r.index, r.seating, r.ranks, r.points, r.decisions, r.hands, r.summary)

    assert [same(r) for r in parallel] == [same(r) for r in serial]
    assert same(run_match(specs[4])) == same(serial[4])


def test_unknown_backend_is_refused() -> None:
    try:
        make_backend("slurm", 2)
    except ValueError as exc:
        assert "local" in str(exc) and "ray" in str(exc)
    else:
        raise AssertionError("made an unknown backend")


def test_arena_command_prints_ratings_and_saves_json(tmp_path: Path) -> None:
    out = tmp_path / "arena.json"
    args = ["arena", "pitty-pat", "--bots", "random,sensible", "-n", "3", "--duplicate"]
    result = CliRunner().invoke(app, [*args, "--workers", "1", "--seed", "4", "--json", str(out)])
    assert result.exit_code == 0, result.output
    assert "sensible" in result.output and "rating" in result.output
    saved = json.loads(out.read_text())
    assert saved["game"] == "pitty-pat" and saved["duplicate"] is True
    assert saved["matches"] == len(saved["results"]) == 9
    assert {s["bot"] for s in saved["standings"]} == {"random", "sensible"}
    for standing in saved["standings"]:
        assert {"mu", "sigma", "ordinal", "win_share", "ci", "mean_place"} <= set(standing)
    assert len({r["seed"] for r in saved["results"]}) == 3


def test_arena_command_refuses_unknown_bots() -> None:
    result = CliRunner().invoke(app, ["arena", "pitty-pat", "--bots", "random,nonesuch"])
    assert result.exit_code == 2
    assert "nonesuch" in result.output
