"""The perceptor (design.md §7.5 感知器): turns the seat's view into memory.

A robot is stateless between requests, so the perceptor rebuilds the memory from the view
each time: the view (paiju.protocol.mahjong.View, read through that type) lists the own hand (and the tile just drawn),
every seat's melds and discards, who declared ready and which tiles were thrown after it
declared (``declared_at``), the wall count, and in a claim window
the seat whose discard is on offer (the last tile of its discards). Nothing else is read.

>>> from paiju.protocol.cards import parse_tiles as t
>>> view = {"ruleset": "championship", "dealer": 0, "phase": "claim", "turn": 3, "wall": 40,
...         "hand": t("123m 456m 789m 13p 55s"), "drawn": b"", "counts": [13, 13, 13, 13],
...         "melds": [[], [], [], [{"kind": 1, "tiles": t("999s"), "from": 1}]],
...         "discards": [t("9p"), t("1s"), b"", t("2p")], "ready": [0, 0, 0, 1], "discarder": 3}
>>> m = memory_from_view(1 - 1, view)
>>> m.offer == t("2p")[0], m.offer_from, m.ready, m.unseen[t("9s")[0]], m.unseen[t("2p")[0]]
(True, 3, [False, False, False, True], 1, 3)
"""

from __future__ import annotations

from paiju.bots.mahjong.memory import Meld, Memory
from paiju.bots.memo import trim
from paiju.protocol import DecisionRequest, views
from paiju.protocol.mahjong import MeldKind, View

KINDS = {  # memory's name of each meld kind of the view
    MeldKind.CHOW: "chow",
    MeldKind.PONG: "pong",
    MeldKind.KONG_EXPOSED: "kong",
    MeldKind.KONG_CONCEALED: "concealed kong",
    MeldKind.KONG_ADDED: "kong",
}


def memory_from_view(seat: int, view: View, *, honours: bool | None = None, seven_pairs: bool = True) -> Memory:
    """The memory of ``seat`` from its view."""
    drawn = bytes(view.get("drawn") or b"")
    hand = bytes(view.get("hand") or b"") + drawn
    if honours is None:
        honours = view.get("ruleset") == "classic"
    m = Memory(seat=seat, hand=hand, honours=honours, seven_pairs=seven_pairs)
    m.drawn = drawn[0] if drawn else 0
    m.wall = int(view.get("wall", 0))
    m.dealer = int(view.get("dealer", 0))
    m.ready = [bool(r) for r in view.get("ready", [0, 0, 0, 0])]
    m.discards = [bytes(d) for d in view.get("discards", [b""] * 4)]
    m.melds = [
        [Meld(KINDS[MeldKind(x["kind"])], bytes(x["tiles"]), int(x["from"])) for x in ms]
        for ms in view.get("melds", [[]] * 4)
    ]
    for d in m.discards:
        m.note_seen(d)
    for ms in m.melds:
        for x in ms:
            m.note_seen(x.tiles)  # face-down (0x00) tiles tell nothing
    rivers = list(m.discards)
    if view.get("phase") == "claim" and int(view.get("discarder", -1)) >= 0:
        who = int(view["discarder"])
        if m.discards[who]:
            m.offer = m.discards[who][-1]
            m.offer_from = who
            rivers[who] = rivers[who][:-1]  # the tile on offer has not passed the others yet
    m.passed = [after_declaring(rivers, marks) for marks in view.get("declared_at", [[]] * 4)]
    return m


def after_declaring(discards: list[bytes], marks: list[int]) -> frozenset[int]:
    """The tiles thrown after a seat declared ready (``marks``: each river's length just after
    its declaring discard; a claim takes only the newest tile, so the places stay valid).

    >>> from paiju.protocol.cards import parse_tiles as t, format_tiles as f
    >>> f(bytes(sorted(after_declaring([t("1m 2m"), t("3m 4m 5m"), t("6m"), b""], [2, 1, 1, 0]))))
    '45m'
    """
    if not marks:
        return frozenset()
    return frozenset(t for river, n in zip(discards, marks, strict=True) for t in river[n:])


def perceive(request: DecisionRequest) -> Memory:
    """Memory from a decision request: only ``request.view`` and the ruleset's public options.

    Every mahjong robot's decision starts here, so this is also where the analyses' memos
    are kept to their sizes (:func:`paiju.bots.memo.trim`), once a decision rather than once a call.
    """
    from paiju import games  # the ruleset's options are public rules, not game state

    trim()
    rules = games.get("mahjong").ruleset(request.ruleset or None)
    return memory_from_view(
        request.seat,
        views.read(View, request.view),
        honours=bool(getattr(rules, "honours", False)),
        seven_pairs=bool(getattr(rules, "seven_pairs", True)),
    )
