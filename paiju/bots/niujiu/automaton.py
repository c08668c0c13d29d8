"""The Moore automaton of design.md §7.1, M = {A, Σ, f, B, Z}: "six must suffice" (六牌必够).

- **A** = {A0, ..., A6}: the number of cards the head has surely occupied (:class:`State`);
- **Σ** = {a, b, c, d, e}: the seed's letters after its equivalent-letter substitutions
  (:class:`Letter`): a = 天 (K, 1 card); b = 二牛 | 二喜 (2); c = 三牛 | 三喜 | 摆 (3);
  d = 亮子 (4); e = 鱼亮 | 摆亮 | 喜包亮 (6);
- **f**: reading a letter moves the state on by the letter's number of cards
  (:func:`step`); six or more is A6 (the seed: "单家所占牌数在6张以上即接受为一个终止状态"),
  and A6 reads anything and stays;
- **B** = A0, **Z** = {A6};
- the Moore output of each state is the pattern whose letter led into it: the order in
  which to lead the patterns that guarantee six cards (:class:`Plan`).

A letter is read only for a pattern that is a **sure winner** (:mod:`.sure`): under
docs/rules/niujiu.md a liangzi below four Ks, a 鱼亮 and a 喜包亮 below four Ks can be
eaten (R4.13, R4.15, R4.16), so the seed's d and part of e are letters only when
nothing unseen eats them; a, b, c and 摆亮 always are. Seed §5.3's special sure winners
(虎 and 鱼 when every card that eats them is in hand or played) are read as the letter of
their size: the seed's own substitution, a letter being "a sure pattern of n cards".

The recognizer (§5.2) tells the 9s and the 5s apart by the seed's additive colour code
μ (red adds 7, black 9, mod 10: :func:`paiju.games.niujiu.niu_code`), which gives every mix
of colours its own value (:data:`COLOUR_CODES`).

>>> from paiju.protocol import parse_cards
>>> plan = six_must_suffice(parse_cards("SK HK D9 C9 H5 S5 C2 D3 H6 S7 C8 DT HJ SQ CA D6", ace=1))
>>> plan is not None, [s.letter.value for s in plan.steps], [s.state.name for s in plan.steps]
(True, ['c', 'b', 'a'], ['A3', 'A5', 'A6'])
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum, IntEnum

from paiju.bots.niujiu.cache import hand_patterns, pattern_of
from paiju.bots.niujiu.sure import Pool, is_sure
from paiju.games.niujiu import Kind, Pattern, is_red, niu_code, rank
from paiju.protocol.cards import NIUJIU_CARDS

NIU, XI, K = 9, 5, 13


class Letter(Enum):
    """The alphabet Σ after the seed's equivalent-letter substitutions (§5.1 (3))."""

    A = "a"  # φ7 天
    B = "b"  # φ1a 二牛 | φ2a 二喜
    C = "c"  # φ1b 三牛 | φ2b 三喜 | φ5 摆
    D = "d"  # φ3 亮子
    E = "e"  # φ4abc 鱼亮 | φ5abc 摆亮 | φ6 喜包亮

    @property
    def cards(self) -> int:
        """The cards a pattern of this letter occupies."""
        return _LETTER_CARDS[self]


_LETTER_CARDS = {Letter.A: 1, Letter.B: 2, Letter.C: 3, Letter.D: 4, Letter.E: 6}
_BY_SIZE = {1: Letter.A, 2: Letter.B, 3: Letter.C, 4: Letter.D}

# The seed's letters by pattern kind (§5.1 (2), (3)); a single is a letter only as 天 (K).
SEED_LETTERS: dict[Kind, Letter] = {
    Kind.NIU_PAIR: Letter.B,
    Kind.XI_PAIR: Letter.B,
    Kind.NIU_TRIPLE: Letter.C,
    Kind.XI_TRIPLE: Letter.C,
    Kind.BAI: Letter.C,
    Kind.LIANGZI: Letter.D,
    Kind.YU_LIANG: Letter.E,
    Kind.BAI_LIANG: Letter.E,
    Kind.XI_BAO_LIANG: Letter.E,
}

