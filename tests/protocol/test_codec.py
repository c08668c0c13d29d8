"""The codec: random valid frames round-trip; decode raises nothing but ProtocolError."""

from __future__ import annotations

import random

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paiju.protocol import (
    MAX_FRAME,
    Action,
    ErrorCode,
    Event,
    Ping,
    ProtocolError,
    RoomState,
    batch,
    decode,
    decode_all,
    encode,
)

from .strategies import frames


@settings(max_examples=400, deadline=None)  # the frames of every type, several times each
@given(frames)
def test_random_valid_frames_round_trip(frame: object) -> None:
    data = encode(frame)  # type: ignore[arg-type]
    if len(data) <= MAX_FRAME:
        assert decode(data) == frame


def test_oversize_is_refused_before_parsing() -> None:
    big = encode(RoomState("r", "g", "s", 0, 0, 0, [], [], {"pad": "x" * 1000}))
    data = msgpack.packb([0x44, "r", 1, 1, None, b"", 0, "x" * MAX_FRAME])
    for d in (data, big + b"\x00" * MAX_FRAME):
        with pytest.raises(ProtocolError) as e:
            decode(d)
        assert e.value.code == ErrorCode.TOO_LARGE


def test_trailing_fields_with_defaults_may_be_left_out() -> None:
    assert decode(msgpack.packb([0x07, 5, 0])) == Action(5, 0, b"")
    assert decode(msgpack.packb([0x44, "r", 9, 3])) == Event("r", 9, 3)


@pytest.mark.parametrize(
    ("wire", "code"),
    [
        ([0x08, True], ErrorCode.BAD_FIELD),  # a bool is not an int
        ([0x08, 1.5], ErrorCode.BAD_FIELD),
        ([0x07, 1, 0, "ab"], ErrorCode.BAD_FIELD),  # str where bin is due
        ([0x07, 1, 0, b"\xff"], ErrorCode.BAD_CARD),
        ([0x44, "r", 1, 1, None, bytes([0x74])], ErrorCode.BAD_CARD),  # a bid is not a card
        ([0x43, "r", "g", "s", 0, 0, 0, [], [], {"h": b"\xee"}], ErrorCode.BAD_CARD),  # inside a view
        ([0x43, "r", "g", "s", 0, 0, 0, [], [], {1: 2}], ErrorCode.MALFORMED),  # non-string map key
        ([0x43, "r", "g", "s", 0, 0, 0, [], [], {"f": 1.0}], ErrorCode.BAD_FIELD),
        ([0x01, 1, "x" * 65], ErrorCode.BAD_FIELD),
        ([0x45, "r", 1, 0, 0, 1, [[0, b"", 0, 9]]], ErrorCode.BAD_FIELD),  # option with an extra field
        ([0x45, "r", 1, 0, 0, 1, [5]], ErrorCode.BAD_FIELD),  # option not an array
        ([True], ErrorCode.UNKNOWN_FRAME),
    ],
)
def test_bad_fields_get_their_code(wire: list[object], code: int) -> None:
    with pytest.raises(ProtocolError) as e:
        decode(msgpack.packb(wire, use_bin_type=True))
    assert e.value.code == code


def test_deep_nesting_is_refused() -> None:
    deep: object = 1
    for _ in range(20):
        deep = {"a": deep}
    with pytest.raises(ProtocolError):
        decode(msgpack.packb([0x43, "r", "g", "s", 0, 0, 0, [], [], deep]))
    with pytest.raises(ProtocolError):
        decode(b"\x91" * 5000 + b"\x01")


def test_non_bytes_input_is_refused() -> None:
    with pytest.raises(ProtocolError):
        decode("hello")  # type: ignore[arg-type]


def _mutate(rng: random.Random, data: bytes) -> bytes:
    b = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        op = rng.randrange(4)
        if op == 0 and b:
            b[rng.randrange(len(b))] = rng.randrange(256)
        elif op == 1 and b:
            del b[rng.randrange(len(b)) :]
        elif op == 2:
            b.insert(rng.randrange(len(b) + 1), rng.randrange(256))
        elif b:
            i = rng.randrange(len(b))
            b[i] ^= 1 << rng.randrange(8)
    return bytes(b)


