"""What a hand is worth if it wins: its fan, the 报听 bonus and the self-draw bonus.

Design.md §7.4 plays for speed alone; the points of a win are ``fan + ready bonus + self-draw
bonus`` (docs/rules/mahjong.md), and the fan is that of the rarest form the winning hand
makes: basic 1, all pungs 2, full flush 3, seven pairs 4 (championship). A robot that
counts only the hu distance throws away the forms that pay more when they are as near.

For a part waiting for a draw, each paying form has its own distance, read from the same
per-suit tables as the hu distance (``paiju.games.mahjong.tables``):

- **all pungs**: no chow laid down; the best choice of ``n`` pungs and a pair among the
  tiles held (a pung or pair of a tile needs enough copies still to be had);
- **full flush** in a suit: every meld of that suit, and the suit's own best ``n`` sets
  and a pair (``f[n][1]`` of the suit's table) -- every other tile is to be thrown;
- **seven pairs**: the engine's seven-pairs distance (no melds).

:func:`value` is then the points of the best form at the hand's least distance, a form
one tile further counting ``step`` of its extra fan (it may still be reached), plus the
bonuses the robot can expect.

>>> from paiju.protocol.cards import parse_tiles as t
>>> from .memory import Memory
>>> rb = RuleBase(honours=False)
>>> m = Memory(seat=0, hand=t("1122m 5588p 3399s 7s"), honours=False)
>>> forms(m, rb, t("1122m 5588p 3399s 7s"), 0)["seven pairs"], forms(m, rb, t("1234566789m 19p 5s"), 0)["full flush"]
(1, 4)
"""

from __future__ import annotations

from collections import Counter

from paiju.bots.mahjong.memory import Memory
from paiju.bots.mahjong.rulebase import NO_WAY, RuleBase
from paiju.games.mahjong.analysis import form_distances
from paiju.games.mahjong.tables import suit_key, tables


def all_pungs_distance(part: bytes, sets: int, unseen: list[int]) -> int:
    """The distance of ``part`` to ``sets`` pungs and a pair (:data:`NO_WAY` if none can be made).

    >>> from paiju.protocol.cards import parse_tiles as t
    >>> all_pungs_distance(t("111m 222m 33p 44p 55s 9s"), 4, [4] * 0x40)  # two pairs to raise
    2
    """
    have = Counter(part)
    # per tile held: the tiles it keeps as a pung and as a pair (-1: not enough copies left)
    held = [
        (t, min(c, 3) if c + unseen[t] >= 3 else -1, min(c, 2) if c + unseen[t] >= 2 else -1) for t, c in have.items()
    ]
    fresh = sum(1 for t, u in enumerate(unseen) if u >= 3 and t not in have)  # a pung or pair from nothing
    pungs = sorted(((g, t) for t, g, _ in held if g >= 0), reverse=True)
    best = -1
    candidates = [(t, pair) for t, _, pair in held if pair >= 0] + ([(-1, 0)] if fresh else [])
    for t, pair in candidates:
        kept = [g for g, x in pungs if x != t][:sets]
        spare = fresh - (t == -1)
        if len(kept) + max(0, spare) >= sets:
            best = max(best, pair + sum(kept))
    return 3 * sets + 2 - best if best >= 0 else NO_WAY


def flush_distance(part: bytes, sets: int, suit: int) -> int:
    """The distance of ``part`` to ``sets`` sets and a pair all in number ``suit``.

    >>> from paiju.protocol.cards import parse_tiles as t
    >>> flush_distance(t("1234566789m 19p 5s"), 4, 0)  # 123 456 678 9m kept: 4 more 万 to draw
    4
    """
    number, _ = tables()
    ranks = [b & 0xF for b in part if b >> 4 == suit]
    keep = number.vectors[number.entry(suit_key(ranks)) >> 20][1][sets]
    return 3 * sets + 2 - keep if keep >= 0 else NO_WAY


def forms(memory: Memory, rules: RuleBase, part: bytes, melds: int, within: int = NO_WAY) -> dict[str, int]:
    """The distance of ``part`` (this seat's concealed tiles, ``melds`` sets down) to each
    paying form; a flush with more than ``within`` tiles of other suits is not worked out."""
    own = memory.melds[memory.seat]
    sets = 4 - melds
    out = {"seven pairs": NO_WAY, "all pungs": NO_WAY, "full flush": NO_WAY}
    if rules.seven_pairs and melds == 0 and len(part) in (13, 14):
        out["seven pairs"] = form_distances(part)[1]
    if all(m.kind != "chow" for m in own):
        out["all pungs"] = all_pungs_distance(part, sets, memory.unseen)
    suits = {b >> 4 for m in own for b in m.tiles if b}
    per_suit = Counter(b >> 4 for b in part)
    for s in range(3):
        if suits <= {s} and len(part) - per_suit[s] <= within:  # each other tile is one to replace
            out["full flush"] = min(out["full flush"], flush_distance(part, sets, s))
    return out


def fan(memory: Memory, rules: RuleBase, part: bytes, melds: int, distance: int, step: float) -> float:
    """The fan to expect: that of the best form at ``distance`` (the part's least), a form
    one tile further counting ``step`` of what it adds over the basic fan."""
    fans = {"seven pairs": rules.fan_seven_pairs, "all pungs": rules.fan_all_pungs, "full flush": rules.fan_full_flush}
    best = float(rules.fan_basic)
    for name, d in forms(memory, rules, part, melds, distance + 1).items():
        if d <= distance:
            best = max(best, fans[name])
        elif d == distance + 1:
            best = max(best, rules.fan_basic + step * (fans[name] - rules.fan_basic))
    return best


def basic_points(rules: RuleBase) -> float:
    """What :func:`value` gives a basic hand: the unit of the robot's relative value."""
    return rules.fan_basic + rules.ready_bonus + 0.5 * rules.self_draw_bonus


def value(memory: Memory, rules: RuleBase, part: bytes, melds: int, distance: int, step: float = 0.3) -> float:
    """The points the hand ``part`` is worth if it wins: the fan (:func:`fan`), the 报听 bonus
    (counted whole: a robot declares when it gets ready) and half the self-draw bonus."""
    return fan(memory, rules, part, melds, distance, step) + rules.ready_bonus + 0.5 * rules.self_draw_bonus
