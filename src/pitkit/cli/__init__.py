"""The ``pitkit`` command: list games, play in the terminal, simulate, replay, serve, back up."""

from __future__ import annotations

import os
import random
import re
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from pitkit import arena, games
from pitkit import bots as bot_registry
from pitkit.arena import dataset
from pitkit.bots.agents import is_spec
from pitkit.core.actions import Action
from pitkit.core.errors import IllegalActionError
from pitkit.core.events import Event, read_log, write_log
from pitkit.core.game import Bot, Game
from pitkit.core.match import Match
from pitkit.core.narrate import Narrator, plain
from pitkit.core.state import State
from pitkit.play import play_turns

if TYPE_CHECKING:
    from pitkit.arena.backend import Backend
    from pitkit.arena.tournament import ArenaReport, MatchSpec
    from pitkit.server.ops.settings import Limits
    from pitkit.server.store.backup import Summary

app = typer.Typer(
    help="pitkit: the Pit family of card games. Play, simulate and study them.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode="rich",
)
console = Console(highlight=False)

HUMAN = "human"
_CARD = re.compile(r"\b([2-9TJQKA])([CDHS])\b|\b(RJ|BJ)\b")
_SUIT_STYLE = {
    "C": ("♣", "bold"),
    "D": ("♦", "bold red"),
    "H": ("♥", "bold red"),
    "S": ("♠", "bold"),
}

GameName = Annotated[str, typer.Argument(help="A game name; see `pitkit games`.")]
Options = Annotated[
    list[str] | None,
    typer.Option("--option", "-o", help="A rule option as name=value; repeat for several."),
]
BackendName = Annotated[
    str,
    typer.Option(
        help="Where matches run: local (processes here) or ray (a Ray cluster; pitkit[ray])."
    ),
]
Address = Annotated[
    str | None,
    typer.Option(
        help="With --backend ray: the cluster to join (auto, or HOST:6379); "
        "default: start Ray on this machine for this run."
    ),
]


def main() -> None:
    """Entry point of the ``pitkit`` command."""
    app()


def _fail(message: str, out: Console = console) -> typer.Exit:
    out.print(f"[bold red]error:[/] {escape(message)}")
    return typer.Exit(2)


def _game(name: str) -> Game:
    try:
        return games.get(name)
    except ValueError as exc:
        raise _fail(str(exc)) from None


def cards_markup(text: str) -> str:
    """Escape `text` for rich and colour the cards in it (red suits red, Jokers marked)."""

    def paint(m: re.Match[str]) -> str:
        if m.group(3):
            return f"[bold magenta]{m.group(3)}[/]"
        symbol, style = _SUIT_STYLE[m.group(2)]
        return f"[{style}]{m.group(1)}{symbol}[/]"

    return _CARD.sub(paint, escape(text))


@app.command("games")
def list_games() -> None:
    """List the games and their rule options."""
    for game in games.all_games():
        table = Table(
            title=f"{game.title} ({game.name}), {game.min_players}-{game.max_players} players"
        )
        table.add_column("option")
        table.add_column("values")
        table.add_column("default")
        table.add_column("meaning")
        for info in game.rules.options():
            table.add_row(info.name, info.type, str(info.default), info.doc)
        console.print(table)
        console.print(f"  {game.summary}\n")


@app.command("bots")
def list_bots(game: Annotated[str | None, typer.Argument(help="Only this game.")] = None) -> None:
    """List the bots that can play each game."""
    table = Table(title="Bots")
    table.add_column("game")
    table.add_column("bot", overflow="fold")
    table.add_column("how it plays")
    for g in [_game(game)] if game else games.all_games():
        for name, info in bot_registry.available(g).items():
            table.add_row(g.name, name, info.description)
    console.print(table)
    console.print(
        "Your own bot: name it as module:attribute (--bots my_pkg.agents:MyBot), "
        "or install it under the pitkit.bots entry points; see docs/bots.md."
    )


def _new_match(
    game: Game, players: int, options: Sequence[str] | None, seed: int | None
) -> Match[Any, Any]:
    try:
        return game.new_match(players, list(options or []), seed)
    except ValueError as exc:
        raise _fail(str(exc)) from None


def _seat_bots(
    game: Game, seating: Sequence[str], seed: int | None, *, imports: bool = True
) -> list[Bot | None]:
    """The bots of a seating (None for a person); `imports`: module:attribute names too."""
    _importable_here(seating)
    out: list[Bot | None] = []
    for seat, name in enumerate(seating):
        try:
            out.append(
                None
                if name == HUMAN
                else bot_registry.make(
                    game, name, None if seed is None else seed + seat, imports=imports
                )
            )
        except ValueError as exc:
            raise _fail(str(exc)) from None
    return out


