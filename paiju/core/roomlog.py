"""A room's log: its typed entries, their msgpack form, and the replay that rebuilds a room.

A room is ``(seed, rules, [(seat, action)...])``: with ``paiju serve --redis`` each room
appends these entries to its log as it plays (paiju/server/storage.py writes them to Redis); after
a restart :func:`replay` rebuilds the room from them: the game of the current hand with
every action applied in order, the seats and their players (so that resume tokens work),
the running totals, the event sequence number and the last events (so that a client that
resumes with its ``last_seq`` gets exactly what it missed).

The entries, as msgpack arrays (the first is always a :class:`Head`)::

    ["room", 1, game, ruleset, seed, hands, clock_ms, robot, private, quickplay, created, options, robots, bank_ms,
     salt]
    ["seats", [[kind, player_id|nil, name|nil, robot_played], ...]]   after each SEAT/ROBOT event
    ["watchers", [[player_id, name], ...]]        after a spectator comes or goes for good
    ["hand", h]                                   hand h is dealt: create(game, seed, ruleset, hand=h)
    ["act", seat, code, cards, prompt_id]         an action applied (by a person, a robot or the clock)
    ["ev", seq, code, seat|nil, cards, arg, visible_to|nil, result|nil, text?]   an event, as emitted
    ["bank", seat, ms]                            what is left of the seat's time bank in this hand

``options`` (a map, absent in older logs) holds the options of the room's rules that differ from
those of the named ruleset (:func:`rules_options`): a bridge room's deals loaded from PBN, so
that the room rebuilt after a restart plays the same boards. ``robots`` and ``bank_ms`` (the
time bank each seat starts a hand with) are absent when empty or 0 and no ``salt`` follows;
``salt`` (the match's, whose commitment its players got) is absent in older logs. A ``bank`` entry follows
every act of a seat whose prompt drew on its bank, so a rebuilt room keeps what each seat has
left (a seat with no ``bank`` entry since its hand's ``hand`` entry has its whole bank).

The log holds every private card (covered cards, hands, draws): it is for the server only
and never goes to a client (clients get ``GameEvent.seen_by(seat)`` of the ``ev`` entries).

>>> from paiju import games
>>> g = games.create("tricks", 5)
>>> s = g.to_act()[0]
>>> a = g.legal(s).options[0]
>>> head = Head("tricks", g.rules.name, 5, 1, 1000, "random", False, False, 0.0)
>>> log = [pack(head), pack(Hand(0)), pack(Applied(s, a.code, a.cards[: a.pick], 1))]
>>> r = replay("r1", log)
>>> (r.phase.value, r.hand, r.actions, r.prompt_id), r.game.to_act() != [s] or r.game.legal(s) != g.legal(s)
(('playing', 0, 1, 1), True)
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

import msgpack

from paiju import games
from paiju.core.lifecycle import Phase
from paiju.games import Game, GameAction, GameError, GameEvent, Rules
from paiju.protocol import Result, RoomEvent, decode, encode

VERSION = 1


@dataclass(frozen=True)
class Head:
    """The first entry: what the room is (its game, rules, seed and settings)."""

    game: str
    ruleset: str
    seed: int
    hands: int
    clock_ms: int
    robot: str
    private: bool
    quickplay: bool
    created: float
    options: dict[str, Any] = field(default_factory=dict)
    robots: tuple[str | None, ...] = ()  # by seat: a robot seat's own robot (None: ``robot``)
    bank_ms: int = 0  # the time bank of each seat at the start of each hand
    salt: bytes = b""  # the match's salt: its commitment is SHA-256(salt || seed) (paiju/games/fairness.py)


@dataclass(frozen=True)
class SeatRecord:
    kind: int  # SeatKind
    player: str | None
    name: str | None
    stand_in: bool  # a robot stands in for the seat's human for now


@dataclass(frozen=True)
class Seats:
    """Who holds each seat (written after every SEAT or ROBOT event)."""

    seats: tuple[SeatRecord, ...]


@dataclass(frozen=True)
class Watchers:
    """Who watches (connected or away for the grace period), so that a room rebuilt after a
    restart takes its spectators' resumes back; written whenever that set changes."""

    watchers: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Hand:
    """Hand ``hand`` is dealt."""

    hand: int


# Not frozen, with slots (as paiju/core/table.py's outputs): a move makes one of these and one
# or two Emitted, and a frozen dataclass's __init__ costs four times as much. Read only.
@dataclass(slots=True)
class Applied:
    """An action applied for ``seat`` in answer to prompt ``prompt_id``."""

    seat: int
    code: int
    cards: bytes
    prompt_id: int

    def __init__(self, seat: int, code: int, cards: bytes, prompt_id: int) -> None:  # (as paiju.core.messages.Send)
        self.seat = seat
        self.code = code
        self.cards = cards
        self.prompt_id = prompt_id


