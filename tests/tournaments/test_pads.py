"""The pads the seeds keep, without a server: a Pits game's first dealer
(seeds/pits-bga.txt: "chosen at random, usually the first person to turn up a Jack"),
a Pitch hand's bidding as its dealer records it (topics 13-21), the misplay's highest
bid that follows from it (topic 37), and each player's counted game points, from which
the game point follows, ties included (topics 30-33, ruling C7).

Each test names the sentences of the seed it covers; every refusal changes nothing
(`Desk.refused` compares the view and the log before and after)."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from pitkit.cards import Rank, standard_deck
from pitkit.core.chance import Chance
from pitkit.games.pitch.match import PitchMatch
from pitkit.games.pitch.rules import Rules
from pitkit.games.pitch.state import Phase, PitchHand
from pitkit.games.pits.match import PitsMatch
from pitkit.games.pits.rules import Rules as PitsRules
from pitkit.tournaments import Tournament
from pitkit.tournaments.first_dealer import draw
from pitkit.tournaments.log import Actor, Entry, ForbiddenError, RefusedError
from pitkit.tournaments.pitch import KIND as PITCH
from pitkit.tournaments.pits import KIND as PITS
from tests.tournaments.desk import PLAYERS, Desk, PitchDesk

FIVE = PLAYERS[:5]
FOUR = ["Ann", "Bob", "Cat", "Dan"]


# -- Pits: the first dealer ----------------------------------------------------------


def _pits() -> Desk:
    desk = Desk()
    for name in PLAYERS:
        desk.add(name)
    desk.ok(desk.manager, "start_game", players=FIVE, scorer="Cat")
    return desk


def test_the_scorer_records_the_first_dealer_chosen_at_the_table() -> None:
    # "In the first hand the dealer is chosen at random": chosen at the table, the
    # scorer records who; hand 1 is theirs, and each later hand the last hand's 3rd's.
    desk = _pits()
    cat, bob = desk.by["Cat"], desk.by["Bob"]
    assert "scorer (Cat)" in desk.refused(ForbiddenError, bob, "first_dealer", game=1, dealer="Bob")
    assert "Gus does not play game 1" in desk.refused(
        RefusedError, cat, "first_dealer", game=1, dealer="Gus"
    )
    assert "no game 2" in desk.refused(RefusedError, cat, "first_dealer", game=2, dealer="Ann")
    assert "server writes the draw's turned" in desk.refused(
        RefusedError, cat, "first_dealer", game=1, dealer="Ann", turned=[["Ann", "JS"]]
    )
    made = desk.ok(cat, "first_dealer", game=1, dealer="Dan")
    game = desk.view()["games"][0]
    assert game["first_dealer"] == {
        "player": "Dan", "how": "chosen", "entry": made.seq, "seed": None, "turned": [],
    }  # fmt: skip
    assert "recorded already (entry #" in desk.refused(
        RefusedError, cat, "first_dealer", game=1, dealer="Ann"
    )
    desk.ok(cat, "hand", game=1, hand=1, order=FIVE)
    desk.ok(cat, "hand", game=1, hand=2, order=FIVE[::-1])
    hands = desk.view()["games"][0]["hands"]
    assert [h["dealt"] for h in hands] == ["Dan", FIVE[2]]  # the 3rd of hand 1 deals hand 2
    # A correction names the dealer (the log keeps both); a draw is not made again.
    desk.ok(cat, "first_dealer", corrects=made.seq, game=1, dealer="Ann")
    assert desk.view()["games"][0]["hands"][0]["dealt"] == "Ann"
    assert "correction names the dealer" in desk.refused(
        RefusedError, cat, "first_dealer", corrects=made.seq, game=1, draw=True, seed=3
    )
    rows = desk.csv("sheets.csv").splitlines()
    assert rows[1] == "1,Table 1,first dealer,Ann,chosen"


def test_the_server_draws_the_first_dealer_as_the_first_jack_turned_up_from_a_seed() -> None:
    # "usually the first person to turn up a Jack": the pack (54 cards, P1) shuffled
    # from the seed, turned up one card at a time round the table from seat 1.
    desk = _pits()
    cat = desk.by["Cat"]
    assert "not both" in desk.refused(
        RefusedError, cat, "first_dealer", game=1, draw=True, dealer="Ann"
    )
    assert "whole number" in desk.refused(
        RefusedError, cat, "first_dealer", game=1, draw=True, seed="x"
    )
    made = desk.ok(cat, "first_dealer", game=1, draw=True, seed=2024)
    turned = made.data["turned"]
    deck = Chance(2024).shuffle(standard_deck(jokers=True))
    assert [card for _, card in turned] == [str(c) for c in deck[: len(turned)]]
    assert [who for who, _ in turned] == [FIVE[n % 5] for n in range(len(turned))]
    jacks = [n for n, c in enumerate(deck) if not c.is_joker and c.rank == Rank.JACK]
    assert len(turned) == jacks[0] + 1  # it stops at the first Jack, whoever gets it
    assert made.data["dealer"] == turned[-1][0] == FIVE[jacks[0] % 5]
    first = desk.view()["games"][0]["first_dealer"]
    assert first["how"] == "drawn" and first["seed"] == 2024 and first["player"] == turned[-1][0]
    # The log read back (a restart, another worker) draws again from the seed: the same.
    again = Tournament(PITS, desk.tournament.options, desk.tournament.entries)
    assert again.view(desk.manager) == desk.tournament.view(desk.manager)
    # A log whose dealer the seed does not draw is refused.
    other = next(p for p in FIVE if p != made.data["dealer"])
    forged = Entry(made.seq, made.at, made.role, made.author, made.type,
                   {**made.data, "dealer": other})  # fmt: skip
    try:
        Tournament(PITS, desk.tournament.options, [*desk.tournament.entries[:-1], forged])
    except RefusedError as exc:
        assert f"turns up {made.data['dealer']}'s Jack, not {other}'s" in str(exc)
    else:
        raise AssertionError("a forged draw was read back")
    # Without a seed the server picks one, and keeps it.
    desk2 = _pits()
    data = desk2.ok(desk2.manager, "first_dealer", game=1, draw=True).data
    assert isinstance(data["seed"], int) and draw(FIVE, data["seed"])[0] == data["dealer"]


def test_a_draw_after_the_first_hand_is_refused_and_a_first_dealer_keeps_a_game_on_paper() -> None:
    desk = _pits()
    cat = desk.by["Cat"]
    desk.ok(cat, "hand", game=1, hand=1, order=FIVE)
    assert "chosen at the table; name them" in desk.refused(
        RefusedError, cat, "first_dealer", game=1, draw=True, seed=1
    )
    desk.ok(cat, "first_dealer", game=1, dealer="Eve")  # recorded late: still the truth
    other = Desk()
    for name in PLAYERS:
        other.add(name)
    other.ok(other.manager, "start_game", players=FIVE)
    other.ok(other.manager, "first_dealer", game=1, dealer="Ann")
    assert "has its first dealer on its sheet" in other.refused(
        RefusedError, other.manager, "open_table", game=1, table_id="t1"
    )


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**31 - 1))
def test_every_seed_draws_the_player_who_gets_the_first_jack(seed: int) -> None:
    dealer, turned = draw(FIVE, seed)
    cards = [card for _, card in turned]
    assert cards[-1][0] == "J" and not any(c[0] == "J" for c in cards[:-1])  # BJ, RJ: Jokers
    assert dealer == turned[-1][0] and draw(FIVE, seed) == (dealer, turned)


def test_an_online_pits_table_enters_its_own_first_dealer() -> None:
    desk = Desk()
    for name in PLAYERS:
        desk.add(name)
    desk.ok(desk.manager, "start_game", players=FIVE)
    desk.ok(desk.manager, "open_table", game=1, table_id="t1")
    table = Actor("table", "t1")
    assert "come from its table" in desk.refused(
        RefusedError, desk.manager, "first_dealer", game=1, dealer="Ann"
    )
    match = PitsMatch(PitsRules(), seed=11)
    calls = PITS.sync(desk.tournament.state, "t1", match)
    assert calls == [("first_dealer", {"game": 1, "dealer": FIVE[match.dealer]})]
    desk.ok(table, "first_dealer", **calls[0][1])
    assert desk.view()["games"][0]["first_dealer"]["how"] == "online"
    assert PITS.sync(desk.tournament.state, "t1", match) == []


# -- Pitch: the bidding -----------------------------------------------------------------


def _pitch(players: list[str] = FOUR) -> tuple[PitchDesk, dict[str, Actor]]:
    """A table of `players` (in that seat order) judged by Jo, the last player dealing
    first: the first to call is the first player."""
    desk = PitchDesk()
    for name in players:
        desk.add(name)
    desk.judge("Jo")
    desk.ok(desk.manager, "seat_round", by="standing", judges=["Jo"])
    assert desk.table(1, 1)["players"] == players
    desk.ok(desk.by["Jo"], "cut", round=1, table=1, dealer=players[-1])
    return desk, desk.by


def _bid(desk: PitchDesk, calls: list[str], by: Actor | None = None) -> Entry:
    actor = desk.by[desk.table(1, 1)["dealer"]] if by is None else by
    return desk.ok(actor, "bidding", round=1, table=1, calls=calls)


def _refused_bidding(desk: PitchDesk, calls: list[str]) -> str:
    dealer = desk.by[desk.table(1, 1)["dealer"]]
    return desk.refused(RefusedError, dealer, "bidding", round=1, table=1, calls=calls)


def test_the_dealer_records_the_bidding_with_the_darrtown_steal() -> None:
    # Topic 13: clockwise from the dealer's left, ending with the dealer; topic 14:
    # "pass"; topic 15: "two, three, or four points"; topic 17 and the Darrtown note:
    # the dealer may "take it for one more".
    desk, by = _pitch()
    table = desk.table(1, 1)
    assert table["calling_order"] == ["Ann", "Bob", "Cat", "Dan"] and table["bidding"] is None
    assert "cannot bid 2 now; Cat may pass, bid 3 or bid 4" in _refused_bidding(
        desk, ["pass", "2", "2"]
    )
    assert "cannot bid 1" in _refused_bidding(desk, ["1"])
    # "one more" means one more than the highest bid: the dealer cannot take it for the same.
    assert "Dan cannot take it for the same (3) now; Dan may pass or take it for one more (4)" in (
        _refused_bidding(desk, ["pass", "3", "pass", "steal 3"])
    )
    assert "not over: Dan calls next" in _refused_bidding(desk, ["pass", "3", "pass"])
    assert "comes after it" in _refused_bidding(desk, ["pass", "3", "pass", "steal", "pass"])
    assert "is not a call" in _refused_bidding(desk, ["pass", "three"])
    assert "list of calls" in _refused_bidding(desk, "pass")  # type: ignore[arg-type]
    # "One more cannot exceed 4" (C4): after a bid of 4 the dealer may only pass.
    assert "cannot take it for one more (5) now (4 is the most a bid can be); Dan may pass" in (
        _refused_bidding(desk, ["4", "pass", "pass", "steal"])
    )
    made = _bid(desk, ["pass", "3", "pass", "steal"])
    bidding = desk.table(1, 1)["bidding"]
    assert [(c["player"], c["call"]) for c in bidding["calls"]] == [
        ("Ann", "pass"), ("Bob", "bid 3"), ("Cat", "pass"), ("Dan", "steal 4"),
    ]  # fmt: skip
    assert bidding["calls"][-1]["words"] == "took it for one more (4)"
    assert (bidding["pitcher"], bidding["bid"], bidding["highest"]) == ("Dan", 4, 4)
    assert bidding["entry"] == made.seq
    assert "recorded already" in _refused_bidding(desk, ["pass", "pass", "pass", "take"])
    # Who records it: the dealer (not another player; not the judge, who may correct it).
    for who in (by["Ann"], by["Jo"]):
        desk.refused(ForbiddenError, who, "bidding", round=1, table=1, calls=["2"])
    # The pad line follows the bidding: Dan pitches for 4; a line that says otherwise
    # is refused.
    line: dict[str, Any] = {"trump": "S", "high": "Dan", "low": "Dan", "jack": None,
                            "game": "Dan"}  # fmt: skip
    dan = by["Dan"]
    assert "gives the pitch to Dan, not Bob" in desk.refused(
        RefusedError, dan, "hand", round=1, table=1, line=1, pitcher="Bob", bid=3, **line
    )
    assert "makes the bid 4, not 3" in desk.refused(
        RefusedError, dan, "hand", round=1, table=1, line=1, bid=3, **line
    )
    desk.ok(dan, "hand", round=1, table=1, line=1, **line)
    pad = desk.table(1, 1)["lines"][0]
    assert pad["pad"]["pitcher"] == "Dan" and pad["pad"]["bid"] == 4
    assert pad["bidding"]["entry"] == made.seq and desk.table(1, 1)["bidding"] is None
    assert "Bob bid 3; Cat passed; Dan took it for one more (4)" in desk.csv("pads.csv")


def test_take_it_run_it_sell_and_steal_after_the_run() -> None:
    # Topic 18: all pass, the dealer must "take it" for two or "run it" for two;
    # topic 19: after the run the others "must be for three or four points";
    # topic 20: the dealer may "sell" to the player who outbid; topic 21: or steal.
    desk, _by = _pitch()
    assert "cannot pass now; Dan may take it for 2 or run it for 2" in _refused_bidding(
        desk, ["pass", "pass", "pass", "pass"]
    )
    assert "cannot bid 2 now; Ann may pass, bid 3 or bid 4" in _refused_bidding(
        desk, ["pass", "pass", "pass", "run", "2"]
    )
    # Run, and nobody outbids: the dealer pitches at 2, with no further call.
    calls = ["pass", "pass", "pass", "run", "pass", "pass", "pass"]
    assert _played(desk, calls) == ("Dan", 2, 2)
    # Run, the second to call outbids with 3, the dealer sells: they pitch at 3.
    order = desk.table(1, 1)["calling_order"]  # the deal has passed to Ann: Bob calls first
    assert order == ["Bob", "Cat", "Dan", "Ann"]
    calls = ["pass", "pass", "pass", "run", "pass", "3", "pass", "sell"]
    assert _played(desk, calls) == ("Cat", 3, 3)
    lines = desk.table(1, 1)["lines"]
    assert lines[-1]["bidding"]["calls"][-1]["words"] == "sold the bid to Cat"
    # Run, the third outbids with 3, the dealer takes it for one more.
    order = desk.table(1, 1)["calling_order"]
    calls = ["pass", "pass", "pass", "run", "pass", "pass", "3", "steal"]
    assert _played(desk, calls) == (order[-1], 4, 4)
    # Everyone passes, the dealer takes it for 2.
    order = desk.table(1, 1)["calling_order"]
    assert _played(desk, ["pass", "pass", "pass", "take"]) == (order[-1], 2, 2)


def _played(desk: PitchDesk, calls: list[str]) -> tuple[str, int, int]:
    """Record `calls` as the hand's bidding, then its line (the pitcher takes every
    point), confirmed; the pitcher, the bid and the highest bid the pad shows."""
    _bid(desk, calls)
    bidding = desk.table(1, 1)["bidding"]
    pitcher = bidding["pitcher"]
    desk.hand(1, 1, high=pitcher, low=pitcher, game=pitcher)
    line = desk.table(1, 1)["lines"][-1]
    desk.confirm(1, 1, line["line"])
    assert line["bidding"]["calls"] == bidding["calls"]
    return line["pad"]["pitcher"], line["pad"]["bid"], line["bidding"]["highest"]


def test_the_bidding_may_come_with_the_pad_line_and_correct_a_recorded_one() -> None:
    desk, by = _pitch()
    made = _bid(desk, ["2", "pass", "pass", "pass"])
    # A line given with its own bidding uses it in place of the one recorded.
    desk.hand(1, 1, bidding=["pass", "3", "pass", "pass"], high="Bob", low="Bob", game="Bob")
    line = desk.table(1, 1)["lines"][0]
    assert (line["pad"]["pitcher"], line["pad"]["bid"]) == ("Bob", 3)
    # A bidding whose hand is on the pad is corrected through its line, not by itself.
    assert "correct its line on the pad" in desk.refused(
        RefusedError, by["Dan"], "bidding", corrects=made.seq, round=1, table=1, calls=["2"]
    )
    # The bidding of the hand in play is corrected by its dealer, the log keeps both.
    now = _bid(desk, ["2", "pass", "pass", "pass"])  # Ann deals line 2: Bob calls first
    desk.ok(by["Ann"], "bidding", corrects=now.seq, round=1, table=1,
            calls=["pass", "pass", "pass", "take"])  # fmt: skip
    assert desk.table(1, 1)["bidding"]["pitcher"] == "Ann"


# -- Pitch: the misplay's highest bid ------------------------------------------------------


def test_a_misplays_highest_bid_comes_from_the_recorded_bidding() -> None:
    # Topic 37: "A number of points, equal to the highest bid made in the misplayed
    # hand be deducted from the score of the player who committed the misplay".
    desk, by = _pitch()
    jo = by["Jo"]
    _bid(desk, ["pass", "3", "pass", "steal"])  # Dan takes it for one more: 4
    appeal = desk.ok(by["Ann"], "appeal", round=1, table=1, offender="Bob").seq
    assert "makes the highest bid 4, not 3" in desk.refused(
        RefusedError, jo, "rule_misplay", appeal=appeal, correctable=False, highest_bid=3
    )
    # Correctable: the cards are replayed, and the bidding stands for the hand.
    desk.ok(jo, "rule_misplay", appeal=appeal, correctable=True)
    assert desk.table(1, 1)["bidding"]["highest"] == 4
    appeal = desk.ok(by["Ann"], "appeal", round=1, table=1, offender="Cat").seq
    desk.ok(jo, "rule_misplay", appeal=appeal, correctable=False)
    table = desk.table(1, 1)
    assert table["scores"]["Cat"] == -4 and table["bidding"] is None  # dealt again
    register = desk.view()["register"][-1]
    assert register["highest_bid"] == 4 and register["lost"] == 4
    assert register["bidding"] == table["lines"][-1]["bidding"]["entry"]
    # With no bidding recorded, the judge gives the highest bid (logs from before).
    appeal = desk.ok(by["Ann"], "appeal", round=1, table=1, offender="Bob").seq
    assert "or have the dealer record the hand's bidding first" in desk.refused(
        RefusedError, jo, "rule_misplay", appeal=appeal, correctable=False
    )
    desk.ok(jo, "rule_misplay", appeal=appeal, correctable=False, highest_bid=2)
    assert desk.view()["register"][-1]["bidding"] is None


def test_a_misdeal_clears_the_bidding_of_the_hand_dealt_again() -> None:
    desk, by = _pitch()
    _bid(desk, ["pass", "pass", "pass", "run", "pass", "pass", "pass"])
    desk.ok(by["Jo"], "misdeal", round=1, table=1, found="before_play")
    assert desk.table(1, 1)["bidding"] is None
    _bid(desk, ["pass", "pass", "pass", "take"])


# -- Pitch: the game points counted ----------------------------------------------------------


def test_the_game_point_follows_from_the_counts_ties_included() -> None:
    # Topic 32: "The player with the greater or greatest number of points ... wins";
    # topic 33: "the same number of game points, a 'tie' is declared and no game point
    # is awarded".
    desk, by = _pitch()
    dan = by["Dan"]
    line: dict[str, Any] = {"round": 1, "table": 1, "line": 1, "bid": 2, "pitcher": "Dan",
                            "trump": "H", "high": "Dan", "low": "Ann", "jack": None}  # fmt: skip
    counts = {"Ann": 10, "Bob": 14, "Cat": 3, "Dan": 7}
    assert "give the game point to Bob, but the pad gives it to Dan" in desk.refused(
        RefusedError, dan, "hand", **line, game="Dan", counts=counts
    )
    tie = {"Ann": 14, "Bob": 14, "Cat": 3, "Dan": 7}
    assert "tie at 14 between Ann and Bob: nobody takes the game point" in desk.refused(
        RefusedError, dan, "hand", **line, game="Ann", counts=tie
    )
    assert "no count for Dan" in desk.refused(
        RefusedError, dan, "hand", **line, counts={"Ann": 1, "Bob": 2, "Cat": 3}
    )
    assert "Zed did not play" in desk.refused(
        RefusedError, dan, "hand", **line, counts={**counts, "Zed": 1}
    )
    assert "0 to 80" in desk.refused(
        RefusedError, dan, "hand", **line, counts={**counts, "Ann": -1}
    )
    assert "add up to 84" in desk.refused(
        RefusedError, dan, "hand", **line, counts={**counts, "Ann": 60}
    )
    # Given the counts, the game point follows: a tie gives it to nobody.
    desk.ok(dan, "hand", **line, counts=tie)
    first = desk.table(1, 1)["lines"][0]
    assert first["pad"]["game"] is None and first["counts"] == tie and first["counted_by"] == "Dan"
    assert first["changes"] == {"Ann": 1, "Bob": 0, "Cat": 0, "Dan": -2}  # set back: 1 < 2
    desk.confirm(1, 1, 1)
    desk.hand(1, 1, bid=2, pitcher="Ann", high="Ann", low="Ann", counts=counts)
    assert desk.table(1, 1)["lines"][1]["pad"]["game"] == "Bob"


def test_the_judge_confirms_the_counts_and_a_count_against_the_pad_is_refused() -> None:
    # Topic 31: the judge will "confirm that each player has accurately counted the
    # value of the cards in her/his tricks" and "identify/confirm the winner of the
    # game point".
    desk, by = _pitch()
    jo = by["Jo"]
    desk.hand(1, 1, bid=2, pitcher="Dan", high="Dan", low="Dan", game="Cat")
    where = {"round": 1, "table": 1, "line": 1}
    assert desk.view(jo)["mine"]["pending"][0]["players"] == FOUR
    counts = {"Ann": 10, "Bob": 14, "Cat": 3, "Dan": 7}
    why = desk.refused(RefusedError, jo, "confirm", **where, counts=counts)
    assert "give the game point to Bob, but line 1 gives it to Cat" in why
    assert "correct the line first" in why
    # The dealer corrects the line; the judge initials it with the counts.
    line = desk.table(1, 1)["lines"][0]
    desk.ok(by["Dan"], "hand", corrects=line["entry"], **where, bid=2, pitcher="Dan",
            trump="H", high="Dan", low="Dan", jack=None, game="Bob")  # fmt: skip
    desk.ok(jo, "confirm", **where, counts=counts)
    line = desk.table(1, 1)["lines"][0]
    assert line["counts"] == counts and line["counted_by"] == "judge Jo"
    assert line["status"] == "confirmed"
    # A line recorded with counts is initialled with the same counts only.
    desk.hand(1, 1, bid=2, pitcher="Ann", high="Ann", low="Ann", counts=counts)
    other = {**counts, "Cat": 4}
    assert "recorded with the counts" in desk.refused(
        RefusedError, jo, "confirm", round=1, table=1, line=2, counts=other
    )
    desk.ok(jo, "confirm", round=1, table=1, line=2, counts=counts)


# -- Pitch: every bidding the rules allow, and only those ---------------------------------------


def _legal_bidding(seed: int, players: int, dealer: int) -> tuple[list[str], PitchHand]:
    """A bidding played by random legal calls on the game's own hand."""
    rng = random.Random(seed)
    hand = PitchHand(Rules(mode="tournament"), players, dealer, Chance(seed))
    calls = []
    while hand.phase is not Phase.PLAY:
        seat = hand.player
        action = rng.choice(hand.legal_actions(seat))
        calls.append(str(action))
        hand.apply(seat, action)
    return calls, hand


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(2, 4), cut=st.integers(0, 3))
def test_every_legal_bidding_is_recorded_and_says_what_the_game_says(
    seed: int, players: int, cut: int
) -> None:
    names = FOUR[:players]
    desk, _by = _pitch(names)
    dealer = names.index(desk.table(1, 1)["dealer"])
    calls, hand = _legal_bidding(seed, players, dealer)
    _bid(desk, calls)
    bidding = desk.table(1, 1)["bidding"]
    assert hand.pitcher is not None
    assert (bidding["pitcher"], bidding["bid"]) == (names[hand.pitcher], hand.contract)
    assert bidding["highest"] == hand.highest_bid
    # One call changed to another is refused unless the game allows it too.
    pos = cut % len(calls)
    for other in ("pass", "2", "3", "4", "steal", "take", "run", "sell"):
        changed = [*calls[:pos], other, *calls[pos + 1 :]]
        game = PitchHand(Rules(mode="tournament"), players, dealer, Chance(0))
        legal = True
        for call in changed:
            if game.phase is Phase.PLAY:
                legal = False
                break
            steals = [a for a in game.legal_actions(game.player) if a.kind == "steal"]
            action = steals[0] if call == "steal" and steals else None
            try:
                action = action or game.parse_action(call if not call.isdigit() else f"bid {call}")
            except ValueError:
                legal = False
                break
            if not game.allows(game.player, action):
                legal = False
                break
            game.apply(game.player, action)
        legal = legal and game.phase is Phase.PLAY
        fresh, _ = _pitch(names)
        try:
            _bid(fresh, changed)
        except RefusedError:
            assert not legal, changed
        else:
            assert legal, changed


