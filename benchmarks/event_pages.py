"""What an entry costs to show at a congress's Pits tournament, against writing the
page whole.

After each entry, every reader of an event is shown the same start of a page: the log
and the public view, as JSON and deflated (`pitkit.server.tournaments.shown`). It is
kept as the log grows: only the new line and the view are written and deflated. The
anchor, in the same run, is the start written whole (the whole log, the view, all
deflated), as the server did before. The event is the hall test's congress: sixty
players at twelve tables, four rounds of ten hands and a fifth begun, about 650
entries. Each is entered into a `Tournament` in memory, then its page start is made
by both ways; the CPU of each (`time.process_time`) is summed over windows of entries.

    python benchmarks/event_pages.py
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from typing import Any

from pitkit.server.store.storage import json_text
from pitkit.server.tournaments.shown import Packed, Shown
from pitkit.tournaments import KINDS, Tournament
from pitkit.tournaments.log import Actor

PLAYERS = [f"Player {i:02d} of the congress" for i in range(60)]
MANAGER = Actor("manager")
WINDOWS = [(1, 100), (101, 300), (301, 500), (501, 10_000)]


def congress() -> Iterator[tuple[Actor, str, dict[str, Any]]]:
    """The congress's entries, in order: (who, type, data)."""
    for name in PLAYERS:
        yield MANAGER, "add_player", {"name": name}
    games = 0
    for rnd, hands in enumerate([10, 10, 10, 10, 3]):
        moved = PLAYERS[rnd * 7 :] + PLAYERS[: rnd * 7]
        tables = [moved[t * 5 : t * 5 + 5] for t in range(12)]
        started = []
        for t, five in enumerate(tables):
            yield MANAGER, "start_game", {"players": five, "table": f"Table {t + 1}"}
            games += 1
            started.append((games, five))
        for hand in range(1, hands + 1):
            for game, five in started:
                k = (hand * 3 + game) % 5
                order = five[k:] + five[:k]
                yield Actor("player", five[0]), "hand", {"game": game, "hand": hand, "order": order}
        if hands == 10:
            for game, five in started:
                yield Actor("player", five[0]), "rule_off", {"game": game}


def whole(tournament: Tournament) -> Packed:
    """The anchor: the page's start written whole, as the server did before."""
    log = json_text(tournament.log()).encode()
    view = json_text(tournament.kind.view(tournament.state)).encode()
    return Packed.of(b'{"log":' + log + b',"view":' + view[:-1])


def main() -> None:
    kind = KINDS["pits-continuous"]
    tournament = Tournament(kind, kind.options({}))
    kept = Shown()
    loop = asyncio.new_event_loop()
    cpu = {"kept": [0.0] * len(WINDOWS), "whole": [0.0] * len(WINDOWS)}
    counts = [0] * len(WINDOWS)
    for n, (actor, type, data) in enumerate(congress(), start=1):
        tournament.enter(actor, type, data, at=float(n))
        w = next(i for i, (low, high) in enumerate(WINDOWS) if low <= n <= high)
        started = time.process_time()
        page = loop.run_until_complete(kept.page(tournament, {}, {}))
        cpu["kept"][w] += time.process_time() - started
        started = time.process_time()
        anchor = whole(tournament)
        cpu["whole"][w] += time.process_time() - started
        assert page.start == anchor  # the same bytes, both ways
        counts[w] += 1
    loop.close()
    print(f"{n} entries; the page start's size at the end: {len(anchor.plain):,} bytes")
    print("| entries | kept (µs an entry) | written whole, the anchor (µs an entry) |")
    print("|---|---:|---:|")
    for w, (low, _) in enumerate(WINDOWS):
        high = low + counts[w] - 1
        each = {way: 1e6 * cpu[way][w] / counts[w] for way in cpu}
        print(f"| {low}-{high} | {each['kept']:,.0f} | {each['whole']:,.0f} |")


if __name__ == "__main__":
    main()
