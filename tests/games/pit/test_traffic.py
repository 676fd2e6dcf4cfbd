"""Properties under random concurrent traffic: bots act at once on the
virtual clock, and after every arrival the market must be sound (T4)."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from pitkit import games
from pitkit.bots import RandomBot
from pitkit.cards import PitCard
from pitkit.core import read_log, write_log
from pitkit.games.pit import (
    Accept,
    Corner,
    Offer,
    PitAction,
    PitHand,
    PitMatch,
    RandomTrader,
    SensibleTrader,
    StrongTrader,
    Withdraw,
)
from pitkit.games.pit.market import Lot, payable_lots
from pitkit.play.realtime import Arrival, VirtualRun

GAME = games.get("pit")


def deck(match: PitMatch) -> Counter[PitCard]:
    return Counter(card for zone in match.zones().values() for card in zone)


def check_market(match: PitMatch, full: Counter[PitCard]) -> None:
    """Cards conserved; every offer a valid lot held apart from its owner's hand."""
    assert deck(match) == full
    hand = match.current
    assert isinstance(hand, PitHand)
    for seat, offer in hand.offers.items():
        assert offer.seat == seat
        lot = Lot.of(offer.cards)  # one commodity, with at most the Bull and the Bear
        assert 1 <= lot.size <= 4
    ids = [o.id for o in hand.offers.values()]
    assert len(ids) == len(set(ids)), "an offer number is used twice"
    zones = match.zones()
    for seat in range(match.players):
        # Each card lies in exactly one zone: the free hand and the offer are apart.
        assert len(zones[f"hand {seat}"]) + len(zones[f"offer {seat}"]) == sum(hand.holding(seat))


@pytest.mark.parametrize(
    ("players", "options", "bot", "seed"),
    [
        (3, {}, "random", 1),
        (4, {"bull_and_bear": True}, "random", 2),
        (5, {"bull_and_bear": True}, "trader", 3),
        (7, {}, "random", 4),
        (6, {"bull_and_bear": True, "trades_per_player": 10}, "trader", 5),
    ],
)
def test_random_concurrent_traffic_keeps_the_market_sound(
    players: int, options: dict[str, object], bot: str, seed: int
) -> None:
    match = GAME.new_match(players, {**GAME.short_match, **options}, seed)
    assert isinstance(match, PitMatch)
    full = deck(match)
    bots = [
        RandomBot(seed + s) if bot == "random" else RandomTrader(seed + s) for s in range(players)
    ]
    run = VirtualRun(match, bots, seed)
    rng = random.Random(seed)
    arrivals: list[Arrival] = []

    def check(arrival: Arrival) -> None:
        arrivals.append(arrival)
        check_market(match, full)
        if len(arrivals) % 25 == 0 and not match.is_over:
            # No view leaks a card its seat cannot see, mid-traffic.
            seat = rng.choice([None, *range(players)])
            other = match.redeal_unseen(seat, rng.getrandbits(32))
            assert other.view(seat) == match.view(seat)

    run.table.listeners.append(check)
    run.run()
    assert match.is_over
    refused = [a for a in arrivals if not a.accepted]
    accepted = [a for a in arrivals if a.accepted]
    assert accepted and refused, "real-time traffic has both"
    assert all(a.reason for a in refused)
    assert any("was taken by seat" in (a.reason or "") for a in refused), "no race was lost"


def listed_afresh(hand: PitHand, seat: int) -> list[PitAction]:
    """The legal actions of a trading seat, worked out the plain way (T4, T5)."""
    actions: list[PitAction] = [Corner()] if hand.corner(seat) is not None else []
    held = hand.free[seat]
    own = hand.offers.get(seat)
    if own is not None:
        actions.append(Withdraw())
    else:
        actions += [Offer.of(lot) for size in range(1, 5) for lot in payable_lots(held, size)]
    for offer in sorted(hand.offers.values(), key=lambda o: o.id):
        if offer.seat == seat:
            continue
        lots = payable_lots(held, offer.count)
        if own is not None and own.count == offer.count and Lot.of(own.cards) not in lots:
            lots.append(Lot.of(own.cards))
        actions += [Accept(offer.seat, lot.commodity, lot.bull, lot.bear, offer.id) for lot in lots]
    return actions


