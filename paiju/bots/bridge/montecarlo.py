"""Monte Carlo double-dummy card play (design.md §7.2), on DDS through ``endplay``.

:func:`sample_deals` deals the cards a seat cannot see to the hidden hands, many times,
each deal consistent with everything the seat knows: how many cards each hand holds, the
suits each hand has shown out of (never a card of such a suit), and every promise the
auction made (each caller's original thirteen cards satisfy one of the table rows that
give its call). :func:`best_card` solves every sample double dummy with DDS in one batch
and plays the card of the best average *score* for the seat's side (the duplicate score
of the contract at the resulting trick count, so making the contract counts more than an
overtrick), with the average tricks as the tie-break, then the number of samples in which
the card is the best, then the lowest card.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from paiju.bots.bridge.table import NT, Known
from paiju.games.bridge.bidding import Hand, Promise
from paiju.games.bridge.deal import is_vulnerable
from paiju.games.bridge.scoring import Contract, contract_score

DEFAULT_SAMPLES = 32
MAX_TRIES = 40  # attempts per wanted sample before a seat's promises are set aside
EARLY_TRIES = 8  # ... or this many, when not one attempt has kept them
# the rounds of mending (:func:`repair`) a call of sample_deals may spend, per sample wanted:
# unbounded, fewer samples set a promise aside (6 % against 13 % on 25 opening leads) but
# the slowest call cost twice the CPU (docs/robots.md has the figures of `paiju bench leads`)
MENDS_A_SAMPLE = 128


@dataclass
class Samples:
    """Hidden hands, one dict ``seat -> cards`` per sample; ``relaxed`` of them ignore the auction's promises."""

    deals: list[dict[int, list[int]]]
    relaxed: int = 0
    tries: int = 0


def deal_hidden(k: Known, seats: list[int], cards: list[int], rng: random.Random) -> dict[int, list[int]] | None:
    """One random deal of ``cards`` to ``seats`` (their counts), no card to a seat void in its suit."""
    room = {s: k.counts[s] for s in seats}
    out: dict[int, list[int]] = {s: [] for s in seats}
    free: list[int] = []
    voids = {suit for s in seats for suit in k.void[s]}
    unread = {c for s in seats for c in k.without[s]}
    # cards of a suit some hidden seat is void in, or that a seat is read not to hold, go
    # first, to the seats that may hold them
    for c in cards:
        if c >> 4 not in voids and c not in unread:
            free.append(c)  # any seat may hold it (the common case: one test, no list)
            continue
        able = [s for s in seats if c >> 4 not in k.void[s]]
        if len(able) > 1:
            read = [s for s in able if c not in k.without[s]]
            able = read or able  # read out of every seat that may hold it: a reading was wrong
        if len(able) == len(seats):
            free.append(c)
            continue
        able = [s for s in able if room[s]]
        if not able:
            return None
        s = able[0] if len(able) == 1 else rng.choices(able, [room[s] for s in able])[0]
        out[s].append(c)
        room[s] -= 1
    draw = rng.random
    free.sort(key=lambda _: draw())  # a uniform shuffle at half the CPU of rng.shuffle
    i = 0
    for s in seats:
        out[s] += free[i : i + room[s]]
        i += room[s]
    return out


def consistent(k: Known, hidden: dict[int, list[int]], promises: bool = True) -> bool:
    """Whether the hidden hands fit what the seat knows (voids, counts and, if ``promises``, the auction)."""
    for s, cards in hidden.items():
        if len(cards) != k.counts[s] or any(c >> 4 in k.void[s] for c in cards):
            return False
        if promises:
            hand = Hand.of(k.original(s, cards))
            if not all(p.holds(hand) for p in k.promises(s)):
                return False
    return True


# deals the unseen ``cards`` to the hidden ``seats`` once, or None (a dead end: try again)
Dealer = Callable[[Known, list[int], list[int], random.Random], dict[int, list[int]] | None]


