"""The CSV files a tournament director opens in a spreadsheet, safe to open.

A spreadsheet reads a cell that starts with ``=``, ``+``, ``-``, ``@``, a tab or a
carriage return as a formula: a player named ``=HYPERLINK("http://…","prize")``
would become a live link in the director's standings. So, as OWASP advises, every
text cell that starts with one of them is written with a single quote before it
(``'=HYPERLINK(…)``), which a spreadsheet shows as text and does not evaluate.
Numbers are written as numbers and left alone: a Pitch score of -3 is a number
the exporter wrote, not a formula, and stays one a spreadsheet can add up. Every
cell that holds text (a name, a table's name, a line that starts with a name) is
text, whoever typed it.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence

__all__ = ["FORMULA_STARTS", "Cell", "cell", "csv_text"]

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""How a cell a spreadsheet would read as a formula starts (OWASP, CSV injection)."""

Cell = str | int | float | None
"""What a cell holds: text, a number, or nothing."""


def cell(value: Cell) -> Cell:
    """A cell as written: text that a spreadsheet would read as a formula, with a
    single quote before it; numbers (and empty cells) as they are."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def csv_text(header: Sequence[str], rows: Iterable[Sequence[Cell]]) -> str:
    """A CSV file of a header and rows, every cell made safe (`cell`)."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([cell(name) for name in header])
    writer.writerows([cell(value) for value in row] for row in rows)
    return out.getvalue()
