"""The tiny variants: decks and hands cut by rule options, every deal listed
as OpenSpiel's chance, exact CFR and exploitability, bots as policies."""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python import policy as openspiel_policy  # noqa: E402
from open_spiel.python.algorithms import cfr, exploitability  # noqa: E402

from pitkit import games  # noqa: E402
from pitkit.adapters import openspiel  # noqa: E402
from pitkit.adapters.table import ChanceBeyondDealError  # noqa: E402
from pitkit.bots import RandomBot  # noqa: E402
from pitkit.cards import format_cards, standard_deck  # noqa: E402
from pitkit.core import BadOptionError  # noqa: E402
from pitkit.core.chance import cut_deck  # noqa: E402
from pitkit.core.match import Match  # noqa: E402

openspiel.register()
CUT = ("ace-pit", "pitty-pat", "pitch")
SMALL_PITCH = {"players": 2, "rules": "ranks:2 suits:1 cards_each:1 run_cards:0"}
"""One trick of the King and Ace of clubs, bidding included: 4 deals, 120
information states, for tests of the solvers."""


def load(name: str, **params: Any) -> Any:
    """OpenSpiel game `name` with chance listing the deals."""
    return pyspiel.load_game(name, {"chance": "deals", **params})


def cards_in_play(match: Match[Any, Any]) -> Counter[Any]:
    return Counter(card for cards in match.zones().values() for card in cards)


# -- the cut deck ------------------------------------------------------------------


def test_a_cut_deck_is_the_top_ranks_of_the_first_suits() -> None:
    assert format_cards(cut_deck(3, 2)) == "QC KC AC QD KD AD"
    assert format_cards(cut_deck(1, 4)) == "AC AD AH AS"
    assert cut_deck(13, 4) == standard_deck() == cut_deck()  # the seed's deals unchanged
    with pytest.raises(BadOptionError, match="ranks"):
        cut_deck(0, 4)
    with pytest.raises(BadOptionError, match="suits"):
        cut_deck(13, 5)


@pytest.mark.parametrize("name", CUT)
@settings(max_examples=40)
@given(data=st.data())
def test_a_cut_deck_is_dealt_and_played_by_the_rules(name: str, data: st.DataObject) -> None:
    """Any deck and hand the options allow: each seat is dealt its cards from
    that deck, and no card enters or leaves it while the hand is played."""
    game = games.get(name)
    players = data.draw(st.integers(game.min_players, game.max_players), label="players")
    options = {
        "ranks": data.draw(st.integers(1, 13), label="ranks"),
        "suits": data.draw(st.integers(1, 4), label="suits"),
        "cards_each": data.draw(st.integers(1, 7), label="cards_each"),
        "hands": 1,
    }
    try:
        match = game.new_match(players, options, seed=data.draw(st.integers(0, 2**32)))
    except BadOptionError as error:  # refused before anything is dealt: the deck or the hand
        assert "cards" in str(error) or "odd" in str(error), error
        return
    deck = Counter(match.rules.deck())
    assert cards_in_play(match) == deck
    for seat in range(players):
        dealt = [*match.zones()[f"hand {seat}"], *match.zones().get(f"pairs {seat}", [])]
        assert len(dealt) == options["cards_each"]
    rng = random.Random(0)
    bot = RandomBot(1)
    while not match.is_over:
        seat = rng.choice(sorted(match.to_act))
        match.apply(seat, bot.choose(match, seat))
        assert cards_in_play(match) == deck


def test_a_deck_too_small_for_the_deal_is_refused() -> None:
    with pytest.raises(BadOptionError, match="at least 8 cards"):
        games.get("ace-pit").make_rules({"ranks": 3, "suits": 2, "cards_each": 3})
    with pytest.raises(BadOptionError, match="odd"):
        games.get("pitty-pat").make_rules({"cards_each": 2})
    with pytest.raises(BadOptionError, match="needs 13 cards"):
        games.get("pitty-pat").new_match(4, {"ranks": 3, "suits": 4, "cards_each": 3})
    with pytest.raises(BadOptionError, match="needs 6 cards"):
        games.get("pitch").new_match(3, {"ranks": 1, "suits": 4, "cards_each": 1, "run_cards": 1})


