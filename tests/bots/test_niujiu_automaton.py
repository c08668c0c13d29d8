"""Design.md §7.1: the Moore automaton, its letters, the colour code and Table 1; and a
brute-force check that it accepts exactly when sure winners can occupy six cards."""

from __future__ import annotations

import random

import pytest

from paiju.bots.niujiu.automaton import (
    ACCEPTING,
    COLOUR_CODES,
    START,
    Letter,
    State,
    accepts,
    colour_mix,
    letter_of,
    plan_for,
    recognize,
    run,
    seed_letter,
    six_must_suffice,
    step,
)
from paiju.bots.niujiu.sure import Pool
from paiju.games.niujiu import Kind, classify, niu_code, pattern_beats, patterns
from paiju.protocol import parse_cards
from paiju.protocol.cards import NIUJIU_CARDS


def cards(text: str) -> bytes:
    return parse_cards(text, ace=1)


# ------------------------------------------------------------------ M = {A, Σ, f, B, Z}
# f written out by hand: the row of each state, the state reached on a, b, c, d, e.
TRANSITIONS = {
    "A0": "A1 A2 A3 A4 A6",
    "A1": "A2 A3 A4 A5 A6",
    "A2": "A3 A4 A5 A6 A6",
    "A3": "A4 A5 A6 A6 A6",
    "A4": "A5 A6 A6 A6 A6",
    "A5": "A6 A6 A6 A6 A6",
    "A6": "A6 A6 A6 A6 A6",
}


@pytest.mark.parametrize("state", list(State))
@pytest.mark.parametrize("letter", list(Letter))
def test_every_transition(state: State, letter: Letter) -> None:
    expected = TRANSITIONS[state.name].split()[list(Letter).index(letter)]
    assert step(state, letter).name == expected


def test_start_accepting_and_runs() -> None:
    assert START == State.A0 and {State.A6} == ACCEPTING
    a, b, c, d, e = Letter
    assert run([b, c, a]) == [State.A2, State.A5, State.A6] and accepts([b, c, a])
    assert not accepts([b, c]) and not accepts([]) and accepts([e]) and accepts([d, b]) and accepts([a], State.A5)
    assert [x.cards for x in Letter] == [1, 2, 3, 4, 6]


KIND_LETTERS = [
    ("SK", Letter.A),
    ("SQ", None),  # 虎 is no letter of the seed's alphabet
    ("H9", None),
    ("H9 S9", Letter.B),  # 二牛
    ("D5 C5", Letter.B),  # 二喜
    ("H9 D9", None),  # two red 9s: a plain pair (R3.3)
    ("HK SK", None),  # two 天: read as a a
    ("H9 D9 S9", Letter.C),  # 三牛, both colour mixes
    ("H9 C9 S9", Letter.C),
    ("H5 D5 S5", Letter.C),  # 三喜
    ("S8 HT DK", Letter.C),  # 摆
    ("S8 HT DK C8 DT HK", None),  # double 摆: read as c c
    ("HA S2 D3", None),  # 鱼
    ("H7 D7 S7", None),  # a plain triple
    ("H7 D7 S7 C7", Letter.D),  # 亮子
    ("HK DK SK CK", Letter.D),
    ("HA DA SA CA S2 D3", Letter.E),  # 鱼亮
    ("S8 HT DT ST CT DK", Letter.E),  # 摆亮
    ("H5 S5 H7 D7 S7 C7", Letter.E),  # 喜包亮
]


@pytest.mark.parametrize(("text", "letter"), KIND_LETTERS)
def test_the_letter_of_each_pattern_kind(text: str, letter: Letter | None) -> None:
    p = classify(cards(text))
    assert p is not None
    assert seed_letter(p) == letter
    if letter is not None:  # the seed's letters are the letters of their sizes
        assert letter_of(p) == letter


def test_every_kind_has_a_row() -> None:
    kinds = {classify(cards(t)).kind for t, _ in KIND_LETTERS}  # type: ignore[union-attr]
    assert kinds == set(Kind)


# ------------------------------------------------------------------ the colour code (§5.2)
RED9, BLACK9 = cards("H9 D9"), cards("C9 S9")
RED5, BLACK5 = cards("H5 D5"), cards("C5 S5")


