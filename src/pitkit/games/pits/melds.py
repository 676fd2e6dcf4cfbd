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

from collections.abc import Iterable, Iterator, Sequence
from itertools import combinations
from operator import neg
from typing import Literal, NamedTuple, get_args

from pitkit.cards import Card, CardError, Rank, parse_card
from pitkit.games.pits.rules import Rules

__all__ = [
    "KINDS",
    "Kind",
    "Meld",
    "NotAMeld",
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
_RANK_TEXT = {r: "3456789TJQKA"[r - 3] for r in range(THREE, ACE + 1)}
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


class NotAMeld(ValueError):
    """Cards that form no legal meld (of the kind asked for)."""


def pits_rank(card: Card) -> int:
    """The card's rank in Pits order: 3-14 for 3-A, 15 for a 2, 16 BJ, 17 RJ."""
    return _PITS_RANK[card]


def rank_text(rank: int) -> str:
    """A Pits rank as text: ``"3"`` ... ``"T"``, ``"A"``, ``"2"``, ``"BJ"``, ``"RJ"``."""
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
        """The reading in words, e.g. ``"a run of 6 to the ace (1 wild: T)"``."""
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
            raise NotAMeld(f"{text} is not a {kind.replace('_', ' ')}")
        return meld
    found = readings(group, rules)
    if not found:
        raise NotAMeld(f"{text} is not a legal meld")
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
        return [Meld("single", (c,), _PITS_RANK[c]) for c in ordered if _PITS_RANK[c] > top]
    naturals, twos, jokers = _split(ordered)
    wilds = twos + jokers
    if on_table is None:
        plays = [Meld("single", (card,), _PITS_RANK[card]) for card in ordered]
        plays += _sets(naturals, twos, jokers, None, THREE)
        plays += _runs(naturals, jokers, None)
        plays += _runs_of_sets(naturals, wilds, len(hand), None, rules)
        return plays
    kind, size, set_size = on_table.shape
    if kind == "set":
        found: Iterable[Meld] = _sets(naturals, twos, jokers, size, on_table.top_rank)
    elif kind == "run":
        found = _runs(naturals, jokers, size)
    else:
        found = _runs_of_sets(naturals, wilds, len(hand), (set_size, size // set_size), rules)
    # Every meld found has the table's shape; only its strength remains to compare.
    to_beat = on_table.strength(rules)
    return [meld for meld in found if meld.strength(rules) > to_beat]


def _sets(
    naturals: dict[int, list[Card]],
    twos: list[Card],
    jokers: list[Card],
    size: int | None,
    lowest: int,
) -> Iterator[Meld]:
    """Every set, or every set of `size`, of rank `lowest` or higher."""
    wilds = twos + jokers
    for rank, group in naturals.items():
        if rank < lowest:
            continue
        for a in range(1, len(group) + 1):
            for b in range(len(wilds) + 1):
                if a + b < 2 or (size is not None and a + b != size):
                    continue
                for nat in combinations(group, a):
                    for wild in combinations(wilds, b):
                        yield Meld("set", nat + wild, rank, a + b, (rank,) * b)
    # Sets of 2s: 2s and Jokers only, the Jokers wild.
    for total in range(2, len(wilds) + 1):
        if size is not None and total != size:
            continue
        for chosen in combinations(wilds, total):
            jokers_in = sum(1 for c in chosen if _PITS_RANK[c] > TWO)
            yield Meld("set", chosen, TWO, total, (TWO,) * jokers_in)


def _runs(naturals: dict[int, list[Card]], jokers: list[Card], size: int | None) -> Iterator[Meld]:
    """Every run (or every run of `size` cards) in its strongest reading.

    Each run is generated from the ranks it spans, `bottom` to `top`: every
    rank is one of its natural cards or a Joker. Spare Jokers go above the
    natural cards first (P4), so a run below the Ace is only read so when its
    bottom rank is natural; a run to the Ace may have Jokers at either end.
    """
    joker_sets = [list(combinations(jokers, k)) for k in range(len(jokers) + 1)]
    lengths = [size] if size is not None else range(3, ACE - THREE + 2)
    for length in lengths:
        for top in range(THREE + length - 1, ACE + 1):
            bottom = top - length + 1
            span = range(bottom, top + 1)
            missing = sum(1 for r in span if r not in naturals)
            if missing > len(jokers) or (top < ACE and bottom not in naturals):
                continue
            groups = [naturals.get(r, ()) for r in span]
            for chosen, wild in _fill(groups, bottom, len(jokers), top < ACE):
                suited = len({_SUIT[c] for c in chosen}) == 1
                for used in joker_sets[len(wild)]:
                    yield Meld("run", chosen + used, top, 1, wild, suited)


def _fill(
    groups: Sequence[Sequence[Card]], rank: int, jokers: int, first_natural: bool
) -> Iterator[tuple[tuple[Card, ...], tuple[int, ...]]]:
    """Ways to fill consecutive ranks from `rank` up, one natural card or a
    Joker each, with at most `jokers` Jokers (a natural card first, if
    `first_natural`): (the natural cards, the Jokers' ranks, highest first)."""
    if not groups:
        yield (), ()
        return
    for rest, wild in _fill(groups[1:], rank + 1, jokers, False):
        for card in groups[0]:
            yield (card, *rest), wild
        if not first_natural and len(wild) < jokers:
            yield rest, (*wild, rank)


def _runs_of_sets(
    naturals: dict[int, list[Card]],
    wilds: list[Card],
    hand_size: int,
    shape: tuple[int, int] | None,
    rules: Rules,
) -> Iterator[Meld]:
    """Every run of sets, or every one of (set size, ranks) `shape`."""
    if shape is not None:
        shapes = [shape]
    else:
        shapes = [
            (n, length)
            for n in range(2, hand_size // rules.min_run_of_sets + 1)
            for length in range(rules.min_run_of_sets, min(hand_size // n, ACE - THREE + 1) + 1)
        ]
    lows: list[int | None] = [*sorted(naturals), None]  # None: no natural card at all
    counts = [len(naturals.get(r, ())) for r in range(ACE + 1)]
    for n, length in shapes:
        # usable[r]: natural cards of ranks below r that a set of n can take
        usable = [0] * (ACE + 2)
        for r in range(ACE + 1):
            usable[r + 1] = usable[r] + min(n, counts[r])
        for low in lows:
            # The span is fixed by the lowest natural rank (P4: as high as it goes).
            top = ACE if low is None else min(ACE, low + length - 1)
            bottom = top - length + 1
            if bottom < THREE:
                continue
            most = 0 if low is None else usable[top + 1] - usable[low]
            if n * length - most > len(wilds):
                continue  # not enough wild cards even with every natural card
            span = range(bottom, top + 1)
            groups = [[] if low is None or r < low else naturals.get(r, []) for r in span]
            need = None if low is None else low - span[0]
            for chosen, deficits in _pick_sets(groups, n, len(wilds), need):
                needed = sum(deficits)
                wild = tuple(
                    r
                    for r, d in zip(reversed(span), reversed(deficits), strict=True)
                    for _ in range(d)
                )
                empty = sum(1 for d in deficits if d == n)
                for used in combinations(wilds, needed):
                    # P9: each rank with no natural card needs a Joker of its own.
                    if rules.finnish_twos and _jokers_in(used) < empty:
                        continue
                    yield Meld("run_of_sets", chosen + used, top, n, wild)


def _jokers_in(cards: Iterable[Card]) -> int:
    return sum(1 for c in cards if _PITS_RANK[c] > TWO)


def _pick_sets(
    groups: list[list[Card]], n: int, budget: int, need: int | None
) -> Iterator[tuple[tuple[Card, ...], list[int]]]:
    """Ways to take up to `n` natural cards of each rank (at least one of rank
    number `need`, the lowest natural one), leaving no more than `budget`
    places to wild cards: (the natural cards, the wild places at each rank)."""
    if not groups:
        yield (), []
        return
    group, rest = groups[0], groups[1:]
    # Places the later ranks must leave to wild cards whatever they take.
    later = sum(n - min(n, len(g)) for g in rest)
    smallest = max(1 if need == 0 else 0, n - (budget - later))
    for a in range(smallest, min(n, len(group)) + 1):
        for taken in combinations(group, a):
            for more, deficits in _pick_sets(
                rest, n, budget - (n - a), None if need is None else need - 1
            ):
                yield taken + more, [n - a, *deficits]