def _importable_here(names: Sequence[str]) -> None:
    """Let module:attribute bot names import modules of the current folder, as
    ``python -m`` would; after everything else on the path, so nothing installed
    is shadowed. The process pool's workers inherit the path; Ray's workers
    get this folder from Ray."""
    here = os.getcwd()
    if any(map(is_spec, names)) and here not in sys.path and "" not in sys.path:
        sys.path.append(here)


@app.command()
def play(
    game_name: GameName,
    seats: Annotated[
        str | None,
        typer.Option(
            help="Who sits where, comma-separated: human or a bot name (default: you and bots)."
        ),
    ] = None,
    seed: Annotated[
        int | None, typer.Option(help="Seed of the shuffles (default: random).")
    ] = None,
    option: Options = None,
) -> None:
    """Play a match in the terminal against bots (or friends at one keyboard).

    On your turn, type an action by its number in the menu or by its text,
    e.g. `match 7H 2C` or `draw`. `help` shows the menu again; `quit` stops.
    """
    game = _game(game_name)
    default_bot = game.opponent
    try:
        seats_wanted = game.make_rules(list(option or [])).players() or game.default_players
    except ValueError as exc:
        raise _fail(str(exc)) from None
    seating = (seats or ",".join([HUMAN] + [default_bot] * (seats_wanted - 1))).split(",")
    seating = [s.strip() for s in seating]
    match = _new_match(game, len(seating), option, seed)
    if game.realtime:
        from pitkit.cli.terminal import play_in_terminal

        # Its bots are made by name again in the terminal table, which takes pitkit's names only.
        _seat_bots(game, seating, seed, imports=False)  # refuses unknown bot names
        play_in_terminal(game, seating, seed, list(option or []), console)
        return
    players = _seat_bots(game, seating, seed)
    console.print(
        f"[bold]{game.title}[/]  "
        + ", ".join(f"seat {s}: {name}" for s, name in enumerate(seating))
    )
    terminal = _Terminal(game, match, players)
    try:
        play_turns(match, [terminal] * match.players, random.Random(seed))
        terminal.catch_up()
    except (EOFError, KeyboardInterrupt):
        console.print("\nGoodbye.")
        raise typer.Exit(0) from None
    console.print("[bold]The match is over.[/]")


class _Terminal:
    """Every seat of a match played in the terminal: before each decision it
    prints what happened, as the person at the table saw it, then asks that
    seat's bot or, at a person's seat, the person."""

    def __init__(self, game: Game, match: Match[Any, Any], players: Sequence[Bot | None]) -> None:
        self.game, self.match, self.players = game, match, players
        humans = [s for s, bot in enumerate(players) if bot is None]
        self.viewer = humans[0] if humans else None
        self.shown = 0

    def catch_up(self) -> None:
        """Print the events not shown yet."""
        self.shown = _print_events(self.game, self.match, self.viewer, self.shown)

    def choose(self, state: State[Any], seat: int) -> Action:
        bot = self.players[seat]
        if bot is not None:
            self.catch_up()
            return bot.choose(state, seat)
        self.viewer = seat
        self.catch_up()
        return _human_turn(self.game, self.match, seat)


def _human_turn(game: Game, match: Match[Any, Any], seat: int) -> Action:
    """Show the table to the person at `seat` and read a legal move."""
    view = match.view(seat)
    scores = view["match"]["scores"]
    shown = "hidden" if scores is None else ", ".join(map(str, scores))
    console.rule(f"Seat {seat}, your turn  (scores: {shown})")
    console.print(cards_markup(game.render(view)))
    actions = match.legal_actions(seat)
    _menu(actions)
    while True:
        entry = console.input("[bold]> [/]").strip()
        if entry in ("help", "?", ""):
            _menu(actions)
            continue
        if entry == "list":
            _menu(actions, everything=True)
            continue
        if entry in ("quit", "exit"):
            raise EOFError
        action = (
            actions[int(entry) - 1]
            if entry.isdigit() and 1 <= int(entry) <= len(actions)
            else entry
        )
        try:
            move = match.parse_action(action)
            if match.allows(seat, move):
                chosen: Action = move
                return chosen
            reason = match.why_illegal(seat, move)
        except IllegalActionError as exc:
            reason = str(exc)
        console.print(f"[red]{escape(plain(reason))}[/] Type a number from the menu, or help.")


