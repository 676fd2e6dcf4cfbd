"""The table's judge: ``pitkit judge ace-pit 8H "7H 9H"`` settles a trick."""

from __future__ import annotations

from collections.abc import Sequence

from pitkit.cards import format_cards
from pitkit.games.acepit.scoring import LED_ACE_POINTS, parse_lead, parse_response, score_response

__all__ = ["judge"]

USAGE = 'give the led card, then the response: pitkit judge ace-pit 8H "7H 9H"'


def judge(args: Sequence[str]) -> str:
    """The verdict on a lead and a response given as command-line words:
    the play's name and points, each part, and who leads next."""
    if len(args) < 2:
        raise ValueError(USAGE)
    lead = parse_lead(args[0])
    response = parse_response(list(args[1:]))
    score = score_response(lead, response)
    lines = [f"{lead} led, {format_cards(response)} in response: {score}"]
    width = max(len(p.name) for p in score.parts)
    lines += [f"  {p.name:<{width}}  {p.points:>3}" for p in score.parts]
    if score.responder_wins:
        lines.append(f"The responder scores {score.points} and leads the next trick.")
        if len(response) == 2:
            lines.append("Having played two cards, the responder picks up one from the stock (A5).")
    elif score.points == LED_ACE_POINTS:
        lines.append(f"The led Ace stands: the leader scores {score.points} and leads again (A4).")
    else:
        lines.append(f"A Throw Away: the leader scores {score.points} and leads again.")
    return "\n".join(lines)
