"""A score pad for a hand of Pitch played at a physical table: `pitkit judge pitch ...`."""

from __future__ import annotations

from collections.abc import Sequence

from pitkit.games.pitch.rules import team_seats
from pitkit.games.pitch.scoring import score_hand

__all__ = ["judge"]


def judge(args: Sequence[str]) -> str:
    """Score a hand played at a physical table: ``pitkit judge pitch
    pitcher=0 bid=3 [teams=2x3] [jack_to=played] "0:AS 1:2S" "1:TH 0:3H" ...``,
    one argument a trick, each play seat:card in the order played."""
    settings: dict[str, str] = {}
    tricks: list[str] = []
    for arg in args:
        name, sep, value = arg.partition("=")
        if sep and ":" not in arg:
            settings[name.strip()] = value.strip()
        else:
            tricks.append(arg)
    unknown = set(settings) - {"pitcher", "bid", "teams", "jack_to", "players"}
    if unknown:
        raise ValueError(f"unknown setting(s) {', '.join(sorted(unknown))}")
    if "pitcher" not in settings or "bid" not in settings:
        raise ValueError('give pitcher=SEAT bid=N and the tricks, e.g. "0:AS 1:2S"')
    try:
        pitcher, bid = int(settings["pitcher"]), int(settings["bid"])
        players = int(settings["players"]) if "players" in settings else None
    except ValueError:
        raise ValueError("pitcher, bid and players are whole numbers") from None
    jack_to = settings.get("jack_to", "captured")
    if jack_to not in ("captured", "played"):
        raise ValueError(f"jack_to is captured or played, not {jack_to!r}")
    teams = team_seats(settings.get("teams", "none"))
    result = score_hand(
        tricks,
        pitcher=pitcher,
        bid=bid,
        teams=teams,
        players=players,
        jack_to="played" if jack_to == "played" else "captured",
    )
    lines = [result.summary[0].upper() + result.summary[1:] + "."]
    lines += [f"  {a.point}: {a.why}" for a in result.awards]
    lines.append(
        "  score changes: " + ", ".join(f"seat {s} {d:+d}" for s, d in enumerate(result.deltas))
    )
    return "\n".join(lines)