MENU_LENGTH = 24


def _menu(actions: Sequence[object], everything: bool = False) -> None:
    """Number the legal actions; a long list is cut short unless `everything`."""
    shown = actions if everything or len(actions) <= MENU_LENGTH else actions[: MENU_LENGTH - 1]
    for i, action in enumerate(shown, 1):
        console.print(f"  [cyan]{i:>3}[/] {cards_markup(str(action))}")
    if len(shown) < len(actions):
        console.print(f"  ... and {len(actions) - len(shown)} more: type [bold]list[/] to see all,")
        console.print("  or type a move, e.g. " + cards_markup(str(actions[-1])))


@app.command(context_settings={"allow_extra_args": True, "ignore_unknown_options": True})
def judge(
    ctx: typer.Context,
    game_name: GameName,
) -> None:
    """Settle a rules question at the table, e.g. `pitkit judge ace-pit 8H "7H 9H"`.

    The arguments after the game's name are the game's own; see its docs.
    """
    game = _game(game_name)
    if game.judge is None:
        raise _fail(f"{game.title} has no judge")
    try:
        console.print(cards_markup(game.judge(list(ctx.args))))
    except ValueError as exc:
        raise _fail(str(exc)) from None


@app.command()
def simulate(
    game_name: GameName,
    n: Annotated[int, typer.Option("-n", help="Number of matches.", min=1)] = 100,
    seed: Annotated[int, typer.Option(help="Seed of the whole run.")] = 0,
    bots: Annotated[
        str,
        typer.Option(
            help="Bot names, comma-separated, one a seat (repeated as needed); "
            "your own as module:attribute."
        ),
    ] = "random",
    players: Annotated[
        int | None, typer.Option(help="Seats (default: one a bot; the usual number for one bot).")
    ] = None,
    option: Options = None,
    save_logs: Annotated[
        Path | None, typer.Option(help="Write each match's log to this folder.")
    ] = None,
    rotate: Annotated[bool, typer.Option(help="Shift the seating by one seat each match.")] = True,
    backend: BackendName = "local",
    address: Address = None,
    workers: Annotated[
        int | None,
        typer.Option(
            help="Matches at once (default: local 1, in this process; ray every CPU).", min=1
        ),
    ] = None,
) -> None:
    """Play many matches between bots; print win rates and speed.

    The same seed gives the same matches on every backend and number of workers.
    """
    game = _game(game_name)
    names = _bot_names(bots)
    _seat_bots(game, names, seed)  # refuses unknown names before the run starts
    try:
        rules = game.make_rules(list(option or []))
        specs = arena.simulation(
            game, names, n, players=players, rules=rules, seed=seed, rotate=rotate
        )
    except ValueError as exc:
        raise _fail(str(exc)) from None
    if save_logs and (backend != "local" or (workers or 1) > 1):
        # The logs are the matches themselves: they are written where the matches are played.
        raise _fail("--save-logs plays in this process: leave out --backend and --workers")
    if save_logs:
        save_logs.mkdir(parents=True, exist_ok=True)
    runner = _backend(backend, workers or (1 if backend == "local" else None), address)
    start = time.perf_counter()  # after the backend has started: the speed is the matches'
    tally, decisions, hands = _simulate_on(game, specs, runner, save_logs)
    elapsed = time.perf_counter() - start
    console.print(_tally_table(f"{game.title}: {n} matches, {hands} hands", tally))
    console.print(
        f"{n / elapsed:,.1f} matches/s, {hands / elapsed:,.1f} hands/s, "
        f"{decisions / elapsed:,.0f} decisions/s ({elapsed:.2f} s)"
    )


def _bot_names(bots: str) -> list[str]:
    """The bot names of a comma-separated ``--bots``."""
    return [b.strip() for b in bots.split(",") if b.strip()]


def _backend(name: str, workers: int | None, address: str | None) -> Backend:
    """The backend that runs the matches (`--backend`), or the command fails saying why."""
    from pitkit.arena import pool

    try:
        return pool.make_backend(name, workers, address)
    except ValueError as exc:
        raise _fail(str(exc)) from None


@contextmanager
def _running(title: str, total: int, runner: Backend) -> Iterator[Callable[[], None]]:
    """A progress bar of `total` matches played on `runner`, advanced by the
    callable given; a bad move or a missing bot met in play fails the command,
    and the runner is closed in the end."""
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
    )
    try:
        with Progress(*columns, console=console, transient=True) as progress:
            task = progress.add_task(f"{title}, {runner.workers} worker(s)", total=total)
            yield lambda: progress.advance(task)
    except ValueError as exc:  # met in play: a bot's module a worker lacks, a bad move
        raise _fail(str(exc)) from None
    finally:
        runner.close()