# μ mod 10 of each mix of colours of 9s (or 5s), as seed §5.2 lists them: (red, black) -> μ.
COLOUR_CODES: dict[tuple[int, int], int] = {
    (0, 1): 9,
    (0, 2): 8,
    (1, 0): 7,
    (2, 0): 4,
    (1, 1): 6,  # 二牛 / 二喜
    (2, 1): 3,  # 三牛 / 三喜
    (1, 2): 5,  # 三牛 / 三喜
    (2, 2): 2,  # four: a liangzi
}
_MIX = {mu: mix for mix, mu in COLOUR_CODES.items()}


def seed_letter(pattern: Pattern) -> Letter | None:
    """The seed's letter of a pattern kind: a for 天 (a single K), b, c, d, e as §5.1 lists; else None.

    Only 摆 of one of each (3 cards) is c; a double 摆 reads as c c.
    """
    if pattern.kind == Kind.SINGLE:
        return Letter.A if pattern.rank == K else None
    if pattern.kind == Kind.BAI and pattern.size != 3:
        return None
    return SEED_LETTERS.get(pattern.kind)


def letter_of(pattern: Pattern) -> Letter:
    """The letter a *sure* pattern is read as: the letter of its number of cards (e for 6 or more).

    For the seed's own kinds this is :func:`seed_letter`; §5.3's sure 虎 and 鱼 read as a, b, c.
    """
    return _BY_SIZE.get(pattern.size, Letter.E)


class State(IntEnum):
    """A_i: i cards surely occupied (§5.1 (1))."""

    A0 = 0
    A1 = 1
    A2 = 2
    A3 = 3
    A4 = 4
    A5 = 5
    A6 = 6


START = State.A0  # B
ACCEPTING = frozenset({State.A6})  # Z


def step(state: State, letter: Letter) -> State:
    """The transition function f: A × Σ -> A."""
    return State(min(State.A6, state + letter.cards))


def run(letters: Iterable[Letter], start: State = START) -> list[State]:
    """The states the automaton passes through reading ``letters`` (the start state excluded)."""
    out: list[State] = []
    state = start
    for x in letters:
        state = step(state, x)
        out.append(state)
    return out


def accepts(letters: Iterable[Letter], start: State = START) -> bool:
    states = run(letters, start)
    return (states[-1] if states else start) in ACCEPTING


@dataclass(frozen=True)
class Step:
    """One move of the automaton: the letter read, the pattern to lead (the Moore output), the state reached."""

    letter: Letter
    cards: bytes
    state: State


@dataclass(frozen=True)
class Plan:
    """An accepting run: lead ``steps[0].cards``, then the next, ... each wins its trick for sure."""

    start: State
    steps: tuple[Step, ...]

    @property
    def cards(self) -> int:
        return sum(len(s.cards) for s in self.steps)


# ------------------------------------------------------------------ the recognizer (§5.2)
def _key(card: int) -> tuple[int, bool]:
    """A card as far as patterns care: its number, and its colour for 9s and 5s."""
    r = rank(card)
    return r, r in (NIU, XI) and is_red(card)


def colour_mix(cards: Iterable[int], number: int) -> tuple[int, int]:
    """(red, black) of the cards of ``number`` (9 or 5) among ``cards``, read from μ as the seed does."""
    own = bytes(c for c in cards if rank(c) == number)
    return _MIX[niu_code(own)] if own else (0, 0)


def _signature(cards: bytes) -> tuple[object, ...]:
    """Patterns with one signature are interchangeable: the numbers, with the μ of the 9s and the 5s."""
    plain = tuple(sorted(rank(c) for c in cards if rank(c) not in (NIU, XI)))
    return plain, colour_mix(cards, NIU), colour_mix(cards, XI)


