"""Scoring a hand of Pitch from the tricks as played (rulings C6-C8).

`score_hand` is the score pad's function: it takes what happened at the
table (the tricks, the pitcher, the bid and the teams) and not a game
state, so it serves a game played in pitkit and one played with real cards
alike. The result names, for each of the four points, who won it and why.
`score_pad` scores a line of a tournament score pad, which records who won
each point rather than the tricks, with the same set back.

>>> r = score_hand(["0:AH 1:2H", "0:TC 1:3C"], pitcher=0, bid=2)
>>> [(a.point, a.credited) for a in r.awards]
[('high', (0,)), ('low', (1,)), ('jack', ()), ('game', (0,))]
>>> r.deltas
(2, 1)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from pitkit.cards import Card, Rank, Suit, parse_card
from pitkit.core.pickling import frozen_reduce
from pitkit.games.pitch.rules import MAX_BID, MIN_BID

__all__ = [
    "GAME_POINTS",
    "POINTS",
    "Award",
    "HandResult",
    "Point",
    "Trick",
    "card_points",
    "game_point",
    "hand_sides",
    "parse_trick",
    "score_hand",
    "score_pad",
    "score_tricks",
    "trick_winner",
]

Point = Literal["high", "low", "jack", "game"]
POINTS: tuple[Point, ...] = ("high", "low", "jack", "game")

#: Game-point value of each rank (C7): A 4, K 3, Q 2, J 1, T 10.
GAME_POINTS: Mapping[Rank, int] = {
    Rank.ACE: 4,
    Rank.KING: 3,
    Rank.QUEEN: 2,
    Rank.JACK: 1,
    Rank.TEN: 10,
}
_CARD_POINTS: tuple[int, ...] = tuple(GAME_POINTS.get(Rank(i % 13 + 2), 0) for i in range(52))


def card_points(card: Card) -> int:
    """The card's value in game points (C7)."""
    return _CARD_POINTS[card]


def trick_winner(plays: Sequence[tuple[int, Card]], trump: Suit) -> int:
    """The seat that wins a trick (C6): the highest trump, else the highest
    card of the suit led."""
    # Cards are suit * 13 + rank - 2, so within a suit the int order is the rank order.
    best_seat, best = plays[0]
    led = best // 13
    best_trump = led == trump
    for seat, card in plays[1:]:
        suit = card // 13
        if suit == trump:
            if not best_trump or card > best:
                best_seat, best, best_trump = seat, card, True
        elif not best_trump and suit == led and card > best:
            best_seat, best = seat, card
    return best_seat