@dataclass(slots=True)
class Emitted:
    """Event number ``seq`` as emitted (with the RESULT that follows a HAND_END)."""

    seq: int
    event: GameEvent
    result: Result | None = None

    def __init__(self, seq: int, event: GameEvent, result: Result | None = None) -> None:  # (as Applied's)
        self.seq = seq
        self.event = event
        self.result = result


@dataclass(frozen=True)
class Bank:
    """Seat ``seat`` has ``ms`` milliseconds left of its time bank for this hand."""

    seat: int
    ms: int


Entry = Head | Seats | Watchers | Hand | Applied | Emitted | Bank


class LogError(Exception):
    """A log that cannot be replayed (malformed, or an action the rules refuse)."""


def pack(entry: Entry) -> bytes:
    """The msgpack bytes of one entry."""
    data: bytes = msgpack.packb(_plain_entry(entry), use_bin_type=True)
    return data


def _plain_entry(e: Entry) -> list[Any]:
    if isinstance(e, Head):
        return [
            "room",
            VERSION,
            e.game,
            e.ruleset,
            e.seed,
            e.hands,
            e.clock_ms,
            e.robot,
            e.private,
            e.quickplay,
            e.created,
            e.options,
            *([list(e.robots)] if any(e.robots) or e.bank_ms or e.salt else []),
            *([e.bank_ms] if e.bank_ms or e.salt else []),
            *([e.salt] if e.salt else []),
        ]
    if isinstance(e, Seats):
        return ["seats", [[s.kind, s.player, s.name, s.stand_in] for s in e.seats]]
    if isinstance(e, Watchers):
        return ["watchers", [[pid, name] for pid, name in e.watchers]]
    if isinstance(e, Hand):
        return ["hand", e.hand]
    if isinstance(e, Applied):
        return ["act", e.seat, e.code, bytes(e.cards), e.prompt_id]
    if isinstance(e, Bank):
        return ["bank", e.seat, e.ms]
    ev = e.event
    vis = sorted(ev.visible_to) if ev.visible_to is not None else None
    res = encode(e.result) if e.result is not None else None
    return ["ev", e.seq, ev.code, ev.seat, bytes(ev.cards), ev.arg, vis, res, *([ev.text] if ev.text else [])]


def unpack(data: bytes) -> list[Any]:
    """One entry as the plain msgpack array it is stored as (LogError if it is not one)."""
    try:
        v = msgpack.unpackb(data, raw=False, strict_map_key=False)
    except (ValueError, msgpack.UnpackException) as e:  # not msgpack, truncated, trailing bytes
        raise LogError(f"not a log entry: {data[:40]!r} ({type(e).__name__})") from None
    if not isinstance(v, list) or not v or not isinstance(v[0], str):
        raise LogError(f"not a log entry: {data[:40]!r}")
    return v


def rules_options(game: str, rules: Rules) -> dict[str, Any]:
    """The options of ``rules`` that its named ruleset does not already give (msgpack-ready:
    tuples become lists); :func:`rules_from` turns them back into the same rules.

    >>> from paiju.games.bridge.pbn import rules_from_pbn
    >>> r = rules_from_pbn('[Deal "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"]')
    >>> opts = rules_options("bridge", r)
    >>> opts["deals"][0][:12], rules_from("bridge", r.name, opts) == r, rules_options("bridge", r.__class__())
    ('1 N None N:A', True, {})
    """
    base = games.get(game).ruleset(rules.name)
    out: dict[str, Any] = {}
    for f in dataclasses.fields(rules):
        v = getattr(rules, f.name)
        if f.name != "name" and v != getattr(base, f.name):
            out[f.name] = _plain(v)
    return out


def rules_from(game: str, ruleset: str, options: dict[str, Any] | None) -> Rules:
    """The rules a log's head describes: the named ruleset with ``options`` (lists as tuples)."""
    rules: Rules = games.get(game).ruleset(ruleset, **{k: _frozen(v) for k, v in (options or {}).items()})
    return rules


def _plain(v: Any) -> Any:
    return [_plain(x) for x in v] if isinstance(v, (tuple, list)) else v


def _frozen(v: Any) -> Any:
    return tuple(_frozen(x) for x in v) if isinstance(v, list) else v