# -- Online: a Pitch table fills its bidding and counts -------------------------------------


def _play(match: PitchMatch, seed: int, until: Any) -> None:
    rng = random.Random(seed)
    while not until(match):
        seat = next(iter(match.to_act))
        match.apply(seat, rng.choice(match.legal_actions(seat)))


def test_an_online_pitch_table_enters_the_bidding_and_the_counts_it_played() -> None:
    desk = PitchDesk()
    for name in ["Ann", "Bob", "Cat"]:
        desk.add(name)
    desk.judge("Jo")
    desk.ok(desk.manager, "seat_round", by="standing", judges=["Jo"])
    desk.ok(desk.manager, "open_table", round=1, table=1, table_id="t1")
    table = Actor("table", "t1")
    match = PitchMatch(Rules(mode="tournament"), 3, seed=4)
    _play(match, 9, lambda m: len(m.results) == 2 and m.hand.phase is Phase.PLAY)
    fed = [desk.ok(table, t, **d) for t, d in PITCH.sync(desk.tournament.state, "t1", match)]
    assert [e.type for e in fed] == ["cut", "hand", "hand", "bidding"]
    lines = desk.table(1, 1)["lines"]
    for line, result in zip(lines, [done.result for done in match.sheet.entries], strict=True):
        assert result is not None
        calls = [c["call"] for c in line["bidding"]["calls"]]
        assert line["bidding"]["bid"] == result.bid == line["pad"]["bid"]
        assert sum(line["counts"].values()) == sum(result.game_count)
        assert len(calls) >= 2 and all(not c.startswith("play") for c in calls)
    live = desk.table(1, 1)["bidding"]
    assert match.hand.pitcher is not None
    assert live["pitcher"] == desk.table(1, 1)["players"][match.hand.pitcher]
    assert live["highest"] == match.hand.highest_bid
    assert PITCH.sync(desk.tournament.state, "t1", match) == []
    # The hand in play ends: its line comes with the bidding entered already.
    _play(match, 10, lambda m: len(m.results) == 3)
    more = PITCH.sync(desk.tournament.state, "t1", match)
    assert [t for t, _ in more][:1] == ["hand"]
    for t, d in more:
        desk.ok(table, t, **d)
    assert desk.table(1, 1)["lines"][2]["bidding"]["calls"] == live["calls"]
