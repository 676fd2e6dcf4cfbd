"""Move generation against a brute-force reference, and its invariants."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from pitkit.cards import Card, standard_deck
from pitkit.games.pits.melds import beats, legal_plays, read_as
from pitkit.games.pits.rules import Rules
from tests.games.pits.brute import brute_plays

DECK = standard_deck(jokers=True)
RULES = st.builds(
    Rules,
    wildness_degrees=st.booleans(),
    finnish_twos=st.booleans(),
    min_run_of_sets=st.sampled_from([2, 3]),
)
# Small hands rich in wild cards and neighbouring ranks, where mistakes hide.
SMALL_DECK = [c for c in DECK if c.is_joker or c.rank in (2, 5, 6, 7, 11, 12, 13, 14)]
# Full-size hands packed into few ranks: long runs of sets, many ways to fill them.
DENSE_DECK = [c for c in DECK if c.is_joker or c.rank in (2, 6, 7, 8, 9, 12, 13, 14)]


@settings(max_examples=60, deadline=None)
@given(hand=st.lists(st.sampled_from(SMALL_DECK), min_size=1, max_size=8, unique=True), rules=RULES)
def test_leads_match_brute_force(hand: list[Card], rules: Rules) -> None:
    fast = legal_plays(hand, None, rules)
    assert len(fast) == len(set(fast)), "a play was generated twice"
    assert set(fast) == brute_plays(hand, None, rules)


@settings(max_examples=15, deadline=None)
@given(
    hand=st.lists(st.sampled_from(DENSE_DECK), min_size=9, max_size=11, unique=True), rules=RULES
)
def test_full_hands_packed_into_few_ranks_match_brute_force(hand: list[Card], rules: Rules) -> None:
    fast = legal_plays(hand, None, rules)
    assert len(fast) == len(set(fast)), "a play was generated twice"
    assert set(fast) == brute_plays(hand, None, rules)


@settings(max_examples=60, deadline=None)
@given(
    hand=st.lists(st.sampled_from(SMALL_DECK), min_size=1, max_size=8, unique=True),
    rules=RULES,
    data=st.data(),
)
def test_follows_match_brute_force_and_beat_the_table(
    hand: list[Card], rules: Rules, data: st.DataObject
) -> None:
    others = [c for c in DECK if c not in hand]
    table_cards = data.draw(st.lists(st.sampled_from(others), min_size=1, max_size=7, unique=True))
    leads = legal_plays(table_cards, None, rules)
    if not leads:
        return
    table = data.draw(st.sampled_from(leads))
    fast = legal_plays(hand, table, rules)
    assert set(fast) == brute_plays(hand, table, rules)
    for play in fast:
        assert beats(play, table, rules)
        assert play.shape == table.shape


@settings(max_examples=40, deadline=None)
@given(hand=st.lists(st.sampled_from(DECK), min_size=1, max_size=11, unique=True), rules=RULES)
def test_a_meld_never_beats_itself_and_reads_back_the_same(hand: list[Card], rules: Rules) -> None:
    for play in legal_plays(hand, None, rules):
        assert not play.beats(play, rules)
        size = play.set_size if play.kind == "run_of_sets" else None
        assert read_as(play.cards, play.kind, rules, set_size=size) == play


def test_eleven_cards_with_both_jokers_and_two_twos() -> None:
    rng = random.Random(0)
    plain = [c for c in DECK if not c.is_joker and c.rank != 2]
    twos = [c for c in DECK if not c.is_joker and c.rank == 2]
    for _ in range(3):
        hand = [DECK[52], DECK[53], *rng.sample(twos, 2), *rng.sample(plain, 7)]
        assert set(legal_plays(hand, None, Rules())) == brute_plays(hand, None, Rules())
