"""Play a real-time game in the terminal: bots trade around you as you type.

Offers, trades and everything else you may see are printed as they happen.
Type commands whenever you like: ``offer 2 wheat``, ``accept 3`` (seat 3's
offer), ``accept 3 corn``, ``withdraw``, ``corner``, ``open`` (the dealer
rings the bell), and ``look``, ``help`` or ``quit``. Stdin is read by a
background thread, so the event loop (and the bots) never wait for you.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
import threading
from collections.abc import AsyncIterator, Sequence
from typing import Any

from rich.console import Console
from rich.markup import escape

from pitkit import bots as bot_registry
from pitkit.core.game import Game
from pitkit.core.narrate import Narrator
from pitkit.play.realtime import Arrival
from pitkit.play.wallclock import RealtimeRunner

__all__ = ["HUMAN", "TerminalTable", "play_in_terminal", "stdin_lines"]

HUMAN = "human"
PACE = 2.5
"""Bots think this many times slower in the terminal than in simulation, so a person can follow."""
GRACE = 1.0
"""A command typed within this many seconds after a new deal was meant for the hand before."""

HELP = """Commands (type them any time, then Enter):
  offer 2 wheat       hold out 2 wheat; with the Bull & Bear: offer 3 wheat bull, offer 1 bear
  accept 3            take seat 3's offer, paying with the only commodity you can
  accept 3 corn       ... paying with corn (as many cards as seat 3 offers)
  withdraw            take back your offer
  corner              call your corner (checked: no penalty if you have none)
  corner wheat        announce a corner of wheat (20 points off if false, T5)
  open                ring the bell, if you deal (after the sorting period)
  look                the market and your hand;  help;  quit
