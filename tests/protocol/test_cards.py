from __future__ import annotations

import pytest

from paiju.protocol import cards as c
from paiju.protocol import codes_in, mask_of


def test_every_tile_round_trips_through_notation() -> None:
    for b in c.MAHJONG_TILES:
        assert c.parse_tiles(c.format_tile(b)) == bytes([b])
    all_tiles = bytes(sorted(c.MAHJONG_TILES))
    assert c.parse_tiles(c.format_tiles(all_tiles)) == all_tiles
    assert len(c.MAHJONG_TILES) == 34


def test_tile_notation_examples() -> None:
    assert c.parse_tiles("5m") == b"\x05"
    assert c.parse_tiles("E") == b"\x31"
    assert c.parse_tiles("1z7z") == b"\x31\x37"
    assert c.parse_tiles("19s 9p C F P") == bytes([0x11, 0x19, 0x29, 0x35, 0x36, 0x37])
    assert c.format_tiles(b"\x00\x01") == "?1m"
    for bad in ("0m", "5x", "8z", "m"):
        with pytest.raises(ValueError):
            c.parse_tiles(bad)


def test_every_card_round_trips() -> None:
    for b in c.BRIDGE_CARDS:
        assert c.parse_card(c.format_card(b)) == bytes([b])
    for b in c.NIUJIU_CARDS:
        assert c.parse_card(c.format_card(b), ace=1) == bytes([b])
    assert len(c.BRIDGE_CARDS) == 52 and len(c.NIUJIU_CARDS) == 48
    assert c.parse_cards("SA H10 d2") == bytes([0x3E, 0x2A, 0x12])
    assert not any(b & 0xF == 4 for b in c.NIUJIU_CARDS)


def test_calls() -> None:
    assert c.parse_call("3NT") == 0x34 and c.parse_call("1c") == 0x10 and c.parse_call("7N") == 0x74
    assert [c.parse_call(x) for x in ("P", "X", "XX")] == [c.PASS, c.DOUBLE, c.REDOUBLE]
    for b in c.BIDS:
        assert c.parse_call(c.format_call(b)) == b
    assert len(c.BIDS) == 35
    for bad in ("8NT", "0C", "1Z", ""):
        with pytest.raises(ValueError):
            c.parse_call(bad)


def test_tricks_cards_follow_the_pack_order() -> None:
    numbers = list(range(1, 53))
    encoded = [c.tricks_card(k) for k in numbers]
    assert encoded == sorted(encoded) and len(set(encoded)) == 52
    assert [c.tricks_number(b) for b in encoded] == numbers
    assert c.tricks_card(1) == 0x02 and c.tricks_card(52) == 0x3E


def test_domains_are_disjoint_from_garbage() -> None:
    assert 0x00 in c.CARD_DOMAIN and 0x3F not in c.ACTION_DOMAIN and 0x80 not in c.ACTION_DOMAIN
    assert c.BIDS <= c.ACTION_DOMAIN


def test_masks() -> None:
    assert mask_of([]) == 0 and mask_of(range(8)) == 255
    assert codes_in(mask_of([1, 6])) == [1, 6]
    with pytest.raises(ValueError):
        mask_of([8])