def sample_deals(
    k: Known,
    n: int,
    rng: random.Random,
    max_tries: int = MAX_TRIES,
    dealer: Dealer = deal_hidden,
    repairs: int = 0,
) -> Samples:
    """``n`` deals of the unseen cards to the hidden hands (see the module's docstring).

    When the promises cannot be met within ``max_tries * n`` attempts (an opponent or a
    partner whose calls the tables do not describe: ``random`` bids anything), the promises
    of the hidden seat that failed most often are set aside and the search goes on, and then
    those of every seat; voids and counts always hold. ``relaxed`` counts the samples
    found with a promise set aside. ``dealer`` deals one attempt (the arena's diagnosis
    passes :class:`paiju.bots.bridge.oracle.Oracle`, which peeks). With ``repairs``, an attempt
    whose hands break promises is mended up to that many times before it counts as failed
    (:data:`MENDS_A_SAMPLE` ``* n`` rounds in all): the cards of the failing seats and of one other hidden
    seat are dealt again among them (:func:`repair`; without it half of the opening leaders'
    samples of a self-play auction set a promise aside).
    """
    seats = k.hidden_seats()
    cards = k.unseen()
    out = Samples([])
    if not seats:
        out.deals = [{} for _ in range(n)]
        return out
    promised = {s: k.promises(s) for s in seats}
    mending = MENDS_A_SAMPLE * n if repairs else 0  # the rounds of mending left: its CPU stays bounded
    failures = dict.fromkeys(seats, 0)
    relaxing = False
    while True:
        found = len(out.deals)
        for attempt in range(max_tries * n):
            if attempt == EARLY_TRIES * n and len(out.deals) == found:
                break  # not one deal keeps these promises: set some aside sooner
            out.tries += 1
            d = dealer(k, seats, cards, rng)
            if d is None:
                continue
            bad = [s for s in seats if not _keeps(k, s, d[s], promised[s])]
            if bad and mending > 0:
                bad, used = repair(k, d, bad, promised, rng, min(repairs, mending))
                mending -= used
            for s in bad:
                failures[s] += 1
            if not bad:
                out.deals.append(d)
                out.relaxed += relaxing
                if len(out.deals) == n:
                    return out
        worst = max((s for s in seats if promised[s]), key=lambda s: failures[s], default=None)
        if worst is None:
            break
        promised[worst] = []
        relaxing = True
    # the readings of low cards may be wrong (a player who kept a low card): without them a
    # deal is found whenever the voids allow one
    plain = replace(k, without=[set(), set(), set(), set()])
    while len(out.deals) < n:  # only a void left no deal at all: cannot happen with a consistent view
        d = dealer(plain, seats, cards, rng)
        if d is not None:
            out.deals.append(d)
    return out


def repair(
    k: Known,
    d: dict[int, list[int]],
    bad: list[int],
    promised: dict[int, list[Promise]],
    rng: random.Random,
    rounds: int,
) -> tuple[list[int], int]:
    """Mend the deal ``d`` in place: up to ``rounds`` times the cards of the seats in ``bad``
    (those whose hands break their promises) and of one other hidden seat are dealt again
    among them, voids and counts kept. Returns the seats still failing ([]: mended) and the
    rounds used."""
    seats = list(d)
    for used in range(1, rounds + 1):
        others = [s for s in seats if s not in bad]
        group = bad + ([rng.choice(others)] if others else [])
        if len(group) < 2:
            group = seats
        again = deal_hidden(k, group, [c for s in group for c in d[s]], rng)
        if again is None:
            continue
        d.update(again)
        # only the group's hands changed
        bad = [s for s in seats if (s in bad if s not in group else not _keeps(k, s, d[s], promised[s]))]
        if not bad:
            return bad, used
    return bad, rounds


def _keeps(k: Known, seat: int, cards: list[int], promises: list[Promise]) -> bool:
    if not promises:
        return True  # no hand to evaluate
    hand = Hand.of(k.original(seat, cards))
    return all(p.holds(hand) for p in promises)


# ---------------------------------------------------------------------------- DDS
def _endplay_card(c: int):  # type: ignore[no-untyped-def]
    from endplay.types import Card, Denom, Rank

    return Card(suit=Denom(3 - (c >> 4)), rank=Rank(1 << (c & 0xF)))


def _from_endplay(card) -> int:  # type: ignore[no-untyped-def]
    return (3 - int(card.suit)) << 4 | (int(card.rank).bit_length() - 1)


def _deal(k: Known, hidden: dict[int, list[int]]):  # type: ignore[no-untyped-def]
    """The endplay Deal of the position: every hand, the trick in progress played into it."""
    from endplay.types import Deal, Denom, Player

    from paiju.games.bridge.deal import format_hand

    hands = [list(k.hands[s]) if k.hands[s] else list(hidden[s]) for s in range(4)]
    for i, c in enumerate(k.trick):
        hands[(k.leader + i) % 4].append(c)
    d = Deal(" ".join(["N:" + format_hand(bytes(hands[0]))] + [format_hand(bytes(h)) for h in hands[1:]]))
    strain = k.contract & 0xF if k.contract is not None else NT
    d.trump = Denom.nt if strain == NT else Denom(3 - strain)
    d.first = Player(k.leader)
    for c in k.trick:
        d.play(_endplay_card(c))
    return d


def solve_samples(k: Known, samples: Sequence[dict[int, list[int]]]) -> list[dict[int, int]]:
    """Per sample, the double-dummy tricks (from now on, for the side to play) of each legal card."""
    from endplay._dds import MAXNOOFBOARDS
    from endplay.dds import solve_all_boards

    deals = [_deal(k, h) for h in samples]
    out = []
    for i in range(0, len(deals), MAXNOOFBOARDS):  # DDS takes at most this many boards a batch
        for solved in solve_all_boards(deals[i : i + MAXNOOFBOARDS]):
            out.append({_from_endplay(card): int(tricks) for card, tricks in solved})
    return out


