"""The generic rollout bot: names, candidates, sound play, and no peeking."""

from __future__ import annotations

import random
from typing import Any, ClassVar

import pytest

from pitkit import games
from pitkit.bots import RolloutBot, SearchBot, make
from pitkit.bots.playout import peek, sample_unseen
from pitkit.bots.rollouts import DEFAULT_ITERATIONS, WIDTH, Ranker, play_out
from pitkit.bots.search import Budget
from pitkit.core import Action, Match, State, UnknownNameError
from pitkit.games.pits import Pass
from pitkit.games.pits.bots import HeuristicBot
from pitkit.games.pittypat import Draw, MatchCard, Rules
from pitkit.play.realtime import Arrival, VirtualRun
from tests.bots.test_search import advanced
from tests.games.pit.helpers import stacked_match as pit_stacked_match
from tests.games.pittypat.helpers import stacked_hand


def test_budgets_read_from_names() -> None:
    game = games.get("pits")
    assert make(game, "rollouts", 1).budget == Budget(iterations=DEFAULT_ITERATIONS)  # type: ignore[attr-defined]
    assert RolloutBot.from_name("rollouts:1s").budget == Budget(iterations=None, seconds=1.0)
    assert RolloutBot.from_name("rollouts:200").budget == Budget(iterations=200)
    for bad in ("rollouts:1.5", "rollouts:0", "rollouts:1s:heuristic", "rolloutsy"):
        with pytest.raises((ValueError, UnknownNameError)):
            RolloutBot.from_name(bad)


def test_it_goes_out_when_it_can() -> None:
    # As in the search bot's test: matching KD wins at once; drawing may lose.
    hand = stacked_hand({1: "7H 7S 9C 9D KS"}, "KD", rules=Rules())
    assert set(hand.legal_actions(1)) == {MatchCard(hand.cards[1][0]), Draw()}
    assert RolloutBot(3, Budget(iterations=40)).choose(hand, 1) == MatchCard(hand.cards[1][0])


def test_the_state_is_left_alone_and_iterations_counted() -> None:
    match = advanced("ace-pit", 3, moves=4)
    before = ([e.to_json() for e in match.log], match.zones())
    bot = RolloutBot(1, Budget(iterations=6))
    bot.choose(match, min(match.to_act))
    assert ([e.to_json() for e in match.log], match.zones()) == before
    assert bot.last_iterations == 6


@pytest.mark.parametrize("search", [RolloutBot, SearchBot])
def test_worlds_are_drawn_by_the_sampler_given(search: Any) -> None:
    # By default the game's own sampler; `peek` deals the true position.
    match = advanced("ace-pit", 3, moves=4)
    seat = min(match.to_act)
    drawn: list[dict[str, list[Any]]] = []  # each world's cards when drawn (search plays on in it)

    def watched(state: State[Any], player: int, rng: random.Random) -> State[Any]:
        assert player == seat
        world = peek(state, player, rng)
        drawn.append({zone: list(cards) for zone, cards in world.zones().items()})
        return world

    bot = search(1, Budget(iterations=5), sample=watched)
    bot.choose(match, seat)
    assert len(drawn) == bot.last_iterations == 5
    truth = {zone: list(cards) for zone, cards in match.hand.zones().items()}
    assert all(world == truth for world in drawn)
    assert search(1).sample is sample_unseen


def test_a_play_out_is_the_same_for_the_same_seed() -> None:
    match = advanced("pitch", 2, moves=6)
    seat = min(match.to_act)
    move = match.legal_actions(seat)[0]
    once, again = (play_out(match.hand, seat, move, "heuristic", 7) for _ in range(2))
    assert once == again


def test_many_moves_are_cut_to_the_heuristics_favourites() -> None:
    match = games.get("pits").new_match(seed=2, rules={"hands": 1})
    seat = min(match.to_act)
    heuristic = HeuristicBot(5)
    assert isinstance(heuristic, Ranker)
    ranked = heuristic.rank(match, seat)
    assert sorted(map(str, ranked)) == sorted(map(str, match.legal_actions(seat)))
    bot = RolloutBot(1, width=4)
    assert bot._candidates(match.legal_actions(seat), ranked) == ranked[:4]
    unranked = bot._candidates(match.legal_actions(seat), ranked[:1])
    assert unranked[0] == ranked[0] and len(set(unranked)) == 4


def test_a_ranked_pass_stays_a_candidate_when_following() -> None:
    # Following a meld, the heuristic lists passing right after its choice.
    match: Match[Any, Any] = games.get("pits").new_match(seed=3, rules={"hands": 1})
    rng = random.Random(3)
    while match.hand.table is None or len(match.legal_actions(min(match.to_act))) < 3:  # type: ignore[attr-defined]
        seat = min(match.to_act)
        match.apply(seat, rng.choice(match.legal_actions(seat)))
    ranked = HeuristicBot(1).rank(match, min(match.to_act))
    assert Pass() in ranked[:2]


class _Worst:
    """A heuristic that always proposes the move the rollouts should reject."""

    def __init__(self, worst: Action) -> None:
        self.worst = worst

    def choose(self, state: State[Any], player: int) -> Action:
        return self.worst


def test_a_clearly_worse_proposal_is_overruled() -> None:
    # Seat 1 can win at once by matching; a guide that draws instead is overruled.
    hand = stacked_hand({1: "7H 7S 9C 9D KS"}, "KD", rules=Rules())
    bot = RolloutBot(3, Budget(iterations=40))
    bot._guides["pitty-pat"] = ("sensible", _Worst(Draw()))
    assert bot.choose(hand, 1) == MatchCard(hand.cards[1][0])


