"""Experience rules of card play (design.md §7.2): the first tricks, while little is known.

Opening lead: partner's bid suit, else the top of touching honours, else (against notrump)
fourth best of the longest suit, else an unbid suit; never away from an ace against a suit
contract when something else will do. Following: second hand low (but cover an honour),
third hand high, fourth hand wins as cheaply as it can. The simple helpers here are
shared with the baseline robot ``basic``.
"""

from __future__ import annotations

from collections.abc import Sequence

from paiju.bots.bridge.table import Known, beats, winning
from paiju.games.bridge.bidding import CURRENT, promises_of

HONOUR_J = 11


def lowest(cards: Sequence[int]) -> int:
    """The lowest card by rank (suit C D H S breaking ties)."""
    return min(cards, key=lambda c: (c & 0xF, c >> 4))


def cheapest_winner(k: Known, cards: Sequence[int]) -> int | None:
    """The cheapest card of ``cards`` that beats the trick's winning card (None: none does)."""
    if not k.trick:
        return None
    best = k.trick[winning(k.trick, k.trump)]
    winners = [c for c in cards if beats(c, best, k.trump)]
    if not winners:
        return None
    # a card of the suit led is cheaper than a ruff
    return min(winners, key=lambda c: (c >> 4 == k.trump and k.trick[0] >> 4 != k.trump, c & 0xF))


def partner_winning(k: Known) -> bool:
    """Whether the trick in progress is won so far by this seat's side."""
    if not k.trick:
        return False
    w = (k.leader + winning(k.trick, k.trump)) % 4
    return w % 2 == k.seat % 2


def by_suit(cards: Sequence[int]) -> dict[int, list[int]]:
    """Cards by suit, highest first."""
    out: dict[int, list[int]] = {}
    for c in sorted(cards, reverse=True):
        out.setdefault(c >> 4, []).append(c)
    return out


def lead_from(suit_cards: list[int]) -> int:
    """The card to lead from a suit: top of touching honours, top of a doubleton, else fourth best."""
    ranks = [c & 0xF for c in suit_cards]
    if len(ranks) >= 2 and ranks[0] >= HONOUR_J and ranks[1] == ranks[0] - 1:
        return suit_cards[0]
    if len(ranks) <= 2:
        return suit_cards[0]
    return suit_cards[min(3, len(suit_cards) - 1)]


def bid_suits(auction: Sequence[int], dealer: int, seat: int, tables: str = CURRENT) -> set[int]:
    """The suits ``seat`` promised four or more of in the auction (read back from the tables)."""
    out: set[int] = set()
    for p in promises_of(auction, dealer, seat, tables):
        summ = p.summary()
        out |= {s for s in range(4) if summ.len_lo[s] >= 4}
    return out


def opening_lead(k: Known) -> int:
    hand = by_suit(k.hand)
    trump = k.trump
    partner = k.partner_of(k.seat)
    assert k.declarer is not None
    theirs = bid_suits(k.auction, k.dealer, k.declarer, k.tables) | bid_suits(
        k.auction, k.dealer, k.partner_of(k.declarer), k.tables
    )
    ours = bid_suits(k.auction, k.dealer, partner, k.tables) - theirs
    for s in sorted(ours, key=lambda s: -len(hand.get(s, []))):
        if s in hand:
            return lead_from(hand[s])
    # touching honours (with a third card) attack safely
    for s, cs in sorted(hand.items(), key=lambda kv: -(kv[1][0] & 0xF)):
        r = [c & 0xF for c in cs]
        if s != trump and s not in theirs and len(r) >= 3 and r[0] >= HONOUR_J + 1 and r[1] == r[0] - 1:
            return cs[0]
    candidates = [s for s in hand if s != trump and s not in theirs] or [s for s in hand if s != trump] or list(hand)
    if trump is None:
        s = max(candidates, key=lambda s: (len(hand[s]), sum(c & 0xF for c in hand[s])))
        return lead_from(hand[s])
    no_ace = [s for s in candidates if hand[s][0] & 0xF != 14 or len(hand[s]) == 1] or candidates
    # short suits against a trump contract when trumps remain to ruff with
    s = min(no_ace, key=lambda s: (len(hand[s]) if trump in hand else -len(hand[s]), hand[s][0] & 0xF))
    return lead_from(hand[s])


def later_lead(k: Known) -> int:
    """Leading at a later trick of the rules phase: declarer cashes an ace of its longest suits,
    defenders return partner's suit."""
    hand = by_suit(k.hand)
    if k.declaring:
        for _, cs in sorted(hand.items(), key=lambda kv: -len(kv[1])):
            if cs[0] & 0xF == 14:
                return cs[0]
        s = max(hand, key=lambda s: len(hand[s]))
        return lead_from(hand[s])
    partner = k.partner_of(k.seat)
    if k.played_by[partner]:
        led = k.played_by[partner][0] >> 4
        if led in hand:
            return hand[led][0] if len(hand[led]) <= 2 else hand[led][-1]
    if k.played_by[k.seat]:
        mine = k.played_by[k.seat][0] >> 4
        if mine in hand and mine != k.trump:
            return lead_from(hand[mine])
    return opening_lead(k)


def follow(k: Known) -> int:
    """Second hand low (covering an honour), third hand high, fourth hand cheaply."""
    legal = k.legal()
    pos = len(k.trick)
    following = legal[0] >> 4 == k.trick[0] >> 4
    if partner_winning(k) and (pos == 3 or k.trick[0] & 0xF >= HONOUR_J + 1 or not following):
        return lowest(legal)
    win = cheapest_winner(k, legal)
    if pos == 1:
        led = k.trick[0]
        if following and led & 0xF >= HONOUR_J and win is not None and win >> 4 == led >> 4:
            return win  # cover an honour with an honour
        if not following and win is not None and k.trick[0] & 0xF >= HONOUR_J + 1:
            return win  # ruff a high card
        return lowest(legal)
    if pos == 2 and following and win is not None:
        same = [c for c in legal if c >> 4 == win >> 4 and c >= win]
        top = max(same)
        # third hand high, but only as high as needed: the lowest of touching top cards
        while top - 1 in same:
            top -= 1
        return top
    return win if win is not None else lowest(legal)


def experience_card(k: Known) -> int:
    if not k.trick:
        return opening_lead(k) if k.tricks_done == 0 else later_lead(k)
    return follow(k)
