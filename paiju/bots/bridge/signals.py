"""Defenders' signals, given and read (standard carding).

Given by a ``hybrid`` defender, among the cards Monte Carlo finds equally good:

- **attitude** on partner's lead: the highest of them with an honour (A, K or Q) in the
  suit (encouraging), else the lowest;
- **count** when declarer or dummy leads a suit: high with an even number of cards in it
  (before playing), low with an odd number;
- **suit preference** when leading a card for partner to ruff: high asks for the higher
  of the other two side suits (the one holding our ace or king), low for the lower.

Read by both the declarer's and the defenders' samplers as soft constraints
(:func:`weigh`): a sample in which a defender's dealt cards would have given the signal it
gave weighs :data:`AGREE` times one that would not (a human may not signal, so no sample is
rejected).
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from paiju.bots.bridge.rules import lead_from
from paiju.bots.bridge.table import Known, beats, winning

AGREE = 3.0  # the weight of a sample that agrees with a signal, against 1 for one that does not
# the weight of a sample in which the opening leader would have led the card it led from its
# suit (:func:`paiju.bots.bridge.rules.lead_from`), against 1 (PAIJU_BRIDGE_READ_LEAD=1: not read)
LEAD_AGREE = float(os.environ.get("PAIJU_BRIDGE_READ_LEAD", "3"))
HIGH = 7  # a spot card of seven or more is read as high (encouraging; even count)
HONOURS = (12, 13, 14)


def holds_honour(cards: Sequence[int], suit: int) -> bool:
    return any(c >> 4 == suit and c & 0xF in HONOURS for c in cards)


def signal_card(k: Known, near: Sequence[int]) -> int | None:
    """The signal among ``near`` (the cards Monte Carlo values alike), or None when none applies."""
    if k.declarer is None or k.declaring or len(near) < 2:
        return None
    hand = k.hand
    if k.trick:
        suit = k.trick[0] >> 4
        same = sorted(c for c in near if c >> 4 == suit)
        if len(same) < 2:
            return None
        if k.leader == k.partner_of(k.seat):
            return same[-1] if holds_honour(hand, suit) else same[0]  # attitude
        if k.leader % 2 == k.declarer % 2:
            return same[-1] if sum(c >> 4 == suit for c in hand) % 2 == 0 else same[0]  # count
        return None
    partner = k.partner_of(k.seat)
    trump = k.trump
    for suit in {c >> 4 for c in near}:
        if trump is not None and suit in k.void[partner] and trump not in k.void[partner]:
            same = sorted(c for c in near if c >> 4 == suit)
            if len(same) < 2:
                continue
            others = sorted(s for s in range(4) if s not in (suit, trump))
            entry = [s for s in others if any(c >> 4 == s and c & 0xF >= 13 for c in hand)]
            return same[-1] if entry and entry[-1] == others[-1] else same[0]  # suit preference
    return None


def rule_signal(k: Known, card: int) -> int:
    """The rules' follow ``card`` turned into a signal: when it is the lowest card of the suit
    led (a defender not trying to win), the highest spot card below the ten instead for an
    encouraging or even-count signal."""
    if k.declarer is None or k.declaring or not k.trick or card >> 4 != k.trick[0] >> 4:
        return card
    suit = card >> 4
    mine = sorted(c for c in k.hand if c >> 4 == suit)
    if card != mine[0] or len(mine) < 2:
        return card
    spots = [c for c in mine if c & 0xF < 10]
    if k.leader == k.partner_of(k.seat):
        high = holds_honour(k.hand, suit)
    elif k.leader % 2 == k.declarer % 2:
        high = len(mine) % 2 == 0
    else:
        return card
    return spots[-1] if high and len(spots) >= 2 else card


def signals_given(k: Known) -> list[tuple[int, int, int, str]]:
    """The defenders' follows that carry a signal: ``(seat, suit, card, kind)`` with ``kind``
    ``attitude`` (to partner's lead) or ``count`` (to a lead of declarer's side)."""
    if k.declarer is None:
        return []
    out = []
    defenders = {(k.declarer + 1) % 4, (k.declarer + 3) % 4}
    for seat in defenders:
        for card, leader, led in _follows(k, seat):
            if card >> 4 != led >> 4 or card & 0xF >= 11:  # a discard or an honour: no signal read
                continue
            kind = "attitude" if leader == (seat + 2) % 4 else "count" if leader % 2 == k.declarer % 2 else ""
            if kind:
                out.append((seat, led >> 4, card, kind))
    return out


def _follows(k: Known, seat: int) -> list[tuple[int, int, int]]:
    """``(card, leader, card led)`` of each trick ``seat`` followed in (not led), the first trick of each suit."""
    out = []
    seen: set[int] = set()
    for i, card in enumerate(k.played_by[seat]):
        leader, led = k.trick_of(seat, i)
        if leader != seat and led >> 4 not in seen:
            seen.add(led >> 4)
            out.append((card, leader, led))
    return out


def lead_agrees(k: Known, sample: dict[int, list[int]]) -> bool | None:
    """Whether the opening leader's hand in ``sample`` would have led the card it led from
    that suit (top of touching honours, of a doubleton, else fourth best: the rules'
    :func:`paiju.bots.bridge.rules.lead_from`); None when the lead is not to be read (not made yet,
    or the leader's hand is not in the sample)."""
    if not k.history or k.declarer is None:
        return None
    leader, cards = k.history[0]
    if leader not in sample:
        return None
    led = cards[0]
    suit = sorted((c for c in k.original(leader, sample[leader]) if c >> 4 == led >> 4), reverse=True)
    return lead_from(suit) == led


def weigh(k: Known, sample: dict[int, list[int]]) -> float:
    """The weight of ``sample`` (hidden seat -> cards held now) given the opening lead and the
    defenders' signals."""
    w = LEAD_AGREE if LEAD_AGREE != 1.0 and lead_agrees(k, sample) else 1.0
    for seat, suit, card, kind in signals_given(k):
        if seat not in sample:
            continue
        dealt = k.original(seat, sample[seat])
        high = card & 0xF >= HIGH
        if kind == "attitude":
            agrees = high == holds_honour(dealt, suit)
        else:
            agrees = high == (sum(c >> 4 == suit for c in dealt) % 2 == 0)
        w *= AGREE if agrees else 1.0
    return w


def low_readings_only(k: Known) -> None:
    """Keep, for the defenders, only the readings of their low follows (below :data:`HIGH`):
    a signaller's high spot card does not say it held nothing lower, a low one still does."""
    if k.declarer is None:
        return
    defenders = ((k.declarer + 1) % 4, (k.declarer + 3) % 4)
    for s in defenders:
        k.without[s] = set()
    for leader, cards in k.history:
        for i, c in enumerate(cards):
            seat = (leader + i) % 4
            low = i and seat in defenders and c >> 4 == cards[0] >> 4 and c & 0xF < HIGH
            if low and not beats(c, cards[winning(cards[:i], k.trump)], k.trump):
                k.without[seat].update(range(c & 0xF0 | 2, c))
