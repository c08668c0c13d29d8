"""The matcher (design.md §7.5 匹配器): meets the intentions with the offered action set.

The action set is the one-byte mask (bit ``code`` set = the action may be taken now) and
the concrete options. The first intention whose code is in the mask and whose tiles one
option of that code allows is the action; when none fits (a strategy may want what the
rules do not offer) the matcher falls back to a safe legal action: pass if passing is
allowed, else the first discard the strategy ranked that is offered, else the first option.

>>> from paiju.protocol import Option
>>> from paiju.protocol.mahjong import ActCode
>>> opts = [Option.exactly(ActCode.PONG, b"\\x15\\x15"), Option.exactly(ActCode.PASS)]
>>> want = [Intention(ActCode.CHOW, b"\\x14\\x16"), Intention(ActCode.PONG, b"\\x15\\x15")]
>>> match(want, 0b100100, opts)
(2, b'\\x15\\x15')
>>> match([Intention(ActCode.CHOW, b"\\x14\\x16")], 0b100100, opts)
(5, b'')
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from paiju.bots.mahjong.intentions import Intention
from paiju.protocol import Option
from paiju.protocol.mahjong import ActCode


def allows(mask: int, options: Sequence[Option], code: int, tiles: bytes) -> bool:
    """Whether the action set offers ``code`` with ``tiles`` (a multiset of one option's bytes)."""
    if not (0 <= code < 8 and mask >> code & 1):
        return False
    want = Counter(tiles)
    return any(o.code == code and o.pick == len(tiles) and not want - Counter(o.cards) for o in options)


def match(intentions: Iterable[Intention], mask: int, options: Sequence[Option]) -> tuple[int, bytes]:
    """The action (code, tiles) to take: the first intention offered, else the fallback."""
    ranked = list(intentions)
    for i in ranked:
        if allows(mask, options, i.code, i.tiles):
            return i.code, i.tiles
    return fallback(ranked, mask, options)


def fallback(ranked: Sequence[Intention], mask: int, options: Sequence[Option]) -> tuple[int, bytes]:
    if mask >> ActCode.PASS & 1:
        return int(ActCode.PASS), b""
    for i in ranked:
        if i.code in (ActCode.DISCARD, ActCode.READY) and allows(mask, options, ActCode.DISCARD, i.tiles):
            return int(ActCode.DISCARD), i.tiles
    for o in options:
        if o.code == ActCode.DISCARD:
            return int(ActCode.DISCARD), o.cards[-1:]
    o = options[0]
    return o.code, o.cards[: o.pick]