@dataclass(frozen=True, slots=True)
class Trick:
    """One trick: the plays in order, the first being the lead."""

    plays: tuple[tuple[int, Card], ...]

    @property
    def leader(self) -> int:
        """The seat that led."""
        return self.plays[0][0]

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards, in the order played."""
        return tuple(card for _, card in self.plays)

    def winner(self, trump: Suit) -> int:
        """The seat that wins this trick with `trump` as trump (C6)."""
        return trick_winner(self.plays, trump)

    def __str__(self) -> str:
        return " ".join(f"{seat}:{card}" for seat, card in self.plays)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return frozen_reduce(self)  # compiled, it has no __dict__ to pickle


def parse_trick(text: str) -> Trick:
    """A trick written as ``"0:AS 1:2S 2:TS"`` (seat:card, in the order played)."""
    plays = []
    for token in text.replace(",", " ").split():
        seat, sep, card = token.partition(":")
        if not sep or not seat.strip().isdigit():
            raise ValueError(f"a play is written seat:card, like 0:AS, not {token!r}")
        plays.append((int(seat), parse_card(card)))
    if not plays:
        raise ValueError("an empty trick")
    return Trick(tuple(plays))


@dataclass(frozen=True, slots=True)
class Award:
    """One of a hand's four points: who won it and why.

    `credited` holds the seats that score it: one seat, a team's seats, or
    nobody (a tied game count, or a Jack that was not dealt). `player` is
    the seat that played or captured the card, when there is one."""

    point: Point
    credited: tuple[int, ...]
    player: int | None
    card: Card | None
    why: str

    def to_json(self) -> dict[str, Any]:
        """This award as JSON."""
        return {
            "point": self.point,
            "credited": list(self.credited),
            "player": self.player,
            "card": None if self.card is None else str(self.card),
            "why": self.why,
        }

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return frozen_reduce(self)  # compiled, it has no __dict__ to pickle


@dataclass(frozen=True, slots=True)
class HandResult:
    """What a hand was worth: the four awards, each side's game count, and
    the change to every seat's score once the set back is applied (C8)."""

    trump: Suit
    pitcher: int
    bid: int
    sides: tuple[tuple[int, ...], ...]
    awards: tuple[Award, ...]
    game_count: tuple[int, ...]  # game points captured by each side, in `sides` order
    won: tuple[int, ...]  # points won by each side before the set back
    made: bool
    deltas: tuple[int, ...]  # change to each seat's score, 0..players-1

    @property
    def seats(self) -> tuple[int, ...]:
        """Every seat that played the hand, in seat order."""
        return tuple(sorted(s for side in self.sides for s in side))

    def side_of(self, seat: int) -> int:
        """The index in `sides` of the side `seat` plays for."""
        for i, side in enumerate(self.sides):
            if seat in side:
                return i
        raise ValueError(f"seat {seat} did not play this hand")

    def award(self, point: Point) -> Award:
        """The award for one point."""
        return next(a for a in self.awards if a.point == point)

    @property
    def summary(self) -> str:
        """One line: the bid, whether it was made, and each point's winner."""
        who = _side_name(self.sides[self.side_of(self.pitcher)], len(self.sides[0]) > 1)
        verdict = (
            f"made it with {self.won[self.side_of(self.pitcher)]}"
            if self.made
            else f"is set back {self.bid}"
        )
        parts = []
        for award in self.awards:
            parts.append(
                f"{award.point} "
                + (_side_name(award.credited, len(award.credited) > 1) if award.credited else "-")
            )
        suit = ("clubs", "diamonds", "hearts", "spades")[self.trump]
        return f"{who} bid {self.bid} in {suit} and {verdict} ({', '.join(parts)})"

    def to_json(self) -> dict[str, Any]:
        """This result as JSON."""
        return {
            "trump": self.trump.letter,
            "pitcher": self.pitcher,
            "bid": self.bid,
            "sides": [list(s) for s in self.sides],
            "awards": [a.to_json() for a in self.awards],
            "game_count": list(self.game_count),
            "won": list(self.won),
            "made": self.made,
            "deltas": list(self.deltas),
            "summary": self.summary,
        }

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return frozen_reduce(self)  # compiled, it has no __dict__ to pickle


def _side_name(seats: Sequence[int], team: bool) -> str:
    if team:
        return "team " + "-".join(str(s) for s in seats)
    return f"seat {seats[0]}"


TrickInput = Trick | str | Sequence[tuple[int, Card | str]]


def _as_trick(trick: TrickInput) -> Trick:
    if isinstance(trick, Trick):
        return trick
    if isinstance(trick, str):
        return parse_trick(trick)
    plays = []
    for seat, card in trick:
        plays.append((int(seat), card if isinstance(card, Card) else parse_card(card)))
    return Trick(tuple(plays))


def score_hand(
    tricks: Sequence[TrickInput],
    *,
    pitcher: int,
    bid: int,
    trump: Suit | str | None = None,
    teams: Sequence[Sequence[int]] | None = None,
    players: int | None = None,
    jack_to: Literal["captured", "played"] = "captured",
) -> HandResult:
    """Score one hand from its tricks as played (C6-C8).

    `tricks` are `Trick` values, texts like ``"0:AS 1:2S"`` or lists of
    (seat, card) pairs, each in the order played. Trump is the suit of the
    pitcher's first card; `trump`, if given, must agree. `teams` lists the
    seats of each team (None: everyone for themselves); seats not named in
    a team play alone. `players` is the number of seats at the table
    (default: the highest seat that played, plus one), which sets the
    length of `deltas`. Raises ValueError on a record that cannot be a hand.
    """
    played = [_as_trick(t) for t in tricks]
    if not played:
        raise ValueError("a hand has at least one trick")
    if not MIN_BID <= bid <= MAX_BID:
        raise ValueError(f"a bid is 2, 3 or 4, not {bid} (C4)")
    seats = sorted(seat for seat, _ in played[0].plays)
    if len(set(seats)) != len(seats) or len(seats) < 2:
        raise ValueError(
            f"the first trick must have one card from each of 2 or more seats: {played[0]}"
        )
    if played[0].leader != pitcher:
        raise ValueError(f"the pitcher, seat {pitcher}, leads the first trick (C6): {played[0]}")
    lead_suit = played[0].plays[0][1].suit
    if trump is not None:
        wanted = trump if isinstance(trump, Suit) else _parse_suit(trump)
        if wanted != lead_suit:
            raise ValueError(
                f"the pitcher's first card {played[0].plays[0][1]} sets trump (C6), not {trump}"
            )
    trump_suit = lead_suit
    size = max(seats) + 1 if players is None else players
    if size <= max(seats):
        raise ValueError(f"seat {max(seats)} played, but the table has only {size} seats")
    sides = hand_sides(seats, teams)
    seen: set[Card] = set()
    leader = pitcher
    for n, trick in enumerate(played, 1):
        if sorted(seat for seat, _ in trick.plays) != seats:
            raise ValueError(f"trick {n} must have one card from each of seats {seats}: {trick}")
        if trick.leader != leader:
            raise ValueError(f"trick {n} is led by seat {leader}, who won the last one: {trick}")
        for _, card in trick.plays:
            if card.is_joker:
                raise ValueError("Pitch uses no Jokers")
            if card in seen:
                raise ValueError(f"{card} is played twice")
            seen.add(card)
        leader = trick.winner(trump_suit)
    return score_tricks(played, trump_suit, pitcher, bid, sides, size, jack_to)


