"""Pitty Pat in words: a seat's view as text for the terminal, and the one
wording of its events (`describe`), which the terminal and the browser share."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pitkit.core.narrate import Narrator

__all__ = ["describe", "render"]


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


def describe(event: Mapping[str, Any], say: Narrator) -> str | None:
    """One line for an event of a Pitty Pat hand, as `say`'s reader saw it
    (`Event.seen_by`); None: not worth a line."""
    kind = event.get("type")
    if kind == "deal":
        text = f"{say.does(event['dealer'], 'deals')}. The up card is {event['up']}."
        if event.get("hand"):
            text += f" Your cards: {event['hand']}."
        for seat, pairs in (event.get("laid") or {}).items():
            text += f" {say.does(int(seat), 'lays')} down the dealt pairs {pairs}."
        return text
    if kind == "action":
        seat = event["seat"]
        words = str(event["action"]).split()
        if words[0] == "draw":
            return f"{say.does(seat, 'draws')}."
        if len(words) == 3:
            return (
                f"{say.does(seat, 'matches')} with {words[1]} and "
                f"{say.verb(seat, 'discards')} {words[2]}."
            )
        return f"{say.does(seat, 'matches')} with {words[1]}, the last card."
    if kind == "turned":
        return f"{say.does(event['seat'], 'turns')} up {event['card']}."
    if kind == "restock":
        return f"The pile becomes the stock ({event['stock']} cards); {event['up']} is turned up."
    if kind == "hand_end":
        winner = event.get("winner")
        if winner is None:
            return f"The hand is a draw: {say.with_names(str(event.get('reason', '')))}."
        return f"{say.does(winner, 'is')} out and {say.verb(winner, 'wins')} the hand!"
    return None
