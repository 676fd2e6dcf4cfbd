"""Your own bots by name: module:attribute names, installed packages' entry
points and policies, seated in the arena on one process, on the process
pool and on Ray, with the same results (the bots: tests/arena/agent_pkg)."""

from __future__ import annotations

import json
import random
import sys
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pitkit import games
from pitkit.arena.pool import Backend, LocalBackend, make_backend
from pitkit.arena.tournament import MatchResult, MatchSpec, run, schedule
from pitkit.bots import RandomBot, make, names
from pitkit.cli import app
from pitkit.core.actions import Action
from pitkit.core.errors import BadActionError, IllegalActionError, UnknownNameError
from pitkit.core.game import Bot
from pitkit.core.state import State
from pitkit.play import play_match
from tests.arena.agent_pkg import SeededBot

PITTY_PAT = games.get("pitty-pat")
ACE_PIT = games.get("ace-pit")
PKG = "tests.arena.agent_pkg"
SPEC = f"{PKG}:SeededBot"


def same(r: MatchResult) -> tuple[Any, ...]:
    """Everything but the time a match took."""
    return (r.index, r.seed, r.seating, r.ranks, r.points, r.decisions, r.hands, r.summary)


def duplicate_arena(lineup: list[str]) -> list[MatchSpec]:
    return schedule(PITTY_PAT, lineup, 3, seed=5, duplicate=True)


def words(output: str) -> str:
    """The command's output as one line (rich wraps it to the terminal's width)."""
    return " ".join(output.split())


@pytest.fixture(scope="module")
def pool() -> Iterator[Backend]:
    backend = make_backend("local", 2)
    yield backend
    backend.close()


@pytest.fixture(scope="module")
def here() -> list[MatchResult]:
    """The duplicate arena of SPEC against `sensible`, played in this process."""
    return run(duplicate_arena([SPEC, "sensible"]), LocalBackend(1))


def test_a_module_attribute_bot_gets_its_seat_seed_as_pitkits_bots_do(
    here: list[MatchResult],
) -> None:
    # SeededBot draws as `random` does: seeded alike, it plays the very same matches.
    as_random = run(duplicate_arena(["random", "sensible"]), LocalBackend(1))
    assert len(here) == len(as_random) > 3
    assert [(r.ranks, r.points, r.decisions) for r in here] == [
        (r.ranks, r.points, r.decisions) for r in as_random
    ]
    renamed = [tuple(SPEC if n == "random" else n for n in r.seating) for r in as_random]
    assert [r.seating for r in here] == renamed
    assert len({r.ranks for r in here}) > 1  # the seatings did not all end alike


def test_the_process_pool_plays_a_module_attribute_bot_as_one_process(
    pool: Backend, here: list[MatchResult]
) -> None:
    there = run(duplicate_arena([SPEC, "sensible"]), pool)
    assert [same(r) for r in there] == [same(r) for r in here]


@pytest.mark.ray
def test_ray_plays_a_module_attribute_bot_as_one_process(
    here: list[MatchResult], ray_backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    on_ray = run(duplicate_arena([SPEC, "sensible"]), ray_backend)
    assert [same(r) for r in on_ray] == [same(r) for r in here]
    # A module this process has but Ray's workers cannot import: the error
    # itself comes back, as from the process pool, not Ray's wrapping of it.
    phantom = types.ModuleType("phantom_ray_agents")
    phantom.SeededBot = SeededBot  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "phantom_ray_agents", phantom)
    specs = duplicate_arena(["phantom_ray_agents:SeededBot", "sensible"])
    with pytest.raises(UnknownNameError, match="must be importable") as refused:
        run(specs, ray_backend)
    assert type(refused.value) is UnknownNameError
    assert "phantom_ray_agents:SeededBot" in str(refused.value)


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("no_such_agents:Bot", "No module named 'no_such_agents'"),
        (f"{PKG}:Missing", "has no Missing"),
        (f"{PKG}:NOT_A_BOT", "neither a bot class nor a factory"),
        (f"{PKG}:NoChoose", "class with no choose method"),
        (f"{PKG}:takes_nothing", "cannot be called as a factory as f(game, seed)"),
        (f"{PKG}:makes_a_number", "made a int, which has no choose method"),
        (f"{PKG}:AcePitBot", "plays ace-pit, not pitty-pat"),
    ],
)
def test_a_bad_module_attribute_name_is_a_clear_error(name: str, reason: str) -> None:
    with pytest.raises(UnknownNameError) as refused:
        make(PITTY_PAT, name, 1, imports=True)
    assert name in str(refused.value) and reason in str(refused.value)


def test_module_attribute_names_are_taken_only_when_asked_for() -> None:
    # A server seats bots its players name: it never imports what they name.
    with pytest.raises(UnknownNameError, match="not taken here"):
        make(PITTY_PAT, SPEC, 1)
    assert isinstance(make(PITTY_PAT, SPEC, 1, imports=True), SeededBot)
    assert isinstance(make(ACE_PIT, f"{PKG}:AcePitBot", 1, imports=True), SeededBot)
    assert isinstance(make(PITTY_PAT, f"{PKG}:seeded", 1, imports=True), SeededBot)


ENTRY_POINTS = f"""[pitkit.bots]
outside = {PKG}:seeded
ace-only = {PKG}:AcePitBot
broken = {PKG}:Missing
random = {PKG}:SeededBot
"""