def _simulate_on(
    game: Game, specs: Sequence[MatchSpec], runner: Backend, save_logs: Path | None
) -> tuple[arena.Tally, int, int]:
    """Play `simulate`'s matches on `runner`, or here writing each one's log
    to `save_logs`: their tally, decisions and hands."""
    from pitkit.arena import tournament

    tally = arena.Tally()
    decisions = hands = 0
    with _running(game.title, len(specs), runner) as advance:
        if save_logs:
            for i, spec in enumerate(specs):
                match, made = tournament.play_spec(spec)
                tally.add(arena.Played(match, spec.seating, made))
                decisions += made
                hands += len(match.results)
                write_log(save_logs / f"{game.name}-{i + 1:05d}.jsonl", match.header(), match.log)
                advance()
        else:
            for result in tournament.run(specs, runner, lambda _: advance()):
                tally.add(result)
                decisions += result.decisions
                hands += result.hands
    return tally, decisions, hands


def _tally_table(title: str, tally: arena.Tally) -> Table:
    """`simulate`'s table: each bot's seats, win share and mean place."""
    table = Table(title=title)
    for column in ("bot", "seats played", "win share", "mean place"):
        # A module:attribute name is long: folded, never cut short.
        table.add_column(column, justify="right" if column != "bot" else "left", overflow="fold")
    for name, count, share, place in tally.rows():
        table.add_row(escape(name), str(count), f"{share:.1%}", f"{place:.2f}")
    return table


@app.command()
def replay(
    file: Annotated[
        Path, typer.Argument(help="A log written by `pitkit simulate --save-logs`.", exists=True)
    ],
    seat: Annotated[
        int | None, typer.Option(help="Show the game as this seat saw it (default: everything).")
    ] = None,
    step: Annotated[bool, typer.Option(help="Wait for Enter after each action.")] = False,
) -> None:
    """Show a logged game step by step, rebuilding it from the log."""
    try:
        header, events = read_log(file)
    except (OSError, ValueError) as exc:
        raise _fail(str(exc)) from None
    game = _game(str(header["game"]))
    shown = 0
    try:
        for match in game.replay_steps(header, events):
            shown = _print_events(game, match, seat, shown)
            if step and not match.is_over:
                console.input("[dim](Enter)[/]")
    except ValueError as exc:
        raise _fail(f"the log does not replay: {exc}") from None
    same = [e.to_json() for e in match.log] == [e.to_json() for e in events]
    console.print(
        "Replay matches the log exactly." if same else "[red]The replay differs from the log.[/]"
    )
    if not same:
        raise typer.Exit(1)


def _print_events(game: Game, match: Match[Any, Any], seat: int | None, shown: int) -> int:
    """Print the match's events after the first `shown` as `seat` saw them
    (None in a replay: all-seeing); return how many have been shown."""
    say = Narrator.seats(match.players, seat)
    for event in match.log[shown:]:
        seen = event.seen_by(seat) if seat is not None else _everything(event)
        text = game.narrate(seen, say)
        if text:
            console.print(cards_markup(text))
    return len(match.log)


def _everything(event: Event) -> Mapping[str, Any]:
    """An event with every seat's private part shown, for an all-seeing replay."""
    out: dict[str, Any] = event.seen_by(None)
    for seat, part in event.private.items():
        for key, value in part.items():
            out[key] = (
                f"{out[key]}; seat {seat}: {value}" if key in out else f"seat {seat}: {value}"
            )
    return out


class LogFormat(StrEnum):
    """How `pitkit serve` writes its log lines."""

    text = "text"
    json = "json"


