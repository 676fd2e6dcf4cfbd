"""Pits views and events as text for the terminal."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["describe", "render"]

_PLACES = {1: "1st", 2: "2nd", 3: "3rd", 4: "4th", 5: "5th"}


def render(view: Mapping[str, Any]) -> str:
    """A readable picture of one seat's view of the table."""
    table = view["table"]
    if table:
        lines = [
            f"On the table: {' '.join(table['cards'])}  ({table['meld']}, by seat {table['seat']})"
        ]
    elif view["phase"] == "play":
        lines = ["The table is empty: lead any meld."]
    else:
        lines = [f"Exchange: {view['phase'].replace('_', ' ')}"]
        if view["offered"]:
            lines.append(
                "  offered: " + ", ".join(f"seat {s}: {c}" for s, c in view["offered"].items())
            )
    for p in view["players"]:
        who = "you" if p["seat"] == view["seat"] else f"seat {p['seat']}"
        notes = [f"{p['cards']} cards"]
        if p["place"]:
            notes.append(f"out {_PLACES[p['place']]}")
        if p["passed"]:
            notes.append("passed")
        if p["seat"] == view["dealer"]:
            notes.append("dealer")
        lines.append(f"  {who}: {', '.join(notes)}")
    if "hand" in view:
        lines.append(f"Your hand: {' '.join(view['hand'])}")
    return "\n".join(lines)


def describe(event: Mapping[str, Any]) -> str | None:
    """One line for an event of a Pits hand, as one seat saw it."""
    kind = event["type"]
    if kind == "deal":
        text = f"Seat {event['dealer']} deals."
        return text + (f" Your hand: {event['hand']}." if "hand" in event else "")
    if kind == "action":
        if event["action"] == "pass":
            return f"Seat {event['seat']} passes."
        if event["action"].startswith("play"):
            return None  # the meld event says it better
        return f"Seat {event['seat']}: {event['action']}."
    if kind == "meld":
        return f"Seat {event['seat']} plays {event['meld']} ({event['left']} cards left)."
    if kind == "out":
        return f"Seat {event['seat']} is out, {_PLACES[event['place']]}!"
    if kind == "round":
        return f"Everyone passed. Seat {event['leader']} leads."
    if kind == "offered":
        return f"Seat {event['seat']} gives up {event['card']}."
    if kind == "revealed":
        return (
            "The face-down cards: "
            + ", ".join(f"seat {s} gave {c}" for s, c in event["cards"].items())
            + "."
        )
    if kind == "exchanged":
        return " ".join(f"Seat {s} takes {c}." for s, c in event["took"].items())
    if kind == "hand_end":
        return "Finishing order: " + ", ".join(f"seat {s}" for s in event["order"]) + "."
    return None