def test_in_real_time_it_waits_when_the_heuristic_would() -> None:
    # Pit's sorting period: only the dealer may act (open the pit); the others wait.
    match = games.get("pit").new_match(4, seed=1)
    bot = RolloutBot(1, Budget(iterations=3))
    dealer = match.hand.dealer  # type: ignore[attr-defined]
    assert bot.act(match, dealer) == match.legal_actions(dealer)[0]
    assert all(bot.act(match, s) is None for s in range(4) if s != dealer)
    match.apply(dealer, "open")
    seat = min(match.to_act)
    move = bot.act(match, seat)
    assert move is None or move in match.legal_actions(seat)


def test_in_turn_based_games_act_is_choose() -> None:
    match = advanced("ace-pit", 2, moves=2)
    seat = min(match.to_act)
    assert RolloutBot(4, Budget(iterations=3)).act(match, seat) == RolloutBot(
        4, Budget(iterations=3)
    ).choose(match, seat)


class _OneSeat:
    """A heuristic that keeps notes on its seat's play, so must play only one seat."""

    made: ClassVar[list[_OneSeat]] = []

    def __init__(self, seed: int | None = None) -> None:
        self.seats: set[int] = set()
        self.rng = random.Random(seed)
        _OneSeat.made.append(self)

    def choose(self, state: State[Any], player: int) -> Action:
        self.seats.add(player)
        actions: list[Action] = state.legal_actions(player)
        return self.rng.choice(actions)


@pytest.mark.parametrize("search", ["rollouts", "search"])
def test_every_seat_of_a_playout_has_a_bot_of_its_own(
    search: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pitkit.bots import rollouts
    from pitkit.bots import search as tree_search

    def one_seat(game: Any, name: str, seed: int | None = None) -> Any:
        return _OneSeat(seed) if name == "notes" else make(game, name, seed)

    monkeypatch.setattr(rollouts, "make_policy", one_seat)
    monkeypatch.setattr(tree_search, "make_policy", one_seat)
    _OneSeat.made.clear()
    match = advanced("pitty-pat", 4, moves=3)
    seat = min(match.to_act)
    if search == "rollouts":
        bot: Any = RolloutBot(2, Budget(iterations=5))
        bot._guides["pitty-pat"] = ("notes", _OneSeat(1))
    else:
        bot = SearchBot(2, Budget(iterations=20), "notes")
    bot.choose(match, seat)
    played = [b for b in _OneSeat.made if b.seats]
    assert len(played) > 1
    assert all(len(b.seats) == 1 for b in played)


def test_in_real_time_the_alternatives_are_the_heuristics_ranking() -> None:
    """Pit's traders rank their moves: the rollout bot's candidates are the
    heuristic's own move, then the rest of its ranking (not a random sample)."""

    class Spy(RolloutBot):
        favourites: ClassVar[list[list[Action]]] = []

        def _decide(self, hand: State[Any], player: int, favourites: list[Action]) -> Action:
            Spy.favourites.append(favourites)
            return favourites[0]

    match = games.get("pit").new_match(4, {"bull_and_bear": True}, seed=3)
    dealer = match.hand.dealer  # type: ignore[attr-defined]
    match.apply(dealer, "open")
    bot, heuristic = Spy(7), make(games.get("pit"), "sensible", 7)
    rng = random.Random(5)
    decided = 0
    for _ in range(60):
        seat = rng.choice(sorted(match.to_act))
        Spy.favourites.clear()
        move = bot.act(match, seat)
        expected = heuristic.act(match, seat)  # type: ignore[attr-defined]
        assert move == expected
        if move is not None:
            (favourites,) = Spy.favourites
            ranked = heuristic.rank(match, seat)  # type: ignore[attr-defined]
            assert favourites == [move, *(a for a in ranked if a != move)]
            decided += len(favourites) > 1
        match.apply(seat, move or rng.choice(match.legal_actions(seat)))
        if match.is_over:
            break
    assert decided >= 5, "too few searched moves to prove much"


def test_in_real_time_the_candidates_race_on_the_virtual_clock(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Pit's playouts are the table's own race, not turns: the candidate is
    sent and arrives a think time later, the other traders part-way through
    their thinks, so an acceptance may find its offer gone."""
    import pitkit.bots.rollouts

    runs: list[tuple[VirtualRun, list[Arrival]]] = []

    def watched(*args: Any, **kwargs: Any) -> VirtualRun:
        # A factory, not a subclass: the runner may be compiled.
        assert kwargs["staggered"]
        run = VirtualRun(*args, **kwargs)
        arrivals: list[Arrival] = []
        run.table.listeners.append(arrivals.append)
        runs.append((run, arrivals))
        return run

    monkeypatch.setattr(pitkit.bots.rollouts, "VirtualRun", watched)
    race = ["5 wheat, 2 corn, 2 barley", "4 wheat, 5 corn", "2 corn, 7 barley"]
    hand = pit_stacked_match(race, dealer=2).hand
    hand.apply(2, "offer 2 corn")
    before = [str(e) for e in hand.log]
    bot = RolloutBot(4, Budget(iterations=30))
    bot._decide(hand, 0, [hand.parse_action("accept 2 barley #1")])
    assert [str(e) for e in hand.log] == before
    assert len(runs) == 30 * WIDTH, "six candidates, in each of 30 deals"
    firsts = [next(a for a in arrivals if a.seat == 0) for _, arrivals in runs]
    assert len({first.action for first in firsts}) == WIDTH
    assert {first.action for first in firsts[::WIDTH]} == {"accept 2 barley #1"}
    assert all(run.match.is_over for run, _ in runs)
    assert any(not first.accepted and "taken by" in (first.reason or "") for first in firsts)
