"""Pitch as text: the table picture and one line for each event."""

from __future__ import annotations

import re
from typing import Any

import pytest

from pitkit import bots
from pitkit.core.match import Match
from pitkit.core.narrate import Narrator
from pitkit.games.pitch import GAME, HeuristicBot, Misdeal, Misplay, PitchMatch, describe, render
from tests.games.words import worded

NAMES = ("Ada", "Bix", "Cy", "Dee", "Eve", "Fay")
SEAT_NUMBER = re.compile(r"seat \d")
ADA = Narrator.named(NAMES, reader=0)
BIX = Narrator.named(NAMES, reader=1)


def test_every_event_of_a_game_has_words() -> None:
    match = GAME.new_match(4, ["mode=tournament"], seed=2)
    assert isinstance(match, PitchMatch)
    bots = [HeuristicBot(s) for s in range(4)]
    match.rule(Misdeal("before_play", judge="JD"))
    while not match.is_over:
        seat = min(match.to_act)
        if len(match.results) == 1 and match.hand.cards_played == 1:
            match.rule(Misplay(seat, correctable=False))
            continue
        match.apply(seat, bots[seat].choose(match, seat))
    kinds = set()
    seats = Narrator.seats(4, 0)
    for event in match.log:
        text = describe(event.seen_by(0), seats)
        kinds.add(event.type)
        if event.type in ("scores", "match_over"):
            # The match's own events: core's `match_event_text` tells them.
            assert text is None and GAME.narrate(event.seen_by(0), seats)
        # A dealer's "run" is told by the run event that follows it.
        elif event.type not in ("shuffle", "pick") and event.public.get("action") != "run":
            assert text, f"no words for {event.type}"
    assert {"cut", "deal", "contract", "trump", "trick", "hand_end", "ruling"} <= kinds
    assert "Seat 0 deals" in (describe({"type": "deal", "dealer": 0}, Narrator.seats(4)) or "")
    assert describe({"type": "deal", "dealer": 0}, seats) == "You deal six cards each."
    run = {"type": "run", "dealer": 1, "cards_each": 3, "cards": "2H 3H 4H"}
    assert describe(run, seats) == "Seat 1 runs it: 3 more cards each. You get 2H 3H 4H."
    for action, words in [
        ("pass", "passes"),
        ("bid 3", "bids 3"),
        ("steal 3", "steals"),
        ("take", "takes it for 2"),
        ("sell", "sells"),
        ("play AS", "plays AS"),
    ]:
        said = describe({"type": "action", "seat": 1, "action": action}, Narrator.seats(4, 0))
        assert words in (said or "")


def test_render_shows_the_seats_own_hand_only() -> None:
    match = GAME.new_match(4, seed=3)
    assert isinstance(match, PitchMatch)
    text = render(match.view(1))
    assert "Your hand:" in text and "Dealer:" in text and "Scores:" in text
    assert "Your hand" not in render(match.view(None))
    bots = [HeuristicBot(s) for s in range(4)]
    while match.hand.cards_played < 2:
        seat = min(match.to_act)
        match.apply(seat, bots[seat].choose(match, seat))
    assert "Trump:" in render(match.view(0)) and "Trick:" in render(match.view(0))
    teams = GAME.new_match(6, ["teams=2x3"], seed=3)
    assert "(team 0-2-4)" in render(teams.view(0))


# -- Words with names and persons ------------------------------------------------------


def random_match(seed: int, players: int, rules: list[str] | None = None) -> Match[Any, Any]:
    """A whole match of Pitch between random bots."""
    match = GAME.new_match(players, rules, seed=seed)
    players_bots = [bots.make(GAME, "random", seed + s) for s in range(players)]
    while not match.is_over:
        seat = min(match.to_act)
        match.apply(seat, players_bots[seat].choose(match, seat))
    return match


@pytest.mark.parametrize(
    ("seed", "players", "rules"),
    [(1, 4, None), (2, 4, ["mode=tournament"]), (3, 6, ["teams=2x3"]), (4, 3, None)],
)
def test_every_event_of_a_random_match_reads_with_names(
    seed: int, players: int, rules: list[str] | None
) -> None:
    match = random_match(seed, players, rules)
    kinds = worded(match)
    assert {"deal", "action", "contract", "trump", "trick", "hand_end"} <= kinds


def test_a_ruling_names_the_seats() -> None:
    match = GAME.new_match(4, ["mode=tournament"], seed=2)
    assert isinstance(match, PitchMatch)
    events = match.rule(Misdeal("before_play", judge="JD"))
    ruling = next(e for e in events if e.type == "ruling")
    dealer = match.dealer
    assert describe(ruling.seen_by(0), ADA) == (
        f"Ruling, line 1: misdeal found before play: {NAMES[dealer]} deals again (judge JD)."
    )
    mine = Narrator.named(NAMES[:4], reader=dealer)
    assert describe(ruling.seen_by(dealer), mine) == (
        "Ruling, line 1: misdeal found before play: you deal again (judge JD)."
    )
    note = {
        "type": "ruling",
        "ruling": {"kind": "misplay", "seat": 2},
        "line": 3,
        "note": "seat 2 misplayed; sits out the next hand; seat 0 deals to seats [0, 1, 3]",
    }
    assert describe(note, BIX) == (
        "Ruling, line 3: Cy misplayed; sits out the next hand; Ada deals to Ada, you and Dee."
    )


