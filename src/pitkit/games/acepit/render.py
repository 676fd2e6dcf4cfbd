"""Ace Pit's view and events as text for the terminal."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["describe", "render"]


def _who(seat: int, me: int | None) -> str:
    return "you" if seat == me else f"seat {seat}"


def render(view: Mapping[str, Any]) -> str:
    """A readable picture of one seat's view of the table."""
    me = view["seat"]
    match = view.get("match")
    head = f"Trick {view['trick']} of 7, seat {view['dealer']} dealt, stock {view['stock']} cards"
    if match:
        head = f"Hand {match['hand']}: " + head
    lines = [head]
    if match:
        scores = match["scores"]
        lines.append(
            "Game scores: hidden until the end"
            if scores is None
            else "Game scores: " + ", ".join(f"{_who(s, me)} {p}" for s, p in enumerate(scores))
        )
    players = view["players"]
    if players[0]["points"] is not None:
        lines.append(
            "This hand: " + ", ".join(f"{_who(p['seat'], me)} {p['points']}" for p in players)
        )
    if view["tricks"]:
        t = view["tricks"][-1]
        points = f" — {t['points']}" if "points" in t else ""
        lines.append(
            f"Last trick: {_who(t['leader'], me)} led {t['lead']}, answered by {t['response']}: "
            f"{t['play']}{points}, to {_who(t['winner'], me)}"
        )
    for p in players:
        if p["seat"] != me:
            lines.append(f"{_who(p['seat'], me).capitalize()} holds {p['cards']} cards.")
    if view["table"]:
        lines.append(f"Led: {view['table']} by {_who(view['leader'], me)}")
    if "hand" in view:
        lines.append(f"Your hand: {' '.join(view['hand']) or '-'}")
    responses = view.get("responses", {})
    if responses:
        lines.append("What each response would score:")
    for action, verdict in responses.items():
        lines.append(f"  {action:<16} {verdict}")
    return "\n".join(lines)


def describe(event: Mapping[str, Any]) -> str | None:
    """One line for an event of an Ace Pit game, as one seat saw it."""
    kind = event["type"]
    if kind == "deal":
        text = f"Seat {event['dealer']} deals 7 cards each; seat {event['leader']} leads."
        if "hand" in event:
            text += f" Dealt: {event['hand']}."
        return text
    if kind == "action":
        words = event["action"].split()
        verb = "leads" if words[0] == "lead" else "responds with"
        return f"Seat {event['seat']} {verb} {' '.join(words[1:])}."
    if kind == "trick":
        points = f" — {event['points']}" if "points" in event else ""
        again = " again" if event["winner"] == event["leader"] else ""
        return f"{event['play']}{points}: seat {event['winner']} takes the trick and leads{again}."
    if kind == "draw":
        card = f" ({event['card']})" if "card" in event else ""
        return f"Seat {event['seat']} picks up a card{card}."
    if kind == "hand_end":
        if "points" in event:
            a, b = event["points"]
            return f"The hand is over: seat 0 scored {a}, seat 1 scored {b}."
        return "The hand is over."
    return None
