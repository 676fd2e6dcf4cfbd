"""Pitty Pat's view as text for the terminal."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["render"]


def render(view: Mapping[str, Any]) -> str:
    """A readable picture of one seat's view of the table."""
    lines = [
        f"Top of the pile: {view['top']}    "
        f"pile {len(view['pile'])} cards, stock {view['stock']} cards",
    ]
    for p in view["players"]:
        if not p["seated"]:
            continue
        who = "you" if p["seat"] == view["seat"] else f"seat {p['seat']}"
        dealer = ", dealer" if p["seat"] == view["dealer"] else ""
        pairs = " ".join(p["pairs"]) or "-"
        lines.append(f"  {who}{dealer}: {p['cards']} cards in hand, pairs down: {pairs}")
    if "hand" in view:
        lines.append(f"Your hand: {' '.join(view['hand']) or '-'}")
    return "\n".join(lines)