ServeHost = Annotated[
    str, typer.Option("--host", help="Address to listen on (0.0.0.0: every network).")
]
ServePort = Annotated[int, typer.Option("--port", help="Port to listen on.", min=1, max=65535)]
ServeData = Annotated[
    Path, typer.Option("--data", help="Folder of the SQLite database (made if missing).")
]
ServeDatabase = Annotated[
    str | None,
    typer.Option(
        "--database", help="A database URL instead, e.g. postgresql+psycopg://user@host/pitkit."
    ),
]
LogLevel = Annotated[str, typer.Option("--log-level", help="debug, info, warning or error.")]
LogFormatOption = Annotated[
    LogFormat,
    typer.Option(
        "--log-format",
        help="Log lines as text, or as JSON objects (one a line) for a collector.",
    ),
]
PublicUrl = Annotated[
    str | None,
    typer.Option(
        "--public-url",
        help="The URL people reach the server at, e.g. https://pit.example.org: "
        "invitation links use it, and only its pages may open a WebSocket.",
        metavar="URL",
    ),
]
TrustedProxy = Annotated[
    list[str] | None,
    typer.Option(
        "--trusted-proxy",
        help="A reverse proxy's IP address or network whose X-Forwarded-For and "
        "X-Forwarded-Proto are believed (repeatable; none: nobody's are).",
        metavar="ADDR",
    ),
]
Venue = Annotated[
    bool,
    typer.Option(
        "--venue",
        help="The limits for a hall of up to ~300 phones behind one router, which the "
        "server sees as one address (docs/deploy.md); flags below change them further.",
    ),
]
LimitPairs = Annotated[
    list[str] | None,
    typer.Option(
        "--limit",
        help="Any server limit, by its name: `pitkit limits` lists them (repeatable).",
        metavar="NAME=VALUE",
    ),
]


# The limits most often changed have flags of their own (None: the profile's value).
TablesPerMinute = Annotated[
    int | None,
    typer.Option(help="Tables one address may open a minute (creates_per_minute: 60).", min=1),
]
TablesPerAddress = Annotated[
    int | None, typer.Option(help="Waiting or playing tables one address may hold (50).", min=1)
]
ConnectionsPerAddress = Annotated[
    int | None,
    typer.Option(help="Anonymous sockets one address may hold, HTTP and WebSocket (100).", min=1),
]
RequestsPerSecond = Annotated[
    float | None,
    typer.Option(help="HTTP requests a second, of one address or one token (50).", min=0.001),
]


@app.command()
def serve(
    host: ServeHost = "127.0.0.1",
    port: ServePort = 8000,
    data: ServeData = Path("data"),
    database: ServeDatabase = None,
    log_level: LogLevel = "info",
    log_format: LogFormatOption = LogFormat.text,
    public_url: PublicUrl = None,
    trusted_proxy: TrustedProxy = None,
    venue: Venue = False,
    limit: LimitPairs = None,
    tables_per_minute: TablesPerMinute = None,
    tables_per_address: TablesPerAddress = None,
    connections_per_address: ConnectionsPerAddress = None,
    requests_per_second: RequestsPerSecond = None,
) -> None:
    """Run the game server: tables for every game, played over WebSocket.

    Open a table with `POST /api/tables` (the API is at /docs) and send each
    friend their seat's invitation link. Tables survive a restart. Behind a
    reverse proxy, give --public-url and --trusted-proxy (docs/protocol.md).
    Every limit is a flag: --venue for a hall behind one address, --limit
    NAME=VALUE for any one (`pitkit limits`).
    """
    from pitkit.server import serve as run_server

    named = {
        "creates_per_minute": tables_per_minute,
        "tables_per_address": tables_per_address,
        "connections_per_address": connections_per_address,
        "requests_per_second": requests_per_second,
    }
    console.print(f"pitkit server on http://{host}:{port}/  (API: http://{host}:{port}/docs)")
    try:
        limits = serve_limits(venue, limit or [], named)
        run_server(
            host,
            port,
            str(data),
            database,
            log_level,
            limits,
            public_url=public_url,
            trusted_proxies=tuple(trusted_proxy or ()),
            log_format=log_format.value,
        )
    except (OSError, ValueError) as exc:
        raise _fail(str(exc)) from None


def serve_limits(
    venue: bool, pairs: Sequence[str], named: Mapping[str, float | None] | None = None
) -> Limits:
    """The limits `pitkit serve` runs with: the default profile or the venue's, then the
    limits named by flags of their own, then each `--limit NAME=VALUE` (ValueError: one
    is no limit, or no number a limit takes)."""
    from dataclasses import replace

    from pitkit.server.ops.settings import Limits, limit_values

    flags = [f"{name}={_number(v)}" for name, v in (named or {}).items() if v is not None]
    return replace(Limits.venue() if venue else Limits(), **limit_values([*flags, *pairs]))


def _number(value: float) -> str:
    """A limit's value as the flags spell it (1000, not 1000.0)."""
    return f"{value:.15g}"


