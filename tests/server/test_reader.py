"""The gate's reader (paiju/server/gate.py's ``Reader``), which takes whole binary messages as
they come in and leaves everything else to websockets: spoken to through a raw socket, frame
by frame, the way no client library would -- a message a byte a write, several in one
write, a message in fragments with a ping between them, a text frame -- the server answers
each message in order; a frame the protocol forbids (unmasked, or over the size limit)
closes the connection with websockets' own code, and the server carries on."""

from __future__ import annotations

import os
import socket
import struct
import time

import pytest

from paiju.protocol import VERSION, Error, ErrorCode, Hello, Ping, Pong, Welcome, decode, encode

from .conftest import Served
from .test_keepalive import silent_peer

BINARY, TEXT, CONT, PING, PONG, CLOSE = 0x2, 0x1, 0x0, 0x9, 0xA, 0x8


def frame(payload: bytes, opcode: int = BINARY, fin: bool = True, masked: bool = True) -> bytes:
    """One WebSocket frame from a client (RFC 6455 §5.2), masked unless told otherwise."""
    n = len(payload)
    b0 = (0x80 if fin else 0) | opcode
    m = 0x80 if masked else 0
    if n < 126:
        head = bytes((b0, m | n))
    elif n < 65536:
        head = struct.pack("!BBH", b0, m | 126, n)
    else:
        head = struct.pack("!BBQ", b0, m | 127, n)
    if not masked:
        return head + payload
    key = os.urandom(4)
    return head + key + bytes(b ^ key[i % 4] for i, b in enumerate(payload))


class Peer:
    """A raw socket that did the handshake: frames in, the server's frames out."""

    def __init__(self, port: int) -> None:
        self.sock = silent_peer(port)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.sock.settimeout(10)
        self.buf = b""

    def read(self) -> tuple[int, bytes]:
        """The next frame from the server: its opcode and payload (b"" once the socket closed)."""
        while True:
            if len(self.buf) >= 2:
                n, at = self.buf[1] & 0x7F, 2
                if n == 126 and len(self.buf) >= 4:
                    n, at = struct.unpack("!H", self.buf[2:4])[0], 4
                elif n == 127 and len(self.buf) >= 10:
                    n, at = struct.unpack("!Q", self.buf[2:10])[0], 10
                if n < 126 and len(self.buf) >= at + n:
                    op, data = self.buf[0] & 0x0F, self.buf[at : at + n]
                    self.buf = self.buf[at + n :]
                    return op, data
            got = self.sock.recv(65536)
            if not got:
                return -1, b""
            self.buf += got

    def frames(self, count: int) -> list[object]:
        """The next ``count`` paiju frames (binary messages; pongs of ours skipped)."""
        out: list[object] = []
        while len(out) < count:
            op, data = self.read()
            assert op != -1, f"closed after {out}"
            if op == BINARY:
                out.append(decode(data))
        return out

    def close_code(self) -> int:
        """The code of the server's close frame (the frames before it skipped)."""
        while True:
            op, data = self.read()
            if op == CLOSE:
                return int(struct.unpack("!H", data[:2])[0])
            assert op != -1, "closed without a close frame"


def hello() -> bytes:
    return encode(Hello(VERSION, "reader"))


def test_a_message_a_byte_a_write(served: Served) -> None:
    p = Peer(served.port)
    for b in frame(hello()):
        p.sock.sendall(bytes([b]))
        time.sleep(0.002)
    assert isinstance(p.frames(1)[0], Welcome)


def test_many_messages_in_one_write_are_answered_in_order(served: Served) -> None:
    p = Peer(served.port)
    p.sock.sendall(frame(hello()) + b"".join(frame(encode(Ping(i))) for i in range(1, 41)))
    got = p.frames(41)
    assert isinstance(got[0], Welcome)
    assert got[1:] == [Pong(i) for i in range(1, 41)]


def test_messages_split_between_writes_anywhere(served: Served) -> None:
    p = Peer(served.port)
    p.sock.sendall(frame(hello()))
    p.frames(1)
    first = frame(encode(Ping(5)))
    data = first + frame(bytes(200)) + frame(encode(Ping(7)))  # the middle one: 2 bytes of length, and garbled
    # cut inside the first header, inside its mask, inside the second's length, in the last payload
    for cut in (1, 3, len(first) + 3, len(data) - 2):
        p.sock.sendall(data[:cut])
        time.sleep(0.02)
        p.sock.sendall(data[cut:])
        pong, refusal, last = p.frames(3)
        assert (pong, last) == (Pong(5), Pong(7)), cut
        assert isinstance(refusal, Error) and refusal.message == "bytes after the frame", refusal


def test_fragments_with_a_ping_between_them(served: Served) -> None:
    p = Peer(served.port)
    msg = hello()
    p.sock.sendall(frame(msg[:3], BINARY, fin=False) + frame(b"are you there", PING) + frame(msg[3:], CONT))
    op, data = p.read()
    assert (op, data) == (PONG, b"are you there")
    assert isinstance(p.frames(1)[0], Welcome)
    p.sock.sendall(frame(encode(Ping(9))))  # whole messages are taken again after a fragmented one
    assert p.frames(1) == [Pong(9)]


def test_a_text_frame_is_refused_and_the_connection_carries_on(served: Served) -> None:
    p = Peer(served.port)
    p.sock.sendall(frame(hello()) + frame(b"hello?", TEXT) + frame(encode(Ping(3))))
    welcome, refusal, pong = p.frames(3)
    assert isinstance(welcome, Welcome)
    assert isinstance(refusal, Error) and refusal.code == ErrorCode.MALFORMED, refusal
    assert pong == Pong(3)


@pytest.mark.parametrize(
    ("bad", "code"),
    [(frame(encode(Ping(1)), masked=False), 1002), (struct.pack("!BBQ", 0x82, 0xFF, 1 << 40), 1009)],
    ids=["unmasked", "too-large"],
)
def test_a_forbidden_frame_closes_with_websockets_code(served: Served, bad: bytes, code: int) -> None:
    p = Peer(served.port)
    p.sock.sendall(frame(hello()))
    p.frames(1)
    p.sock.sendall(bad)
    assert p.close_code() == code
    q = Peer(served.port)  # the server carries on
    q.sock.sendall(frame(hello()) + frame(encode(Ping(2))))
    assert q.frames(2)[1] == Pong(2)
