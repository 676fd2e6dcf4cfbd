"""Pits melds: what a group of cards can be read as, and what beats what.

Rulings P2-P5 and P9. Ranks run 3 < 4 < ... < K < A < 2 < BJ < RJ; here they
are numbers 3-14 for 3-A, 15 for the 2s, 16 and 17 for the black and red
Jokers. Four kinds of meld:

- ``single``: one card, its own rank (a lone Joker or 2 is not wild);
- ``set``: n >= 2 cards of one rank, Jokers and 2s wild (only 2s and Jokers:
  a set of 2s, the 2s natural);
- ``run``: three or more consecutive ranks 3-A, one card each, Jokers wild,
  no 2 at all;
- ``run_of_sets``: three or more consecutive ranks 3-A, each a set of the
  same size, Jokers and 2s wild anywhere.

A wild card stands for whatever makes the strongest meld of its kind (P4),
so a reading is fixed by the cards, the kind and (for runs of sets) the set
size.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations
from operator import neg
from typing import Literal, NamedTuple, get_args

from pitkit.cards import Card, CardError, Rank, parse_card
from pitkit.games.pits.rules import Rules

__all__ = [
    "KINDS",
    "Kind",
    "Meld",
    "NotAMeldError",
    "beats",
    "legal_plays",
    "pits_rank",
    "rank_text",
    "read_as",
    "read_meld",
    "readings",
]

Kind = Literal["single", "set", "run", "run_of_sets"]
KINDS: tuple[Kind, ...] = get_args(Kind)

THREE, ACE, TWO, BLACK_JOKER, RED_JOKER = 3, 14, 15, 16, 17
_RANK_TEXT = {r: Rank(r).written for r in range(THREE, ACE + 1)}
_RANK_TEXT |= {TWO: "2", BLACK_JOKER: "BJ", RED_JOKER: "RJ"}
_RANK_NAMES = {
    3: "threes", 4: "fours", 5: "fives", 6: "sixes", 7: "sevens", 8: "eights", 9: "nines",
    10: "tens", 11: "jacks", 12: "queens", 13: "kings", 14: "aces", 15: "twos",
}  # fmt: skip
_PITS_RANK = tuple(
    [15 if i % 13 == 0 else i % 13 + 2 for i in range(52)] + [BLACK_JOKER, RED_JOKER]
)
_SUIT = tuple(i // 13 for i in range(54))
_DEFAULT_RULES = Rules()
_BARE_RANKS = {r.letter: r for r in Rank} | {"10": Rank.TEN}


class NotAMeldError(ValueError):
    """Cards that form no legal meld (of the kind asked for)."""


def pits_rank(card: Card) -> int:
    """The card's rank in Pits order: 3-14 for 3-A, 15 for a 2, 16 BJ, 17 RJ."""
    return _PITS_RANK[card]


def rank_text(rank: int) -> str:
    """A Pits rank as players write it: ``"3"`` ... ``"10"``, ``"A"``, ``"2"``, ``"BJ"``,
    ``"RJ"``."""
    return _RANK_TEXT[rank]


_ORDER = tuple(_PITS_RANK[i] * 64 + i for i in range(54))  # sort key: Pits rank, then suit


def _order(card: Card) -> int:
    return _ORDER[card]


def _is_wild_card(card: Card) -> bool:
    """A 2 or a Joker: the cards that can stand for others."""
    return _PITS_RANK[card] >= TWO


