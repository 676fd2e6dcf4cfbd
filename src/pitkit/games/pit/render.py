"""Pit in words: a seat's view as text for the terminal, and the one wording
of its events (`describe`), which the terminal and the browser share."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from pitkit.core.narrate import Narrator, plural

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


def describe(event: Mapping[str, Any], say: Narrator) -> str | None:
    """One line for an event of a Pit hand, as `say`'s reader saw it
    (`Event.seen_by`); None: not worth a line. A match's scores and its end
    are told by `pitkit.core.game.match_event_text`."""
    kind = event.get("type")
    if kind == "deal":
        text = f"{say.does(event['dealer'], 'deals')} {_dealt(event.get('cards') or [], say)}."
        return text + (f" Your cards: {event['hand']}." if event.get("hand") else "")
    if kind == "open":
        return "Ding! The pit is open."
    if kind == "action":
        return _describe_action(event, say)
    if kind == "trade":
        seller = event["seller"]
        whose = "your" if seller == say.reader else f"{say.name(seller)}'s"
        text = f"{say.does(event['buyer'], 'takes')} {whose} {event['count']} (#{event['offer']})"
        if event.get("paid_with") is not None:
            text += f", paying with offer #{event['paid_with']}"
        text += "."
        return text + (f" You receive {event['received']}." if event.get("received") else "")
    if kind == "penalty":
        reason = say.with_names(str(event.get("reason", "")))
        return f"{say.who(event['seat'])} {reason}: {event['points']}."
    if kind == "corner":
        seat = event["seat"]
        text = (
            f"CORNER! {say.does(seat, 'corners')} {event['commodity']} with "
            f"{event['cards']}: +{event['points']}"
            + (" (doubled by the Bull)" if event.get("doubled") else "")
            + "."
        )
        bear, bull = event.get("bear"), event.get("bull")
        if bear is not None:
            text += f" {say.does(bear, 'is')} stuck with the Bear: -20."
        if bull is not None:
            text += f" {say.does(bull, 'holds')} the Bull: -20."
        return text
    if kind == "hand_end":
        if event.get("cornerer") is not None:
            return None  # the corner event says it
        return f"The hand ends: {say.with_names(str(event.get('summary', '')))}."
    return None


def _describe_action(event: Mapping[str, Any], say: Narrator) -> str | None:
    """Offers and withdrawals; the other actions are told by the events they
    cause (open, trade, corner, penalty)."""
    seat = event["seat"]
    words = str(event["action"]).split()
    number = f" (#{event['offer']})" if event.get("offer") else ""
    if words[0] == "offer" and len(words) > 2:
        # The offerer's own copy of the event names the cards (T4).
        return f"{say.does(seat, 'offers')} {' '.join(words[1:])}{number}."
    if words[0] == "offer" and len(words) == 2 and words[1].isdigit():
        return f"{say.does(seat, 'offers')} {plural(int(words[1]), 'card')}{number}."
    if words[0] == "withdraw" and event.get("offer"):
        return f"{say.does(seat, 'withdraws')} offer #{event['offer']}."
    return None


_NUMBERS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def _count(n: int) -> str:
    """A count in words up to ten: "nine"."""
    return _NUMBERS[n] if 0 <= n < len(_NUMBERS) else str(n)


def _dealt(counts: Sequence[int], say: Narrator) -> str:
    """How many cards each seat was dealt: "nine cards each", or with the
    Bull and the Bear "nine cards each, ten to Ada and Bix"."""
    if not counts:
        return "the cards"
    least = min(counts)
    text = f"{_count(least)} {'card' if least == 1 else 'cards'} each"
    for n in sorted(set(counts) - {least}):
        seats = [say.who(s, start=False) for s, k in enumerate(counts) if k == n]
        names = seats[0] if len(seats) == 1 else f"{', '.join(seats[:-1])} and {seats[-1]}"
        text += f", {_count(n)} to {names}"
    return text
