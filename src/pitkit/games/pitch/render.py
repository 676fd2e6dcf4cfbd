"""Pitch in words: a seat's view as text for the terminal, and the one wording
of its events (`describe`), which the terminal and the browser share."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pitkit.core.narrate import Narrator

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


_POINTS = {"high": "High", "low": "Low", "jack": "Jack", "game": "Game"}
_SEAT_LIST = re.compile(r"\bseats \[([\d, ]*)\]")
_SEAT_DOES = re.compile(r"\b([Ss])eat (\d+) (deals|forfeits)\b")
_TEAM = re.compile(r"\bteam (\d+(?:-\d+)+)\b")


def describe(event: Mapping[str, Any], say: Narrator) -> str | None:
    """One line for an event of a game of Pitch, as `say`'s reader saw it
    (`Event.seen_by`); None: not worth a line. A match's scores and its end
    are told by `pitkit.core.game.match_event_text`."""
    kind = event.get("type")
    if kind == "cut":
        cards = ", ".join(f"{say.name(int(s))} {c}" for s, c in event["cards"].items())
        high = list(event["high"])
        if len(high) == 1:
            return f"Cut for the deal: {cards}. {say.does(high[0], 'deals')} first."
        tied = _and(say.name(s) for s in high)
        return f"Cut for the deal: {cards}. A tie between {tied}: they cut again."
    if kind == "deal":
        text = f"{say.does(event['dealer'], 'deals')} six cards each."
        if event.get("cut_by") is not None:
            text = f"{say.does(event['cut_by'], 'cuts')}. {text}"
        return text + (f" Your cards: {event['hand']}." if event.get("hand") else "")
    if kind == "run":
        text = f"{say.does(event['dealer'], 'runs')} it: {event['cards_each']} more cards each."
        return text + (f" You get {event['cards']}." if event.get("cards") else "")
    if kind == "action":
        return _describe_action(event, say)
    if kind == "contract":
        how = _with_names(str(event.get("how", "")), say)
        return f"{say.does(event['pitcher'], 'pitches')} for {event['bid']} ({how})."
    if kind == "trump":
        return f"Trump is {_SUIT_NAMES.get(event['suit'], event['suit'])}."
    if kind == "trick":
        plays = []
        for play in str(event["cards"]).split():
            seat, _, card = play.rpartition(":")
            plays.append(f"{say.name(int(seat))} {card}" if seat.isdigit() else card)
        won = say.does(event["winner"], "wins")
        return f"{won} trick {event['number']} ({', '.join(plays)})."
    if kind == "hand_end":
        return _describe_result(event["result"], say)
    if kind == "ruling":
        ruling = event.get("ruling") or {}
        judge = f" (judge {ruling['judge']})" if ruling.get("judge") else ""
        note = _with_names(str(event.get("note", "")), say)
        return f"Ruling, line {event['line']}: {note}{judge}."
    return None


def _describe_action(event: Mapping[str, Any], say: Narrator) -> str | None:
    """A bid, a pass, a play, or the dealer's choice; a run is told by its run event."""
    seat = event["seat"]
    words = str(event["action"]).split()
    verb = words[0] if words else ""
    if verb == "play":
        return f"{say.does(seat, 'plays')} {words[1]}."
    if verb == "pass":
        return f"{say.does(seat, 'passes')}."
    if verb == "bid":
        return f"{say.does(seat, 'bids')} {words[1]}."
    if verb == "steal":
        return f"{say.who(seat)}, the dealer, {say.verb(seat, 'steals')} the bid for {words[1]}."
    if verb == "take":
        return f"{say.who(seat)}, the dealer, {say.verb(seat, 'takes')} it for 2."
    if verb == "run":
        return None  # the run event says it
    if verb == "sell":
        return f"{say.who(seat)}, the dealer, {say.verb(seat, 'sells')} the bid."
    return f"{say.who(seat)}: {say.with_names(' '.join(words))}."


def _describe_result(result: Mapping[str, Any], say: Narrator) -> str:
    """A hand's result: the bid and its fate, and who won each point and why."""
    parts = [_sentence(_summary(result, say))]
    for award in result.get("awards") or ():
        point = _POINTS.get(award.get("point"), str(award.get("point")))
        why = _with_names(str(award.get("why", "")), say).rstrip(".")
        parts.append(f"{point}: {why}.")
    return " ".join(parts)


def _summary(result: Mapping[str, Any], say: Narrator) -> str:
    """The hand's summary (`HandResult.summary`) with seats by name and the
    reader's own bid in the second person."""
    try:
        sides = [list(side) for side in result["sides"]]
        pitcher = int(result["pitcher"])
        suit = _SUIT_NAMES[result["trump"]]
        team = len(sides[0]) > 1
        own = next(side for side in sides if pitcher in side)
        won = result["won"][sides.index(own)]
        points = [
            f"{a['point']} " + (_side(a["credited"], say) if a.get("credited") else "-")
            for a in result["awards"]
        ]
    except (KeyError, IndexError, StopIteration, TypeError, ValueError):
        return _with_names(str(result.get("summary", "the hand is over")), say)
    who = f"team {_team(own, say)}" if team else say.who(pitcher)
    is_ = "is" if team else say.verb(pitcher, "is")
    verdict = f"made it with {won}" if result["made"] else f"{is_} set back {result['bid']}"
    return f"{who} bid {result['bid']} in {suit} and {verdict} ({', '.join(points)})"


def _side(seats: Sequence[int], say: Narrator) -> str:
    """One seat by name ("you" for the reader), or a team as "team Ada-Cy"."""
    if len(seats) == 1:
        return say.who(int(seats[0]), start=False)
    return f"team {_team(seats, say)}"


def _team(seats: Iterable[int], say: Narrator) -> str:
    """A team by its names: "Ada-Cy"."""
    return "-".join(say.name(int(s)) for s in seats)


def _and(names: Iterable[str]) -> str:
    """Names in a list: "Ada", "Ada and Bix", "Ada, Bix and Cy"."""
    listed = list(names)
    if len(listed) == 1:
        return listed[0]
    return f"{', '.join(listed[:-1])} and {listed[-1]}"


def _with_names(text: str, say: Narrator) -> str:
    """An engine's sentence with seats by name, lists and teams too ("seats
    [0, 2]", "team 1-3"), and the reader's own seat in the second person
    ("you deal again")."""

    def listed(found: re.Match[str]) -> str:
        seats = [int(s) for s in found.group(1).replace(",", " ").split()]
        return _and(say.who(s, start=False) for s in seats) if seats else "nobody"

    def does(found: re.Match[str]) -> str:
        seat = int(found.group(2))
        return say.does(seat, found.group(3), start=found.group(1) == "S")

    def team(found: re.Match[str]) -> str:
        return f"team {_team((int(s) for s in found.group(1).split('-')), say)}"

    text = _TEAM.sub(team, _SEAT_LIST.sub(listed, text))
    return say.with_names(_SEAT_DOES.sub(does, text))


def _sentence(text: str) -> str:
    """`text` with a capital first letter and a full stop (card letters keep their case)."""
    return text[:1].upper() + text[1:] + "."