Trading before the pit opens costs 20 (T3)."""


async def stdin_lines() -> AsyncIterator[str]:
    """Lines typed on stdin, read by a daemon thread so the event loop runs on."""
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[str | None] = asyncio.Queue()

    def put(item: str | None) -> None:
        # Once the loop has closed the game is over, and the line is dropped.
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(queue.put_nowait, item)

    def read() -> None:
        for line in sys.stdin:
            put(line)
        put(None)

    threading.Thread(target=read, name="pitkit-stdin", daemon=True).start()
    while (line := await queue.get()) is not None:
        yield line


class TerminalTable:
    """A real-time match in the terminal: the runner, plus people typing.

    `lines` are the typed commands (default: stdin). With several people
    at one keyboard, a command may start with a seat number: ``2: offer 1 rye``.
    """

    def __init__(
        self,
        game: Game,
        seating: Sequence[str],
        seed: int | None,
        options: Sequence[str],
        console: Console,
        *,
        lines: AsyncIterator[str] | None = None,
        pace: float = PACE,
    ) -> None:
        self.game = game
        self.console = console
        self.match = game.new_match(len(seating), list(options), seed)
        self.seating = list(seating)
        players = [
            None
            if name == HUMAN
            else bot_registry.make(game, name, None if seed is None else seed + seat, imports=True)
            for seat, name in enumerate(seating)
        ]
        self.humans = [seat for seat, bot in enumerate(players) if bot is None]
        self.viewer = self.humans[0] if self.humans else None
        self.say = Narrator.seats(self.match.players, self.viewer)
        self.runner = RealtimeRunner(self.match, players, seed, pace=pace)
        self.table = self.runner.table
        self.table.listeners.append(self._on_arrival)
        self.lines = lines
        self.shown = 0
        self.quit = False

    async def play(self) -> None:
        """Play until the match ends, or a person quits or closes stdin."""
        who = ", ".join(f"seat {s}: {name}" for s, name in enumerate(self.seating))
        self.console.print(f"[bold]{self.game.title}[/]  {escape(who)}")
        if self.viewer is not None:
            self.console.print(f"You are seat {self.viewer}. Type [bold]help[/] for the commands.")
        self._show_events()
        self._announce_hand()
        game = asyncio.create_task(self.runner.run())
        typing = asyncio.create_task(self._read())
        done, _ = await asyncio.wait({game, typing}, return_when=asyncio.FIRST_COMPLETED)
        for task in (game, typing):
            task.cancel()
        await asyncio.gather(game, typing, return_exceptions=True)
        for task in done:
            if not task.cancelled() and task.exception() is not None:
                raise task.exception()  # type: ignore[misc]
        self._show_events()
        if self.match.is_over:
            self.console.print("[bold]The match is over.[/]")
        else:
            self.console.print("Goodbye.")

    async def _read(self) -> None:
        source = self.lines if self.lines is not None else stdin_lines()
        if self.viewer is None:  # nobody to type: watch the bots
            while not self.match.is_over:
                await asyncio.sleep(0.2)
            return
        async for line in source:
            self.command(line.strip())
            if self.quit or self.match.is_over:
                return

    def command(self, entry: str) -> None:
        """Carry out one typed command."""
        seat = self.viewer
        if ":" in entry:
            head, _, rest = entry.partition(":")
            if head.strip().isdigit() and int(head) in self.humans:
                seat, entry = int(head), rest.strip()
        if seat is None:
            return
        word = entry.split()[0].lower() if entry else "look"
        if word in ("quit", "exit"):
            self.quit = True
            return
        if word in ("help", "?"):
            self.console.print(escape(HELP))
            return
        if word == "look":
            self.console.print(escape(self.game.render(self.match.view(seat))))
            return
        # A command typed just after a deal was meant for the hand that ended.
        hand = self.table.hand_at(self.table.clock() - GRACE)
        arrival = self.runner.submit(seat, entry, hand)
        if not arrival.accepted:
            self.console.print(f"[red]{escape(arrival.reason or 'refused')}[/]")
        else:
            self._status(seat)

    def _on_arrival(self, arrival: Arrival) -> None:
        if not arrival.accepted:
            return  # a bot that lost a race: not worth a line
        self._show_events()
        if any(e.type == "deal" for e in arrival.events):
            self._announce_hand()

    def _show_events(self) -> None:
        for event in self.match.log[self.shown :]:
            text = self.game.narrate(event.seen_by(self.viewer), self.say)
            if text:
                style = "bold" if event.type in ("corner", "open", "match_over") else ""
                if event.type == "trade" and self.viewer in (
                    event.public.get("seller"),
                    event.public.get("buyer"),
                ):
                    style = "bold green"
                self.console.print(f"[{style}]{escape(text)}[/]" if style else escape(text))
        self.shown = len(self.match.log)

    def _announce_hand(self) -> None:
        if self.match.is_over:
            return
        hand: Any = self.match.hand
        dealer = getattr(hand, "dealer", None)
        sorting = self.table.sorting
        self.console.rule(f"Hand {self.table.hand_number}")
        if dealer is not None and dealer == self.viewer:
            self.console.print(
                f"You deal. Sort your cards; after {sorting:.0f} s type [bold]open[/] "
                "to ring the bell."
            )
        else:
            self.console.print(f"Sorting: the pit opens in {sorting:.0f} s. Do not trade yet!")
        if self.viewer is not None:
            self._status(self.viewer)

    def _status(self, seat: int) -> None:
        """One line: your hand, your offer, the open offers."""
        view: dict[str, Any] = self.match.view(seat)
        if "hand" not in view or "offers" not in view:
            return
        hand = _grouped(view["hand"])
        own = view.get("offer")
        mine = f"  your offer #{own['offer']}: {_grouped(own['cards'])}" if own else ""
        offers = ", ".join(
            f"seat {o['seat']}: {o['count']}" for o in view["offers"] if o["seat"] != seat
        )
        self.console.print(
            f"[cyan]Hand: {escape(hand)}{escape(mine)}  |  offers: {escape(offers or 'none')}[/]"
        )


def _grouped(names: Sequence[str]) -> str:
    counts: dict[str, int] = {}
    for name in names:
        counts[name] = counts.get(name, 0) + 1
    return ", ".join(n if n in ("bull", "bear") else f"{c} {n}" for n, c in counts.items()) or "-"


def play_in_terminal(
    game: Game, seating: list[str], seed: int | None, options: list[str], console: Console
) -> None:
    """Play `game` in real time in the terminal (see the module's docstring)."""
    table = TerminalTable(game, seating, seed, options, console)
    try:
        asyncio.run(table.play())
    except KeyboardInterrupt:
        console.print("\nGoodbye.")
