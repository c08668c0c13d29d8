"""Clients that send but never read, then vanish: the server closes them within ``--stall``
and releases them (connection, player record, memory), so that /healthz counts, RSS and idle
CPU return to their baseline (`paiju bench nonreaders` is the 1,000-client version), the
server run as deploy/ runs it (``PYTHONMALLOC=malloc``), from a cold baseline."""

from __future__ import annotations

import asyncio

import pytest

from paiju.bench.nonreaders import bench, start, within

CLIENTS = 60


@pytest.mark.slow
async def test_clients_that_never_read_are_released() -> None:
    child = start(2.0)
    try:
        fig = await bench(child, CLIENTS, stall=2.0, settle=2.0)
    finally:
        await asyncio.to_thread(child.stop)
    print(fig)
    assert fig["peak"]["connections"] > fig["baseline"]["connections"] + CLIENTS // 2, "they were there at once"
    assert within(fig), "counts at their baseline, RSS and idle CPU within 10 % of it"
