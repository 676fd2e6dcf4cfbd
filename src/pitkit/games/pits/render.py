"""Pits in words: a seat's view as text for the terminal, and the one wording
of its events (`describe`), which the terminal and the browser share."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pitkit.core.narrate import Narrator, plural

__all__ = ["describe", "render"]


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
            notes.append(f"out {_ordinal(p['place'])}")
        if p["passed"]:
            notes.append("passed")
        if p["seat"] == view["dealer"]:
            notes.append("dealer")
        lines.append(f"  {who}: {', '.join(notes)}")
    if "hand" in view:
        lines.append(f"Your hand: {' '.join(view['hand'])}")
    return "\n".join(lines)


def describe(event: Mapping[str, Any], say: Narrator) -> str | None:
    """One line for an event of a Pits hand, as `say`'s reader saw it
    (`Event.seen_by`); None: not worth a line."""
    kind = event.get("type")
    if kind == "deal":
        text = f"{say.does(event['dealer'], 'deals')}."
        return text + (f" Your cards: {event['hand']}." if event.get("hand") else "")
    if kind == "action":
        return _describe_action(event, say)
    if kind == "meld":
        return (
            f"{say.does(event['seat'], 'plays')} {event['meld']} "
            f"({plural(event['left'], 'card')} left)."
        )
    if kind == "out":
        return f"{say.does(event['seat'], 'is')} out, {_ordinal(event['place'])}!"
    if kind == "round":
        return f"Everyone passed. {say.does(event['leader'], 'leads')}."
    if kind == "offered":
        return f"{say.does(event['seat'], 'gives')} up {event['card']}, face up."
    if kind == "revealed":
        gave = (f"{say.name(int(s))} gave {c}" for s, c in (event.get("cards") or {}).items())
        return "The face-down cards: " + ", ".join(gave) + "."
    if kind == "exchanged":
        took = (event.get("took") or {}).items()
        return " ".join(f"{say.does(int(s), 'takes')} {c}." for s, c in took) or None
    if kind == "hand_end":
        return "Finishing order: " + ", ".join(say.name(s) for s in event["order"]) + "."
    return None


def _describe_action(event: Mapping[str, Any], say: Narrator) -> str | None:
    """Passes and face-down gives; plays and face-up exchanges are told by
    the events they cause (meld, offered, exchanged)."""
    seat = event["seat"]
    action = str(event["action"])
    if action == "pass":
        return f"{say.does(seat, 'passes')}."
    if action.startswith(("play", "take")):
        return None
    if action.startswith("give"):
        # The table sees "give (face down)"; the giver's own copy names the
        # card, as a face-up give does (which its `offered` event tells
        # everyone else): so the giver reads which card it gave, either way.
        if action[5:].startswith("("):
            return f"{say.does(seat, 'gives')} a card, face down."
        return f"You give {action[5:]}." if seat == say.reader else None
    return f"{say.who(seat)}: {say.with_names(action)}."


def _ordinal(n: int) -> str:
    """A place in figures: "1st", "2nd", "3rd", "4th"."""
    tail = "th" if 11 <= n % 100 <= 13 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{tail}"
