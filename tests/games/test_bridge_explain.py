"""Every bridge call explained: the game's incremental reading of the auction gives each call
the promise that the robots' own reading (read_auction) gives it, on auctions the system bids
itself; each call's echo carries its words to every seat (in EVENT's trailing ``text``, left out
when empty), the view holds them for a seat that joins mid-board, the room's log keeps them;
the system card lists every row, escaped."""

from __future__ import annotations

import random

import msgpack

from paiju.core import roomlog
from paiju.games.bridge import Bridge
from paiju.games.bridge.bidding import choose, read_auction, system
from paiju.games.bridge.explain import MAX_TEXT, NOTHING, Reading, words
from paiju.protocol import Event, decode, echo, encode
from paiju.protocol.bridge import ActCode
from paiju.protocol.cards import BRIDGE_CARDS, PASS, parse_call
from paiju.server import systemcard


def _auctions(n: int, seed: int) -> list[tuple[int, list[int]]]:
    """``n`` auctions the system bids in all four seats on random deals (dealer, calls)."""
    rng = random.Random(seed)
    out = []
    for k in range(n):
        deck = sorted(BRIDGE_CARDS)
        rng.shuffle(deck)
        hands = [deck[13 * s : 13 * s + 13] for s in range(4)]
        calls: list[int] = []
        while not (len(calls) >= 4 and calls[-3:] == [PASS] * 3) and len(calls) < 60:
            calls.append(choose(hands[(k + len(calls)) % 4], calls, k % 4)[0])
        out.append((k % 4, calls))
    return out


def test_the_reading_call_by_call_is_read_auctions() -> None:
    """Reading.add (one call at a time, nothing cached) and read_auction (the whole auction
    again) give every call the same rows, context and words: the explanation is what the
    robots understood."""
    calls_seen = 0
    for dealer, calls in _auctions(40, seed=36):
        r = Reading.start(dealer)
        for c in calls:
            r = r.add(c)
        ref = read_auction(tuple(calls), dealer)
        assert [(p.seat, p.call, p.rows, p.ctx) for p in r.promises] == [(p.seat, p.call, p.rows, p.ctx) for p in ref]
        assert r.explained == tuple(words(p) for p in ref)
        assert all(r.explained) and all(len(t) <= MAX_TEXT for t in r.explained)
        calls_seen += len(calls)
    assert calls_seen > 200


def test_words_of_a_call() -> None:
    r = Reading.start(0)
    for call in ("1NT", "P", "2C", "X"):
        r = r.add(parse_call(call))
    assert r.explained[0].startswith("balanced, no five-card major; 13-15 points")
    assert r.explained[1] == NOTHING  # a pass whose row says nothing
    assert "forcing" in r.explained[2]
    assert r.explained[3] == "outside the system: no promise"  # no row doubles Stayman here


def test_every_call_carries_its_meaning_to_every_seat() -> None:
    g = Bridge(7, hand=0)  # board 1: North deals
    events = []
    for call in ("1H", "2C", "P", "P", "X", "P", "P", "P"):
        events += g.call(g.to_act()[0], call)
    echoes = [e for e in events if e.code in {echo(a) for a in (ActCode.BID, ActCode.PASS, ActCode.DOUBLE)}]
    assert [e.text for e in echoes] == list(g.reading.explained) == g.view(None)["explained"]
    assert all(e.text for e in echoes)
    assert "hearts" in echoes[0].text  # 1H: five or more hearts
    for seat in (None, 0, 1, 2, 3):  # public: the same words for every seat and the spectators
        assert [e.seen_by(seat).text for e in echoes] == [e.text for e in echoes]
        assert g.view(seat)["explained"] == g.view(None)["explained"]
    # no other event has words
    assert all(not e.text for e in events if e not in echoes)


def test_event_text_on_the_wire() -> None:
    """EVENT's text is a trailing field: left out when empty (an EVENT as before it existed)."""
    plain = Event("r1", 7, 0x21, 1)
    assert encode(plain) == bytes.fromhex("97 44 a2 72 31 07 21 01 c4 00 00")
    said = Event("r1", 8, 0x20, 0, b"", 0x14, "balanced, no five-card major")
    assert decode(encode(said)) == said
    back = decode(bytes.fromhex("97 44 a2 72 31 07 21 01 c4 00 00"))
    assert isinstance(back, Event) and back.text == ""


def test_the_room_log_keeps_the_words() -> None:
    """A room rebuilt from its log sends each call's words again (an older log's entry has none)."""
    g = Bridge(5, hand=0)
    said = g.call(g.to_act()[0], "1NT")[0]
    head = roomlog.Head("bridge", "standard", 5, 1, 1000, "random", False, False, 0.0)
    old = roomlog.unpack(roomlog.pack(roomlog.Emitted(2, said)))[:-1]
    assert old[-1] is None  # the entry as a log written before the words ends
    log = [
        roomlog.pack(head),
        roomlog.pack(roomlog.Hand(0)),
        roomlog.pack(roomlog.Applied(0, ActCode.BID, bytes([0x14]), 1)),
        roomlog.pack(roomlog.Emitted(1, said)),
        msgpack.packb(old, use_bin_type=True),
    ]
    r = roomlog.replay("r1", log)
    assert [e.event.text for e in r.events] == [said.text, ""]
    assert said.text.startswith("balanced")


def test_the_system_card_lists_every_row_escaped() -> None:
    page = systemcard.page()
    body = page.split("<h2>", 1)[1]
    assert body.count("<tr>") - body.count("<th>") // 5 == len(system())
    made = systemcard._table("demo", "# a <b>demo</b>\n- | 1C | 16+ | | strong & <i>forcing</i>\n", {2})
    assert "&lt;b&gt;demo&lt;/b&gt;" in made and "strong &amp; &lt;i&gt;forcing&lt;/i&gt;" in made
    assert "<i>" not in made and "<b>1♣</b>" in made
