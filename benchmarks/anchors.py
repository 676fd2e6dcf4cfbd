"""Random-play speed of every pitkit game against two anchors, in one run.

The anchors are Dou Dizhu, the closest climbing game, in RLCard (its raw
pure-Python game, ``rlcard.games.doudizhu.game.DoudizhuGame``) and in
OpenSpiel (``dou_dizhu``, C++ driven from Python). Every engine plays random
games: a decision is one player's action, chosen uniformly among the legal
ones and applied (pitkit: through `State.apply`, legality checked and events
logged; OpenSpiel's chance nodes, the deal, are not counted as decisions).

The anchors live in the optional ``bench`` extra. Unless they import here,
the script makes a virtual environment (``--venv``, default
/tmp/pitkit-bench), installs ``pitkit[bench]`` into it from this checkout,
and runs itself again there, so that every engine is measured by the same
interpreter on the same machine.

Each engine is timed in CPU seconds of this process (steadier than wall time
on a shared machine) over several short rounds, taking turns, and the best
round counts: noise from other processes only ever slows a round down. Before
each round the garbage collector is run and the heap so far frozen
(`gc.freeze`), so that no engine pays for scanning the others' objects.

By default (``--build wheel``) pitkit is measured as ``pip install`` builds
it, with the games' engines compiled by mypyc (hatch_build.py), built from this
checkout and installed again on every run; ``--build source`` measures the
Python source as written, as an editable install runs it, in a virtual
environment of its own (/tmp/pitkit-bench-source).

Run: ``python benchmarks/anchors.py [--seconds 1] [--rounds 5] [--markdown]``;
``--engines pit,rlcard`` measures only those (pitkit games by name, and the
anchors as ``rlcard`` and ``openspiel``).
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import random
import subprocess
import sys
import time
from collections.abc import Callable
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path
from typing import Any

from pitkit import games
from pitkit.bots import RandomBot
from pitkit.play import play_match

ROOT = Path(__file__).resolve().parent.parent
RLCARD = "RLCard Dou Dizhu (raw game)"
OPENSPIEL = "OpenSpiel dou_dizhu"
ANCHORS = {"rlcard": RLCARD, "openspiel": OPENSPIEL}

#: One round of an engine: play random games for about `seconds` of CPU time;
#: return (decisions, games).
Round = Callable[[float, random.Random], tuple[int, int]]


def pitkit_round(name: str) -> Round:
    """A round of random matches of one pitkit game, as `benchmarks/bench.py` plays them."""
    game = games.get(name)

    def run(seconds: float, rng: random.Random) -> tuple[int, int]:
        decisions = matches = 0
        start = time.process_time()
        while time.process_time() - start < seconds:
            seed = rng.getrandbits(32)
            match = game.new_match(rules=dict(game.short_match), seed=seed)
            bots = [RandomBot(seed + seat) for seat in range(match.players)]
            decisions += play_match(match, bots, seed)
            matches += 1
        return decisions, matches

    return run


def rlcard_round() -> Round:
    """A round of random games of RLCard's raw Dou Dizhu game."""
    import numpy as np  # type: ignore[import-not-found,unused-ignore]
    from rlcard.games.doudizhu.game import (  # type: ignore[import-not-found,import-untyped,unused-ignore]
        DoudizhuGame,
    )

    game = DoudizhuGame()

    def run(seconds: float, rng: random.Random) -> tuple[int, int]:
        game.np_random = np.random.RandomState(rng.getrandbits(32))
        decisions = played = 0
        start = time.process_time()
        while time.process_time() - start < seconds:
            state, _ = game.init_game()
            while not game.is_over():
                state, _ = game.step(rng.choice(state["actions"]))
                decisions += 1
            played += 1
        return decisions, played

    return run


def openspiel_round() -> Round:
    """A round of random games of OpenSpiel's dou_dizhu, chance outcomes sampled."""
    import pyspiel  # type: ignore[import-not-found,import-untyped,unused-ignore]

    game = pyspiel.load_game("dou_dizhu")

    def run(seconds: float, rng: random.Random) -> tuple[int, int]:
        decisions = played = 0
        start = time.process_time()
        while time.process_time() - start < seconds:
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                else:
                    actions = state.legal_actions()
                    state.apply_action(actions[rng.randrange(len(actions))])
                    decisions += 1
            played += 1
        return decisions, played

    return run


def anchors_importable() -> bool:
    """Whether RLCard and OpenSpiel import in this interpreter."""
    try:
        import pyspiel  # type: ignore[import-not-found,import-untyped,unused-ignore]  # noqa: F401
        import rlcard  # type: ignore[import-not-found,import-untyped,unused-ignore]  # noqa: F401
    except ImportError:
        return False
    return True


