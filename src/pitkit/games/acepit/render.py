"""Ace Pit in words: a seat's view as text for the terminal, and the one
wording of its events (`describe`), which the terminal and the browser share."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pitkit.core.narrate import Narrator

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


def describe(event: Mapping[str, Any], say: Narrator) -> str | None:
    """One line for an event of an Ace Pit game, as `say`'s reader saw it
    (`Event.seen_by`); None: not worth a line."""
    kind = event.get("type")
    if kind == "deal":
        dealer, leader = event["dealer"], event["leader"]
        text = f"{say.does(dealer, 'deals')} 7 cards each. {say.does(leader, 'leads')}."
        return text + (f" Your cards: {event['hand']}." if event.get("hand") else "")
    if kind == "action":
        words = str(event["action"]).split()
        cards = " ".join(words[1:])
        if words[0] == "lead":
            return f"{say.does(event['seat'], 'leads')} {cards}."
        return f"{say.does(event['seat'], 'answers')} with {cards}."
    if kind == "trick":
        points = f" — {event['points']}" if event.get("points") is not None else ""
        winner = event["winner"]
        again = " again" if winner == event.get("leader") else ""
        return (
            f"{event['play']}{points}: {say.does(winner, 'takes')} the trick "
            f"and {say.verb(winner, 'leads')}{again}."
        )
    if kind == "draw":
        card = f" ({event['card']})" if event.get("card") else ""
        return f"{say.does(event['seat'], 'picks')} up a card{card}."
    if kind == "hand_end":
        scored = event.get("points")
        if scored:
            return (
                f"The hand is over: {say.name(0)} scored {scored[0]}, "
                f"{say.name(1)} scored {scored[1]}."
            )
        return "The hand is over."
    return None
