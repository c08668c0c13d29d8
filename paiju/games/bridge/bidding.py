"""Table-driven bidding (design.md §7.2): the system is data, one small engine reads it.

The tables (``tables/*.txt``, in the order :data:`TABLES`) hold rows
``auction | call | points | hand | meaning``:

- *auction*: the calls since the opening bid, as the bidder sees them (``-`` nobody has
  bid; ``1x P`` partner opened one of a suit and the next hand passed; ``...`` any
  auction). A lower-case letter in a bid (``1x``, ``2y``) stands for a suit and binds it.
- *call*: ``P``, ``X``, ``XX``, a bid (``2NT``, ``3x``), or ``+x``: the cheapest bid in ``x``.
  A suit letter the auction has not bound is tried for each suit, strongest first.
- *points*: the seed's evaluation (:func:`paiju.games.bridge.evaluate.strength` without trumps):
  ``12-15``, ``16+``, ``-10``, ``15`` or empty; ranges of whole points, a half point
  counting with the whole point below it (:func:`within`).
- *hand*: conditions, all of which must hold: lengths ``S5+``, ``H-4``, ``D0-1``, ``x4``;
  honours (A K Q J) ``hC3``; high-card points in a suit ``hcpy-0``; ``bal``; ``unbal`` (a
  singleton or a void); ``rest3+`` (three or more in every suit no letter names);
  ``x=M``/``x=m`` (a major/minor); ``y!=x``; and,
  about the partnership: ``tp25+`` (points plus partner's promised points), ``tpf33+`` /
  ``tpfx33+`` (the same with the short suits' :func:`support_points` in our agreed suit
  ``t`` / in ``x``), ``fitx`` (eight cards between us), ``nofitM``, ``ourbid``/``theirbid``
  (whose bid is the last), ``ourgame``, ``fitlast``, ``theirlevel4+``, ``ourlevel6+``,
  ``plim`` (partner's points lie within ten).

The first row (in table order) whose auction matches, whose conditions hold and whose call
is legal gives the call. The same rows, read back, give what a call *promises*
(:func:`promises`): the rows that could have produced it, one of which the caller's hand
satisfies, up to the rows that take every hand the caller can hold. Partner's promises feed
``tp`` and ``fit``; the card play's sampler deals the hidden hands to satisfy every promise.
A call whose first reading is *forcing* (its meaning says so) is never passed when the next
hand passes (:func:`forced`), and a forcing row is not chosen for a call partner would read
otherwise.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache, cached_property, lru_cache
from importlib import resources

from paiju.games.bridge.evaluate import features
from paiju.protocol.cards import BIDS, DOUBLE, PASS, REDOUBLE, format_call

TABLES = ("openings", "responses", "controls", "rebids", "competition", "slam", "placement")
CURRENT = "tables"  # the system `hybrid` bids: paiju/games/bridge/tables/*.txt
FROZEN_V1 = "tables/v1"  # the frozen system of `hybrid-v1`, the baseline the current one is measured against
SUIT_LETTERS = "CDHS"
NT = 4
_BID = re.compile(r"^([1-7])(C|D|H|S|NT|[a-z])$")
_LENGTH = re.compile(r"^([CDHSa-z])(\d*)(?:-(\d*))?(\+?)$")
_RANGE = re.compile(r"^(\d*)(?:-(\d*))?(\+?)$")
GAME_LEVEL = (5, 5, 4, 4, 3)  # by strain C D H S NT


class TableError(ValueError):
    """A row of a bidding table that the engine cannot read (the file and line are named)."""


def within(points: float, lo: float, hi: float) -> bool:
    """Whether ``points`` lies in the tables' range ``lo-hi`` of whole points: the evaluation
    counts half points, and a half stays with the whole point below it (15.5 is in ``11-15``,
    not in ``16+``), so that consecutive rows leave no gap between them.

    >>> within(15.5, 11, 15), within(15.5, 16, 40), within(16, 16, 40), within(10.5, 11, 15)
    (True, False, True, False)
    """
    return lo <= points < hi + 1


def _range(text: str, where: str, top: int = 40) -> tuple[float, float]:
    """``"12-15" -> (12, 15)``, ``"16+" -> (16, top)``, ``"-10" -> (0, 10)``, ``"" -> (0, top)``."""
    m = _RANGE.match(text)
    if not m:
        raise TableError(f"{where}: {text!r} is not a range")
    lo, hi, plus = m.groups()
    if hi is None:  # "12", "12+" or ""
        if not lo:
            return 0.0, float(top)
        return float(lo), float(top) if plus else float(lo)
    return float(lo or 0), float(hi) if hi else float(top)


@dataclass(frozen=True)
class Hand:
    """What the tables ask of a hand, computed once."""

    cards: tuple[int, ...]
    points: float
    hcp: int
    lengths: tuple[int, ...]
    honours: tuple[int, ...]
    suit_hcp: tuple[int, ...]
    controls: tuple[int, ...] = (0, 0, 0, 0)  # per suit: 1 the ace or a void, 2 the king or a singleton, 0 none
    stoppers: tuple[bool, ...] = (False, False, False, False)  # per suit: A, Kx, Qxx or Jxxx

    @classmethod
    def of(cls, cards: Sequence[int]) -> Hand:
        points, total, n, hon, pts = features(cards)
        ranks = [{c & 0xF for c in cards if c >> 4 == s} for s in range(4)]
        controls = tuple(1 if 14 in r or not r else 2 if 13 in r or len(r) == 1 else 0 for r in ranks)
        stoppers = tuple(
            14 in r or (13 in r and len(r) >= 2) or (12 in r and len(r) >= 3) or (11 in r and len(r) >= 4)
            for r in ranks
        )
        return cls(tuple(cards), points, total, tuple(n), tuple(hon), tuple(pts), controls, stoppers)

    @property
    def balanced(self) -> bool:
        """No void or singleton, at most one doubleton."""
        n = sorted(self.lengths)
        return n[0] >= 2 and n[1] >= 3

    @property
    def order(self) -> list[int]:
        """Suits strongest first: by length, then high-card points, then the higher suit."""
        return sorted(range(4), key=lambda s: (self.lengths[s], self.suit_hcp[s], s), reverse=True)


@dataclass
class Summary:
    """What a seat's calls have promised so far: a points range and a range of each suit's length."""

    lo: float = 0.0
    hi: float = 40.0
    len_lo: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    len_hi: list[int] = field(default_factory=lambda: [13, 13, 13, 13])

    @property
    def points(self) -> float:
        """The points to count on: the middle of the range; two over the floor of an open one."""
        return self.lo + (2.0 if self.hi - self.lo > 10 else (self.hi - self.lo) / 2)

    def narrow(self, other: Summary) -> None:
        self.lo, self.hi = max(self.lo, other.lo), max(max(self.lo, other.lo), min(self.hi, other.hi))
        for s in range(4):
            lo = max(self.len_lo[s], other.len_lo[s])
            self.len_lo[s], self.len_hi[s] = lo, max(lo, min(self.len_hi[s], other.len_hi[s]))

    def copy(self) -> Summary:
        return Summary(self.lo, self.hi, list(self.len_lo), list(self.len_hi))


@dataclass(frozen=True)
class Context:
    """The auction as one bidder sees it, before the bidder calls."""

    calls: tuple[int, ...]  # the whole auction so far
    rel: tuple[str, ...]  # the calls from the opening bid on, written
    last_bid: int | None
    last_ours: bool  # the last bid is our side's
    doubled: int
    partner: Summary
    trump: int | None = None  # our side's agreed suit: the last suit one of us bid naturally (3+ cards promised)
    me: Summary = field(default_factory=Summary)  # what the bidder's own calls have promised
    forced: bool = False  # partner's last call is forcing and the next hand passed: no row passes
    cues: frozenset[int] = frozenset()  # the suits of partner's control (cue) bids
    cue_last: bool = False  # partner's last call is a control bid

    def legal(self, call: int) -> bool:
        if call == PASS:
            return True
        if call == DOUBLE:
            return self.last_bid is not None and not self.last_ours and self.doubled == 0
        if call == REDOUBLE:
            return self.last_bid is not None and self.last_ours and self.doubled == 1
        return self.last_bid is None or call > self.last_bid


def context(
    calls: Sequence[int],
    summaries: Sequence[Summary] | None = None,
    trump: int | None = None,
    forced: bool = False,
    promises: Sequence[Promise] = (),
) -> Context:
    """The context of the next call after ``calls`` (``summaries`` by offset from the bidder: 2 =
    partner; ``promises`` the calls read so far, for partner's control bids)."""
    n = len(calls)
    cues = frozenset(p.call & 0xF for p in promises if (n - p.index) % 4 == 2 and is_cue(p))
    cue_last = n >= 2 and len(promises) >= n - 1 and is_cue(promises[n - 2])
    first = next((i for i, c in enumerate(calls) if c in BIDS), n)
    last_bid, last_i, doubled = None, -1, 0
    for i, c in enumerate(calls):
        if c in BIDS:
            last_bid, last_i, doubled = c, i, 0
        elif c == DOUBLE:
            doubled = 1
        elif c == REDOUBLE:
            doubled = 2
    partner = summaries[2].copy() if summaries is not None else Summary()
    return Context(
        tuple(calls),
        tuple(format_call(c) for c in calls[first:]),
        last_bid,
        last_i >= 0 and (n - last_i) % 2 == 0,
        doubled,
        partner,
        trump,
        summaries[0].copy() if summaries is not None else Summary(),
        forced,
        cues,
        cue_last,
    )


def is_cue(p: Promise) -> bool:
    """Whether the call ``p`` is a control (cue) bid: its first reading says so."""
    return bool(p.rows) and p.rows[0][0].meaning.startswith("control bid")


# ---------------------------------------------------------------------------- rows
Binding = dict[str, int]


@dataclass(frozen=True)
class Cond:
    kind: str
    suit: str = ""  # a suit letter or a variable
    lo: float = 0
    hi: float = 40
    other: str = ""
    counts: tuple[int, ...] = ()


def _suit(letter: str, b: Binding) -> int:
    return SUIT_LETTERS.index(letter) if letter in SUIT_LETTERS else b[letter]


def _binds(p: str, c: str) -> bool:
    """Whether the pattern's call ``p`` with a suit variable (``1x``) can be the call ``c``."""
    return len(p) == 2 and p[1].islower() and len(c) == 2 and c[0] == p[0] and c[1] in SUIT_LETTERS


@dataclass(frozen=True)
class Row:
    table: str
    line: int
    auction: tuple[str, ...]
    call: str
    lo: float
    hi: float
    conds: tuple[Cond, ...]
    meaning: str
    system: str = CURRENT  # the folder of tables the row belongs to

    @property
    def where(self) -> str:
        return f"{self.table}.txt:{self.line}"

    def may_match(self, n: int, first: str) -> bool:
        """Whether :meth:`match` may take a relative auction of ``n`` calls that starts with
        ``first`` (what the engine's index of rows asks: :func:`_candidates`)."""
        if self.auction == ("...",):
            return n > 0
        pattern = () if self.auction == ("-",) else self.auction
        if pattern and pattern[0] == "...":
            return len(pattern) - 1 <= n
        return len(pattern) == n and (n == 0 or pattern[0] == first or _binds(pattern[0], first))

    def match(self, rel: tuple[str, ...]) -> Binding | None:
        """The suit binding under which the row's auction is ``rel``; None if it is not."""
        if self.auction == ("...",):  # any auction once someone has bid (the openings cover every hand)
            return {} if rel else None
        pattern = () if self.auction == ("-",) else self.auction
        if pattern and pattern[0] == "...":  # "... 4NT P": the auction ends with these calls
            pattern = pattern[1:]
            if len(pattern) > len(rel):
                return None
            rel = rel[len(rel) - len(pattern) :]
        if len(pattern) != len(rel):
            return None
        b: Binding = {}
        for p, c in zip(pattern, rel, strict=True):
            if p == c:
                continue
            if _binds(p, c):
                s = SUIT_LETTERS.index(c[1])
                if b.setdefault(p[1], s) != s:
                    return None
                continue
            return None
        return b

    @cached_property
    def forcing(self) -> bool:
        """Whether partner may not pass the call (its meaning says ``forcing``)."""
        return "forcing" in self.meaning and "not forcing" not in self.meaning

    @cached_property
    def uses_trump(self) -> bool:
        """Whether the row names ``t``, our agreed suit (it applies only once a suit is agreed)."""
        return self.call.endswith("t") or any("t" in (c.suit, c.other) for c in self.conds)

    def calls(self, hand: Hand, ctx: Context, b: Binding) -> Iterator[tuple[int, Binding]]:
        """The concrete calls this row names, with the binding of its free suit letter."""
        text = self.call
        if self.uses_trump:
            if ctx.trump is None:
                return
            b = {**b, "t": ctx.trump}
        if text in ("P", "X", "XX"):
            yield {"P": PASS, "X": DOUBLE, "XX": REDOUBLE}[text], b
            return
        var = text[-1] if text[-1].islower() else ""
        if var and var not in b:
            used = set(b.values())
            for s in hand.order:
                if s not in used:
                    nb = dict(b)
                    nb[var] = s
                    yield _concrete(text, nb, ctx), nb
            return
        yield _concrete(text, b, ctx), b

    def holds(self, hand: Hand, ctx: Context, b: Binding) -> bool:
        if not within(hand.points, self.lo, self.hi):
            return False
        return all(_holds(c, hand, ctx, b) for c in self.conds)


def _concrete(text: str, b: Binding, ctx: Context) -> int:
    if text.startswith("+"):
        strain = NT if text[1:] == "NT" else _suit(text[1], b)
        level = 1
        if ctx.last_bid is not None:
            level = ctx.last_bid >> 4 if strain > ctx.last_bid & 0xF else (ctx.last_bid >> 4) + 1
        return level << 4 | strain if level <= 7 else -1
    level, strain_text = int(text[0]), text[1:]
    strain = NT if strain_text == "NT" else _suit(strain_text, b)
    return level << 4 | strain


def _fit(hand: Hand, ctx: Context, s: int) -> int:
    return hand.lengths[s] + ctx.partner.len_lo[s]


def _holds(c: Cond, hand: Hand, ctx: Context, b: Binding) -> bool:
    k = c.kind
    if k == "len":
        return c.lo <= hand.lengths[_suit(c.suit, b)] <= c.hi
    if k == "hon":
        return hand.honours[_suit(c.suit, b)] >= c.lo
    if k == "hcp":
        return c.lo <= hand.hcp <= c.hi
    if k == "suithcp":
        return c.lo <= hand.suit_hcp[_suit(c.suit, b)] <= c.hi
    if k == "bal":
        return hand.balanced
    if k == "unbal":
        return min(hand.lengths) <= 1
    if k == "rest":
        named = {_suit(v, b) for v in b}
        return all(hand.lengths[s] >= c.lo for s in range(4) if s not in named)
    if k == "major":
        return _suit(c.suit, b) >= 2
    if k == "minor":
        return _suit(c.suit, b) < 2
    if k == "ne":
        return _suit(c.suit, b) != _suit(c.other, b)
    if k == "tp":
        return within(hand.points + ctx.partner.points, c.lo, c.hi)
    if k == "tpf":
        suit = ctx.trump if c.suit == "t" else _suit(c.suit, b)
        return suit is not None and within(hand.points + support_points(hand, suit) + ctx.partner.points, c.lo, c.hi)
    if k == "fit":
        return _fit(hand, ctx, _suit(c.suit, b)) >= 8
    if k == "nofitM":
        return _fit(hand, ctx, 2) < 8 and _fit(hand, ctx, 3) < 8
    if k == "ourbid":
        return ctx.last_bid is not None and ctx.last_ours
    if k == "theirbid":
        return ctx.last_bid is not None and not ctx.last_ours
    if k == "ourgame":
        return ctx.last_bid is not None and ctx.last_ours and ctx.last_bid >> 4 >= GAME_LEVEL[ctx.last_bid & 0xF]
    if k == "fitlast":
        if ctx.last_bid is None or not ctx.last_ours:
            return False
        strain = ctx.last_bid & 0xF
        return strain == NT or _fit(hand, ctx, strain) >= 7
    if k == "theirlevel":
        return ctx.last_bid is not None and not ctx.last_ours and c.lo <= ctx.last_bid >> 4 <= c.hi
    if k == "ourlevel":
        return ctx.last_bid is not None and ctx.last_ours and c.lo <= ctx.last_bid >> 4 <= c.hi
    if k == "trump":
        return ctx.trump is not None and _suit(c.suit, b) == ctx.trump
    if k == "notrumpfit":
        return ctx.trump is None
    if k == "plim":  # partner's points are limited (the range at most ten wide)
        return ctx.partner.hi - ctx.partner.lo <= 10
    if k == "noask":
        return not any(call == _ASK for call in ctx.calls[len(ctx.calls) % 2 :: 2])
    if k == "kc":
        return ctx.trump is not None and key_cards(hand, ctx.trump) in c.counts
    if k in ("tq", "notq"):
        return ctx.trump is not None and ((ctx.trump << 4 | 12) in hand.cards) == (k == "tq")
    if k == "cue":
        return _cue(hand, ctx, _suit(c.suit, b))
    if k == "ctlok":  # every side suit controlled: in this hand, or by partner's control bids
        t = ctx.trump
        return t is not None and all(hand.controls[s] or s in ctx.cues for s in range(4) if s != t)
    if k == "cuelast":
        return ctx.cue_last
    if k == "tlast":  # the last bid is ours, in our agreed suit
        return ctx.last_bid is not None and ctx.last_ours and ctx.last_bid & 0xF == ctx.trump
    if k == "stop":  # a stopper in the suit: A, Kx, Qxx or Jxxx
        return hand.stoppers[_suit(c.suit, b)]
    if k == "stops":  # every suit stopped in this hand, or four or more promised by partner
        return all(hand.stoppers[s] or ctx.partner.len_lo[s] >= 4 for s in range(4))
    if k == "nostops":
        return not all(hand.stoppers[s] or ctx.partner.len_lo[s] >= 4 for s in range(4))
    if k == "miss":
        return ctx.trump is not None and c.lo <= 5 - key_cards(hand, ctx.trump) - _partner_keys(hand, ctx) <= c.hi
    raise AssertionError(k)


_ASK = 4 << 4 | NT  # 4NT: the key-card ask once a suit is agreed (quantitative over notrump: rows of their own)
# the answers to the ask (1430): 5C one or four key cards, 5D none or three (or five), 5H two
# without the trump queen, 5S two with it; the key cards are the four aces and the trump king
ANSWERS = ((1, 4), (0, 3, 5), (2,), (2,))


def support_points(hand: Hand, trump: int) -> int:
    """What short side suits add once ``trump`` is agreed, for a hand with three or more of it:
    with four trumps a void 5, a singleton 3, a doubleton 1; with three 3, 2 and 1; with five or
    more (the hand that ruffs in the long trumps) 3, 2 and nothing."""
    n = hand.lengths[trump]
    if n < 3:
        return 0
    table = (3, 2, 0) if n >= 5 else (5, 3, 1) if n == 4 else (3, 2, 1)
    return sum(table[hand.lengths[s]] for s in range(4) if s != trump and hand.lengths[s] <= 2)


def _cheapest(ctx: Context, strain: int) -> int:
    """The cheapest legal bid in ``strain``."""
    if ctx.last_bid is None:
        return 1 << 4 | strain
    level = ctx.last_bid >> 4 if strain > ctx.last_bid & 0xF else (ctx.last_bid >> 4) + 1
    return level << 4 | strain


def _cue(hand: Hand, ctx: Context, suit: int) -> bool:
    """Whether a bid in ``suit`` is this hand's control bid: a side suit of our agreed one with
    the ace or a void, or the king or a singleton, the cheapest such suit, and a bid below game
    in the agreed suit."""
    t = ctx.trump
    if t is None or suit == t or not hand.controls[suit]:
        return False
    call = _cheapest(ctx, suit)
    if call >= (GAME_LEVEL[t] << 4 | t) or call >> 4 > 5:
        return False
    return not any(hand.controls[s] and _cheapest(ctx, s) < call for s in range(4) if s not in (t, suit))


def key_cards(hand: Hand, trump: int) -> int:
    """The aces and the king of ``trump`` in the hand."""
    return sum(1 for card in hand.cards if card & 0xF == 14 or card == trump << 4 | 13)


def _partner_keys(hand: Hand, ctx: Context) -> int:
    """Partner's key cards, read from the answer to our ask (the last call but one): of the counts
    the answer allows, those that fit with ours, the one nearest partner's points / 8."""
    answer = ctx.calls[-2] if len(ctx.calls) >= 2 else PASS
    if answer not in BIDS or answer >> 4 != 5 or answer & 0xF == NT:
        return 0
    mine = key_cards(hand, ctx.trump) if ctx.trump is not None else 0
    options = [n for n in ANSWERS[answer & 0xF] if n + mine <= 5] or [0]
    return min(options, key=lambda n: abs(n - ctx.partner.points / 8))


_FLAGS = (
    "bal",
    "unbal",
    "nofitM",
    "ourbid",
    "theirbid",
    "ourgame",
    "fitlast",
    "noask",
    "tq",
    "notq",
    "notrumpfit",
    "plim",
    "ctlok",
    "cuelast",
    "tlast",
    "stops",
    "nostops",
)


def _cond(token: str, where: str) -> Cond:
    if token in _FLAGS:
        return Cond(token)
    if re.fullmatch(r"kc\d(/\d)*", token):
        return Cond("kc", counts=tuple(int(n) for n in token[2:].split("/")))
    if token.startswith("miss"):
        lo, hi = _range(token[4:], where, 5)
        return Cond("miss", lo=lo, hi=hi)
    if re.fullmatch(r"stop[CDHSa-z]", token):
        return Cond("stop", token[4])
    if re.fullmatch(r"cue[a-z]", token):
        return Cond("cue", token[3])
    if re.fullmatch(r"[a-z]=t", token):
        return Cond("trump", token[0])
    if token.startswith("rest"):
        lo, _ = _range(token[4:], where, 13)
        return Cond("rest", lo=lo)
    if token.startswith("tpf"):  # tpf33+ in our agreed suit, tpfx33+ in the suit x
        suit = token[3] if token[3:4].isalpha() else "t"
        lo, hi = _range(token[3 + (suit != "t") :], where, 99)  # a pair's points with shape pass 40
        return Cond("tpf", suit, lo=lo, hi=hi)
    if token.startswith("tp"):
        lo, hi = _range(token[2:], where, 99)
        return Cond("tp", lo=lo, hi=hi)
    if re.fullmatch(r"hcp[CDHSa-z][-+\d]+", token):  # hcpy-0: high-card points in the suit y
        lo, hi = _range(token[4:], where, 10)
        return Cond("suithcp", token[3], lo=lo, hi=hi)
    if token.startswith("hcp"):
        lo, hi = _range(token[3:], where)
        return Cond("hcp", lo=lo, hi=hi)
    for kind in ("theirlevel", "ourlevel"):
        if token.startswith(kind):
            lo, hi = _range(token[len(kind) :], where, 7)
            return Cond(kind, lo=lo, hi=hi)
    if token.startswith("fit") and len(token) == 4:
        return Cond("fit", token[3])
    if re.fullmatch(r"[a-z]=M", token):
        return Cond("major", token[0])
    if re.fullmatch(r"[a-z]=m", token):
        return Cond("minor", token[0])
    if re.fullmatch(r"[a-z]!=[a-z]", token):
        return Cond("ne", token[0], other=token[3])
    if re.fullmatch(r"h[CDHSa-z]\d", token):
        return Cond("hon", token[1], lo=int(token[2]))
    m = _LENGTH.match(token)
    if m and (m.group(2) or m.group(3) is not None):
        lo, hi = _range(token[1:], where, 13)
        return Cond("len", m.group(1), lo=lo, hi=hi)
    raise TableError(f"{where}: unknown condition {token!r}")


def parse_table(name: str, text: str, folder: str = CURRENT) -> list[Row]:
    """The rows of one table file (TableError names a bad line)."""
    rows = []
    for n, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        where = f"{name}.txt:{n}"
        parts = [p.strip() for p in line.split("|")]
        if len(parts) != 5:
            raise TableError(f"{where}: a row has five columns separated by '|', not {len(parts)}")
        auction, call, points, hand, meaning = parts
        tokens = tuple(auction.split())
        for t in tokens:
            if t not in ("-", "...", "P", "X", "XX") and not _BID.match(t):
                raise TableError(f"{where}: {t!r} is not a call")
        if call not in ("P", "X", "XX") and not _BID.match(call) and not re.fullmatch(r"\+(C|D|H|S|NT|[a-z])", call):
            raise TableError(f"{where}: {call!r} is not a call")
        lo, hi = _range(points, where)
        conds = tuple(_cond(t, where) for t in hand.split())
        rows.append(Row(name, n, tokens, call, lo, hi, conds, meaning, folder))
    return rows


@cache
def system(tables: str = CURRENT) -> tuple[Row, ...]:
    """Every row of the bidding system in the folder ``tables`` (of ``paiju/games/bridge``), in the
    order they are tried."""
    pkg = resources.files("paiju.games.bridge")
    for part in tables.split("/"):
        pkg = pkg / part
    rows: list[Row] = []
    for name in TABLES:
        if (pkg / f"{name}.txt").is_file():  # the frozen v1 system has no slam table
            rows += parse_table(name, (pkg / f"{name}.txt").read_text(encoding="utf-8"), tables)
    return tuple(rows)


@cache
def _candidates(tables: str, n: int, first: str) -> tuple[Row, ...]:
    """The rows of ``system(tables)``, in order, whose auction may be a relative auction of
    ``n`` calls that starts with ``first`` (:meth:`Row.match` decides): the engine tries these
    only, not the whole system at every call."""
    return tuple(row for row in system(tables) if row.may_match(n, first))


def _rows(tables: str, rel: tuple[str, ...]) -> tuple[Row, ...]:
    return _candidates(tables, len(rel), rel[0] if rel else "")


# ---------------------------------------------------------------------------- the engine
def choose(cards: Sequence[int], calls: Sequence[int], dealer: int, tables: str = CURRENT) -> tuple[int, Row | None]:
    """The call for the hand ``cards`` after ``calls`` (the auction from ``dealer``), and the row that gives it."""
    hand = Hand.of(cards)
    seat = len(calls)  # by offset from dealer 0, as read_auction's seats below
    promises = read_auction(tuple(calls), 0, tables)
    ctx = context(
        calls, summaries_before(tuple(calls), tables), agreed(promises, seat), forced(promises, tables), promises
    )
    for row in _rows(tables, ctx.rel):
        b = row.match(ctx.rel)
        if b is None or not within(hand.points, row.lo, row.hi):  # the cheap test first
            continue
        for call, nb in row.calls(hand, ctx, b):
            if call >= 0 and ctx.legal(call) and not (ctx.forced and call == PASS) and row.holds(hand, ctx, nb):
                if row.forcing and tables != FROZEN_V1 and not _reads_forcing(ctx, call, tables):
                    continue  # partner would read the call by another row, one that may be passed
                return call, row
    return PASS, None


def _reads_forcing(ctx: Context, call: int, tables: str) -> bool:
    """Whether partner reads ``call`` as forcing: its first row (see :func:`forced`) says so."""
    rows = _readings(ctx, call, tables)
    return bool(rows) and rows[0][0].forcing


def _readings(ctx: Context, call: int, tables: str = CURRENT) -> list[tuple[Row, Binding]]:
    """The rows (with their binding) that produce ``call`` in ``ctx``: the call's promise."""
    out = []
    cover = _Cover()
    for row in _rows(tables, ctx.rel):
        b = row.match(ctx.rel)
        if b is None:
            continue
        text = row.call
        if row.uses_trump:
            if ctx.trump is None:
                continue
            b = {**b, "t": ctx.trump}
        if text == "P" and ctx.forced:
            continue  # partner's call is forcing: no row passes
        if text in ("P", "X", "XX"):
            nb = b
            produces = {"P": PASS, "X": DOUBLE, "XX": REDOUBLE}[text] == call
        else:
            var = text[-1] if text[-1].islower() else ""
            nb = dict(b)
            if var and var not in nb:
                if call not in BIDS or call & 0xF == NT or (call & 0xF) in nb.values():
                    continue
                nb[var] = call & 0xF
            produces = call in BIDS and _concrete(text, nb, ctx) == call
        public = all(_holds(c, _NO_HAND, ctx, nb) for c in row.conds if c.kind in _PUBLIC)
        if produces and public:
            out.append((row, nb))
        if text == "P" and not row.conds and row.lo == 0 and row.hi >= 40:
            break  # every hand that reaches this row passes: no later row is ever used here
        if public and tables != FROZEN_V1 and cover.add(row, b, ctx):
            break  # the rows so far take every hand: no later row is ever used here
    return out


class _Cover:
    """The hands the rows read so far certainly take: a row whose conditions are all public (or
    one range of high-card points) and whose call is legal takes every hand of its range, so
    once the ranges leave no gap no later row is ever chosen, and reading them back would only
    blur the promise (``1D P 1S``: the placement table's rows never hold four spades).
    ``hybrid-v1``'s frozen system is read as it was, without this."""

    def __init__(self) -> None:
        self.points: list[tuple[float, float]] = []
        self.hcp: list[tuple[float, float]] = []

    def add(self, row: Row, b: Binding, ctx: Context) -> bool:
        private = [c for c in row.conds if c.kind not in _PUBLIC]
        text = row.call
        var = text[-1] if text[-1].islower() else ""
        if (var and var not in b) or (row.uses_trump and ctx.trump is None):
            return False
        if row.uses_trump and ctx.trump is not None:
            b = {**b, "t": ctx.trump}
        call = {"P": PASS, "X": DOUBLE, "XX": REDOUBLE}.get(text)
        if call is None:
            call = _concrete(text, b, ctx)
            if call < 0:
                return False
        if not ctx.legal(call):
            return False
        if not private:  # within what the bidder has promised already
            return _covers(self.points, (row.lo, row.hi + 1), (ctx.me.lo, ctx.me.hi + 1))
        if len(private) == 1 and private[0].kind == "hcp" and row.lo == 0 and row.hi >= 40:
            return _covers(self.hcp, (private[0].lo, private[0].hi + 1), (0, 38))
        return False


def _covers(spans: list[tuple[float, float]], span: tuple[float, float], target: tuple[float, float]) -> bool:
    """Add ``span`` to ``spans``; whether they now cover ``target`` (``[lo, hi)``)."""
    spans.append(span)
    reach = target[0]
    for lo, hi in sorted(spans):
        if lo > reach:
            return False
        reach = max(reach, hi)
    return reach >= target[1]


# conditions on the auction and the suits alone: decided at read-back, whatever the hand
_PUBLIC = frozenset(
    {
        "major",
        "minor",
        "ne",
        "ourbid",
        "theirbid",
        "ourgame",
        "theirlevel",
        "ourlevel",
        "trump",
        "noask",
        "notrumpfit",
        "cuelast",
        "tlast",
        "plim",
    }
)
_NO_HAND = Hand((), 0.0, 0, (0, 0, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0))


@dataclass(frozen=True)
class Promise:
    """What one call says about its caller's hand: one of ``rows`` holds (an empty tuple promises nothing)."""

    seat: int
    index: int  # in the auction
    call: int
    ctx: Context
    rows: tuple[tuple[Row, Binding], ...]

    def holds(self, hand: Hand) -> bool:
        return not self.rows or any(r.holds(hand, self.ctx, b) for r, b in self.rows)

    def summary(self) -> Summary:
        """The union of the rows' ranges (what partner counts on)."""
        return self._summary.copy()

    @cached_property
    def _summary(self) -> Summary:  # computed once: every later call's context narrows by it
        if not self.rows:
            return Summary()
        out = Summary(40.0, 0.0, [13] * 4, [0] * 4)
        for r, b in self.rows:
            lo, hi = r.lo, r.hi
            len_lo, len_hi = [0] * 4, [13] * 4
            for c in r.conds:
                if c.kind == "len":
                    s = _suit(c.suit, b)
                    len_lo[s], len_hi[s] = max(len_lo[s], int(c.lo)), min(len_hi[s], int(c.hi))
                elif c.kind == "bal":
                    len_lo = [max(x, 2) for x in len_lo]
                    len_hi = [min(x, 5) for x in len_hi]
                elif c.kind == "rest":
                    named = {_suit(v, b) for v in b}
                    len_lo = [max(x, int(c.lo)) if s not in named else x for s, x in enumerate(len_lo)]
                elif c.kind == "tp":
                    lo, hi = max(lo, c.lo - self.ctx.partner.points), min(hi, c.hi - self.ctx.partner.points)
                elif c.kind == "tpf":  # short suits add up to 10: only the top is sure, 4 is typical
                    lo, hi = max(lo, c.lo - self.ctx.partner.points - 4), min(hi, c.hi - self.ctx.partner.points)
                elif c.kind == "fit" and r.system != FROZEN_V1:  # eight cards with partner's promised (v1 read none)
                    s = _suit(c.suit, b)
                    len_lo[s] = max(len_lo[s], 8 - self.ctx.partner.len_lo[s])
                elif c.kind == "hcp":  # high-card points: the evaluation is within a point or two of them
                    lo, hi = max(lo, c.lo - 1), min(hi, c.hi + 2)
            out.lo, out.hi = min(out.lo, lo), max(out.hi, max(lo, hi))
            out.len_lo = [min(a, x) for a, x in zip(out.len_lo, len_lo, strict=True)]
            out.len_hi = [max(a, x) for a, x in zip(out.len_hi, len_hi, strict=True)]
        return out


@lru_cache(maxsize=1 << 15)  # bounded: the bidding's simulations read many auctions that are never met again
def read_auction(calls: tuple[int, ...], dealer: int = 0, tables: str = CURRENT) -> tuple[Promise, ...]:
    """The promise of every call of the auction, in order (seats from ``dealer``): the promises
    of ``calls[:-1]`` (read once, cached) and the last call's."""
    if not calls:
        return ()
    out = list(read_auction(calls[:-1], dealer, tables))
    summaries = [Summary() for _ in range(4)]
    for p in out:
        summaries[p.seat].narrow(p._summary)
    i, call = len(out), calls[-1]
    seat = (dealer + i) % 4
    ctx = context(calls[:i], [summaries[(seat + k) % 4] for k in range(4)], agreed(out, seat), forced(out, tables), out)
    return (*out, Promise(seat, i, call, ctx, tuple(_readings(ctx, call, tables))))


def agreed(promises: Sequence[Promise], seat: int) -> int | None:
    """The suit of the last bid of ``seat``'s side that promised three or more cards of it."""
    for p in reversed(promises):
        natural = p.call in BIDS and p.call & 0xF != NT and p._summary.len_lo[p.call & 0xF] >= 3
        if p.seat % 2 == seat % 2 and natural:
            return p.call & 0xF
    return None


def forced(promises: Sequence[Promise], tables: str = CURRENT) -> bool:
    """Whether the next bidder may not pass: partner's last call is forcing (its first row, the
    one written for the auction, says so) and the next hand passed. ``hybrid-v1``'s frozen rows
    alone decide."""
    if tables == FROZEN_V1 or len(promises) < 2 or promises[-1].call != PASS:
        return False
    rows = promises[-2].rows
    return bool(rows) and rows[0][0].forcing


def summaries_before(calls: tuple[int, ...], tables: str = CURRENT) -> list[Summary]:
    """What each seat has promised, by offset from the seat to call next (0 itself, 2 partner)."""
    n = len(calls)
    by_offset = [Summary() for _ in range(4)]
    for p in read_auction(calls, 0, tables):
        by_offset[(p.seat - n) % 4].narrow(p._summary)
    return by_offset


def promises_of(calls: Sequence[int], dealer: int, seat: int, tables: str = CURRENT) -> list[Promise]:
    """The promises ``seat`` made in the auction ``calls`` (read with the system ``tables``)."""
    return [p for p in read_auction(tuple(calls), dealer, tables) if p.seat == seat]


SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")


def explain(p: Promise) -> str:
    """The meaning of one call, from the rows that produce it: each row's own words, then what
    the call promises together (points, suit lengths) and whether partner may pass it.

    >>> from paiju.protocol.cards import parse_call
    >>> explain(read_auction((parse_call("1NT"),))[0])
    'balanced, no five-card major; 13-15 points, 2-5 clubs, 2-5 diamonds, 2-4 hearts, 2-4 spades'
    """
    if not p.rows:
        return "outside the system: no promise"
    # the rows written for this auction, when there are any; the placement table's general
    # rows only otherwise (the sampler keeps them all: an explanation names the main meaning)
    own = tuple((r, b) for r, b in p.rows if r.table != "placement") or p.rows
    meanings = list(dict.fromkeys(r.meaning for r, _ in own if r.meaning))
    s = Promise(p.seat, p.index, p.call, p.ctx, own).summary()
    parts = []
    if s.lo > 0 or s.hi < 40:
        parts.append(f"{s.lo:g}+ points" if s.hi >= 40 else f"{s.lo:g}-{s.hi:g} points")
    for suit in range(4):
        lo, hi = s.len_lo[suit], s.len_hi[suit]
        if lo > 0 or hi < 13:
            parts.append(f"{lo}+ {SUIT_NAMES[suit]}" if hi >= 13 else f"{lo}-{hi} {SUIT_NAMES[suit]}")
    text = " / ".join(meanings)
    if parts:
        text += ("; " if text else "") + ", ".join(parts)
    if all(r.forcing for r, _ in own) and "forcing" not in text:
        text += "; forcing"
    return text