# -- chance: the deals listed --------------------------------------------------------


def test_every_deal_is_listed_with_its_true_probability() -> None:
    """Each card lies in each hand with probability cards_each / deck, and
    either seat deals first half the time, summing over the listed deals."""
    game = load("python_pitkit_pitch", players=2, rules="ranks:2 suits:2 cards_each:1 run_cards:1")
    outcomes = game.new_initial_state().chance_outcomes()
    assert game.max_chance_outcomes() == len(outcomes) == 2 * 24  # first dealer, 4! orders
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    in_hand: defaultdict[tuple[int, Any], Fraction] = defaultdict(Fraction)
    dealer = Fraction(0)
    for action, probability in outcomes:
        state = game.new_initial_state()
        state.apply_action(action)
        assert state.match is not None and not state.is_chance_node()
        for seat in (0, 1):
            for card in state.match.zones()[f"hand {seat}"]:
                in_hand[seat, card] += Fraction(probability).limit_denominator(1000)
        dealer += Fraction(probability).limit_denominator(1000) * (state.match.dealer == 0)
    assert dealer == Fraction(1, 2)
    assert set(in_hand.values()) == {Fraction(1, 4)} and len(in_hand) == 8


def test_the_deals_of_the_seed_are_among_those_listed() -> None:
    """The same rules dealt from seeds (chance=seed) give only listed deals;
    hands in another order are one deal (6!/(2! 2!) orders of the Ace Pit deck)."""
    params = openspiel.TINY["python_pitkit_ace_pit"]
    listed = load("python_pitkit_ace_pit", **params)
    outcomes = listed.new_initial_state().chance_outcomes()
    assert len(outcomes) == 2 * 720 // 4

    def where(state: Any) -> tuple[Any, ...]:
        zones = state.match.zones()
        return (state.match.dealer, *(tuple(sorted(zones[f"hand {s}"])) for s in (0, 1)))

    deals = {where(listed.new_initial_state().child(a)) for a, _ in outcomes}
    seeded = pyspiel.load_game("python_pitkit_ace_pit", {**params, "chance": "seed"})
    for seed in range(40):
        state = seeded.new_initial_state()
        for byte in openspiel.seed_bytes(seed):
            state.apply_action(byte)
        assert where(state) in deals


def test_the_variants_pass_openspiel_s_checks() -> None:
    """Clones, pickles and serialization (the rules and chance travel with the
    game's parameters), tensors' sizes; a history replays to the same state."""
    for name, params in openspiel.TINY.items():
        game = openspiel.load_tiny(name)
        chosen = openspiel.setup_of(game)
        most = chosen.encoding.most_moves(chosen.rules)
        assert game.max_game_length() == 1 + most
        assert params["recall"] == most  # a row a move of the hand, no more
        pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)
    game = openspiel.load_tiny("python_pitkit_pitch")
    state = game.new_initial_state()
    rng = random.Random(3)
    while not state.is_terminal():
        actions = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else None
        state.apply_action(rng.choice(actions or state.legal_actions()))
        copy = game.deserialize_state(state.serialize())
        assert str(copy) == str(state) and copy.history() == state.history()


def test_the_tensor_follows_the_one_chance_move() -> None:
    game = load("python_pitkit_pitch", **SMALL_PITCH)
    width = openspiel.setup_of(game).encoding.size
    state = game.new_initial_state().child(0)
    for moves in range(3):
        for seat in (0, 1):
            rows = state.information_state_tensor(seat)
            assert rows[moves * width : (moves + 1) * width] == state.observation_tensor(seat)
            assert not any(rows[(moves + 1) * width :])
        state.apply_action(state.legal_actions()[0])


