"""SPEC.md cannot drift from the code: its tables are regenerated and compared, its vectors checked."""

from __future__ import annotations

import re

import pytest

from paiju import protocol
from paiju.protocol import FRAMES, ErrorCode, ProtocolError, decode, decode_all, encode
from paiju.spec import SPEC, render

TEXT = SPEC.read_text(encoding="utf-8")
VECTORS = re.findall(r"```vector\n(.+?)\n([0-9a-f ]+)\n```", TEXT)
REJECTS = [
    (line[:30].strip(), int(line[30:].split()[0]))
    for block in re.findall(r"```reject\n(.*?)```", TEXT, re.S)
    for line in block.splitlines()
    if line.strip()
]
BATCHES = re.findall(r"```batch\n(.+?)\n([0-9a-f ]+)\n```", TEXT, re.S)
NAMESPACE = {name: getattr(protocol, name) for name in protocol.__all__}


def test_generated_tables_match_the_code() -> None:
    assert render(TEXT) == TEXT, "run: python -m paiju.spec --write"


def test_every_frame_type_has_a_vector() -> None:
    covered = {type(eval(src, NAMESPACE)).TYPE for src, _ in VECTORS}
    assert covered == set(FRAMES), f"no vector for {sorted(set(FRAMES) - covered)}"


@pytest.mark.parametrize(("source", "hexa"), VECTORS, ids=[s.split("(")[0] for s, _ in VECTORS])
def test_vector(source: str, hexa: str) -> None:
    frame = eval(source, NAMESPACE)
    data = bytes.fromhex(hexa)
    assert encode(frame) == data
    assert decode(data) == frame


@pytest.mark.parametrize(("hexa", "code"), REJECTS, ids=[h for h, _ in REJECTS])
def test_refused_vector(hexa: str, code: int) -> None:
    with pytest.raises(ProtocolError) as e:
        decode(bytes.fromhex(hexa))
    assert e.value.code == code


def test_spec_has_refused_vectors() -> None:
    assert len(REJECTS) >= 10


@pytest.mark.parametrize(("sources", "hexa"), BATCHES)
def test_batch_vector(sources: str, hexa: str) -> None:
    frames = [eval(line, NAMESPACE) for line in sources.splitlines()]
    data = bytes.fromhex(hexa)
    assert len(frames) > 1
    assert b"".join(encode(f) for f in frames) == data
    assert decode_all(data) == frames
    with pytest.raises(ProtocolError) as e:
        decode(data)
    assert e.value.code == ErrorCode.TRAILING_BYTES


def test_spec_has_a_batch_vector() -> None:
    assert BATCHES