def test_the_colour_code_separates_every_combination() -> None:
    for red_cards, black_cards in ((RED9, BLACK9), (RED5, BLACK5)):
        codes = {}
        for red in range(3):
            for black in range(3):
                if red or black:
                    mix = red_cards[:red] + black_cards[:black]
                    codes[red, black] = niu_code(mix)
                    assert colour_mix(mix, mix[0] & 0xF) == (red, black)
        assert len(set(codes.values())) == len(codes) == 8  # every combination its own value
        assert codes == COLOUR_CODES  # the values seed §5.2 lists


# ------------------------------------------------------------------ Table 1 (§5.2)
# The seed's rows as printed ("-" black, "+" red; unsigned 9s and 5s read as one of each colour;
# x a liangzi of another number). One row is printed with five cards.
TABLE_1 = """
K -9 +9 +5 -5 -5 | K K K K -5 +5 | K K K 8 10 K | K -5 +5 -9 +9 +9 | K K K -9 +9 +9 | K -5 +5 +9 -9 -9
-9 +9 +9 -5 +5 +5 | K 10 8 -9 +9 +9 | -9 +9 +9 +5 -5 -5 | K 10 8 +9 -9 -9 | +9 -9 -9 -5 -5 +5
K 10 8 -5 +5 +5 | K 10 8 +5 -5 -5 | +9 -9 -9 +5 -5 -5 | K K K +9 -9 -9 | K 10 8 K 10 8 | K K K -5 +5 +5
-9 +9 -5 -5 +5 +5 | K K K +5 -5 -5 | -5 +5 -9 -9 +9 +9 | K K 9 9 5 5 | K K 10 8 -5 +5 | K K 10 8 -9 +9
K K -9 -9 +9 +9 | K K -5 -5 +5 +5 | K K x x x x | -5 +5 x x x x | 1 1 1 1 2 3 | 1 2 2 2 2 3 | 1 2 3 3 3 3
8 10 10 10 10 K | 8 8 8 8 10 K | K K K -9 +9 | K -9 +9 -5 +5 +5
"""
SUITS = {"red": "HD", "black": "CS", "any": "SHDC"}


def row_cards(row: str, x: int) -> bytes:
    """The cards of a row: suits handed out in turn, colours as signed, x = the number ``x``."""
    out: list[int] = []
    unsigned: dict[str, int] = {}
    for tok in row.split():
        if tok == "x":
            tok = str(x)
        sign = tok[0] if tok[0] in "+-" else ""
        number = {"K": 13, "10": 10, "1": 1}.get(tok.lstrip("+-")) or int(tok.lstrip("+-"))
        if sign:
            suits = SUITS["red" if sign == "+" else "black"]
        elif number in (5, 9):  # unsigned 9s and 5s: one red, one black
            n = unsigned.get(str(number), 0)
            unsigned[str(number)] = n + 1
            suits = SUITS["red" if n % 2 == 0 else "black"]
        else:
            suits = SUITS["any"]
        card = next(s << 4 | number for s in (" CDHS".index(ch) - 1 for ch in suits) if s << 4 | number not in out)
        out.append(card)
    return bytes(out)


def filler(row: bytes, x: int, extra: str = "") -> bytes:
    """Ten cards that make no sure pattern of their own: two each of A, 2, 6, 7, J (Q for x)."""
    numbers = [n for n in (1, 2, 6, 7, 11, 12) if n != x][:5]
    free = [c for n in numbers for c in sorted(NIUJIU_CARDS) if c & 0xF == n and c not in row]
    pairs = [c for n in numbers for c in [d for d in free if d & 0xF == n][:2]]
    more = cards(extra) if extra else b""
    return bytes([*more, *[c for c in pairs if c not in more]][:10])


ROWS = [r.strip() for line in TABLE_1.strip().splitlines() for r in line.split("|")]


def test_table_1_has_the_seeds_rows() -> None:
    assert len(ROWS) == 34
    assert sum(len(r.split()) == 5 for r in ROWS) == 1  # the seed prints "K K K -9 +9" with five cards