class Meld(NamedTuple):
    """One reading of a group of cards (an immutable value; a named tuple,
    as move generation makes many).

    `top_rank` is the rank that decides first (a set's rank, a run's highest
    rank); `wild_positions` are the ranks the wild cards stand for, highest
    first; `suited` is whether a run of singles is all of one suit (Jokers
    count as any suit).
    """

    kind: Kind
    cards: tuple[Card, ...]
    top_rank: int
    set_size: int = 1
    wild_positions: tuple[int, ...] = ()
    suited: bool = False

    @property
    def size(self) -> int:
        """Number of cards."""
        return len(self.cards)

    @property
    def wild_count(self) -> int:
        """Number of wild cards (a 2 standing for another rank counts like a Joker)."""
        return len(self.wild_positions)

    @property
    def top(self) -> str:
        """The top rank as text, e.g. ``"A"``, ``"2"``, ``"RJ"``."""
        return _RANK_TEXT[self.top_rank]

    @property
    def length(self) -> int:
        """Number of ranks: 1 for singles and sets."""
        return 1 if self.kind in ("single", "set") else len(self.cards) // self.set_size

    @property
    def shape(self) -> tuple[str, int, int]:
        """What a meld must share with the one on the table to beat it (P5)."""
        return (self.kind, len(self.cards), self.set_size)

    def strength(self, rules: Rules = _DEFAULT_RULES) -> tuple[object, ...]:
        """The comparison key of P5 among melds of one shape: bigger beats smaller."""
        wilds = self.wild_positions
        if not rules.wildness_degrees:
            return (self.top_rank, self.suited, not wilds)
        return (self.top_rank, self.suited, -len(wilds), tuple(map(neg, wilds)))

    def beats(self, other: Meld, rules: Rules = _DEFAULT_RULES) -> bool:
        """Whether this meld may be played on `other` (P5)."""
        return self.shape == other.shape and self.strength(rules) > other.strength(rules)

    def describe(self) -> str:
        """The reading in words, e.g. ``"a run of 6 to A (1 wild: 10)"``."""
        if self.kind == "single":
            text = f"a single {self.top}"
        elif self.kind == "set":
            text = f"a set of {len(self.cards)} {_RANK_NAMES[self.top_rank]}"
        elif self.kind == "run":
            suit = ", in suit" if self.suited else ""
            text = f"a run of {self.length} to {_RANK_TEXT[self.top_rank]}{suit}"
        else:
            text = f"a run of {self.length} sets of {self.set_size} to {_RANK_TEXT[self.top_rank]}"
        if self.wild_positions:
            stands = " ".join(_RANK_TEXT[p] for p in self.wild_positions)
            text += f" ({self.wild_count} wild: {stands})"
        return text

    def __str__(self) -> str:
        return " ".join(str(c) for c in self.cards)

    def __repr__(self) -> str:
        return f"Meld({self.kind!r}, {str(self)!r}, top={self.top!r})"


def _sorted(cards: Iterable[Card]) -> tuple[Card, ...]:
    return tuple(sorted(cards, key=_ORDER.__getitem__))


def _cards(cards: str | Iterable[Card | str]) -> list[Card]:
    """Cards in RULINGS notation; bare ranks (``"A A 2"``) are also taken, each
    given a suit in turn so that no card repeats and bare runs count as mixed."""
    tokens = cards.replace(",", " ").split() if isinstance(cards, str) else list(cards)
    if all(isinstance(t, Card) for t in tokens):
        return list(tokens)  # type: ignore[arg-type]
    out: list[Card] = []
    for i, token in enumerate(tokens):
        if isinstance(token, Card):
            out.append(token)
            continue
        rank = token.strip().upper()
        if rank in _BARE_RANKS:
            free = [
                c for k in range(4) if (c := Card.of(_BARE_RANKS[rank], (i + k) % 4)) not in out
            ]
            if not free:
                raise CardError(token, "a fifth card of that rank")
            out.append(free[0])
        else:
            out.append(parse_card(token))
    return out


# -- reading one group of cards -------------------------------------------------


def read_as(
    cards: str | Iterable[Card | str],
    kind: Kind,
    rules: Rules | None = None,
    *,
    set_size: int | None = None,
) -> Meld | None:
    """The strongest reading of `cards` as `kind` (and `set_size`, for runs of
    sets), or None if they are not one."""
    rules = rules or _DEFAULT_RULES
    group = _cards(cards)
    if kind == "single":
        return _read_single(group)
    if kind == "set":
        return _read_set(group)
    if kind == "run":
        return _read_run(group)
    if kind == "run_of_sets":
        return _read_run_of_sets(group, rules, set_size)
    raise ValueError(f"unknown kind of meld {kind!r}; kinds are: {', '.join(KINDS)}")


def readings(cards: str | Iterable[Card | str], rules: Rules | None = None) -> list[Meld]:
    """Every legal reading of `cards`, the strongest of each kind."""
    group = _cards(cards)
    found = (read_as(group, kind, rules) for kind in KINDS)
    return [meld for meld in found if meld is not None]