def score_tricks(
    played: Sequence[Trick],
    trump_suit: Suit,
    pitcher: int,
    bid: int,
    sides: tuple[tuple[int, ...], ...],
    size: int,
    jack_to: str,
) -> HandResult:
    """`score_hand` for a record already known to be sound (a hand played in pitkit)."""
    side_index = {seat: i for i, side in enumerate(sides) for seat in side}
    winners = [trick_winner(t.plays, trump_suit) for t in played]
    counts = [0] * len(sides)
    for trick, winner in zip(played, winners, strict=True):
        counts[side_index[winner]] += sum(_CARD_POINTS[c] for c in trick.cards)

    awards = [
        *_high_low(played, trump_suit, sides, side_index),
        _jack(played, winners, trump_suit, sides, side_index, jack_to),
        game_point(counts, sides),
    ]
    return _settle(trump_suit, pitcher, bid, sides, awards, counts, size)


def _settle(
    trump: Suit,
    pitcher: int,
    bid: int,
    sides: tuple[tuple[int, ...], ...],
    awards: Sequence[Award],
    counts: Sequence[int],
    size: int,
) -> HandResult:
    """The hand's result once its four awards are known: the points each side
    won, and the set back (C8). Shared by `score_tricks` and `score_pad`."""
    side_index = {seat: i for i, side in enumerate(sides) for seat in side}
    won = [0] * len(sides)
    for award in awards:
        if award.credited:
            won[side_index[award.credited[0]]] += 1
    pitching = side_index[pitcher]
    made = won[pitching] >= bid
    deltas = [0] * size
    for i, side in enumerate(sides):
        # C8: a pitcher short of the bid loses it and scores none of the hand's points.
        delta = won[i] if i != pitching or made else -bid
        for seat in side:
            deltas[seat] = delta
    return HandResult(
        trump,
        pitcher,
        bid,
        sides,
        tuple(awards),
        tuple(counts),
        tuple(won),
        made,
        tuple(deltas),
    )


def score_pad(
    seats: Sequence[int],
    *,
    pitcher: int,
    bid: int,
    trump: Suit | str,
    high: int,
    low: int,
    jack: int | None,
    game: int | None,
    teams: Sequence[Sequence[int]] | None = None,
    players: int | None = None,
) -> HandResult:
    """Score one hand from its line on a tournament score pad (topic 35):
    the bid, the pitcher, trump and who won each point, not the tricks.

    `seats` are the seats that played the hand. `high`, `low`, `jack` and
    `game` name the seat that won each point (for a team, any of its seats);
    `jack` is None when the Jack of trump was not dealt (C7, topic 28) and
    `game` None when the game count was tied (topic 33). The set back is
    `score_tricks`'s (C8). The pad does not record the game counts, so
    `game_count` is all zeros. Raises ValueError on a line that cannot be a
    hand.

    >>> score_pad([0, 1, 2], pitcher=1, bid=3, trump="H", high=1, low=0, jack=None, game=2).deltas
    (1, -3, 1)
    """
    played = sorted(set(seats))
    if len(played) != len(seats) or len(played) < 2:
        raise ValueError(f"a hand is played by 2 or more different seats, not {list(seats)}")
    if not MIN_BID <= bid <= MAX_BID:
        raise ValueError(f"a bid is 2, 3 or 4, not {bid} (C4)")
    trump_suit = trump if isinstance(trump, Suit) else _parse_suit(trump)
    size = max(played) + 1 if players is None else players
    if size <= max(played):
        raise ValueError(f"seat {max(played)} played, but the table has only {size} seats")
    named = {"pitcher": pitcher, "high": high, "low": low, "jack": jack, "game": game}
    for what, seat in named.items():
        if seat is not None and seat not in played:
            raise ValueError(f"the {what} is seat {seat}, who did not play this hand")
    sides = hand_sides(played, teams)
    awards = _pad_awards(sides, Card.of(Rank.JACK, trump_suit), high, low, jack, game)
    return _settle(trump_suit, pitcher, bid, sides, awards, (0,) * len(sides), size)