def rerun_in_bench_venv(venv: Path, argv: list[str], wheel: bool) -> None:
    """Make `venv` with ``pitkit[bench]`` installed (once; as a wheel built
    again each time if `wheel`, else editable), then run this script there."""
    python = venv / "bin" / "python"
    pip = [str(python), "-m", "pip", "install", "-q"]
    if not python.exists():
        print(f"Making {venv} for the anchors (rlcard, open-spiel)...", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    check = [str(python), "-c", "import pyspiel, rlcard, pitkit"]
    if subprocess.run(check, capture_output=True).returncode != 0:
        print(f"Installing pitkit[bench] into {venv}...", file=sys.stderr)
        # For the wheel, the dependencies only: it is built just below.
        env = {**os.environ, "HATCH_BUILD_NO_HOOKS": "true"} if wheel else None
        subprocess.run([*pip, *([] if wheel else ["-e"]), f"{ROOT}[bench]"], check=True, env=env)
    if wheel:
        print(f"Building pitkit's wheel (the engines compiled) into {venv}...", file=sys.stderr)
        subprocess.run([*pip, "--force-reinstall", "--no-deps", str(ROOT)], check=True)
    os.execv(str(python), [str(python), __file__, *argv, "--no-install"])


def compiled_modules() -> list[str]:
    """The pitkit modules loaded from compiled extensions rather than source."""
    import pitkit.games.pit.match
    import pitkit.play.realtime  # noqa: F401 -- the modules a build may compile

    return sorted(
        name
        for name, module in sys.modules.items()
        if name.startswith("pitkit")
        and str(getattr(module, "__file__", "")).endswith(tuple(EXTENSION_SUFFIXES))
    )


def measure(
    engines: dict[str, Round], seconds: float, rounds: int, seed: int
) -> dict[str, dict[str, float]]:
    """The best round of each engine, in decisions/s and games/s of CPU time."""
    rng = random.Random(seed)
    best: dict[str, dict[str, float]] = {}
    for r in range(rounds):
        for name, run in engines.items():
            # Each engine as if alone in its process: the objects already made (the
            # other engines' included) are set aside from the cyclic collector, whose
            # full passes would otherwise scan every engine's heap in each round.
            gc.unfreeze()
            gc.collect()
            gc.freeze()
            start = time.process_time()
            decisions, played = run(seconds, rng)
            elapsed = time.process_time() - start
            rate = decisions / elapsed
            if rate > best.get(name, {}).get("decisions/s", 0.0):
                best[name] = {"decisions/s": rate, "games/s": played / elapsed}
            print(f"  round {r + 1}: {name:<28} {rate:>10,.0f} decisions/s", file=sys.stderr)
    return best


def table(best: dict[str, dict[str, float]], markdown: bool) -> str:
    """The results with their ratios to the two anchors."""
    rl = best[RLCARD]["decisions/s"] if RLCARD in best else None
    os_ = best[OPENSPIEL]["decisions/s"] if OPENSPIEL in best else None
    head = ("engine", "games/s", "decisions/s", "x RLCard", "x OpenSpiel")
    rows: list[tuple[str, ...]] = []
    for name, rates in best.items():
        rate = rates["decisions/s"]
        rows.append(
            (
                name,
                f"{rates['games/s']:,.1f}",
                f"{rate:,.0f}",
                f"{rate / rl:.2f}" if rl else "-",
                f"{rate / os_:.3f}" if os_ else "-",
            )
        )
    if markdown:
        lines = ["| " + " | ".join(head) + " |", "|---|" + "---:|" * (len(head) - 1)]
        lines += ["| " + " | ".join(row) + " |" for row in rows]
        return "\n".join(lines)
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    return "\n".join(
        "  ".join(
            cell.ljust(w) if i == 0 else cell.rjust(w)
            for i, (cell, w) in enumerate(zip(row, widths, strict=True))
        )
        for row in [head, *rows]
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds a round")
    parser.add_argument("--rounds", type=int, default=5, help="rounds per engine (best counts)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--games", nargs="*", default=None, help="pitkit games (default: all)")
    parser.add_argument(
        "--engines",
        type=lambda text: [name.strip() for name in text.split(",") if name.strip()],
        default=None,
        help="only these engines, comma-separated: pitkit games, rlcard, openspiel",
    )
    parser.add_argument("--markdown", action="store_true", help="print a markdown table")
    parser.add_argument(
        "--build",
        choices=("wheel", "source"),
        default="wheel",
        help="pitkit as pip installs it (engines compiled by mypyc), or its source",
    )
    parser.add_argument("--venv", type=Path, default=None, help="where the anchors are installed")
    parser.add_argument("--no-install", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if not anchors_importable():
        if args.no_install:
            raise SystemExit("rlcard and open-spiel do not import even in the bench venv")
        default = "/tmp/pitkit-bench" + ("-source" if args.build == "source" else "")
        rerun_in_bench_venv(args.venv or Path(default), sys.argv[1:], args.build == "wheel")
    names = args.games if args.games is not None else [g.name for g in games.all_games()]
    anchors = list(ANCHORS)
    if args.engines is not None:
        names = [name for name in args.engines if name not in ANCHORS]
        anchors = [name for name in args.engines if name in ANCHORS]
    engines: dict[str, Round] = {name: pitkit_round(name) for name in names}
    if "rlcard" in anchors:
        engines[RLCARD] = rlcard_round()
    if "openspiel" in anchors:
        engines[OPENSPIEL] = openspiel_round()
    info: dict[str, Any] = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
    }
    compiled = compiled_modules()
    if (args.build == "wheel") != bool(compiled):
        raise SystemExit(
            f"asked for the {args.build} build, but the compiled modules are {compiled or 'none'}"
            " (run it with --venv for a virtual environment of its own)"
        )
    print(
        f"Random play, best of {args.rounds} rounds of {args.seconds:g} CPU s each; "
        f"Python {info['python']} on {info['machine']} ({info['cpus']} CPUs); pitkit "
        + (f"compiled: {', '.join(compiled)}." if compiled else "as Python source."),
        file=sys.stderr,
    )
    print(table(measure(engines, args.seconds, args.rounds, args.seed), args.markdown))


if __name__ == "__main__":
    main()
