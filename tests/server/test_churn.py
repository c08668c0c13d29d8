"""Churn: real clients in every seat of a table of each game drop (abort) and resume at
random, some twice at once, while a spectator watches; every client gets every event once
and in order, its final RESULT and MATCH_END, and the server lets go of everything."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from paiju.bench_churn import churn

from .conftest import Served, serving


@pytest.fixture(scope="module")
def churned() -> Iterator[Served]:
    yield from serving("--hand-pause", "0", "--grace", "30", "--rate", "300", "--burst", "300")


async def test_churn_keeps_every_promise(churned: Served) -> None:
    rep = await churn(churned.url, churned.http, hands=4, tables_at_once=4, hands_per_table=1, p_drop=0.05)
    print(rep)
    assert rep.tables == 4 and rep.drops >= 10 and rep.doubles >= 1, "the churn did churn"
    assert (rep.gaps, rep.duplicates, rep.unfinished, rep.snapshots, rep.leaked_cards) == (0, 0, 0, 0, 0)
    assert rep.leftover == {"connections": 0, "players": 0, "rooms": 0}
