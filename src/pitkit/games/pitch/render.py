"""Pitch's view and events as text for the terminal."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["describe", "render"]

_SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}


def _who(seat: Any, view_seat: Any = None) -> str:
    return "you" if seat is not None and seat == view_seat else f"seat {seat}"


def render(view: Mapping[str, Any]) -> str:
    """A readable picture of one seat's view of the table."""
    me = view.get("seat")
    phase = view["phase"]
    trump = view.get("trump")
    head = f"Dealer: {_who(view['dealer'], me)}."
    if view.get("pitcher") is not None:
        head += f" Pitcher: {_who(view['pitcher'], me)} for {view['bid']}."
    if trump:
        head += f" Trump: {_SUIT_NAMES[trump]}."
    elif phase in ("bidding", "rebidding"):
        high = view.get("high") or 0
        head += (
            f" High bid: {high} by {_who(view['high_bidder'], me)}."
            if view.get("high_bidder") is not None
            else " No bid yet."
        )
        if view.get("ran"):
            head += " The dealer ran it."
    lines = [head]
    if view.get("bids"):
        lines.append("Bids: " + ", ".join(f"{b['seat']}: {b['said']}" for b in view["bids"]))
    teams = view.get("teams")
    for p in view["players"]:
        if not p["seated"]:
            lines.append(f"  seat {p['seat']}: sitting out")
            continue
        team = ""
        if teams:
            team = next(f" (team {'-'.join(map(str, t))})" for t in teams if p["seat"] in t)
        won = p["won"] or "-"
        lines.append(f"  {_who(p['seat'], me)}{team}: {p['cards']} cards, won: {won}")
    if view.get("trick"):
        lines.append("Trick: " + "  ".join(f"{t['seat']}:{t['card']}" for t in view["trick"]))
    elif view.get("last_trick"):
        lines.append(f"Last trick: {view['last_trick']}")
    if "hand" in view:
        lines.append(f"Your hand: {' '.join(view['hand']) or '-'}")
    match = view.get("match")
    if match and match.get("scores") is not None:
        lines.append("Scores: " + ", ".join(f"seat {s} {v}" for s, v in enumerate(match["scores"])))
    return "\n".join(lines)


def describe(event: Mapping[str, Any]) -> str | None:
    """One line for an event of a game of Pitch, as one seat saw it."""
    kind = event["type"]
    if kind == "cut":
        cards = ", ".join(f"seat {s} {c}" for s, c in event["cards"].items())
        high = event["high"]
        if len(high) == 1:
            return f"Cut for the deal: {cards}. Seat {high[0]} deals first."
        return f"Cut for the deal: {cards}. Seats {', '.join(map(str, high))} tie and cut again."
    if kind == "deal":
        text = f"Seat {event['dealer']} deals six cards each."
        if "cut_by" in event:
            text = f"Seat {event['cut_by']} cuts. " + text
        if "hand" in event:
            text += f" Your hand: {event['hand']}."
        return text
    if kind == "run":
        text = f"Seat {event['dealer']} runs it: {event['cards_each']} more cards each."
        if "cards" in event:
            text += f" You get {event['cards']}."
        return text
    if kind == "action":
        seat = event["seat"]
        words = str(event["action"]).split()
        verb = words[0]
        if verb == "play":
            return f"Seat {seat} plays {words[1]}."
        if verb == "pass":
            return f"Seat {seat} passes."
        if verb == "bid":
            return f"Seat {seat} bids {words[1]}."
        if verb == "steal":
            return f"Seat {seat}, the dealer, steals the bid for {words[1]}."
        if verb == "take":
            return f"Seat {seat}, the dealer, takes it for 2."
        if verb == "run":
            return None  # the run event says it
        if verb == "sell":
            return f"Seat {seat}, the dealer, sells the bid."
        return f"Seat {seat}: {event['action']}."
    if kind == "contract":
        return f"Seat {event['pitcher']} pitches for {event['bid']} ({event['how']})."
    if kind == "trump":
        return f"Trump is {_SUIT_NAMES[event['suit']]}."
    if kind == "trick":
        return f"Seat {event['winner']} wins trick {event['number']} ({event['cards']})."
    if kind == "hand_end":
        result = event["result"]
        lines = [_sentence(str(result["summary"]))]
        lines += [f"  {a['point']}: {a['why']}" for a in result["awards"]]
        return "\n".join(lines)
    if kind == "ruling":
        ruling = event["ruling"]
        judge = f" (judge {ruling['judge']})" if ruling.get("judge") else ""
        return f"Ruling, line {event['line']}: {event['note']}{judge}."
    if kind == "scores":
        if event["scores"] is None:
            return None
        return f"After line {event['hand']}: " + ", ".join(
            f"seat {seat} {score}" for seat, score in enumerate(event["scores"])
        )
    if kind == "match_over":
        return _sentence(str(event["result"]["summary"]))
    if kind in ("shuffle", "pick"):
        return None
    return None


def _sentence(text: str) -> str:
    """`text` with a capital first letter and a full stop (card letters keep their case)."""
    return text[:1].upper() + text[1:] + "."