SEEDS = [
    encode(Ping(7)),
    encode(Action(12, 0, b"\x25")),
    encode(Event("room-1", 40, 0x20, 2, b"\x01\x02\x03", 5)),
    encode(RoomState("r", "mahjong", "classic", 1, 9, 0, ["a", None], [0, 3], {"hand": b"\x01\x11", "n": [1, 2]})),
]


def test_fuzz_decode_raises_only_protocol_error() -> None:
    """100,000 random and mutated byte strings: decode returns a frame or raises ProtocolError."""
    rng = random.Random(20261121)
    decoded = refused = 0
    for i in range(100_000):
        if i % 2:
            data = _mutate(rng, rng.choice(SEEDS))
        else:
            data = rng.randbytes(rng.randrange(0, 40))
        try:
            decode(data)
            decoded += 1
        except ProtocolError as e:
            assert 100 <= e.code < 200
            refused += 1
    assert decoded + refused == 100_000
    assert refused > 50_000 and decoded > 100  # both paths are exercised


def _by_reference(data: bytes) -> object:
    """The reference checks alone (paiju.protocol.frames._build), for what decode's fast path must equal."""
    from paiju.protocol.frames import FRAMES, _build, _reject

    try:
        obj = msgpack.unpackb(data, raw=False, strict_map_key=True, ext_hook=_reject)
    except Exception:
        return "undecodable"
    if type(obj) is not list or not obj or type(obj[0]) is not int or obj[0] not in FRAMES:
        return "undecodable"
    try:
        return _build(FRAMES[obj[0]], obj[1:], FRAMES[obj[0]].__name__)
    except ProtocolError as e:
        return e.code
    except RecursionError:
        return "undecodable"


def test_compiled_layouts_accept_and_refuse_as_the_reference_checks() -> None:
    """decode's precompiled fast checks and the reference checks agree on every input: same
    frame, or the same error code (20,000 mutations of valid frames of every type)."""
    import re

    from paiju.spec import SPEC

    seeds = [bytes.fromhex(h) for h in re.findall(r"```vector\n.+?\n([0-9a-f ]+)\n```", SPEC.read_text())]
    rng = random.Random(18)
    agreed = 0
    for _ in range(20_000):
        data = _mutate(rng, rng.choice(seeds))
        ref = _by_reference(data)
        if ref == "undecodable":
            continue
        try:
            got: object = decode(data)
        except ProtocolError as e:
            got = e.code
        assert got == ref, (data.hex(" "), got, ref)
        agreed += 1
    assert agreed > 1_000  # mutations that msgpack still reads: fields of every kind, valid and not


@settings(max_examples=100, deadline=None)
@given(st.lists(frames, min_size=1, max_size=12), st.integers(1, 400))
def test_batches_decode_to_the_frames_sent_one_by_one(sent: list[object], limit: int) -> None:
    """Joined into messages of at most ``limit`` bytes (a longer frame alone), the frames
    decode, message after message, to the same sequence as one frame a message."""
    encoded = [encode(f) for f in sent]  # type: ignore[arg-type]
    messages = batch(encoded, limit)
    assert all(len(m) <= limit or decode_all(m) == [decode(m)] for m in messages)
    assert [f for m in messages for f in decode_all(m)] == [decode(e) for e in encoded] == sent
    assert b"".join(messages) == b"".join(encoded)
    assert len(batch(encoded)) == 1  # within MAX_FRAME: one message


def test_fuzz_decode_all_raises_only_protocol_error() -> None:
    """20,000 mutated batches: decode_all returns frames or raises ProtocolError, and refuses
    a batch whose last frame is cut short (never a silent partial read)."""
    rng = random.Random(20261126)
    refused = 0
    for _ in range(20_000):
        data = _mutate(rng, b"".join(rng.choice(SEEDS) for _ in range(rng.randint(1, 4))))
        try:
            assert decode_all(data)
        except ProtocolError as e:
            assert 100 <= e.code < 200
            refused += 1
    assert refused > 5_000
    whole = encode(Ping(7)) + encode(Ping(8))
    with pytest.raises(ProtocolError):
        decode_all(whole[:-1])
    with pytest.raises(ProtocolError):
        decode_all(b"")