@dataclass
class Replayed:
    """A room as its log leaves it."""

    room_id: str
    head: Head
    game: Game[Any]
    rules: Rules
    seats: list[SeatRecord] = field(default_factory=list)
    watchers: list[tuple[str, str]] = field(default_factory=list)  # (player id, name)
    phase: Phase = Phase.WAITING
    hand: int = 0  # the hand in play, or the next one after a HAND_END
    seq: int = 0
    totals: list[int] = field(default_factory=list)
    events: list[Emitted] = field(default_factory=list)
    results: list[Result] = field(default_factory=list)
    prompt_id: int = 0  # the highest prompt id in the log
    actions: int = 0
    banks: dict[int, int] = field(default_factory=dict)  # seat -> ms of bank left this hand (absent: all of it)
    logs: dict[int, list[tuple[int, int, bytes]]] = field(default_factory=dict)  # each hand's (seat, code, cards)

    @property
    def game_name(self) -> str:
        return self.head.game

    @property
    def between_hands(self) -> bool:
        """The last hand ended and the next one is not dealt yet."""
        return self.phase is Phase.PLAYING and self.game.is_over and bool(self.results) and not self.results[-1].final


def read_head(room_id: str, data: bytes) -> Head:
    """The :class:`Head` of a log (LogError if its first entry is not one of this version)."""
    head = unpack(data)
    if head[0] != "room" or len(head) < 11 or head[1] != VERSION:
        raise LogError(f"room {room_id}: the log does not start with a room entry of version {VERSION}")
    _, _, game_name, ruleset, seed, hands, clock_ms, robot, private, quickplay, created = head[:11]
    options = head[11] if len(head) > 11 and head[11] else {}
    robots = tuple(head[12]) if len(head) > 12 and head[12] else ()
    bank_ms = int(head[13]) if len(head) > 13 else 0
    salt = bytes(head[14]) if len(head) > 14 else b""
    return Head(
        game_name, ruleset, seed, hands, clock_ms, robot, private, quickplay, created, options, robots, bank_ms, salt
    )


def replay(room_id: str, entries: list[bytes]) -> Replayed:
    """Rebuild the state of room ``room_id`` from its log (LogError if it cannot be)."""
    if not entries:
        raise LogError(f"room {room_id}: empty log")
    head = read_head(room_id, entries[0])
    try:
        rules = rules_from(head.game, head.ruleset, head.options)
        g = games.create(head.game, head.seed, rules, hand=0)
    except (KeyError, ValueError, TypeError) as err:
        raise LogError(f"room {room_id}: {err}") from None
    r = Replayed(room_id, head, g, rules)
    r.totals = [0] * g.num_seats
    for i, data in enumerate(entries[1:], 1):
        e = unpack(data)
        kind = e[0]
        try:
            if kind == "seats":
                r.seats = [SeatRecord(int(k), pid, name, bool(rb)) for k, pid, name, rb in e[1]]
            elif kind == "watchers":
                r.watchers = [(str(pid), str(name)) for pid, name in e[1]]
            elif kind == "hand":
                r.hand = int(e[1])
                r.logs[r.hand] = []
                r.game = games.create(head.game, head.seed, rules, hand=r.hand)
                r.phase = Phase.PLAYING
                r.banks = {}
            elif kind == "act":
                _, seat, code, cards, pid = e
                r.game.apply(seat, GameAction(code, bytes(cards)))
                r.logs.setdefault(r.hand, []).append((seat, code, bytes(cards)))
                r.actions += 1
                r.prompt_id = max(r.prompt_id, int(pid))
            elif kind == "ev":
                _replay_event(r, i, e)
            elif kind == "bank":
                r.banks[int(e[1])] = int(e[2])
            else:
                raise LogError(f"room {room_id}: entry {i} is of unknown kind {kind!r}")
        except GameError as err:
            raise LogError(f"room {room_id}: entry {i} is refused by the rules: {err}") from None
        except (ValueError, TypeError) as err:
            raise LogError(f"room {room_id}: entry {i} is malformed: {err}") from None
    return r


def _replay_event(r: Replayed, i: int, e: list[Any]) -> None:
    _, seq, code, seat, cards, arg, vis, res = e[:8]
    text = str(e[8]) if len(e) > 8 else ""  # the event's words (absent from older logs and wordless events)
    ev = GameEvent(code, seat, bytes(cards), arg, frozenset(vis) if vis is not None else None, text)
    result = decode(res) if res is not None else None
    if result is not None and not isinstance(result, Result):
        raise LogError(f"room {r.room_id}: entry {i} carries a {type(result).__name__}, not a RESULT")
    if seq != r.seq + 1:
        raise LogError(f"room {r.room_id}: entry {i} has seq {seq} after {r.seq}")
    r.seq = seq
    r.events.append(Emitted(seq, ev, result))
    if code == RoomEvent.TIMEOUT:
        r.prompt_id = max(r.prompt_id, int(arg))
    elif code == RoomEvent.HAND_END and result is not None:
        r.results.append(result)
        r.totals = list(result.totals)
        r.hand = int(arg) + 1
    elif code == RoomEvent.MATCH_END:
        r.phase = Phase.OVER
