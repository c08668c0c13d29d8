"""Judgement by simulation where the bidding's rows leave a choice (GIB's "borel" way).

The table of calls (:func:`paiju.games.bridge.bidding.choose`) gives every call at once. At the
decisions that cost the most, :func:`judge` checks it against the other calls the system can
read there (:func:`candidates`): game or slam, which fit, and in competition pass, double
or bid on. It deals hands to the three unseen seats that keep every call so far
(:func:`paiju.bots.bridge.montecarlo.sample_deals`: each caller's hand satisfies one of the
rows that give its call), continues the auction after each candidate with the table-driven
bidder in all four seats (:func:`finish`), scores the final contract of each with
:mod:`paiju.bots.bridge.tricks`' estimate of its double-dummy tricks (or DDS's count,
``scorer="dd"``), and takes the candidate of the best mean IMPs against the table's own call
when it gains at least :data:`MARGIN`.
Every candidate has a row that gives its meaning (its promise, read back by
:func:`paiju.games.bridge.bidding.read_auction`, is not empty), so the chosen call is explained
like any other. A decision that runs out of its CPU budget before :data:`MIN_SAMPLES` deals
are scored keeps the table's call (``degraded``).
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from paiju.bots.bridge.montecarlo import sample_deals
from paiju.bots.bridge.table import Known
from paiju.bots.bridge.tricks import estimate, trick_odds
from paiju.games.bridge.bidding import CURRENT, GAME_LEVEL, Hand, Row, choose, read_auction, summaries_before
from paiju.games.bridge.deal import format_deal, is_vulnerable
from paiju.games.bridge.scoring import Contract, contract_score, imps
from paiju.protocol.cards import BIDS, DOUBLE, PASS, format_call

NT = 4
SAMPLES = 16  # deals a decision wants
BID_SAMPLES = 0  # what `hybrid` asks for (PAIJU_BRIDGE_BID_SAMPLES): 0, the rows alone, see docs/robots.md
SCORER = "estimate"  # how a contract is scored: "estimate" (paiju.bots.bridge.tricks) or "dd" (DDS)
MIN_SAMPLES = 6  # fewer than this when the budget runs out: the rows alone decide
BUDGET_MS = 300.0  # CPU a decision may spend on its samples (the arena's bid p99 stays under 1 s)
MARGIN = 0.5  # mean IMPs a candidate must gain over the table's call to replace it ...
# ... and the calls whose swings the trick estimate gets wrong most often: a penalty double
# (their contract makes by a trick the estimate did not see), a grand slam
RISKY_MARGIN = 3.0
CHUNK = 4  # deals drawn at a time between two looks at the clock
MAX_CANDIDATES = 5
MAX_CALLS = 40  # a continued auction longer than this is cut (it never is in practice)
_ASK = 4 << 4 | NT  # the key-card ask, once a suit is agreed


@dataclass
class Judgement:
    """One call and how it was reached: ``samples`` deals simulated (0: the rows alone)."""

    call: int
    row: Row | None
    samples: int = 0
    cpu_ms: float = 0.0
    values: dict[int, float] = field(default_factory=dict)  # mean IMPs of each candidate against the table's
    degraded: bool = False  # the budget ran out first: the table's call stands
    table_call: int | None = None

    @property
    def changed(self) -> bool:
        """Whether simulation chose another call than the table's."""
        return self.table_call is not None and self.call != self.table_call

    def __repr__(self) -> str:
        vals = ", ".join(f"{format_call(c)} {v:+.2f}" for c, v in self.values.items())
        return f"<Judgement {format_call(self.call)} samples={self.samples} cpu={self.cpu_ms:.0f}ms [{vals}]>"


def auction_over(calls: Sequence[int]) -> bool:
    """Whether the auction has ended: three passes after a bid, or four passes."""
    if len(calls) < 4 or any(c != PASS for c in calls[-3:]):
        return False
    return any(c in BIDS for c in calls) or len(calls) == 4


def finish(hands: Sequence[Sequence[int]], calls: Sequence[int], dealer: int, tables: str = CURRENT) -> list[int]:
    """The auction ``calls`` continued by the table-driven bidder in every seat until it ends."""
    out = list(calls)
    while not auction_over(out) and len(out) < MAX_CALLS:
        seat = (dealer + len(out)) % 4
        out.append(choose(hands[seat], out, dealer, tables)[0])
    return out


def final_contract(calls: Sequence[int], dealer: int) -> tuple[Contract, int] | None:
    """The contract the auction reached and its declarer (None: passed out)."""
    last = max((i for i, c in enumerate(calls) if c in BIDS), default=None)
    if last is None:
        return None
    bid = calls[last]
    doubled = 0
    for c in calls[last + 1 :]:
        doubled = 1 if c == DOUBLE else 2 if c != PASS else doubled
    side = (dealer + last) % 2
    strain = bid & 0xF
    first = next(i for i, c in enumerate(calls) if c in BIDS and c & 0xF == strain and (dealer + i) % 2 == side)
    return Contract(bid >> 4, strain, doubled), (dealer + first) % 4


