"""A rules judge for disputes at the table: `pitkit judge pits "A A 2" "A 2 2"`."""

from __future__ import annotations

from collections.abc import Sequence

from pitkit.cards import CardError, parse_card
from pitkit.games.pits.melds import Meld, rank_text, read_as, read_meld, readings
from pitkit.games.pits.rules import Rules

__all__ = ["judge", "verdict"]

_FLAGS = "[--finnish] [--no-wildness-degrees] [--min-run-of-sets N]"
_USAGE = f"usage: pitkit judge pits CARDS [ON_TABLE] {_FLAGS}"


def judge(args: Sequence[str]) -> str:
    """The judge's answer for command-line arguments: the readings of one group
    of cards, or whether the first group beats the second, and why."""
    rules_options: dict[str, object] = {}
    groups: list[str] = []
    items = list(args)
    while items:
        arg = items.pop(0)
        if arg == "--finnish":
            rules_options["finnish_twos"] = True
        elif arg == "--no-wildness-degrees":
            rules_options["wildness_degrees"] = False
        elif arg == "--min-run-of-sets" and items:
            rules_options["min_run_of_sets"] = items.pop(0)
        elif arg.startswith("--"):
            raise ValueError(f"unknown flag {arg}; {_USAGE}")
        else:
            groups.append(arg)
    rules = Rules.from_options(rules_options)
    if len(groups) == 1:
        found = readings(groups[0], rules)
        if not found:
            return f"{groups[0]} is not a legal meld."
        return f"{groups[0]} can be read as: " + "; ".join(m.describe() for m in found) + "."
    if len(groups) != 2:
        raise ValueError(_USAGE)
    return verdict(groups[0], groups[1], rules)


def verdict(challenger: str, on_table: str, rules: Rules) -> str:
    """Whether `challenger` beats `on_table`, with the deciding reason in one line."""
    table = read_meld(on_table, None, rules)
    size = table.set_size if table.kind == "run_of_sets" else None
    meld = read_as(challenger, table.kind, rules, set_size=size)
    if meld is None:
        kind = _kind_phrase(table)
        return f"No: {_written(challenger)} cannot be played as {kind}, the kind on the table."
    if meld.shape != table.shape:
        return f"No: {meld.describe()} is not the same size as {table.describe()}."
    reason = _reason(meld, table, rules)
    answer = "Yes" if meld.beats(table, rules) else "No"
    return (
        f"{answer}: {_written(challenger)} is {meld.describe()}; "
        f"{_written(on_table)} is {table.describe()}; {reason}."
    )


def _written(cards: str) -> str:
    """Cards as players write them (``A♦ 10♥``); a bare rank stays as it was typed."""
    words = []
    for token in cards.replace(",", " ").split():
        try:
            words.append(parse_card(token).written)
        except CardError:
            words.append(token)
    return " ".join(words)


def _kind_phrase(meld: Meld) -> str:
    return {"single": "a single", "set": "a set", "run": "a run"}.get(
        meld.kind, f"a run of sets of {meld.set_size}"
    )


def _reason(meld: Meld, table: Meld, rules: Rules) -> str:
    if meld.top_rank != table.top_rank:
        first = meld.top_rank > table.top_rank
        top = rank_text(max(meld.top_rank, table.top_rank))
        return f"the {'first' if first else 'second'} ranks higher ({top} on top)"
    if meld.suited != table.suited:
        which = "first" if meld.suited else "second"
        return f"the {which} is a run in one suit, which beats a mixed one"
    if not rules.wildness_degrees:
        if (meld.wild_count == 0) != (table.wild_count == 0):
            natural = "first" if meld.wild_count == 0 else "second"
            return f"the {natural} is natural and the other wild"
        return "both are wild, and wild is wild (no degrees of wildness), so it does not beat"
    if meld.wild_count != table.wild_count:
        fewer = "first" if meld.wild_count < table.wild_count else "second"
        return f"the {fewer} has fewer wild cards ({meld.wild_count} against {table.wild_count})"
    for mine, theirs in zip(meld.wild_positions, table.wild_positions, strict=True):
        if mine != theirs:
            lower = "first" if mine < theirs else "second"
            low, high = rank_text(min(mine, theirs)), rank_text(max(mine, theirs))
            return f"the {lower} has its wild card standing lower ({low} against {high})"
    return "they are equal by every rule, and an equal meld does not beat"