@app.command("limits")
def list_limits(
    markdown: Annotated[
        bool, typer.Option(help="As the table in docs/deploy.md (Markdown).")
    ] = False,
) -> None:
    """List the server's limits: each one's name for `pitkit serve --limit NAME=VALUE`,
    its default, its value under `--venue` and what it bounds."""
    rows = limit_rows()
    if markdown:
        typer.echo("| limit | default | --venue | what it bounds |\n|---|---|---|---|")
        for name, default, venue, doc in rows:
            typer.echo(f"| `{name}` | {default} | {venue} | {doc} |")
        return
    table = Table(title="pitkit serve --limit NAME=VALUE")
    for column in ("limit", "default", "--venue", "what it bounds"):
        table.add_column(column)
    for row in rows:
        table.add_row(*(escape(cell) for cell in row))
    console.print(table)


def limit_rows() -> list[tuple[str, str, str, str]]:
    """Each limit: its name, default, value under --venue, and docstring."""
    from dataclasses import MISSING, fields

    from pitkit.server.ops.settings import VENUE, Limits, limit_docs

    docs, venue = limit_docs(), Limits.venue()
    rows = []
    for f in fields(Limits):
        # A default made at start (the machine's cores) is told by its docstring.
        default = "(machine)" if f.default is MISSING else _number(f.default)
        there = _number(getattr(venue, f.name)) if f.name in VENUE else default
        rows.append((f.name, default, there, docs.get(f.name, "")))
    return rows