def expected_score(
    hands: Sequence[Sequence[int]],
    calls: Sequence[int],
    dealer: int,
    vulnerable: str,
    side: int,
    dd: dict[tuple[int, int], int] | None = None,
) -> float:
    """The score ``side`` (0 North-South, 1 East-West) expects from the auction's contract: each
    trick count by its chance around :func:`paiju.bots.bridge.tricks.estimate`, or with ``dd``
    (tricks by strain and declarer) the double-dummy result."""
    reached = final_contract(calls, dealer)
    if reached is None:
        return 0.0
    contract, declarer = reached
    vul = is_vulnerable(vulnerable, declarer)
    if dd is not None:
        score = float(contract_score(contract, vul, dd[contract.strain, declarer]))
    else:
        mu, sigma = estimate(hands, contract.strain, declarer)
        score = sum(p * contract_score(contract, vul, t) for t, p in enumerate(trick_odds(mu, sigma)) if p > 1e-6)
    return score if declarer % 2 == side else -score


def dd_tricks(hands: Sequence[Sequence[int]], strains: set[int]) -> dict[tuple[int, int], int]:
    """Double-dummy tricks of every declarer in ``strains``, from DDS (one table, the other strains left out)."""
    from endplay.dds import calc_all_tables
    from endplay.types import Deal, Denom, Player

    denoms = {s: Denom.nt if s == NT else Denom(3 - s) for s in range(5)}
    deal = Deal(format_deal([bytes(h) for h in hands]))
    table = calc_all_tables([deal], exclude=[denoms[s] for s in range(5) if s not in strains])[0]
    return {(s, seat): int(table[denoms[s], Player(seat)]) for s in strains for seat in range(4)}


def _fits(hand: Hand, partner_lo: Sequence[int]) -> list[int]:
    """The suits in which this hand and partner's promised lengths make eight cards, or this
    hand holds seven."""
    return [s for s in range(4) if hand.lengths[s] + partner_lo[s] >= 8 or hand.lengths[s] >= 7]


def candidates(
    cards: Sequence[int], calls: Sequence[int], dealer: int, table_call: int, tables: str = CURRENT
) -> list[int]:
    """The calls worth simulating against ``table_call`` (first in the list), [] when the rows
    settle the call alone. Only the decisions that cost the most have others:

    - our side has bid, the last bid is ours or nobody's of theirs, and this hand plus
      partner's promised points make 22 or more: pass, the games in an eight-card fit (four
      of a major, five of a minor), from 29 the slams (six of a fit, the key-card ask), from
      36 the grands;
    - the last bid is theirs, at the two level or higher, and our side has bid: pass, double
      (of a suit contract), the cheapest bid in each of our fits, the game in a fit.

    A call is kept only when it is legal and the system reads it (its promise has rows).
    Notrump is left to the rows: no notrump candidate, no judgement of a notrump bid (but
    the key-card ask), no penalty double of notrump.
    """
    n = len(calls)
    promises = read_auction(tuple(calls), 0, tables)
    me = n % 2
    ours = [p for p in promises if p.seat % 2 == me and p.call in BIDS]
    if not ours:
        return []
    if n >= 2 and calls[-2] == _ASK and promises[-2].rows and promises[-2].rows[0][0].forcing:
        return []  # answering partner's key-card ask: the answer is the table's
    hand = Hand.of(cards)
    partner = summaries_before(tuple(calls), tables)[2]
    tp = hand.points + partner.points
    fits = _fits(hand, partner.len_lo)
    last = max((i for i, c in enumerate(calls) if c in BIDS), default=None)
    last_bid = calls[last] if last is not None else None
    theirs = last is not None and (n - last) % 2 == 1
    doubled = last is not None and any(c != PASS for c in calls[last + 1 :])
    wanted: list[int] = []
    if table_call in BIDS and table_call & 0xF == NT and not (fits and table_call == _ASK):
        return []  # notrump: the trick estimate's error there (1.25 tricks) lost more than it won
    if not theirs and tp >= 22:
        wanted += [PASS]
        wanted += [GAME_LEVEL[s] << 4 | s for s in fits]
        if tp >= 29 and fits:
            wanted += [6 << 4 | s for s in fits] + [_ASK]
        if tp >= 36:
            wanted += [7 << 4 | s for s in fits]
    elif theirs and last_bid is not None and last_bid >> 4 >= 2:
        # no penalty double of notrump: the estimate's error there (1.25 tricks) lost more than it won
        wanted += [PASS] + ([] if doubled or last_bid & 0xF == NT else [DOUBLE])
        for s in fits:
            level = last_bid >> 4 if s > last_bid & 0xF else (last_bid >> 4) + 1
            if level <= 5:
                wanted.append(level << 4 | s)
            wanted.append(GAME_LEVEL[s] << 4 | s)
    out = [table_call]
    for call in wanted:
        if call in out or len(out) >= MAX_CANDIDATES or not _legal(calls, call):
            continue
        rows = read_auction((*calls, call), 0, tables)[-1].rows
        if rows and (call != _ASK or "key-card" in rows[0][0].meaning):
            out.append(call)
    return out if len(out) > 1 else []


