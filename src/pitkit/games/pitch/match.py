"""A game of Pitch: hands until the informal target or fixed number of deals
(C9), or the tournament's two deals each and tied leaders' extra hands
(C10). The bookkeeping is the `ScoreSheet`'s, so a game played here and one
scored from a physical table follow the same rules.

A judge's rulings (misdeal, misplay, confirmation, C11) are entered with
`PitchMatch.rule`, not as player actions: no seat may rule on its own game,
and a ruling may come when nobody is to act. Each ruling is logged as a
``ruling`` event, which `PitchGame.replay_steps` plays back.
"""

from __future__ import annotations

from typing import Any, Self

from pitkit.cards import Card
from pitkit.core.chance import Chance
from pitkit.core.events import Event
from pitkit.core.match import Match
from pitkit.core.state import Outcome
from pitkit.games.pitch.actions import PitchAction
from pitkit.games.pitch.rules import Rules
from pitkit.games.pitch.sheet import (
    Misdeal,
    Misplay,
    Ruling,
    ScoreSheet,
    cut_for_deal,
    ruling_from_json,
    ruling_to_json,
)
from pitkit.games.pitch.state import PitchHand

__all__ = ["PitchMatch"]


class PitchMatch(Match[PitchAction, Rules]):
    """Hands of Pitch, scored on a `ScoreSheet` (`sheet`)."""

    game = "pitch"
    replayed_events = frozenset({"ruling"})
    hand: PitchHand
    sheet: ScoreSheet

    def __init__(
        self, rules: Rules, players: int, seed: int | None = None, chance: Chance | None = None
    ) -> None:
        rules.check_players(players)  # C1; BadOption before anything is dealt
        super().__init__(rules, players, seed, chance=chance)

    # -- the match rules -------------------------------------------------------

    def first_dealer(self) -> int:
        """Informal: drawn at random. Tournament: cut for it, high card deals (C3)."""
        dealer = self._cut() if self.rules.tournament else self.chance.pick(self.players)
        self.sheet = ScoreSheet(self.rules, self.players, dealer)
        return dealer

    def _cut(self) -> int:
        cutting = list(range(self.players))
        while True:
            deck = self.chance.shuffle(self.rules.deck())
            # Each player cuts the shuffled pack in turn, a quarter of it further
            # on (13 cards of the full deck), and shows the card cut.
            step = max(1, len(deck) // 4)
            cards: dict[int, Card] = {seat: deck[i * step] for i, seat in enumerate(cutting)}
            high = cut_for_deal(cards)
            self.log.append(
                Event(
                    "cut",
                    {
                        "cards": {str(s): str(c) for s, c in cards.items()},
                        "high": list(high),
                    },
                )
            )
            if len(high) == 1:
                return high[0]
            cutting = list(high)  # C3: ties cut again

    def deal(self) -> PitchHand:
        self.dealer = self.sheet.dealer
        self.seated = list(self.sheet.seated)
        return PitchHand(
            self.rules, self.players, self.dealer, self.chance, seated=self.seated, log=self.log
        )

    def score_hand(self, result: Outcome) -> None:
        assert self.hand.result is not None
        self.sheet.record_hand(self.hand.result)
        self.scores = list(self.sheet.scores)

    def match_outcome(self) -> Outcome | None:
        return self.sheet.outcome

    # -- judge's rulings (C11) -----------------------------------------------------

    def rule(self, ruling: Ruling) -> list[Event]:
        """Enter a judge's ruling on this game and return the events it caused.

        A misdeal found before play redeals; found during play (tournament)
        voids the hand and passes the deal; found after a hand (tournament)
        voids that hand, and may only be ruled before the next hand's first
        card. A misplay that cannot be corrected costs the offender the
        hand's highest bid and redeals without them. Refused rulings raise
        ValueError and change nothing."""
        ruling = self._check_ruling(ruling)
        sheet = self.sheet.clone()
        entry = sheet.rule(ruling)  # raises before anything changes
        self.sheet = sheet
        self.scores = list(sheet.scores)
        start = len(self.log)
        self.log.append(
            Event(
                "ruling", {"ruling": ruling_to_json(ruling), "line": entry.line, "note": entry.note}
            )
        )
        if entry.redeal:
            self._outcome = sheet.outcome
            self._scored(entry.line)
        return self.log[start:]

    def replay_event(self, event: Event) -> None:
        """Enter again a judge's ruling read from a log."""
        self.rule(ruling_from_json(event.public["ruling"]))

    def _check_ruling(self, ruling: Ruling) -> Ruling:
        hand = self.hand
        if isinstance(ruling, Misdeal):
            played = hand.cards_played
            if ruling.found == "before_play" and (played or self.is_over):
                raise ValueError("cards have been played: the misdeal was found during play")
            if ruling.found == "during_play" and (not played or hand.is_over):
                raise ValueError("no card of this hand has been played: use before_play")
            if ruling.found == "after_hand" and not self.is_over and played:
                raise ValueError(
                    "the next hand is under way: a misdeal in the last hand is no longer ruled"
                )
        elif isinstance(ruling, Misplay):
            if self.is_over:
                raise ValueError("the game is over")
            if ruling.highest_bid is None:
                ruling = Misplay(
                    ruling.seat, ruling.correctable, hand.highest_bid, ruling.earlier, ruling.judge
                )
            elif ruling.highest_bid != hand.highest_bid:
                raise ValueError(
                    f"the highest bid of this hand is {hand.highest_bid}, not {ruling.highest_bid}"
                )
        return ruling

    # -- State --------------------------------------------------------------------

    def record(self) -> dict[str, Any]:
        record = super().record()
        record["sheet"] = self.sheet.to_json()
        record["rules"] = {"mode": self.rules.mode, "target": self.rules.target}
        return record

    def clone(self) -> Self:
        new = super().clone()
        new.sheet = self.sheet.clone()
        return new
