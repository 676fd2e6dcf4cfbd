"""An event's results to publish, as OpenGotha publishes a Go tournament's: one HTML file
a club puts on its website, and a CSV file of the same tables.

Both are made from the event's public view (what anyone sees at ``/e/<id>``) and the
clubs on its roster: the standings, then every score sheet (Pits) or every Go-Round's
standings and score pads (Pitch). Nothing else: no link, no code, no log. The HTML file
stands alone: its styles are in the elements themselves (so it looks the same saved on
any site, and under this server's Content-Security-Policy, which allows no style sheet
but its own), it runs no script, and its only link is back to the event's page. Every
text in it is escaped: a player named ``<script>`` is shown as those characters. Every
cell of the CSV file goes through the spreadsheet-safe writer (`pitkit.core.export`).
"""

from __future__ import annotations

import html
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pitkit.core.export import Cell, csv_text

__all__ = ["Published", "Section", "publish_csv", "publish_html", "sections"]


@dataclass(frozen=True, slots=True)
class Published:
    """What is published of an event: its name, kind and title, when it was opened, its
    public view, each player's club, the address of its page, and when this was made."""

    name: str
    kind: str
    title: str
    created: float
    view: Mapping[str, Any]
    clubs: Mapping[str, str]
    url: str
    made: float = field(default_factory=time.time)


@dataclass(frozen=True, slots=True)
class Section:
    """One table of the results: its heading (`level` 2: a part, 3: one of its sheets),
    a line under it, its columns and rows."""

    level: int
    title: str
    note: str
    header: Sequence[str]
    rows: Sequence[Sequence[Cell]]


def _rank(line: Mapping[str, Any]) -> str:
    """A prize table's rank, "2=" when shared (as the standings' CSV writes it)."""
    return f"{line['rank']}{'=' if line['tied'] else ''}"


def _pits(out: Published) -> Iterator[Section]:
    """A Pits evening: both prize tables, then every game's sheet."""
    v, club = out.view, out.clubs
    rules = v["rules"]
    yield Section(
        2,
        "Most points",
        "Total points over every game.",
        ["Rank", "Player", "Club", "Points", "Games", "Full games", "Hands", "Percentage"],
        [
            [_rank(s), s["player"], club.get(s["player"], ""), s["points"], s["games"],
             s["full_games"], s["hands"], f"{s['percentage']:.1f}"]
            for s in v["standings"]["points"]
        ],
    )  # fmt: skip
    need = f"{rules['games_for_percentage']} games of {rules['hands_a_game']} hands or more"
    yield Section(
        2,
        "Best percentage",
        f"100 × points ÷ (2 × hands); in the running with {need}.",
        ["Rank", "Player", "Club", "Percentage", "Hands", "Full games", "In the running"],
        [
            [_rank(s), s["player"], club.get(s["player"], ""), f"{s['percentage']:.1f}",
             s["hands"], s["full_games"], "yes" if s["eligible"] else "no"]
            for s in v["standings"]["percentage"]
        ],
    )  # fmt: skip
    for g in v["games"]:
        yield _pits_sheet(g)


def _pits_sheet(g: Mapping[str, Any]) -> Section:
    """One game's score sheet: each hand's points by player, who dealt next, the totals."""
    columns = [p for seat in g["seats"] for p in seat]
    rows: list[list[Cell]] = [
        [h["hand"], *(h["points"].get(p, "") for p in columns), h["dealer"]] for h in g["hands"]
    ]
    rows.append(["Total", *(g["points"].get(p, 0) for p in columns), ""])
    state = "signed" if g["confirmed"] else "ruled off" if g["ruled_off"] else "in play"
    return Section(
        3,
        f"Game {g['game']} · {g['table']}",
        f"Scorer {g['scorer']} · {len(g['hands'])} hands · {state}",
        ["Hand", *columns, "Deals next"],
        rows,
    )


def _pitch(out: Published) -> Iterator[Section]:
    """A Pitch tournament: each Go-Round's standings (the last first), its pads, and
    the misplay register."""
    v, club = out.view, out.clubs
    for r in reversed(v["rounds"]):
        name = "The final" if r["final"] else f"Go-Round {r['round']}"
        yield Section(
            2,
            f"{name}: standings",
            f"Seated by {r['by']}; {len(r['tables'])} table(s)"
            + (f"; champion: {v['champion']}" if r["final"] and v.get("champion") else ""),
            ["Place", "Player", "Club", "Table", "Points", "Misplays", "Status"],
            [
                [s["place"] if s["final"] else f"({s['place']})", s["player"],
                 club.get(s["player"], ""), s["table"], s["points"], s["misplays"], s["status"]]
                for s in r["standings"]
            ],
        )  # fmt: skip
        for t in r["tables"]:
            yield _pitch_pad(name, t)
    if v["register"]:
        yield Section(
            2,
            "Misplays",
            "Every misplay the judges ruled (two in a Go-Round disqualify).",
            ["Go-Round", "Table", "Player", "Ruling", "Points lost", "Judge"],
            [
                [m["round"], m["table"], m["player"], m["ruling"], m["lost"], m["judge"]]
                for m in v["register"]
            ],
        )