def test_installed_packages_bots_are_listed_and_made(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    dist = tmp_path / "my_agents-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: my-agents\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text(ENTRY_POINTS)
    monkeypatch.syspath_prepend(str(tmp_path))  # and invalidates importlib's caches

    assert {"outside", "broken"} <= set(names(PITTY_PAT))
    assert "ace-only" not in names(PITTY_PAT) and "ace-only" in names(ACE_PIT)
    listed = CliRunner().invoke(app, ["bots", "pitty-pat"])
    assert listed.exit_code == 0, listed.output
    shown = words(listed.output)
    assert "outside" in shown and "a factory: the seeded bot, for any game" in shown
    assert "from package my-agents" in shown and "could not be loaded" in shown

    bot = make(PITTY_PAT, "outside", 3)
    assert isinstance(bot, SeededBot) and bot.rng.random() == random.Random(3).random()
    assert isinstance(make(PITTY_PAT, "random", 3), RandomBot)  # pitkit's names come first
    with pytest.raises(UnknownNameError, match="plays ace-pit, not pitty-pat"):
        make(PITTY_PAT, "ace-only", 3)
    with pytest.raises(UnknownNameError, match=r"'broken' .*could not be loaded"):
        make(PITTY_PAT, "broken", 3)
    results = run(duplicate_arena(["outside", "sensible"]), LocalBackend(1))
    assert {r.seating[0] for r in results} == {"outside", "sensible"}

    monkeypatch.undo()  # the folder leaves sys.path, and its bots with it
    assert "outside" not in names(PITTY_PAT)


class Checked:
    """Plays as `bot` does, checking that each of its moves is legal and is the
    move of the first legal id of `encoding`."""

    def __init__(self, bot: Bot, encoding: Any) -> None:
        self.bot = bot
        self.encoding = encoding
        self.moves = 0

    def choose(self, state: State[Any], player: int) -> Action:
        first = int(self.encoding.mask(state, player).nonzero()[0][0])
        action = self.bot.choose(state, player)
        assert action in state.legal_actions(player)
        assert self.encoding.encode(state, player, action) == first
        self.moves += 1
        return action


@pytest.mark.parametrize("game_name", ["ace-pit", "pitty-pat", "pits", "pitch"])
def test_a_policy_plays_legal_moves_to_the_end(game_name: str) -> None:
    pytest.importorskip("pettingzoo")
    from pitkit import adapters

    game = games.get(game_name)
    env = next(n for n in adapters.names() if adapters.encoding(n).game == game_name)
    match = game.new_match(None, game.short_match, 4)
    encoding = adapters.encoding(env)(match.players)
    bots = [
        Checked(make(game, f"{PKG}:first_legal_bot", s, imports=True), encoding)
        for s in range(match.players)
    ]
    decisions = play_match(match, bots, 4)
    assert match.outcome is not None and decisions == sum(b.moves for b in bots) > 0


def test_a_policy_must_choose_a_legal_id() -> None:
    pytest.importorskip("pettingzoo")
    import numpy as np

    from pitkit import adapters
    from pitkit.bots.policy import PolicyBot
    from tests.arena.agent_pkg import first_illegal, first_legal

    encoding = adapters.encoding("pitkit/ace_pit-v0")
    match = ACE_PIT.new_match(seed=2)
    seat = next(s for s in range(match.players) if match.legal_actions(s))
    with pytest.raises(IllegalActionError, match=r"action id \d+ for seat \d, which is not legal"):
        PolicyBot(encoding, first_illegal).choose(match, seat)
    text: Any = "lead"  # a policy that answers in words, not ids
    with pytest.raises(BadActionError, match="not an action id"):
        PolicyBot(encoding, lambda observation, mask: text).choose(match, seat)
    # what MaskablePPO.predict returns, a 0-d NumPy array, is an id
    numpy_id = PolicyBot(encoding, lambda o, m: np.array(first_legal(o, m))).choose(match, seat)
    assert numpy_id == PolicyBot(encoding, first_legal).choose(match, seat)
    assert numpy_id in match.legal_actions(seat)


def test_the_cli_seats_module_attribute_bots(tmp_path: Path) -> None:
    out = tmp_path / "arena.json"
    args = ["arena", "pitty-pat", "--bots", f"{SPEC},sensible", "-n", "2", "--duplicate"]
    result = CliRunner().invoke(app, [*args, "--workers", "1", "--json", str(out)])
    assert result.exit_code == 0, result.output
    report = json.loads(out.read_text())
    assert report["bots"] == [SPEC, "sensible"]
    assert {s["bot"] for s in report["standings"]} == {SPEC, "sensible"}

    simulated = CliRunner().invoke(
        app, ["simulate", "pitty-pat", "-n", "3", "--bots", f"{PKG}:seeded,sensible"]
    )
    assert simulated.exit_code == 0, simulated.output
    assert "matches/s" in simulated.output


@pytest.mark.parametrize("command", ["arena", "simulate"])
@pytest.mark.parametrize(
    ("name", "reason"),
    [("no_such_agents:Bot", "No module named"), (f"{PKG}:Missing", "has no Missing")],
)
def test_the_cli_refuses_a_bad_module_attribute_name(command: str, name: str, reason: str) -> None:
    result = CliRunner().invoke(app, [command, "pitty-pat", "--bots", f"{name},sensible"])
    assert result.exit_code == 2
    assert result.output.strip().startswith("error:") and "Traceback" not in result.output
    assert name in words(result.output) and reason in words(result.output)


def test_the_cli_says_when_its_workers_cannot_import_a_bot(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    phantom = types.ModuleType("phantom_pool_agents")
    phantom.SeededBot = SeededBot  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "phantom_pool_agents", phantom)  # here, not in the workers
    args = ["arena", "pitty-pat", "--bots", "phantom_pool_agents:SeededBot,sensible", "-n", "1"]
    result = CliRunner().invoke(app, [*args, "--workers", "2"])
    assert result.exit_code == 2
    assert result.output.strip().startswith("error:") and "Traceback" not in result.output
    assert "must be importable" in words(result.output)