@app.command("arena")
def arena_command(
    game_name: GameName,
    bots: Annotated[
        str,
        typer.Option(
            help="Bot names, comma-separated (e.g. search:1s,heuristic; your own as "
            "module:attribute). Different bots play every table they can fill; a name given "
            "twice makes one table in that order."
        ),
    ],
    n: Annotated[int, typer.Option("-n", help="Matches; with --duplicate, deals.", min=1)] = 100,
    duplicate: Annotated[
        bool,
        typer.Option(help="Play each deal once in every seating of the bots, to cancel out luck."),
    ] = False,
    workers: Annotated[
        int | None, typer.Option(help="Processes to run matches in (default: every core).", min=1)
    ] = None,
    backend: BackendName = "local",
    address: Address = None,
    players: Annotated[
        int | None, typer.Option(help="Seats at each table (default: the game's usual number).")
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed of the whole arena.")] = 0,
    option: Options = None,
    json_path: Annotated[
        Path | None,
        typer.Option("--json", help="Where to save the results (default: arena-GAME.json)."),
    ] = None,
) -> None:
    """Rate bots in a round robin with rotated seats: openskill ratings, win shares, JSON."""
    from pitkit.arena import tournament

    game = _game(game_name)
    names = _bot_names(bots)
    _importable_here(names)
    try:
        specs = tournament.schedule(
            game,
            names,
            n,
            players=players,
            rules=list(option or []),
            seed=seed,
            duplicate=duplicate,
        )
    except ValueError as exc:
        raise _fail(str(exc)) from None
    runner = _backend(backend, workers, address)
    report = _run_arena(
        game, names, specs, runner, n=n, duplicate=duplicate, seed=seed, backend=backend
    )
    played = f"{n} matches"
    if duplicate:
        played = f"{n} deals in every seating, {len(report.results)} matches"
    console.print(_standings_table(f"{game.title}: {played}, {report.seconds:.1f} s", report))
    path = json_path or Path(f"arena-{game.name}.json")
    report.save(path)
    console.print(f"Results saved to {escape(str(path))}.")


def _run_arena(
    game: Game,
    names: Sequence[str],
    specs: Sequence[MatchSpec],
    runner: Backend,
    *,
    n: int,
    duplicate: bool,
    seed: int,
    backend: str,
) -> ArenaReport:
    """Play the arena's matches (`specs`) on `runner`, and rate the bots; `n`,
    `duplicate`, `seed` and `backend` are the arena's settings, for its report."""
    from pitkit.arena import tournament

    start = time.perf_counter()
    with _running(game.title, len(specs), runner) as advance:
        results = tournament.run(specs, runner, lambda _: advance())
    return tournament.ArenaReport(
        game=game.name,
        players=specs[0].players,
        rules=specs[0].rules,
        bots=list(dict.fromkeys(names)),
        n=n,
        duplicate=duplicate,
        seed=seed,
        backend=backend,
        workers=runner.workers,
        seconds=time.perf_counter() - start,
        results=results,
        table=tournament.standings(names, results),
    )


def _standings_table(title: str, report: ArenaReport) -> Table:
    """The arena's table: each bot's rating, win share with its interval, and place."""
    table = Table(title=title)
    for column in ("bot", "rating", "ordinal", "seats", "win share", "95% CI", "place"):
        # A module:attribute name is long: folded, never cut short.
        table.add_column(column, justify="left" if column == "bot" else "right", overflow="fold")
    for s in report.table:
        table.add_row(
            escape(s.bot),
            f"{s.mu:.1f} ± {s.sigma:.1f}",
            f"{s.ordinal:.1f}",
            str(s.seats),
            f"{s.win_share:.1%}",
            f"{s.ci[0] * 100:.1f}-{s.ci[1] * 100:.1f}%",
            f"{s.mean_place:.2f}",
        )
    return table


@app.command()
def proxy(
    worker: Annotated[
        list[str],
        typer.Option(
            help="A worker's host:port (a `pitkit serve --port`); repeat for each.",
            metavar="HOST:PORT",
        ),
    ],
    listen: Annotated[
        str, typer.Option(help="Where the proxy listens.", metavar="HOST:PORT")
    ] = "127.0.0.1:8000",
    print_only: Annotated[
        bool, typer.Option("--print", help="Print HAProxy's configuration instead of running it.")
    ] = False,
) -> None:
    """Put HAProxy in front of several `pitkit serve` workers on one PostgreSQL.

    Each table's traffic goes to one worker (by a hash of its id), the rest round
    robin; start each worker with --trusted-proxy for the proxy's address
    (docs/deploy.md).
    """
    from pitkit.server.ops.proxy import exec_haproxy, haproxy_config

    try:
        config = haproxy_config(listen, worker)
        if print_only:
            typer.echo(config, nl=False)
            return
        console.print(f"HAProxy on http://{listen}/ for {len(worker)} workers")
        exec_haproxy(config)
    except (OSError, ValueError) as exc:
        raise _fail(str(exc)) from None


db_app = typer.Typer(
    help="Back up the server's database to a file, restore one (SQLite or PostgreSQL), "
    "or export the games people played on it.",
    no_args_is_help=True,
)
app.add_typer(db_app, name="db")

DataFolder = Annotated[
    Path, typer.Option(help="Folder of the SQLite database, as for `pitkit serve`.")
]
DatabaseUrl = Annotated[
    str | None,
    typer.Option(help="A database URL instead, e.g. postgresql+psycopg://user@host/pitkit."),
]
BackupFile = Annotated[str, typer.Argument(help="The backup file (-: standard output or input).")]


def _report(out: Console, done: str, summary: Summary) -> None:
    """Rows per table and the time taken, after `db backup` and `db restore`."""
    table = Table()
    table.add_column("table")
    table.add_column("rows", justify="right")
    for name, rows in summary.tables.items():
        table.add_row(name, f"{rows:,}")
    out.print(table)
    rate = summary.rows / summary.seconds if summary.seconds > 0 else 0.0
    out.print(
        f"{escape(done)}: {summary.rows:,} rows (schema {summary.schema}) "
        f"in {summary.seconds:.2f} s, {rate:,.0f} rows/s"
    )


@db_app.command("backup")
def db_backup(
    file: BackupFile, data: DataFolder = Path("data"), database: DatabaseUrl = None
) -> None:
    """Write the whole database to FILE (gzip'd JSON lines) for `pitkit db restore`.

    It reads one snapshot of the database, so it may run while the server does.
    """
    from pitkit.server.ops.settings import database_url
    from pitkit.server.store.backup import BackupError, backup
    from pitkit.server.store.storage import DatabaseError, make_engine

    # The report goes to stderr when the backup itself goes to stdout.
    out = Console(highlight=False, stderr=True) if file == "-" else console
    if database is None and not (data / "pitkit.sqlite3").exists():
        raise _fail(f"there is no database in {data} (give --data or --database)", out)
    engine = make_engine(database_url(str(data), database))
    path = Path(file)
    # Written beside FILE and renamed at the end: a failed backup never leaves a
    # file that looks like one, nor replaces the last good one.
    partial = path.with_name(path.name + ".partial")
    try:
        if file == "-":
            summary = backup(engine, sys.stdout.buffer)
            sys.stdout.buffer.flush()
        else:
            with partial.open("wb") as f:
                summary = backup(engine, f)
            partial.replace(path)
    except (BackupError, OSError, DatabaseError) as exc:
        if file != "-":
            partial.unlink(missing_ok=True)
        raise _fail(str(exc), out) from None
    finally:
        engine.dispose()
    _report(out, f"Backed up {engine.url.render_as_string()} to {file}", summary)


@db_app.command("restore")
def db_restore(
    file: BackupFile,
    data: DataFolder = Path("data"),
    database: DatabaseUrl = None,
    force: Annotated[
        bool, typer.Option(help="Replace what the database holds (else it must hold nothing).")
    ] = False,
) -> None:
    """Restore a backup made by `pitkit db backup` into a database no server is using.

    The database gets the schema first if it has none. Everything goes in one
    transaction: if anything is wrong, nothing changes.
    """
    from pitkit.server.ops.settings import database_url
    from pitkit.server.store.backup import BackupError, restore
    from pitkit.server.store.storage import DatabaseError, make_engine

    engine = make_engine(database_url(str(data), database))
    try:
        if file == "-":
            summary = restore(engine, sys.stdin.buffer, force=force)
        else:
            with Path(file).open("rb") as f:
                summary = restore(engine, f, force=force)
    except (BackupError, OSError, DatabaseError) as exc:
        raise _fail(str(exc)) from None
    finally:
        engine.dispose()
    _report(console, f"Restored {file} into {engine.url.render_as_string()}", summary)


class GamesFormat(StrEnum):
    """How `pitkit db export-games` writes the matches."""

    jsonl = "jsonl"
    parquet = "parquet"


@db_app.command("export-games")
def db_export_games(
    data: DataFolder = Path("data"),
    database: DatabaseUrl = None,
    game: Annotated[str | None, typer.Option(help="Only this game's matches.")] = None,
    output: Annotated[
        str, typer.Option(help="The file to write (-: standard output, JSON lines only).")
    ] = "-",
    fmt: Annotated[
        GamesFormat, typer.Option("--format", help="JSON lines, or Parquet (needs pyarrow).")
    ] = GamesFormat.jsonl,
    salt: Annotated[
        str | None,
        typer.Option(
            help="The pseudonyms' secret key, 16 characters or more; default: the key "
            "in DATA/export.key, made at the first export. Keep it secret."
        ),
    ] = None,
) -> None:
    """Write the finished matches people played, one JSON line a match, for research.

    Every event in full and each match's seed, so each replays exactly; people's
    names become pseudonyms, the same for a name under the same key; no token, no
    chat. Only matches that are over, at tables where a person holds a seat.
    The schema and a loader: docs/learning.md, *Human games as a dataset*.
    """
    from pitkit.server.ops.settings import database_url
    from pitkit.server.store.storage import DatabaseError, finished_matches, make_engine

    out = Console(highlight=False, stderr=True) if output == "-" else console
    if fmt is GamesFormat.parquet and output == "-":
        raise _fail("Parquet is written to a file: give --output FILE", out)
    if database is None and not (data / "pitkit.sqlite3").exists():
        raise _fail(f"there is no database in {data} (give --data or --database)", out)
    try:
        only = None if game is None else games.get(game).name
        names, keyed = _pseudonyms(data, salt)
    except (ValueError, OSError) as exc:
        raise _fail(str(exc), out) from None
    engine = make_engine(database_url(str(data), database))
    partial = Path(output).with_name(Path(output).name + ".partial")
    try:
        with engine.connect() as conn:
            records = (dataset.match_record(m, names) for m in finished_matches(conn, only))
            count = _write_games(records, output, fmt, partial)
    except (ValueError, OSError, DatabaseError) as exc:
        if output != "-":
            partial.unlink(missing_ok=True)
        raise _fail(str(exc), out) from None
    finally:
        engine.dispose()
    matches = "match" if count == 1 else "matches"
    where = f"{output} (pseudonyms: {keyed})"
    out.print(f"Exported {count:,} finished {matches} to {escape(where)}")


def _pseudonyms(data: Path, salt: str | None) -> tuple[dataset.Pseudonyms, str]:
    """The export's pseudonyms, keyed by `salt` or by the data folder's key file (made
    at the first export), and where the key came from, in words."""
    if salt is not None:
        return dataset.Pseudonyms(salt.encode()), "--salt"
    data.mkdir(parents=True, exist_ok=True)
    key = data / dataset.KEY_FILE
    return dataset.Pseudonyms.from_file(key), f"the key in {key}"


def _write_games(
    records: Iterator[dict[str, Any]], output: str, fmt: GamesFormat, partial: Path
) -> int:
    """Write `records` to `output` (-: standard output) as `fmt`; how many. A file is
    written beside it and renamed at the end: a failed export leaves no file."""
    if output == "-":
        count = dataset.write_jsonl(records, sys.stdout)
        sys.stdout.flush()
        return count
    if fmt is GamesFormat.parquet:
        count = dataset.write_parquet(records, partial)
    else:
        with partial.open("w", encoding="utf-8") as f:
            count = dataset.write_jsonl(records, f)
    partial.replace(output)
    return count
