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


def describe(event: Mapping[str, Any]) -> str | None:
    """One line for an event of a Pitty Pat hand, as one seat saw it."""
    kind = event["type"]
    if kind == "deal":
        text = f"Seat {event['dealer']} deals. The up card is {event['up']}."
        if "hand" in event:
            text += f" Dealt: {event['hand']}."
        for seat, pairs in event["laid"].items():
            text += f" Seat {seat} lays down the dealt pairs {pairs}."
        return text
    if kind == "action":
        words = event["action"].split()
        if words[0] == "draw":
            return f"Seat {event['seat']} draws."
        if len(words) == 3:
            return f"Seat {event['seat']} matches with {words[1]} and discards {words[2]}."
        return f"Seat {event['seat']} matches with {words[1]}, the last card."
    if kind == "turned":
        return f"Seat {event['seat']} turns up {event['card']}."
    if kind == "restock":
        return f"The pile becomes the stock ({event['stock']} cards); {event['up']} is turned up."
    if kind == "hand_end":
        if event["winner"] is None:
            return f"The hand is a draw: {event['reason']}."
        return f"Seat {event['winner']} is out and wins the hand!"
    return None
