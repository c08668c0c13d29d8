"""paiju.protocol.views: a game's declared view, checked against what the games send and robots read."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from paiju import games
from paiju.games.mahjong import Meld
from paiju.games.testing import random_action
from paiju.protocol import RoomState, decode, encode, views
from paiju.protocol.mahjong import MeldKind
from paiju.protocol.mahjong import View as MahjongView
from paiju.protocol.views import ViewError


def views_of_a_hand(game: str, seed: int) -> list[tuple[int | None, dict[str, Any]]]:
    """Every view of every seat (and of a spectator) along one random hand."""
    g = games.create(game, seed)
    rng = random.Random(seed)
    out = []
    while True:
        out += [(s, g.view(s)) for s in [None, *range(g.num_seats)]]
        if g.is_over:
            return out
        seat = rng.choice(g.to_act())
        g.apply(seat, random_action(g, seat, rng))


@pytest.mark.parametrize("game", games.names())
def test_a_view_off_the_wire_reads_as_its_declared_type(game: str) -> None:
    decl = games.get(game).VIEW
    seen = 0
    for seed in range(3):
        for seat, view in views_of_a_hand(game, seed):
            frame = RoomState("r", game, "", seat, 0, 0, [], [], view)
            wire = decode(encode(frame))
            assert isinstance(wire, RoomState)
            assert views.read(decl, wire.view) == view  # seats inferred from the per-seat arrays
            seen += 1
    assert seen > 30


def mahjong_view() -> dict[str, Any]:
    [(_, view)] = views_of_a_hand("mahjong", 7)[-1:]
    return copy.deepcopy(view)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda v: v.pop("wall"), r"keys \['wall'\] missing"),
        (lambda v: v.update(peek=b""), r"\['peek'\] not declared"),
        (lambda v: v["counts"].pop(), r"view.counts: 3 entries, the declaration says one per seat \(4\)"),
        (lambda v: v.update(phase="waiting"), r"view.phase: 'waiting' is none of"),
        (lambda v: v.update(wall="55"), r"view.wall: int, not str"),
        (lambda v: v.update(wall=True), r"view.wall: int, not bool"),
        (lambda v: v["discards"].__setitem__(0, b"\x99"), r"view.discards\[0\]: bin holds card bytes only"),
        (lambda v: v["result"].pop("winner"), r"view.result: keys \['winner'\] missing"),
        (lambda v: v["melds"][0].append({"kind": 9, "tiles": b"", "from": 0}), r"view.melds\[0\]\[\d+\].kind: 9 is no"),
    ],
)
def test_a_view_that_breaks_its_declaration_is_refused(change: Any, message: str) -> None:
    view = mahjong_view()
    views.check(MahjongView, view, seats=4)
    change(view)
    with pytest.raises(ViewError, match=message):
        views.check(MahjongView, view, seats=4)


def test_per_seat_arrays_agree_when_the_seat_count_is_inferred() -> None:
    view = mahjong_view()
    views.read(MahjongView, view)
    view["ready"] = [0, 0, 0]
    with pytest.raises(ViewError, match=r"view.ready: 3 entries, the declaration says one per seat \(4\)"):
        views.read(MahjongView, view)


def test_every_game_names_its_declaration_and_the_engine_uses_the_declared_meld_kinds() -> None:
    for name in games.names():
        decl = games.get(name).VIEW
        assert decl.__module__ == f"paiju.protocol.{name}" and decl.__name__ == "View"
    assert list(Meld.__dict__[k.name] for k in MeldKind) == list(MeldKind)