def test_bids_and_plays_read_you_for_the_reader() -> None:
    match = random_match(5, 4)
    plays = [e.public for e in match.log if e.type == "action"]
    for action in plays:
        seat, words = action["seat"], action["action"].split()
        if words[0] == "play":
            expected = f"You play {words[1]}." if seat == 0 else f"{NAMES[seat]} plays {words[1]}."
            assert describe({"type": "action", **action}, ADA) == expected
        if words[0] == "bid":
            expected = f"You bid {words[1]}." if seat == 0 else f"{NAMES[seat]} bids {words[1]}."
            assert describe({"type": "action", **action}, ADA) == expected
    dealer = {"type": "action", "seat": 1}
    assert describe({**dealer, "action": "steal 3"}, ADA) == (
        "Bix, the dealer, steals the bid for 3."
    )
    assert describe({**dealer, "action": "steal 3"}, BIX) == (
        "You, the dealer, steal the bid for 3."
    )
    assert describe({**dealer, "action": "take"}, BIX) == "You, the dealer, take it for 2."
    assert describe({**dealer, "action": "sell"}, ADA) == "Bix, the dealer, sells the bid."
    assert describe({**dealer, "action": "run"}, ADA) is None, "the run event tells it"
    assert describe({**dealer, "action": "pass"}, BIX) == "You pass."


def test_key_sentences() -> None:
    cut = {"type": "cut", "cards": {"0": "4D", "1": "KC"}, "high": [1]}
    assert describe(cut, ADA) == "Cut for the deal: Ada 4D, Bix KC. Bix deals first."
    assert describe(cut, BIX) == "Cut for the deal: Ada 4D, Bix KC. You deal first."
    tie = {"type": "cut", "cards": {"0": "KD", "1": "KC", "2": "3S"}, "high": [0, 1]}
    assert describe(tie, ADA) == (
        "Cut for the deal: Ada KD, Bix KC, Cy 3S. A tie between Ada and Bix: they cut again."
    )
    deal = {"type": "deal", "dealer": 1, "cut_by": 0, "cards_each": 6, "hand": "2H 3H"}
    assert describe(deal, ADA) == "You cut. Bix deals six cards each. Your cards: 2H 3H."
    run = {"type": "run", "dealer": 1, "cards_each": 3, "stock": 10}
    assert describe(run, ADA) == "Bix runs it: 3 more cards each."
    contract = {"type": "contract", "pitcher": 2, "bid": 3, "how": "bought it from seat 1"}
    assert describe(contract, ADA) == "Cy pitches for 3 (bought it from Bix)."
    assert describe(contract, BIX) == "Cy pitches for 3 (bought it from you)."
    assert describe({"type": "trump", "suit": "S", "pitcher": 2}, ADA) == "Trump is spades."
    trick = {"type": "trick", "winner": 0, "cards": "2:AS 3:KS 0:2S 1:3S", "number": 1}
    assert describe(trick, ADA) == "You win trick 1 (Cy AS, Dee KS, Ada 2S, Bix 3S)."
    assert describe(trick, BIX) == "Ada wins trick 1 (Cy AS, Dee KS, Ada 2S, Bix 3S)."


def test_a_hand_result_in_words() -> None:
    result: dict[str, Any] = {
        "trump": "S",
        "pitcher": 0,
        "bid": 3,
        "sides": [[0], [1], [2], [3]],
        "awards": [
            {"point": "high", "credited": [1], "why": "seat 1 played AS, the highest trump"},
            {"point": "low", "credited": [0], "why": "seat 0 played 2S, the lowest trump"},
            {"point": "jack", "credited": [], "why": "JS was not dealt"},
            {"point": "game", "credited": [2], "why": "seat 2 took 20 game points, the next 9"},
        ],
        "won": [1, 1, 1, 0],
        "made": False,
        "summary": "seat 0 bid 3 in spades and is set back 3 (high seat 1, low seat 0, ...)",
    }
    event = {"type": "hand_end", "result": result}
    assert describe(event, ADA) == (
        "You bid 3 in spades and are set back 3 (high Bix, low you, jack -, game Cy)."
        " High: Bix played AS, the highest trump. Low: you played 2S, the lowest trump."
        " Jack: JS was not dealt. Game: Cy took 20 game points, the next 9."
    )
    assert (describe(event, BIX) or "").startswith(
        "Ada bid 3 in spades and is set back 3 (high you, low Ada, jack -, game Cy). High: you"
    )
    teams = {
        **result,
        "pitcher": 1,
        "sides": [[0, 2], [1, 3]],
        "made": True,
        "won": [1, 3],
        "awards": [{**a, "credited": [1, 3]} for a in result["awards"][:3]]
        + [{"point": "game", "credited": [1, 3], "why": "team 1-3 took 30 game points"}],
    }
    said = describe({"type": "hand_end", "result": teams}, ADA) or ""
    assert said.startswith(
        "Team Bix-Dee bid 3 in spades and made it with 3 (high team Bix-Dee, low team Bix-Dee,"
    )
    assert said.endswith(" Game: team Bix-Dee took 30 game points.")
    # Only a summary: it is still told, with names.
    short = {"type": "hand_end", "result": {"summary": "seat 1 bid 2", "awards": []}}
    assert describe(short, ADA) == "Bix bid 2."


def test_real_hand_results_read_with_names() -> None:
    match = random_match(6, 4)
    ends = [e for e in match.log if e.type == "hand_end"]
    assert ends
    for event in ends:
        pitcher = event.public["result"]["pitcher"]
        text = describe(event.seen_by(0), ADA) or ""
        who = "You bid" if pitcher == 0 else f"{NAMES[pitcher]} bid"
        assert text.startswith(who) and "High: " in text and "Game: " in text, text
