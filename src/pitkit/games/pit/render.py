"""Pit's views and events as text for the terminal."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["describe", "group_cards", "render"]


def group_cards(names: Sequence[str]) -> str:
    """Card names grouped in the order given: ``4 wheat, 2 corn, bull``."""
    counts = Counter(names)
    parts = []
    for name in dict.fromkeys(names):
        parts.append(name if name in ("bull", "bear") else f"{counts[name]} {name}")
    return ", ".join(parts) or "-"


def render(view: Mapping[str, Any]) -> str:
    """A readable picture of one seat's view of the market."""
    phase = {
        "sorting": "sorting: the pit is not open yet",
        "trading": "the pit is open",
        "over": "the hand is over",
    }[view["phase"]]
    extra = " + the Bull and the Bear" if view["bull_and_bear"] else ""
    lines = [
        f"Pit ({phase}). Dealer: seat {view['dealer']}. "
        f"Commodities: {', '.join(view['commodities'])}{extra}."
    ]
    offers = view["offers"]
    lines.append(
        "Open offers: "
        + (", ".join(f"seat {o['seat']}: {o['count']} (#{o['offer']})" for o in offers) or "none")
    )
    if view["trades"]:
        lines.append(f"Trades this hand: {view['trades']}")
    for p in view["players"]:
        who = "you" if p["seat"] == view["seat"] else f"seat {p['seat']}"
        notes = [f"{p['cards']} cards"]
        if p["points"]:
            notes.append(f"{p['points']:+d} this hand")
        lines.append(f"  {who}: {', '.join(notes)}")
    if view.get("seat") is not None:
        lines.append(f"Your hand: {group_cards(view['hand'])}")
        own = view["offer"]
        if own:
            lines.append(f"Your offer #{own['offer']}: {group_cards(own['cards'])}")
    return "\n".join(lines)


def describe(event: Mapping[str, Any]) -> str | None:
    """One line for an event of a Pit hand, as one seat saw it."""
    kind = event["type"]
    if kind == "deal":
        text = f"Seat {event['dealer']} deals {', '.join(map(str, event['cards']))} cards."
        return text + (f" Your hand: {event['hand']}." if "hand" in event else "")
    if kind == "open":
        return "Ding! The pit is open."
    if kind == "action":
        return _describe_action(event)
    if kind == "trade":
        text = (
            f"Seat {event['buyer']} takes seat {event['seller']}'s {event['count']} "
            f"(#{event['offer']})."
        )
        return text + (f" You receive {event['received']}." if "received" in event else "")
    if kind == "penalty":
        return f"Seat {event['seat']} {event['reason']}: {event['points']}."
    if kind == "corner":
        text = (
            f"CORNER! Seat {event['seat']} corners {event['commodity']} with "
            f"{event['cards']}: +{event['points']}"
            + (" (doubled by the Bull)" if event["doubled"] else "")
            + "."
        )
        if event["bear"] is not None:
            text += f" Seat {event['bear']} is stuck with the Bear: -20."
        if event["bull"] is not None:
            text += f" Seat {event['bull']} holds the Bull: -20."
        return text
    if kind == "hand_end":
        return None if event["cornerer"] is not None else f"The hand ends: {event['summary']}."
    if kind == "scores":
        return f"After hand {event['hand']}: " + ", ".join(
            f"seat {seat} {score}" for seat, score in enumerate(event["scores"])
        )
    if kind == "match_over":
        return str(event["result"]["summary"]).capitalize() + "."
    return None


def _describe_action(event: Mapping[str, Any]) -> str | None:
    """Offers and withdrawals; the other actions are told by the events they cause."""
    who = f"Seat {event['seat']}"
    words = str(event["action"]).split()
    if words[0] == "offer" and "offer" in event:
        # The offerer's own copy of the event names the cards (T4).
        return f"{who} offers {' '.join(words[1:])} (#{event['offer']})."
    if words[0] == "withdraw" and "offer" in event:
        return f"{who} withdraws offer #{event['offer']}."
    return None