def _pitch_pad(round_name: str, t: Mapping[str, Any]) -> Section:
    """One table's score pad: each line as written, the scores after it, the initials."""
    players = list(t["players"])
    rows: list[list[Cell]] = []
    for line in t["lines"]:
        pad = line["pad"] if line["kind"] == "hand" else None
        what: list[Cell] = (
            [pad["bid"], pad["pitcher"], pad["trump"], pad["high"], pad["low"],
             pad["jack"] or "not dealt", pad["game"] or "tie"]
            if pad else [line["kind"], line["note"], "", "", "", "", ""]
        )  # fmt: skip
        initials = "void" if line["voided"] else line["initials"] or ""
        rows.append(
            [
                line["line"],
                line["dealer"],
                *what,
                *(line["scores"].get(p) for p in players),
                initials,
            ]
        )
    outcome = t.get("outcome")
    judge = f"judge {t['judge']}" if t["judge"] else "no judge"
    return Section(
        3,
        f"{round_name}, table {t['table']}",
        f"{judge} · {outcome['summary'] if outcome else 'in play'}",
        ["Line", "Dealer", "Bid", "Pitcher", "Trump", "High", "Low", "Jack", "Game",
         *players, "Initials"],
        rows,
    )  # fmt: skip


def sections(out: Published) -> list[Section]:
    """The results' tables, in order (an event of a kind not known here has none)."""
    if out.kind == "pits-continuous":
        return list(_pits(out))
    if out.kind == "pitch-tournament":
        return list(_pitch(out))
    return []


def publish_csv(out: Published) -> str:
    """The results as one CSV file: each table's heading and the line under it, its
    columns and rows, then a blank line. Every cell is spreadsheet-safe."""
    parts = [csv_text([out.name], [[out.title], [_when(out)]]), "\r\n"]
    for s in sections(out):
        parts.append(csv_text([s.title], [[s.note], s.header, *s.rows]))
        parts.append("\r\n")
    return "".join(parts)


def _when(out: Published) -> str:
    """When the results were published, in words."""
    return time.strftime("published %d %B %Y, %H:%M UTC", time.gmtime(out.made))


_STYLE = {
    "body": "font-family: system-ui, sans-serif; margin: 2rem auto; max-width: 70rem; "
    "padding: 0 1rem; color: #1b1b1b; background: #fff; line-height: 1.4",
    "h1": "font-size: 1.8rem; margin: 0",
    "h2": "font-size: 1.4rem; margin: 2rem 0 0.2rem; border-bottom: 2px solid #1b1b1b",
    "h3": "font-size: 1.1rem; margin: 1.4rem 0 0.2rem",
    "p": "margin: 0.2rem 0 0.6rem; color: #444",
    "table": "border-collapse: collapse; margin: 0.4rem 0 1rem; font-variant-numeric: tabular-nums",
    "th": "text-align: left; padding: 0.25rem 0.6rem; border-bottom: 1px solid #888; "
    "background: #eef1f4",
    "td": "padding: 0.25rem 0.6rem; border-bottom: 1px solid #ddd",
    "footer": "margin-top: 2rem; padding-top: 0.6rem; border-top: 1px solid #ccc; color: #555",
}


def _tag(name: str, text: str, **attrs: str) -> str:
    """An element with its style, `text` (HTML already) inside, attributes escaped."""
    extra = "".join(f' {k}="{html.escape(v)}"' for k, v in attrs.items())
    return f'<{name} style="{_STYLE.get(name, "")}"{extra}>{text}</{name}>'


def _text(value: Cell) -> str:
    """A cell as HTML text: escaped, nothing for None."""
    return "" if value is None else html.escape(str(value))


def _table(s: Section) -> str:
    """A section as a heading, its line, and its table."""
    head = "".join(_tag("th", _text(c), scope="col") for c in s.header)
    rows = []
    for i, row in enumerate(s.rows):
        shade = ' style="background: #f7f8fa"' if i % 2 else ""
        cells = "".join(_tag("td", _text(c)) for c in row)
        rows.append(f"<tr{shade}>{cells}</tr>")
    body = "".join(rows) or f'<tr><td colspan="{len(s.header)}">Nothing yet.</td></tr>'
    table = _tag("table", f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody>")
    return _tag(f"h{s.level}", _text(s.title)) + _tag("p", _text(s.note)) + table


def publish_html(out: Published) -> str:
    """The results as one HTML file that stands alone (`publish`'s docstring)."""
    title = _text(f"{out.name}: results")
    parts = [
        _tag("h1", _text(out.name)),
        _tag("p", _text(f"{out.title} · {_when(out)}")),
        *(_table(s) for s in sections(out)),
        _tag(
            "footer",
            "Results published by pitkit from the event's log. The event's own page: "
            + _tag("a", _text(out.url), href=out.url),
        ),
    ]
    return (
        '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{title}</title>\n</head>\n"
        f'<body style="{_STYLE["body"]}">\n' + "\n".join(parts) + "\n</body>\n</html>\n"
    )