def read_meld(
    cards: str | Iterable[Card | str], kind: Kind | None = None, rules: Rules | None = None
) -> Meld:
    """The strongest reading of `cards` as `kind`, or of any kind when `kind` is None.

    Raises `NotAMeld` (a ValueError) when the cards form no legal meld.
    Between kinds, the reading that would rank higher by P5's order is
    taken (top rank, suit, fewer and lower wild cards), then the kind
    listed later in `KINDS`.
    """
    rules = rules or _DEFAULT_RULES
    group = _cards(cards)
    text = " ".join(str(c) for c in group) or "no cards"
    if kind is not None:
        meld = read_as(group, kind, rules)
        if meld is None:
            raise NotAMeldError(f"{text} is not a {kind.replace('_', ' ')}")
        return meld
    found = readings(group, rules)
    if not found:
        raise NotAMeldError(f"{text} is not a legal meld")
    return max(found, key=lambda m: (m.strength(), KINDS.index(m.kind)))


def _split(cards: Sequence[Card]) -> tuple[dict[int, list[Card]], list[Card], list[Card]]:
    """Natural cards by rank (3-A), the 2s, and the Jokers."""
    naturals: dict[int, list[Card]] = {}
    twos: list[Card] = []
    jokers: list[Card] = []
    for card in cards:
        rank = _PITS_RANK[card]
        if rank <= ACE:
            naturals.setdefault(rank, []).append(card)
        elif rank == TWO:
            twos.append(card)
        else:
            jokers.append(card)
    return naturals, twos, jokers


def _read_single(cards: Sequence[Card]) -> Meld | None:
    if len(cards) != 1:
        return None
    return Meld("single", (cards[0],), _PITS_RANK[cards[0]])


def _read_set(cards: Sequence[Card]) -> Meld | None:
    if len(cards) < 2 or len(set(cards)) != len(cards):
        return None
    naturals, twos, jokers = _split(cards)
    if len(naturals) > 1:
        return None
    if naturals:
        (rank,) = naturals
        wilds = len(twos) + len(jokers)
    else:  # only 2s and Jokers: a set of 2s, the 2s natural (P3)
        rank, wilds = TWO, len(jokers)
    return Meld("set", _sorted(cards), rank, len(cards), (rank,) * wilds)


def _read_run(cards: Sequence[Card]) -> Meld | None:
    size = len(cards)
    if size < 3 or size > ACE - THREE + 1:
        return None
    naturals, twos, jokers = _split(cards)
    if twos or any(len(group) > 1 for group in naturals.values()) or not naturals:
        return None
    low, high = min(naturals), max(naturals)
    spare = len(jokers) - ((high - low + 1) - len(naturals))
    if spare < 0:
        return None
    top = min(ACE, high + spare)  # spare Jokers extend the run upward first (P4)
    span = range(top, top - size, -1)
    if span[-1] < THREE:
        return None
    suits = {card.suit for group in naturals.values() for card in group}
    wild = tuple(rank for rank in span if rank not in naturals)
    return Meld("run", _sorted(cards), top, 1, wild, len(suits) == 1)