def _pad_awards(
    sides: Sequence[tuple[int, ...]],
    jack_card: Card,
    high: int,
    low: int,
    jack: int | None,
    game: int | None,
) -> list[Award]:
    """The four points as a score pad's line gives them: the seat that won each."""
    side_of = {seat: side for side in sides for seat in side}
    return [
        Award("high", side_of[high], high, None, f"seat {high} took high (score pad)"),
        Award("low", side_of[low], low, None, f"seat {low} took low (score pad)"),
        Award("jack", (), None, None, f"{jack_card} was not dealt")
        if jack is None
        else Award(
            "jack", side_of[jack], jack, jack_card, f"seat {jack} took {jack_card} (score pad)"
        ),
        Award("game", (), None, None, "a tie: nobody took the game point (score pad)")
        if game is None
        else Award("game", side_of[game], game, None, f"seat {game} took game (score pad)"),
    ]


def _parse_suit(text: str) -> Suit:
    letter = text.strip().upper()[:1]
    if not letter or letter not in "CDHS":
        raise ValueError(f"a suit is C, D, H or S, not {text!r}")
    return Suit("CDHS".index(letter))


def hand_sides(
    seats: Sequence[int], teams: Sequence[Sequence[int]] | None
) -> tuple[tuple[int, ...], ...]:
    """The sides that play the hand: each team's seats that played, then lone seats."""
    if teams is None:
        return tuple((s,) for s in seats)
    out: list[tuple[int, ...]] = []
    named: set[int] = set()
    for team in teams:
        members = tuple(sorted(s for s in team if s in seats))
        if set(team) & named:
            raise ValueError(f"a seat is in two teams: {teams}")
        named |= set(team)
        if members:
            out.append(members)
    out += [(s,) for s in seats if s not in named]
    return tuple(sorted(out))


def _high_low(
    tricks: Sequence[Trick],
    trump: Suit,
    sides: Sequence[tuple[int, ...]],
    side_index: Mapping[int, int],
) -> list[Award]:
    trumps = [(seat, card) for t in tricks for seat, card in t.plays if card.suit == trump]
    # The pitcher's first card is a trump, so there is always a high and a low.
    high_seat, high = max(trumps, key=lambda p: p[1].rank)
    low_seat, low = min(trumps, key=lambda p: p[1].rank)
    return [
        Award(
            "high",
            sides[side_index[high_seat]],
            high_seat,
            high,
            f"seat {high_seat} played {high}, the highest trump",
        ),
        Award(
            "low",
            sides[side_index[low_seat]],
            low_seat,
            low,
            f"seat {low_seat} played {low}, the lowest trump",
        ),
    ]


def _jack(
    tricks: Sequence[Trick],
    winners: Sequence[int],
    trump: Suit,
    sides: Sequence[tuple[int, ...]],
    side_index: Mapping[int, int],
    jack_to: str,
) -> Award:
    jack = Card.of(Rank.JACK, trump)
    for trick, winner in zip(tricks, winners, strict=True):
        for seat, card in trick.plays:
            if card != jack:
                continue
            if jack_to == "played":
                return Award(
                    "jack", sides[side_index[seat]], seat, jack, f"seat {seat} played {jack}"
                )
            why = (
                f"seat {winner} captured {jack}, played by seat {seat}"
                if winner != seat
                else f"seat {winner} played {jack} and won the trick with it"
            )
            return Award("jack", sides[side_index[winner]], winner, jack, why)
    # C7: no Jack point when the Jack of trump was not dealt.
    return Award("jack", (), None, None, f"{jack} was not dealt")


def game_point(counts: Sequence[int], sides: Sequence[tuple[int, ...]]) -> Award:
    """The game point from each side's counted card points: the highest count takes
    it; a tie at the top gives it to nobody (C6, topic 33)."""
    best = max(counts)
    leaders = [i for i, c in enumerate(counts) if c == best]
    team = any(len(s) > 1 for s in sides)
    if len(leaders) > 1:
        names = " and ".join(_side_name(sides[i], team) for i in leaders)
        return Award("game", (), None, None, f"a tie: {names} each took {best} game points")
    (i,) = leaders
    rest = sorted(counts, reverse=True)[1]
    player = sides[i][0] if len(sides[i]) == 1 else None
    return Award(
        "game",
        sides[i],
        player,
        None,
        f"{_side_name(sides[i], team)} took {best} game points, the next best {rest}",
    )