@pytest.mark.parametrize("row", ROWS)
def test_table_1(row: str) -> None:
    """Each row, with ten cards that add no sure pattern, is a sure six: the automaton accepts.

    Where docs/rules/niujiu.md lets a row's pattern be eaten (a liangzi x below four Ks, a
    鱼亮, a 喜包亮 below four Ks: R4.13, R4.15, R4.16), the automaton accepts only once the
    cards that could eat it are in hand; the five-card row needs a sixth sure card.
    """
    if len(row.split()) == 5:
        hand = row_cards(row, 0)
        assert six_must_suffice(hand + filler(hand, 0)) is None
        hand += bytes([next(c for c in sorted(NIUJIU_CARDS) if c & 0xF == 13 and c not in hand)])
        assert six_must_suffice(hand + filler(hand, 0)) is not None
        return
    if "x" in row:
        hand = row_cards(row, 7)  # a liangzi of 7s can be eaten by 8s ... Qs (and Ks, if no K is in hand)
        assert six_must_suffice(hand + filler(hand, 7)) is None
        hand = row_cards(row, 12)  # four Qs: eaten by four Ks or four 9s
        blockers = "S9" if "K" in row else "S9 SK"
        assert six_must_suffice(hand + filler(hand, 12, blockers)) is not None
        return
    hand = row_cards(row, 0)
    plan = six_must_suffice(hand + filler(hand, 0))
    if row.startswith("1"):  # 鱼亮 is eaten by any 摆亮 (R4.13) ...
        assert plan is None
        full = hand + filler(hand, 0, "S8 ST SK")  # ... and none can be made when an 8, a 10 and a K are in hand
        sure = recognize(full, Pool.of(NIUJIU_CARDS - set(full)))
        assert any(s.pattern.kind == Kind.YU_LIANG for s in sure)
        assert not any(s.pattern.kind == Kind.YU_LIANG for s in recognize(hand, Pool.of(NIUJIU_CARDS - set(hand))))
        return
    assert plan is not None and plan.steps[-1].state == State.A6 and plan.cards == 6


# ------------------------------------------------------------------ brute force
def _sure_by_brute_force(p: bytes, pool: bytes) -> bool:
    mine = classify(p)
    assert mine is not None
    return not any(pattern_beats(classify(q), mine) for q in patterns(pool, len(p)))  # type: ignore[arg-type]


def _six_by_brute_force(hand: bytes, pool: bytes, need: int) -> bool:
    """Some disjoint sure winners of the hand occupy ``need`` cards or more."""
    sure = [set(p) for p in patterns(hand) if _sure_by_brute_force(p, pool)]

    def reach(i: int, used: set[int], total: int) -> bool:
        if total >= need:
            return True
        return any(
            not (sure[j] & used) and reach(j + 1, used | sure[j], total + len(sure[j])) for j in range(i, len(sure))
        )

    return reach(0, set(), 0)


def test_accepts_exactly_when_sure_winners_occupy_six() -> None:
    rng = random.Random(15)
    deck = sorted(NIUJIU_CARDS)
    strong = [c for c in deck if c & 0xF in (13, 9, 5, 8, 10, 12)]
    accepted = rejected = 0
    for _ in range(150):
        # a hand leaning to strong numbers, so that both answers are common
        hand = set(rng.sample(strong, rng.randint(1, 7)))
        hand |= set(rng.sample([c for c in deck if c not in hand], 16 - len(hand)))
        rest = [c for c in deck if c not in hand]
        played = set(rng.sample(rest, rng.choice([0, 0, 6, 12])))  # cards already seen later in a hand
        pool = bytes(sorted(c for c in rest if c not in played))
        h = bytes(sorted(hand))
        occupied = rng.choice([0, 0, 2, 3])
        expected = _six_by_brute_force(h, pool, 6 - occupied)
        plan = plan_for(h, Pool.of(pool), occupied)
        assert (plan is not None) == expected, (h.hex(), pool.hex(), occupied)
        if plan is not None:  # the plan is made of disjoint sure winners of the hand reaching A6
            used = b"".join(s.cards for s in plan.steps)
            assert len(set(used)) == len(used) and set(used) <= hand
            assert all(_sure_by_brute_force(s.cards, pool) for s in plan.steps)
            assert occupied + plan.cards >= 6 and plan.steps[-1].state == State.A6
            accepted += 1
        else:
            rejected += 1
    assert accepted > 30 and rejected > 30


def test_the_plan_prefers_exactly_six() -> None:
    plan = six_must_suffice(cards("HK SK DK CK H9 S9 D9 C2 CA D2 H6 S7 DJ SQ D6 C7"))
    assert plan is not None and plan.cards == 6  # not KKKK + 三牛 (7 cards)
    assert [(s.letter, len(s.cards)) for s in plan.steps] == [(Letter.D, 4), (Letter.B, 2)]  # the liangzi first
    plan = six_must_suffice(cards("HK SK DK CK H5 S5 C2 CA D2 H6 S7 DJ SQ D6 C7 H7"))
    assert plan is not None and [s.letter for s in plan.steps] == [Letter.E]  # 喜包亮 of four Ks: one trick