def reaching_cards(k: Known, samples: Sequence[dict[int, list[int]]], target: int) -> list[set[int]]:
    """Per sample, the legal cards with which the side to play takes at least ``target`` more
    tricks double dummy (DDS's target mode: one bound search a card, about a third of the cost
    of :func:`solve_samples`'s exact count at the opening lead)."""
    from endplay._dds import MAXNOOFBOARDS
    from endplay.dds import solve_all_boards
    from endplay.dds.solve import SolveMode

    if target <= 0:
        return [set(k.legal()) for _ in samples]
    deals = [_deal(k, h) for h in samples]
    out = []
    for i in range(0, len(deals), MAXNOOFBOARDS):
        for solved in solve_all_boards(deals[i : i + MAXNOOFBOARDS], SolveMode.TargetAll, target):
            out.append({_from_endplay(card) for card, _ in solved})
    return out


def side_score(k: Known, tricks_for_side: int) -> int:
    """The duplicate score for the side of ``k.seat`` if it ends with ``tricks_for_side`` tricks."""
    assert k.contract is not None and k.declarer is not None
    decl_tricks = tricks_for_side if k.declaring else 13 - tricks_for_side
    c = Contract(k.contract >> 4, k.contract & 0xF, k.doubled)
    s = contract_score(c, is_vulnerable(k.vulnerable, k.declarer), decl_tricks)
    return s if k.declaring else -s


@dataclass
class CardValues:
    """Each legal card's weighted average over the samples: score for the seat's side, tricks, and
    the weight of the samples in which it is the best card."""

    score: dict[int, float]
    tricks: dict[int, float]
    optimal: dict[int, float]

    def best(self) -> int:
        """The best average score, then the best average tricks, then the most often best, then the lowest card."""
        return max(self.score, key=lambda c: (self.score[c], self.tricks[c], self.optimal[c], -(c & 0xF)))

    def near_best(self, tolerance: float = 0.0) -> list[int]:
        """The cards whose average score is within ``tolerance`` of the best's."""
        top = max(self.score.values())
        return sorted(c for c, v in self.score.items() if v >= top - tolerance)


# the weight of one sample (1.0: no reading of the play's signals; paiju.bots.bridge.signals weighs them)
Weigher = Callable[[Known, dict[int, list[int]]], float]


def card_values(
    k: Known, n: int, rng: random.Random, dealer: Dealer = deal_hidden, weigh: Weigher | None = None
) -> CardValues:
    """Deal ``n`` samples, solve them double dummy, and average each legal card's result (each
    sample weighted by ``weigh``: the signals the defenders gave, read as soft constraints)."""
    legal = k.legal()
    samples = sample_deals(k, n, rng, dealer=dealer).deals
    results = solve_samples(k, samples)
    have = k.side_tricks(k.seat)
    score = dict.fromkeys(legal, 0.0)
    tricks = dict.fromkeys(legal, 0.0)
    optimal = dict.fromkeys(legal, 0.0)
    total = 0.0
    for sample, r in zip(samples, results, strict=True):
        w = weigh(k, sample) if weigh is not None else 1.0
        total += w
        values = {c: side_score(k, have + r.get(c, 0)) for c in legal}
        top = max(values.values())
        for c in legal:
            tricks[c] += w * r.get(c, 0)
            score[c] += w * values[c]
            optimal[c] += w * (values[c] == top)
    total = total or 1.0
    return CardValues(
        {c: v / total for c, v in score.items()},
        {c: v / total for c, v in tricks.items()},
        {c: v / total for c, v in optimal.items()},
    )


def best_card(
    k: Known, n: int, rng: random.Random, dealer: Dealer = deal_hidden, weigh: Weigher | None = None
) -> tuple[int, dict[int, float]]:
    """The card with the best average score over ``n`` samples, and the average tricks of each card.

    Ties go to the better average tricks, then to the card that is best in the most
    samples, then to the lowest card.
    """
    values = card_values(k, n, rng, dealer, weigh)
    return values.best(), values.tricks


def equivalent(k: Known, cards: Sequence[int]) -> bool:
    """Whether the cards are all one: of one suit and touching once the cards of the tricks done are removed.

    A card of the trick in progress is not gone: it is still to be beaten. With the queen led
    and king-jack in hand the king wins the trick and the jack does not (the version that
    counted the trick's cards as gone played the lowest of such "equals" at once, without
    Monte Carlo: declarer's own DD loss on 100 boards against ``basic`` was 1.33 a board with
    it, 0.99 without; docs/robots.md).
    """
    if len({c >> 4 for c in cards}) != 1:
        return False
    gone = {c for p in k.played_by for c in p} - set(k.trick)  # played_by holds the trick's cards too
    lo, hi = min(cards), max(cards)
    return all(c in cards or c in gone for c in range(lo, hi + 1))