def _read_run_of_sets(cards: Sequence[Card], rules: Rules, set_size: int | None) -> Meld | None:
    if len(set(cards)) != len(cards):
        return None
    naturals, _, jokers = _split(cards)
    sizes = [set_size] if set_size else range(2, len(cards) // rules.min_run_of_sets + 1)
    best: Meld | None = None
    for n in sizes:
        meld = _read_run_of_sets_sized(cards, naturals, len(jokers), n, rules)
        if meld is not None and (best is None or meld.strength() >= best.strength()):
            best = meld
    return best


def _read_run_of_sets_sized(
    cards: Sequence[Card], naturals: dict[int, list[Card]], jokers: int, n: int, rules: Rules
) -> Meld | None:
    if n < 2 or len(cards) % n:
        return None
    length = len(cards) // n
    if length < rules.min_run_of_sets or length > ACE - THREE + 1:
        return None
    if any(len(group) > n for group in naturals.values()):
        return None
    low = min(naturals, default=ACE)
    top = min(ACE, low + length - 1)  # as high as the naturals allow (P4)
    if naturals and max(naturals) > top:
        return None
    span = range(top, top - length, -1)
    # P9: a rank with no natural card needs a Joker, as a 2 may not stand alone there.
    if rules.finnish_twos and sum(1 for r in span if r not in naturals) > jokers:
        return None
    wild = tuple(r for r in span for _ in range(n - len(naturals.get(r, ()))))
    return Meld("run_of_sets", _sorted(cards), top, n, wild)


def beats(
    challenger: Meld | str | Iterable[Card | str],
    on_table: Meld | str | Iterable[Card | str],
    rules: Rules | None = None,
) -> bool:
    """Whether `challenger` may be played on `on_table` (P5).

    Cards given for `on_table` take their strongest reading; cards given
    for `challenger` are read as the kind (and set size) on the table.
    """
    rules = rules or _DEFAULT_RULES
    table = on_table if isinstance(on_table, Meld) else read_meld(on_table, None, rules)
    if isinstance(challenger, Meld):
        meld: Meld | None = challenger
    else:
        kind: Kind = table.kind
        size = table.set_size if kind == "run_of_sets" else None
        meld = read_as(challenger, kind, rules, set_size=size)
    return meld is not None and meld.beats(table, rules)


# -- every legal play from a hand -------------------------------------------------
#
# A lead from an 11-card hand with both Jokers and two 2s has over 200 plays,
# and bots list plays at every turn, so this part is written for speed: the
# counts that prune are prefix sums, melds are built with `tuple.__new__`
# (skipping NamedTuple's argument handling) and single cards are made once.

_new = tuple.__new__
_SINGLES = tuple(_new(Meld, ("single", (Card(i),), _PITS_RANK[i], 1, (), False)) for i in range(54))
# _REPEATED[rank][k]: the wild positions of k wild cards all standing for `rank`.
_REPEATED = tuple(tuple((r,) * k for k in range(7)) for r in range(RED_JOKER + 1))


def legal_plays(
    hand: Sequence[Card], on_table: Meld | None = None, rules: Rules | None = None
) -> list[Meld]:
    """Every distinct play from `hand`: each choice of cards with its declared
    reading. Leading (`on_table` None), every reading of every kind; otherwise
    only melds of the table's shape that beat it."""
    rules = rules or _DEFAULT_RULES
    ordered = _sorted(hand)
    if on_table is not None and on_table.kind == "single":
        top = on_table.top_rank
        return [_SINGLES[c] for c in ordered if _PITS_RANK[c] > top]
    naturals, twos, jokers = _split(ordered)
    plays: list[Meld] = []
    if on_table is None:
        plays += [_SINGLES[c] for c in ordered]
        _sets(plays, naturals, twos, jokers, None)
        _runs(plays, naturals, jokers, None)
        _runs_of_sets(plays, naturals, twos + jokers, len(hand), None, rules)
        return plays
    kind, size, set_size = on_table.shape
    if kind == "set":
        _sets(plays, naturals, twos, jokers, size)
    elif kind == "run":
        _runs(plays, naturals, jokers, size)
    else:
        _runs_of_sets(
            plays, naturals, twos + jokers, len(hand), (set_size, size // set_size), rules
        )
    # Every meld found has the table's shape; only its strength remains to compare.
    to_beat = on_table.strength(rules)
    return [meld for meld in plays if meld.strength(rules) > to_beat]


def _by_size(cards: Sequence[Card]) -> list[list[tuple[Card, ...]]]:
    """Every subset of `cards`, listed by size."""
    return [list(combinations(cards, k)) for k in range(len(cards) + 1)]


def _sets(
    plays: list[Meld],
    naturals: dict[int, list[Card]],
    twos: list[Card],
    jokers: list[Card],
    size: int | None,
) -> None:
    """Add every set, or every set of `size` cards, to `plays`."""
    wilds = twos + jokers
    wild_sets = _by_size(wilds)
    for rank, group in naturals.items():
        repeated = _REPEATED[rank]
        for a, nat_sets in enumerate(_by_size(group)):
            if a == 0:
                continue
            sizes = range(max(0, 2 - a), len(wilds) + 1) if size is None else (size - a,)
            for b in sizes:
                if not 0 <= b <= len(wilds):
                    continue
                wild, total = repeated[b], a + b
                plays += [
                    _new(Meld, ("set", nat + used, rank, total, wild, False))
                    for nat in nat_sets
                    for used in wild_sets[b]
                ]
    # Sets of 2s: 2s and Jokers only, the Jokers wild.
    repeated = _REPEATED[TWO]
    for total in range(2, len(wilds) + 1) if size is None else (size,):
        for chosen in wild_sets[total] if total <= len(wilds) else ():
            wild = repeated[_jokers_in(chosen)]
            plays.append(_new(Meld, ("set", chosen, TWO, total, wild, False)))


def _runs(
    plays: list[Meld], naturals: dict[int, list[Card]], jokers: list[Card], size: int | None
) -> None:
    """Add every run, or every run of `size` cards, to `plays`, each in its
    strongest reading.

    Spare Jokers go above the natural cards first (P4), so runs grow upward
    from their lowest natural rank, one natural card or one Joker a rank. A
    run that reaches the Ace may also reach down below that rank, with Jokers.
    """
    joker_sets = _by_size(jokers)
    spare = len(jokers)
    lengths = range(3, ACE - THREE + 2) if size is None else range(size, size + 1)
    for low, group in naturals.items():
        # Partial runs from `low` up: (natural cards, Joker ranks highest first,
        # suit of the natural cards or -1 once they are mixed).
        grown: list[tuple[tuple[Card, ...], tuple[int, ...], int]]
        grown = [((c,), (), _SUIT[c]) for c in group]
        for top in range(low, min(ACE, low + lengths[-1] - 1) + 1):
            if top > low:
                above = naturals.get(top, ())
                grown = [
                    ((*cards, c), wild, suit if suit == _SUIT[c] else -1)
                    for cards, wild, suit in grown
                    for c in above
                ] + [
                    (cards, (top, *wild), suit) for cards, wild, suit in grown if len(wild) < spare
                ]
                if not grown:
                    break
            if top - low + 1 in lengths:
                plays += [
                    _new(Meld, ("run", cards + used, top, 1, wild, suit >= 0))
                    for cards, wild, suit in grown
                    for used in joker_sets[len(wild)]
                ]
        else:
            if top < ACE:
                continue
            # At the Ace: reach down below `low` with Jokers.
            for below in range(1, min(spare, low - THREE) + 1):
                if ACE - low + 1 + below not in lengths:
                    continue
                under = tuple(range(low - 1, low - below - 1, -1))
                plays += [
                    _new(Meld, ("run", cards + used, ACE, 1, wild + under, suit >= 0))
                    for cards, wild, suit in grown
                    if len(wild) + below <= spare
                    for used in joker_sets[len(wild) + below]
                ]


_Partial = tuple[tuple[Card, ...], tuple[int, ...], int]  # cards, wild positions, empty ranks


class _Takes(dict[int, list[tuple[tuple[Card, ...], tuple[int, ...]]]]):
    """For each rank, the ways to take its natural cards into a set of `n`, each
    with the wild positions left to fill; worked out when first asked for."""

    def __init__(self, naturals: dict[int, list[Card]], n: int, budget: int) -> None:
        super().__init__()
        self.naturals, self.n, self.budget = naturals, n, budget

    def __missing__(self, rank: int) -> list[tuple[tuple[Card, ...], tuple[int, ...]]]:
        group, n = self.naturals.get(rank, []), self.n
        ways = [
            (taken, (rank,) * (n - a))
            for a in range(max(0, n - self.budget), min(n, len(group)) + 1)
            for taken in combinations(group, a)
        ]
        self[rank] = ways
        return ways


def _runs_of_sets(
    plays: list[Meld],
    naturals: dict[int, list[Card]],
    wilds: list[Card],
    hand_size: int,
    shape: tuple[int, int] | None,
    rules: Rules,
) -> None:
    """Add every run of sets, or every one of (set size, ranks) `shape`, to `plays`.

    A run of sets reads as high as its lowest natural rank allows (P4), so
    runs grow upward from that rank, `low`, taking up to a set of natural
    cards at each rank and leaving the places short to wild cards. A run
    that reaches the Ace may also reach down below `low`, those ranks wholly
    wild; and a run of wild cards alone is read to the Ace.
    """
    fill = _WildFill(plays, wilds, rules.finnish_twos)
    shortest = rules.min_run_of_sets
    for n in [shape[0]] if shape else range(2, hand_size // shortest + 1):
        lengths = range(shape[1], shape[1] + 1) if shape else range(shortest, hand_size // n + 1)
        if not lengths:
            continue
        # short[r]: places that ranks below r leave to wild cards, each taking all it can
        short = [0] * (ACE + 2)
        for r in range(THREE, ACE + 1):
            short[r + 1] = short[r] + max(0, n - len(naturals.get(r, ())))
        takes = _Takes(naturals, n, fill.budget)
        for low in naturals:
            top = min(ACE, low + lengths[0] - 1)
            wholly_wild = low - (top - lengths[0] + 1)
            if wholly_wild > low - THREE or (
                short[top + 1] - short[low] + n * wholly_wild > fill.budget
            ):
                continue  # even the shortest run from `low` is short of wild cards
            _runs_of_sets_from(fill, takes, low, n, lengths)
        # No natural card at all: a run of wild cards to the Ace.
        for length in lengths:
            if n * length <= fill.budget:
                wild = tuple(r for r in range(ACE, ACE - length, -1) for _ in range(n))
                fill.add(ACE, n, [((), wild, length)])


class _WildFill:
    """Adds to `plays` the runs of sets that fill partial runs with `wilds`."""

    def __init__(self, plays: list[Meld], wilds: list[Card], finnish_twos: bool) -> None:
        self.plays = plays
        self.budget = len(wilds)
        self.wild_sets = _by_size(wilds)
        self.finnish_twos = finnish_twos
        # P9: each rank with no natural card needs a Joker of its own.
        self.jokers_in = (
            [[_jokers_in(used) for used in same_size] for same_size in self.wild_sets]
            if finnish_twos
            else []
        )

    def add(self, top: int, n: int, grown: Iterable[_Partial]) -> None:
        """Add the runs of sets of `n` to `top` that fill these partial runs."""
        wild_sets = self.wild_sets
        if not self.finnish_twos:
            self.plays.extend(
                [
                    _new(Meld, ("run_of_sets", cards + used, top, n, wild, False))
                    for cards, wild, _ in grown
                    for used in wild_sets[len(wild)]
                ]
            )
            return
        jokers_in = self.jokers_in
        self.plays.extend(
            [
                _new(Meld, ("run_of_sets", cards + used, top, n, wild, False))
                for cards, wild, empty in grown
                for used, joker_count in zip(
                    wild_sets[len(wild)], jokers_in[len(wild)], strict=True
                )
                if joker_count >= empty
            ]
        )


def _runs_of_sets_from(fill: _WildFill, takes: _Takes, low: int, n: int, lengths: range) -> None:
    """Add the runs of sets of `n` of one of `lengths` ranks whose lowest
    natural rank is `low`: grown upward, then, at the Ace, reaching down."""
    budget = fill.budget
    grown: list[_Partial] = [(taken, wild, 0) for taken, wild in takes[low] if len(wild) < n]
    last = min(ACE, low + lengths[-1] - 1)
    for top in range(low, last + 1):
        if top > low:
            options = takes[top]
            grown = [
                (cards + taken, more + wild, empty + (len(more) == n))
                for cards, wild, empty in grown
                for taken, more in options
                if len(wild) + len(more) <= budget
            ]
            if not grown:
                return
        if top - low + 1 in lengths:
            fill.add(top, n, grown)
    if last < ACE:
        return
    # At the Ace: reach down below `low` with ranks of wild cards only.
    for below in range(1, low - THREE + 1):
        if ACE - low + 1 + below in lengths:
            under = tuple(r for r in range(low - 1, low - below - 1, -1) for _ in range(n))
            fill.add(
                ACE,
                n,
                (
                    (cards, wild + under, empty + below)
                    for cards, wild, empty in grown
                    if len(wild) + len(under) <= budget
                ),
            )


def _jokers_in(cards: Iterable[Card]) -> int:
    return sum(1 for c in cards if _PITS_RANK[c] > TWO)