@dataclass(frozen=True)
class Symbol:
    """A sure pattern of the hand, as the automaton reads it."""

    letter: Letter
    pattern: Pattern
    demand: tuple[tuple[tuple[int, bool], int], ...]  # cards needed, by _key

    @property
    def liangzi(self) -> int:
        per_number: Counter[int] = Counter()
        for (r, _), n in self.demand:
            per_number[r] += n
        return sum(1 for n in per_number.values() if n == 4)


def recognize(hand: bytes, pool: Pool) -> list[Symbol]:
    """The sure patterns of ``hand`` given what the robot cannot see, one per signature."""
    seen: dict[tuple[object, ...], Symbol] = {}
    for cards in hand_patterns(hand):
        sig = _signature(cards)
        if sig in seen:
            continue
        p = pattern_of(cards)
        if is_sure(p, pool):
            seen[sig] = Symbol(letter_of(p), p, tuple(sorted(Counter(map(_key, cards)).items())))
    return list(seen.values())


def sure_patterns(hand: bytes, pool: Pool) -> list[bytes]:
    """Every pattern of ``hand`` that is a sure winner (each concrete choice of cards)."""
    return [cards for cards in hand_patterns(hand) if is_sure(pattern_of(cards), pool)]


def _search(symbols: Sequence[Symbol], have: Counter[tuple[int, bool]], need: int) -> list[Symbol] | None:
    """The best multiset of symbols the hand holds at once whose cards reach ``need``.

    Best: the fewest cards (the seed occupies exactly six, keeping the rest free), then the
    most liangzi (each scores), then the fewest tricks.
    """
    best: list[Symbol] | None = None
    best_key: tuple[int, int, int] | None = None
    chosen: list[Symbol] = []

    def dfs(i: int, total: int) -> None:
        nonlocal best, best_key
        if total >= need:
            key = (total, -sum(s.liangzi for s in chosen), len(chosen))
            if best_key is None or key < best_key:
                best, best_key = list(chosen), key
            return
        for j in range(i, len(symbols)):
            s = symbols[j]
            if all(have[k] >= n for k, n in s.demand):
                for k, n in s.demand:
                    have[k] -= n
                chosen.append(s)
                dfs(j, total + s.pattern.size)
                chosen.pop()
                for k, n in s.demand:
                    have[k] += n

    dfs(0, 0)
    return best


def plan_for(hand: bytes, pool: Pool, occupied: int = 0) -> Plan | None:
    """The automaton's accepting run from state A_min(6, occupied) over ``hand``, or None when it rejects.

    ``pool``: the cards the robot cannot see. At the deal, the head's pool is every card
    not in its hand; later in the hand the occupied cards set the start state.
    """
    start = State(min(6, occupied))
    if start in ACCEPTING:
        return Plan(start, ())
    symbols = sorted(recognize(hand, pool), key=lambda s: (-s.pattern.size, -s.liangzi, s.demand))
    found = _search(symbols, Counter(map(_key, hand)), State.A6 - start)
    if found is None:
        return None
    left = list(hand)
    steps: list[Step] = []
    state = start
    for s in sorted(found, key=lambda s: (-s.liangzi, -s.pattern.size)):
        cards = []
        for k, n in s.demand:
            picked = [c for c in left if _key(c) == k][:n]
            cards += picked
            for c in picked:
                left.remove(c)
        state = step(state, s.letter)
        steps.append(Step(s.letter, bytes(sorted(cards)), state))
    return Plan(start, tuple(steps))


def six_must_suffice(head_hand: bytes) -> Plan | None:
    """Design.md §7.1 at the deal: the head's plan to occupy six cards for sure, or None.

    The head sees only its own 16 cards, so every other card may be against it.
    """
    return plan_for(head_hand, Pool.of(NIUJIU_CARDS - set(head_hand)))