def test_each_information_state_is_one_seat_s_with_one_set_of_moves() -> None:
    """What OpenSpiel's solvers need of the strings: every state they name
    has the same seat to act and the same legal moves (two seats holding
    the same cards in two deals once read alike)."""
    game = openspiel.load_tiny("python_pitkit_pitty_pat")
    found: dict[str, tuple[int, list[int]]] = {}
    stack = [game.new_initial_state()]
    while stack:
        state = stack.pop()
        if state.is_terminal():
            continue
        if not state.is_chance_node():
            seat = state.current_player()
            key = state.information_state_string()
            assert key.startswith(f'{{"seat": {seat}}}\n')
            assert found.setdefault(key, (seat, state.legal_actions())) == (
                seat,
                state.legal_actions(),
            )
        stack.extend(state.child(a) for a in state.legal_actions())
    assert len(found) > 100


def test_chance_beyond_the_deal_is_refused() -> None:
    with pytest.raises(BadOptionError, match="one hand"):
        load("python_pitkit_pitch", hands=2, rules="ranks:2 suits:2 cards_each:1")
    with pytest.raises(BadOptionError, match="chance is one of"):
        pyspiel.load_game("python_pitkit_pitch", {"chance": "dice"})
    with pytest.raises(BadOptionError, match="`hands` parameter"):
        load("python_pitkit_pitch", rules="hands:2 ranks:2")
    with pytest.raises(BadOptionError, match="cut the deck further"):
        load("python_pitkit_ace_pit")  # 52! orders
    with pytest.raises(ValueError, match="no tiny variant"):
        openspiel.load_tiny("python_pitkit_pits")
    # Two turns of four cards: the second player finds the stock empty (Y4).
    game = load(
        "python_pitkit_pitty_pat", players=2, rules="ranks:2 suits:2 cards_each:1 turn_limit:2"
    )
    state = game.new_initial_state()
    state.apply_action(0)
    state.apply_action(0)  # the first player draws the one card of the stock
    if not state.is_terminal() and 0 in state.legal_actions():
        with pytest.raises(ChanceBeyondDealError, match="after its listed deal"):
            state.apply_action(0)


# -- solving -----------------------------------------------------------------------


def test_cfr_s_exploitability_falls_toward_an_equilibrium() -> None:
    game = load("python_pitkit_pitch", **SMALL_PITCH)
    uniform = exploitability.exploitability(game, openspiel_policy.UniformRandomPolicy(game))
    solver = cfr.CFRSolver(game)
    found = []
    for iteration in range(1, 9):
        solver.evaluate_and_update_policy()
        if iteration in (2, 4, 8):
            found.append(exploitability.exploitability(game, solver.average_policy()))
    assert uniform > found[0] > found[1] > found[2] >= 0
    assert exploitability.nash_conv(game, solver.average_policy()) == pytest.approx(2 * found[2])


def test_a_bot_is_a_policy_asked_at_every_information_state() -> None:
    game = load("python_pitkit_pitch", **SMALL_PITCH)
    pitch = games.get("pitch")
    heuristic = openspiel.bot_policy(game, lambda seed: pitch.bots["heuristic"].make(seed))
    again = openspiel.bot_policy(game, lambda seed: pitch.bots["heuristic"].make(seed))
    assert (heuristic.action_probability_array == again.action_probability_array).all()
    mixed = openspiel.bot_policy(game, RandomBot, samples=4)
    rows = 0
    stack = [game.new_initial_state()]
    while stack:
        state = stack.pop()
        if state.is_terminal():
            continue
        stack.extend(state.child(a) for a in state.legal_actions())
        if state.is_chance_node():
            continue
        rows += 1
        legal = state.legal_actions()
        pure = heuristic.action_probabilities(state)
        assert set(pure) == set(legal) and sorted(pure.values())[-1] == 1.0  # the bot's one move
        shares = mixed.action_probabilities(state)
        assert sum(shares.values()) == pytest.approx(1.0)
        assert all(round(p * 4, 9).is_integer() for p in shares.values())  # 4 answers
    assert rows > 50
    assert 0 <= exploitability.exploitability(game, heuristic) <= 2
