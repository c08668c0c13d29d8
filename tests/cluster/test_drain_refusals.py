"""A node drained (SIGTERM) with no other node to take rooms refuses CREATE_ROOM and
QUICK_PLAY on a client's open connection with ERROR SHUTTING_DOWN (paiju/protocol/SPEC.md §7.1).

A lone node drains in a few Redis round trips and exits; this test holds the drain open by
pausing Redis's writes (``CLIENT PAUSE ... WRITE``): the drain's first step, the lease that
says the node drains, waits on it, as it would on a slow Redis. The node's log line
``node N drains`` marks the moment its ``draining`` flag is set.
"""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path

import pytest
import redis.asyncio

from paiju.client import Client, ServerError
from paiju.protocol import CreateRoom, ErrorCode, QuickPlay, RoomState
from paiju.protocol.frames import Frame
from paiju.spec import wire_name
from tests.redis.conftest import RedisServer

from .conftest import redis_server, start_node

__all__ = ["PROVOKED", "redis_server"]

# The errors of SPEC.md §7.1 this test provokes (tests/server/test_spec_conformance.py counts
# them as provoked here): each request is sent and its answer's code compared.
REQUESTS: list[Frame] = [CreateRoom("tricks"), QuickPlay("tricks")]
PROVOKED = {(wire_name(type(f)), int(ErrorCode.SHUTTING_DOWN)) for f in REQUESTS}


async def test_a_lone_draining_node_refuses_new_rooms(redis_server: RedisServer, tmp_path: Path) -> None:
    node = start_node(redis_server, "a", tmp_path)
    ann = await Client.connect(node.url, "ann")  # HELLO done
    r = redis.asyncio.Redis.from_url(redis_server.url)
    try:
        await r.client_pause(4000, all=False)  # ends by itself if the test fails
        os.kill(node.proc.pid, signal.SIGTERM)
        await asyncio.to_thread(node.wait_for, r"node a drains: it takes no more rooms", 10)
        for f in REQUESTS:
            with pytest.raises(ServerError) as refused:
                await ann.request(f, lambda x: isinstance(x, RoomState), timeout=5)
            assert refused.value.code == ErrorCode.SHUTTING_DOWN, (wire_name(type(f)), refused.value)
            assert "no other node takes rooms" in refused.value.error.message
        await r.client_unpause()
        out = await asyncio.to_thread(node.wait, 20)
        assert node.proc.returncode == 0, out[-3000:]
        assert "drained: 0 rooms handed over" in out and "Traceback" not in out, out[-3000:]
    finally:
        await ann.close()
        await r.aclose()
        node.stop()