def _legal(calls: Sequence[int], call: int) -> bool:
    last = max((i for i, c in enumerate(calls) if c in BIDS), default=None)
    if call == PASS:
        return True
    if call == DOUBLE:
        return last is not None and (len(calls) - last) % 2 == 1 and all(c == PASS for c in calls[last + 1 :])
    return call in BIDS and (last is None or call > calls[last])


def auction_view(cards: Sequence[int], calls: Sequence[int], dealer: int, vulnerable: str, tables: str) -> Known:
    """What the bidder knows during the auction, for the sampler: its hand and the calls."""
    seat = (dealer + len(calls)) % 4
    hands: list[list[int]] = [[], [], [], []]
    hands[seat] = list(cards)
    return Known(
        seat=seat,
        me=seat,
        dealer=dealer,
        vulnerable=vulnerable,
        auction=list(calls),
        contract=None,
        doubled=0,
        declarer=None,
        dummy=None,
        hands=hands,
        counts=[13, 13, 13, 13],
        played_by=[[], [], [], []],
        void=[set(), set(), set(), set()],
        trick=[],
        leader=-1,
        tricks_done=0,
        won=[0, 0],
        tables=tables,
    )


def judge(
    cards: Sequence[int],
    calls: Sequence[int],
    dealer: int,
    vulnerable: str,
    rng: random.Random,
    tables: str = CURRENT,
    samples: int = SAMPLES,
    budget_ms: float = BUDGET_MS,
    repairs: int = 8,
    scorer: str = "estimate",
) -> Judgement:
    """The call for ``cards`` after ``calls``: the table's, or the candidate simulation prefers
    (see the module's docstring). Deterministic for a given ``rng`` state.

    >>> from paiju.games.bridge.deal import parse_hand
    >>> j = judge(list(parse_hand("AKQ2.KQ2.AQ2.K32")), [], 0, "None", random.Random(1))
    >>> j.samples, j.call == j.table_call
    (0, True)
    """
    start = time.process_time()
    table_call, row = choose(cards, calls, dealer, tables)
    out = Judgement(table_call, row, table_call=table_call)
    cands = candidates(cards, calls, dealer, table_call, tables)
    if not cands:
        return out
    seat = (dealer + len(calls)) % 4
    side = seat % 2
    k = auction_view(cards, calls, dealer, vulnerable, tables)
    totals = dict.fromkeys(cands, 0.0)
    scored = 0
    while scored < samples:
        if (time.process_time() - start) * 1000 > budget_ms:
            break
        for hidden in sample_deals(k, min(CHUNK, samples - scored), rng, repairs=repairs).deals:
            hands = [list(cards) if s == seat else hidden[s] for s in range(4)]
            ends = {call: finish(hands, [*calls, call], dealer, tables) for call in cands}
            dd = None
            if scorer == "dd":
                strains = {r[0].strain for r in map(lambda a: final_contract(a, dealer), ends.values()) if r}
                dd = dd_tricks(hands, strains) if strains else {}
            base = expected_score(hands, ends[table_call], dealer, vulnerable, side, dd)
            for call in cands[1:]:
                value = expected_score(hands, ends[call], dealer, vulnerable, side, dd)
                totals[call] += imps(round(value - base))
            scored += 1
    out.samples = scored
    out.cpu_ms = (time.process_time() - start) * 1000
    if scored < MIN_SAMPLES:
        out.degraded = True
        return out
    out.values = {c: v / scored for c, v in totals.items()}
    best = max(cands, key=lambda c: out.values[c] - margin(c))
    if out.values[best] >= margin(best):
        out.call = best
        out.row = _row_of(calls, best, tables)
    return out


def margin(call: int) -> float:
    """What ``call`` must gain over the table's call, in mean IMPs, to replace it."""
    return RISKY_MARGIN if call == DOUBLE or call >> 4 == 7 else MARGIN


def _row_of(calls: Sequence[int], call: int, tables: str) -> Row | None:
    """The first row the system reads ``call`` by (its meaning)."""
    rows = read_auction((*calls, call), 0, tables)[-1].rows
    return rows[0][0] if rows else None
