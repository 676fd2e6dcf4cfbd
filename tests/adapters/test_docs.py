"""docs/adapters.md holds every environment's layout as the code lays it out."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("pettingzoo")

from pitkit import adapters, games
from pitkit.adapters.pit import LOTS

DOC = Path(__file__).parents[2] / "docs" / "adapters.md"


@pytest.mark.parametrize("name", adapters.names())
def test_the_docs_hold_the_layouts(name: str) -> None:
    encoding = adapters.encoding(name)
    tables = encoding(games.get(encoding.game).default_players).tables()
    text = DOC.read_text()
    assert f"`{name}`" in text
    assert tables in text, f"docs/adapters.md: {name}'s tables differ from Encoding.tables()"


def test_the_docs_number_the_lots() -> None:
    numbered = ", ".join(f"{i} `{lot.text}`" for i, lot in enumerate(LOTS))
    assert numbered in DOC.read_text()
