"""The bidding of a hand of Pitch (C4, C5): what a bidder may say, and why not.

Bids run clockwise from the dealer's left and end with the dealer, who
after an all-pass takes it for 2 or runs it. After a run the others must
bid 3 or 4, and the dealer sells or steals; under ``dealer_steal`` the
dealer may take the high bid for the same or for one more. The hand
(`pitkit.games.pitch.state.PitchHand`) keeps the position and carries the
calls out; these functions read it from a few plain values: whether the
bidder is the dealer, whether this is the second round after a run, and
the high bid so far.
"""

from __future__ import annotations

from pitkit.games.pitch.actions import Bid, Pass, PitchAction, Play, Run, Sell, Steal, Take
from pitkit.games.pitch.rules import MAX_BID, MIN_BID

__all__ = ["bid_refusal", "calls_open", "dealer_contract", "steal_amount"]


def steal_amount(dealer_steal: str, high: int) -> int | None:
    """What the dealer may take the high bid of `high` for under `dealer_steal`
    (C4), if anything."""
    if dealer_steal == "same":
        return high
    if dealer_steal == "one_more" and high < MAX_BID:
        return high + 1
    return None


def calls_open(
    dealer: bool, rebidding: bool, high: int, outbid: bool, dealer_steal: str
) -> list[PitchAction]:
    """The calls a bidder may make: the `dealer` or not, in the second round
    after a run (`rebidding`) or the first, with the high bid `high` so far,
    made by someone (`outbid`) or by nobody yet."""
    actions: list[PitchAction] = []
    if not rebidding:
        if dealer and not outbid:
            return [Take(), Run()]
        actions.append(Pass())
        low = max(MIN_BID, high + 1)
        if dealer:
            steal = steal_amount(dealer_steal, high)
            if steal is not None:
                actions.append(Steal(steal))
                # "One more" is the ordinary outbid by one: offered as the steal.
                low = max(low, steal + 1)
        actions += [Bid(n) for n in range(low, MAX_BID + 1)]
        return actions
    # The second round (C5): others must bid 3 or 4; the dealer sells or steals.
    if dealer:
        actions.append(Sell())
        steal = steal_amount(dealer_steal, high)
        if steal is not None:
            actions.append(Steal(steal))
        return actions
    actions.append(Pass())
    actions += [Bid(n) for n in range(max(MIN_BID + 1, high + 1), MAX_BID + 1)]
    return actions


def bid_refusal(
    action: PitchAction, dealer: bool, rebidding: bool, high: int, dealer_steal: str, legal: str
) -> str:
    """Why a bidder may not make the call `action` (not among `legal`, the
    calls open, spelled out), as `calls_open` reads the position."""
    if isinstance(action, Play):
        return f"the bidding is not over; you may: {legal}"
    if isinstance(action, Take | Run):
        if not dealer:
            return "only the dealer takes it or runs it, when everyone else passes (C5)"
        return f"{action.kind} is for when everyone else has passed; you may: {legal}"
    if isinstance(action, Sell):
        return f"the dealer sells only after running it and being outbid (C5); you may: {legal}"
    if isinstance(action, Steal):
        if not dealer:
            return "only the dealer may steal the bid (C4)"
        return f"with dealer_steal={dealer_steal} and a high bid of {high}, you may: {legal}"
    if isinstance(action, Bid):
        if not MIN_BID <= action.amount <= MAX_BID:
            return f"a bid is 2, 3 or 4, not {action.amount} (C4)"
        if dealer and rebidding:
            return f"after running it the dealer sells or steals (C5); you may: {legal}"
        return f"a bid must beat the highest bid so far ({high}); you may: {legal}"
    return f"{action} is not legal now; you may: {legal}"


def dealer_contract(
    call: PitchAction, dealer: int, high: int, high_bidder: int | None
) -> tuple[int, int, str]:
    """The contract that `dealer`'s call `call` makes, ending the bidding
    (C4, C5), the high bid being `high` by `high_bidder` (the dealer's own
    bid counted): who pitches, for what, and how. Not for a run, after
    which the others bid again."""
    if isinstance(call, Bid):
        return dealer, call.amount, "outbid"
    if isinstance(call, Steal):
        how = "same" if call.amount == high else "one more"
        return dealer, call.amount, f"took it for {how}"
    if isinstance(call, Take):
        return dealer, MIN_BID, "took it for 2"
    assert high_bidder is not None
    if isinstance(call, Sell):
        return high_bidder, high, f"bought it from seat {dealer}"
    return high_bidder, high, "high bid"  # the dealer passes: the high bidder pitches