@pytest.mark.parametrize(("players", "options"), [(5, {"bull_and_bear": True}), (7, {})])
def test_the_kept_legal_actions_are_those_worked_out_afresh(
    players: int, options: dict[str, object]
) -> None:
    """Legal actions are listed from parts kept per seat and per holding;
    after every arrival they are the plain list, in the same order."""
    match = GAME.new_match(players, {**GAME.short_match, **options}, 21)
    assert isinstance(match, PitMatch)
    run = VirtualRun(match, [RandomBot(s) for s in range(players)], 21)

    def check(arrival: Arrival) -> None:
        hand = match.current
        if hand.is_open and not match.is_over:
            for seat in range(players):
                assert match.legal_actions(seat) == listed_afresh(hand, seat)

    run.table.listeners.append(check)
    run.run()


def test_the_same_seed_gives_the_same_traffic() -> None:
    # Twenty hands (stalled redeals among them) of random traders; the whole match
    # to 500 took 354 hands and 10 s a run.
    logs = []
    for _ in range(2):
        match = GAME.new_match(5, {"bull_and_bear": True, "hand_limit": 20}, 11)
        bots = [RandomTrader(20 + s) for s in range(5)]
        VirtualRun(match, bots, 7).run()
        logs.append([e.to_json() for e in match.log])
    assert logs[0] == logs[1]
    assert sum(e["type"] == "deal" for e in logs[0]) == 20


def test_a_race_for_one_offer_is_decided_by_arrival_order() -> None:
    match = GAME.new_match(4, {"commodities": "wheat,barley,corn,rye"}, 3)
    assert isinstance(match, PitMatch)
    dealer = match.dealer
    match.apply(dealer, "open")
    seller, first, second = [(dealer + i) % 4 for i in (1, 2, 3)]
    match.apply(seller, match.legal_actions(seller)[1])  # an offer of one card
    offer = match.current.offers[seller]
    takes = [
        next(a for a in match.legal_actions(s) if str(a).startswith(f"accept {seller}"))
        for s in (first, second)
    ]
    match.apply(first, takes[0])
    with pytest.raises(ValueError, match=f"offer #{offer.id} was taken by seat {first}"):
        match.apply(second, takes[1])
    # A table takes whatever arrives: `attempt` gives the same reason, raising
    # nothing and changing nothing.
    before = [e.to_json() for e in match.log]
    assert (
        match.attempt(second, takes[1])
        == f"seat {seller}'s offer #{offer.id} was taken by seat {first}"
    )
    assert match.attempt(9, takes[1]) == "seat 9 may not act now"
    assert [e.to_json() for e in match.log] == before
    taken = match.attempt(second, Withdraw())
    assert taken == "you have no open offer to withdraw"


def test_a_real_time_log_replays_event_for_event(tmp_path: Path) -> None:
    """Races, refusals, penalties and corners leave a log that rebuilds the match."""
    match = GAME.new_match(4, {"bull_and_bear": True}, 8)
    bots = [SensibleTrader(1), StrongTrader(2), RandomTrader(3), SensibleTrader(4)]
    VirtualRun(match, bots, 8).run()
    assert match.is_over
    write_log(tmp_path / "pit.jsonl", match.header(), match.log)
    header, events = read_log(tmp_path / "pit.jsonl")
    replayed = GAME.replay(header, events)
    assert [e.to_json() for e in replayed.log] == [e.to_json() for e in match.log]
    assert replayed.scores == match.scores


def test_a_log_with_early_trading_and_false_corners_replays() -> None:
    match = GAME.new_match(3, None, 5)
    early = (match.dealer + 1) % 3
    commodity = match.view(early)["hand"][0]
    match.apply(early, f"offer 1 {commodity}")  # T3: penalized
    match.apply(match.dealer, "open")
    match.apply(early, "corner wheat")  # T5: false, penalized
    replayed = GAME.replay(match.header(), match.log)
    assert isinstance(replayed, PitMatch)
    assert [e.to_json() for e in replayed.log] == [e.to_json() for e in match.log]
    assert replayed.current.points[early] == -40
