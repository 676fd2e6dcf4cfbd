"""Pits' encoding: five seats, 54 cards; melds named by reading and by the
places of their cards in the player's sorted hand, and the exchange's moves.

Why the meld ids are complete and unambiguous: a play is a reading and a
set of cards from the player's hand. The hand is kept sorted (Pits rank,
then card number), so a set of its cards is a bit mask over its places,
and a reading is one of six words. In the play, a hand holds at most 11
cards: 54 cards dealt to five seats give 11 or 10, and the exchange (P8)
gives back to each seat as many cards as it takes. So every play has the
id ``PLAY + 2048 * reading + mask``, and an id names one reading and one
set of cards. Runs of sets larger than quads (``run-of-5``...) need at
least 15 cards, and quads runs 12: no hand can lay them; the quads block
is kept so that the layout reads the same for every reading.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import MappingProxyType
from typing import Any

from pitkit.adapters.encoding import Encoding, Row, Segment
from pitkit.cards import Card
from pitkit.core.actions import Action
from pitkit.core.errors import BadActionError
from pitkit.core.match import Match
from pitkit.games.pits import Give, Pass, Phase, PitsHand, Play, Take
from pitkit.games.pits.melds import KINDS
from pitkit.games.pits.state import PLAYERS

__all__ = ["PitsEncoding"]

_PHASES = tuple(Phase)
READINGS = ("single", "set", "run", "pairs", "triples", "quads")
"""The readings a play can declare in a hand of at most 11 cards."""
SLOTS = 11
"""The most cards a hand holds in the play."""
_GIVE = 1  # ids 1-54: give card c
_TAKE = _GIVE + 54  # ids 55-108: take card c
_PLAY = _TAKE + 54  # ids 109 + 2048 r + mask: play the cards at the mask's places, as reading r


class PitsEncoding(Encoding):
    """Pits (five seats)."""

    game = "pits"
    env_name = "pitkit/pits-v0"
    max_players = PLAYERS
    short = MappingProxyType({"hands": 1})

    def most_moves(self, rules: Any) -> int:
        # The exchange's six moves; then each meld lays at least one of the
        # 54 cards, and between two melds each of the four others passes at
        # most once.
        return 6 + 54 * 5

    def layout(self) -> tuple[Segment, ...]:
        return (
            Segment("hand", 54, "my cards (52 BJ, 53 RJ)"),
            Segment("slots", SLOTS * 54, "my sorted hand: the card at each place, one-hot"),
            Segment("played", 54, "cards laid this hand"),
            Segment("table", 54, "the meld on the table"),
            Segment("table kind", len(KINDS), "its kind: single, set, run, run_of_sets"),
            Segment("table shape", 3, "its cards / 11, set size / 4, top rank / 17"),
            Segment("table owner", PLAYERS, "who laid it, relative"),
            Segment("offered", 54, "the exchange's face-up cards"),
            Segment("gave", 54, "the card I gave face down"),
            Segment("known", PLAYERS * 54, "exchanged cards not yet laid, by holder (relative)"),
            Segment(
                "phase",
                len(_PHASES),
                "give_highest, first_takes, give_concealed, fourth_takes, play, over",
            ),
            Segment("to act", PLAYERS, "seats to act, relative"),
            Segment("dealer", PLAYERS, "the dealer, relative"),
            Segment("cards", PLAYERS, "cards held / 12, relative"),
            Segment("passed", PLAYERS, "passed this round, relative"),
            Segment("place", PLAYERS, "finishing place this hand / 5 (0: still in), relative"),
            Segment("last places", PLAYERS, "place in the previous hand / 5, relative"),
            Segment("scores", PLAYERS, "match points / 20, relative"),
        )

    def action_layout(self) -> tuple[Segment, ...]:
        return (
            Segment("pass", 1, "pass: id 0"),
            Segment("give", 54, "give card c: 1 + c"),
            Segment("take", 54, "take card c: 55 + c"),
            Segment(
                "play",
                len(READINGS) << SLOTS,
                "play the cards at the places set in mask (bit i: the i-th card of my "
                "sorted hand) as reading r (single, set, run, pairs, triples, quads): "
                "109 + 2048 r + mask",
            ),
        )

    def fill(self, row: Row, match: Match[Any, Any], seat: int) -> None:
        hand = _hand(match)
        seats = self.around[seat]
        mine = hand.cards[seat]
        row.bits("hand", mine)
        row.bits("slots", [54 * i + c for i, c in enumerate(mine[:SLOTS])])
        row.bits("played", hand.played)
        table = hand.table
        if table is None:
            row.bits("table", ())
            row.one_hot("table kind", None)
            row.values("table shape", ())
        else:
            row.bits("table", table.cards)
            row.one_hot("table kind", KINDS.index(table.kind))
            row.values("table shape", (table.size / SLOTS, table.set_size / 4, table.top_rank / 17))
        owner = hand.owner
        row.one_hot("table owner", None if owner is None else (owner - seat) % PLAYERS)
        row.bits("offered", hand.offered.values())
        row.one_hot("gave", hand.concealed.get(seat))
        known = hand.known
        row.bits("known", [54 * ((s - seat) % PLAYERS) + c for c, s in known.items()])
        row.one_hot("phase", _PHASES.index(hand.phase))
        row.bits("to act", [(s - seat) % PLAYERS for s in hand.to_act])
        row.one_hot("dealer", (hand.dealer - seat) % PLAYERS)
        cards = hand.cards
        row.values("cards", [len(cards[s]) / 12 for s in seats])
        passed = hand.passed
        row.values("passed", [float(s in passed) for s in seats])
        row.values("place", _places_shown(hand.finished, seats))
        row.values("last places", _places_shown(hand.places or (), seats))
        scores = match.shown_scores()
        row.values("scores", () if scores is None else [scores[s] / 20 for s in seats])

    def encode(self, match: Match[Any, Any], seat: int, action: Action) -> int:
        if isinstance(action, Pass):
            return 0
        if isinstance(action, Give):
            return _GIVE + action.card
        if isinstance(action, Take):
            return _TAKE + action.card
        assert isinstance(action, Play)
        return _play_id(_places(match, seat), action)

    def ids_of(self, match: Match[Any, Any], seat: int, actions: Sequence[Action]) -> list[int]:
        """`Encoding.ids_of`, with the places of the hand's cards found once
        rather than once a play: a seat may have a hundred plays."""
        place = _places(match, seat)
        return [
            _play_id(place, a) if isinstance(a, Play) else self.encode(match, seat, a)
            for a in actions
        ]

    def decode(self, match: Match[Any, Any], seat: int, action_id: int) -> Action:
        if not 0 <= action_id < self.actions:
            raise BadActionError(f"no action id {action_id}")
        if action_id == 0:
            return Pass()
        if action_id < _TAKE:
            return Give(Card(action_id - _GIVE))
        if action_id < _PLAY:
            return Take(Card(action_id - _TAKE))
        reading, mask = divmod(action_id - _PLAY, 1 << SLOTS)
        mine = _hand(match).cards[seat]
        cards = tuple(card for i, card in enumerate(mine[:SLOTS]) if mask >> i & 1)
        if not cards or mask >> len(mine):
            raise BadActionError(
                f"action id {action_id} names places beyond the hand's {len(mine)}"
            )
        return Play(READINGS[reading], cards)


def _places(match: Match[Any, Any], seat: int) -> dict[Card, int]:
    """Each card of `seat`'s sorted hand, to its place (its bit in a play's mask)."""
    return {card: i for i, card in enumerate(_hand(match).cards[seat])}


def _play_id(place: dict[Card, int], play: Play) -> int:
    """The id of laying `play` from the hand whose `_places` are `place`."""
    assert play.reading is not None
    mask = 0
    for card in play.cards:
        if place[card] >= SLOTS:
            raise AssertionError(f"a hand of more than {SLOTS} cards lays {play}")
        mask |= 1 << place[card]
    return _PLAY + (READINGS.index(play.reading) << SLOTS) + mask


def _places_shown(order: Sequence[int], seats: Sequence[int]) -> list[float]:
    """Each of `seats`' place / 5 in `order` (seats first to last), 0 for a seat not in it."""
    place = [0.0] * PLAYERS
    for i, s in enumerate(order):
        place[s] = (i + 1) / 5
    return [place[s] for s in seats]


def _hand(match: Match[Any, Any]) -> PitsHand:
    hand = match.hand
    assert isinstance(hand, PitsHand)
    return hand
