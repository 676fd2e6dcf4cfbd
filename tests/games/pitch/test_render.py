"""Pitch as text: the table picture and one line for each event."""

from __future__ import annotations

from pitkit.games.pitch import GAME, HeuristicBot, Misdeal, Misplay, PitchMatch, describe, render


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
    for event in match.log:
        text = describe(event.seen_by(0))
        kinds.add(event.type)
        # A dealer's "run" is told by the run event that follows it.
        if event.type not in ("shuffle", "pick") and event.public.get("action") != "run":
            assert text, f"no words for {event.type}"
    assert {"cut", "deal", "contract", "trump", "trick", "hand_end", "ruling"} <= kinds
    assert "Seat 0 deals" in (describe({"type": "deal", "dealer": 0}) or "")
    assert describe({"type": "run", "dealer": 1, "cards_each": 3, "cards": "2H 3H 4H"}) == (
        "Seat 1 runs it: 3 more cards each. You get 2H 3H 4H."
    )
    for action, words in [
        ("pass", "passes"),
        ("bid 3", "bids 3"),
        ("steal 3", "steals"),
        ("take", "takes it for 2"),
        ("sell", "sells"),
        ("play AS", "plays AS"),
    ]:
        assert words in (describe({"type": "action", "seat": 1, "action": action}) or "")


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
