"""Frames: every message on the wire and on the bus, defined once, encoded as msgpack arrays.

A frame is ``[type, field1, field2, ...]`` in the order of the dataclass fields below.
Cards and other byte strings are msgpack ``bin``; absent values are ``nil``. ``decode``
checks every field against its declared type and range and raises only ProtocolError.

>>> encode(Ping(nonce=7)).hex(" ")
'92 08 07'
>>> decode(bytes.fromhex("92 08 07"))
Ping(nonce=7)
"""

from __future__ import annotations

import dataclasses
import enum
import operator
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import islice
from typing import Annotated, Any, ClassVar, Union, get_args, get_origin, get_type_hints

import msgpack

from paiju.protocol.cards import ACTION_DOMAIN, CARD_DOMAIN
from paiju.protocol.errors import ErrorCode, Moved, PaijuError, ProtocolError

VERSION = 1
MAX_FRAME = 64 * 1024
MAX_VIEW_DEPTH = 8


# ------------------------------------------------------------------ field kinds
@dataclass(frozen=True)
class Range:
    lo: int
    hi: int


@dataclass(frozen=True)
class MaxLen:
    n: int


class _CardBytes:
    domain = CARD_DOMAIN
    name = "card"


class _ActionBytes:
    domain = ACTION_DOMAIN
    name = "card or call"


Cards = Annotated[bytes, _CardBytes]
"""A set of card/tile bytes (each in the union of the games' tables, 0x00 = hidden)."""
ActBytes = Annotated[bytes, _ActionBytes]
"""The bytes of an action or option: cards, tiles, or one bridge call."""
U8 = Annotated[int, Range(0, 0xFF)]
U16 = Annotated[int, Range(0, 0xFFFF)]
U32 = Annotated[int, Range(0, 0xFFFF_FFFF)]
I64 = Annotated[int, Range(-(2**63), 2**63 - 1)]
U64 = Annotated[int, Range(0, 2**63 - 1)]
Seat = Annotated[int, Range(0, 3)]
Name = Annotated[str, MaxLen(64)]
Text = Annotated[str, MaxLen(1024)]
ChatText = Annotated[str, MaxLen(200)]
"""A chat line: 200 characters at most (the room refuses a longer one)."""
LongText = Annotated[str, MaxLen(60_000)]
"""The text of a file sent whole (CREATE_ROOM's PBN deals): generous, yet within MAX_FRAME."""
View = Mapping[str, Any]
"""A game's view: string keys; values nil, bool, int, str, bin (cards only), lists, maps (each
game declares its own in paiju/protocol/<game>.py: paiju.protocol.views)."""

CLIENT, SERVER, BUS = "client", "server", "bus"


@enum.unique
class ChatChannel(enum.IntEnum):
    """Who reads a chat line: the table (players and spectators), or the spectators only."""

    TABLE = 0
    SPECTATORS = 1


@enum.unique
class RematchState(enum.IntEnum):
    """A REMATCH_OFFER frame's state."""

    OFFER = 0
    ACCEPTED = 1
    DECLINED = 2
    EXPIRED = 3


@enum.unique
class Feature(enum.IntEnum):
    """Bits of HELLO's ``features`` (what the client asks for) and WELCOME's (what the server
    grants); a client that sets none gets the protocol as it was without them."""

    BATCH = 1  # a server message may hold several frames, one after the other (SPEC.md §1)
    REMATCH = 2  # the client answers REMATCH_OFFER: after a match its players are offered a rematch


FRAMES: dict[int, type[Frame]] = {}


class Frame:
    """Base of every frame; subclasses are frozen dataclasses registered by ``@frame``."""

    TYPE: ClassVar[int]
    SENDER: ClassVar[str]
    LATER: ClassVar[int] = 0
    """How many trailing fields came to the frame after its first form: ``encode`` leaves
    them out while they hold their defaults, so that a peer that does not use them gets the
    bytes it always did (and one that predates them reads the frame)."""


class Record:
    """Base of the small arrays nested inside frames (an option, a room in a list)."""


_F = typing.TypeVar("_F", bound=type[Frame])
_C = typing.TypeVar("_C", bound=type)


class _Factory:
    def __repr__(self) -> str:
        return "<factory>"


_NO_VALUE: Any = _Factory()  # quick_init's default of a field with a default_factory (as dataclass's)


def quick_init(cls: _C) -> _C:
    """Give the frozen dataclass ``cls`` an ``__init__`` of the same signature that stores the
    fields straight into the new instance's ``__dict__``: the one ``dataclass(frozen=True)``
    writes calls ``object.__setattr__`` a field, and makes an event or a prompt three times
    as costly to build (frames and game events are built on every move). For dataclasses
    without ``__post_init__``, ``InitVar`` or ``init=False`` fields, and without slots.

    >>> @quick_init
    ... @dataclass(frozen=True)
    ... class P:
    ...     x: int
    ...     tags: list[str] = field(default_factory=list)
    >>> P(1), P(2, ["a"]) == P(2, ["a"]), P(3).tags is not P(3).tags
    (P(x=1, tags=[]), True, True)
    """
    if hasattr(cls, "__post_init__") or hasattr(cls, "__slots__"):
        raise TypeError(f"quick_init: {cls.__name__} has __post_init__ or __slots__")
    params, body = [], []
    names: dict[str, Any] = {"_NO_VALUE": _NO_VALUE}
    for f in dataclasses.fields(cls):
        if not f.init or f.kw_only:
            raise TypeError(f"quick_init: {cls.__name__}.{f.name} is keyword-only or not in __init__")
        if f.default is not dataclasses.MISSING:
            names[f"_{f.name}"] = f.default
            params.append(f"{f.name}=_{f.name}")
            body.append(f" _into_[{f.name!r}] = {f.name}")
        elif f.default_factory is not dataclasses.MISSING:
            names[f"_{f.name}"] = f.default_factory
            params.append(f"{f.name}=_NO_VALUE")
            body.append(f" _into_[{f.name!r}] = _{f.name}() if {f.name} is _NO_VALUE else {f.name}")
        else:
            params.append(f.name)
            body.append(f" _into_[{f.name!r}] = {f.name}")
    # The one function of this module written with exec (as ``dataclass`` writes the
    # __init__ it replaces): an __init__ with the class's own signature, which plain Python
    # cannot spell for any class (a ``*args, **kwargs`` closure binds them slower than the
    # dataclass's own). It pays on every move: the pure build's table path, `python -m
    # paiju.bench.compiled table --rounds 25 --skip pure --skip compiled --tree plain=A
    # --tree no-quick-init=B` (A a copy of the package, B the same whose quick_init
    # returns its class unchanged), took 89.1 against 90.6 µs of CPU an action at load 15,
    # and 89.9 against 94.2 in another run: 2-5 % of the sans-I/O move.
    exec(f"def __init__(self, {', '.join(params)}):\n _into_ = self.__dict__\n" + "\n".join(body), names)
    init = names["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    setattr(cls, "__init__", init)  # noqa: B010 - (mypy refuses an assignment to a method)
    return cls


def frame(type_code: int, sender: str) -> typing.Callable[[_F], _F]:
    def register(cls: _F) -> _F:
        if type_code in FRAMES:
            raise ValueError(f"frame type {type_code} used twice")
        cls.TYPE = type_code
        cls.SENDER = sender
        FRAMES[type_code] = cls
        return quick_init(cls)

    return register


# ------------------------------------------------------------------ nested records
@quick_init
@dataclass(frozen=True)
class Option(Record):
    """A legal action: ``code``, bytes, and how many of them to use (``pick``)."""

    code: U8
    cards: ActBytes
    pick: U8

    @classmethod
    def exactly(cls, code: int, cards: bytes = b"") -> Option:
        return cls(code, bytes(cards), len(cards))


@quick_init
@dataclass(frozen=True)
class RoomInfo(Record):
    room: Name
    game: Name
    ruleset: Name
    seats: list[Name | None]  # occupant names, nil = free
    bots: list[Seat]
    spectators: U32
    hands: U32  # hands in the match
    hand: U32  # hands played so far
    status: Name  # "waiting", "playing", "over"


@quick_init
@dataclass(frozen=True)
class SessionInfo(Record):
    """One of an account's sessions (logins), in SESSION_LIST."""

    id: Name  # what SESSIONS ``end`` names
    created: U64  # unix seconds
    expires: U64  # unix seconds
    current: bool  # the session of the connection that asked


# ------------------------------------------------------------------ client -> server
@frame(0x01, CLIENT)
@dataclass(frozen=True)
class Hello(Frame):
    """The first frame of a connection; with a token, resumes an earlier session."""

    version: U16
    name: Name
    token: Text | None = None  # resume token from an earlier WELCOME
    last_seq: U32 | None = None  # last event sequence number seen in the room being resumed
    session: Text | None = None  # an account's session token (from IDENTITY): plays as that account
    features: U32 = 0  # the Feature bits the client asks for

    LATER = 1  # features


@frame(0x02, CLIENT)
@dataclass(frozen=True)
class ListRooms(Frame):
    """Ask for the public rooms (of one game, or all)."""

    game: Name | None = None


@frame(0x03, CLIENT)
@dataclass(frozen=True)
class CreateRoom(Frame):
    """Create a room and take a seat in it (the lowest seat that is not a bot)."""

    game: Name
    ruleset: Name | None = None
    hands: U16 | None = None
    clock_ms: U32 | None = None
    bots: list[Seat] = field(default_factory=list)  # seats filled with robots
    robot: Name | None = None  # robot for those seats (default: the game's best)
    private: bool = False  # private rooms are not listed; join by id
    seed: U64 | None = None
    pbn: LongText | None = None  # bridge: a PBN file whose deals the room plays, in order
    robots: list[Name | None] = field(default_factory=list)  # by seat: a robot seat's own robot (nil: `robot`)


@frame(0x04, CLIENT)
@dataclass(frozen=True)
class Join(Frame):
    """Take a seat in a room, or watch it (first_free: the first free seat, else watch)."""

    LATER = 1  # first_free

    room: Name
    seat: Seat | None = None  # nil = watch as a spectator
    first_free: bool = False  # true: the first free seat (``seat`` ignored), else watch


@frame(0x05, CLIENT)
@dataclass(frozen=True)
class Leave(Frame):
    """Leave a room (a seat in play is then played by a robot)."""

    room: Name


@frame(0x06, CLIENT)
@dataclass(frozen=True)
class QuickPlay(Frame):
    """Join a waiting room of the game, or get one that fills with robots after a short wait."""

    game: Name
    ruleset: Name | None = None


@frame(0x07, CLIENT)
@dataclass(frozen=True)
class Action(Frame):
    """Answer a PROMPT: the prompt's id, an action code and its bytes."""

    prompt_id: U32
    code: U8
    cards: ActBytes = b""


@frame(0x08, CLIENT)
@dataclass(frozen=True)
class Ping(Frame):
    """Keep-alive and round-trip probe; answered by PONG with the same nonce."""

    nonce: U32


@frame(0x09, CLIENT)
@dataclass(frozen=True)
class Account(Frame):
    """Register, log in or log out, after HELLO (op "register", "login" or "logout"); answered
    by IDENTITY."""

    op: Name
    name: Name | None = None
    password: Text | None = None


@frame(0x0A, CLIENT)
@dataclass(frozen=True)
class Say(Frame):
    """A line of the room's chat: a player's to the table, a spectator's to the spectators.

    Answered by the CHAT_LINE that carries it, or ERROR (BAD_FIELD, RATE_LIMITED)."""

    room: Name
    text: ChatText


@frame(0x0B, CLIENT)
@dataclass(frozen=True)
class Mute(Frame):
    """Stop (``on``) or start again hearing the chat lines of the player named ``name``."""

    room: Name
    name: Name
    on: bool = True


@frame(0x0C, CLIENT)
@dataclass(frozen=True)
class RematchAnswer(Frame):
    """A human's answer to the REMATCH_OFFER after a match."""

    room: Name
    accept: bool


@frame(0x0D, CLIENT)
@dataclass(frozen=True)
class SetSeat(Frame):
    """The room's creator, before the match starts, gives a free seat to a robot or opens one.

    ``robot`` true: the free seat ``seat`` is a robot's; false: the robot's seat is free for a
    player. Refused (WRONG_STATE) from anyone else or once the match has started."""

    room: Name
    seat: Seat
    robot: bool


@frame(0x0E, CLIENT)
@dataclass(frozen=True)
class Sessions(Frame):
    """List the sessions (logins) of the account the connection plays as; with ``end``, end
    that one first (an id from SESSION_LIST, or "others": every one but this connection's).
    The connections that played as an ended session are logged out. Answered by SESSION_LIST."""

    end: Name | None = None


# ------------------------------------------------------------------ server -> client
@frame(0x41, SERVER)
@dataclass(frozen=True)
class Welcome(Frame):
    """The answer to HELLO: the player's id and a signed resume token."""

    player_id: Name
    token: Text
    version: U16 = VERSION
    features: U32 = 0  # the Feature bits of HELLO that the server grants

    LATER = 1  # features


@frame(0x42, SERVER)
@dataclass(frozen=True)
class RoomList(Frame):
    """The answer to LIST_ROOMS."""

    rooms: list[RoomInfo]


@frame(0x43, SERVER)
@dataclass(frozen=True)
class RoomState(Frame):
    """Everything the receiver may know of a room, up to event `seq`."""

    room: Name
    game: Name
    ruleset: Name
    seat: Seat | None  # the receiver's seat, nil for a spectator
    seq: U32  # the last event included in this state
    hand: U32
    seats: list[Name | None]
    scores: list[I64]  # running totals of the match
    view: View
    robots: list[Seat] = field(default_factory=list)  # the seats a robot plays now, in order
    commitment: Text = ""  # hex SHA-256 of the match's salt and seed, fixed before its first deal (§8)
    waiting: Text = ""  # why a full room's match has not started yet (its robots' worker), in words; empty: not held

    LATER = 3  # robots, commitment, waiting


@frame(0x44, SERVER)
@dataclass(frozen=True)
class Event(Frame):
    """One thing that happened in a room, as the receiver may see it."""

    room: Name
    seq: U32
    code: U8
    seat: Seat | None = None
    cards: Cards = b""
    arg: I64 = 0
    text: Text = ""  # what the event means in words, when the game says (a bridge call's meaning)

    LATER = 1  # text


@frame(0x45, SERVER)
@dataclass(frozen=True)
class Prompt(Frame):
    """A decision the receiver must take before the clock runs out."""

    room: Name
    prompt_id: U32
    seat: Seat  # the seat the decision is for (bridge: dummy's prompt goes to declarer)
    ms_left: U32  # all the time left, the seat's time bank included
    mask: U8
    options: list[Option]
    bank_ms: U32 = 0  # the part of ms_left that is the seat's time bank for the hand


@frame(0x46, SERVER)
@dataclass(frozen=True)
class Result(Frame):
    """The end of a hand (and, when `final`, of the match)."""

    room: Name
    hand: U32
    scores: list[I64]  # this hand, per seat
    totals: list[I64]  # the match so far, per seat
    hands: list[Cards]  # every seat's hand, revealed
    final: bool  # the match is over
    detail: View = field(default_factory=dict)
    seed: U64 | None = None  # final: the match's seed, revealed (§8, provably fair deals)
    salt: Text = ""  # final: the match's salt in hex, revealed

    LATER = 2  # seed, salt


@frame(0x47, SERVER)
@dataclass(frozen=True)
class Error(Frame):
    """A refusal: nothing was changed; the connection stays open (except SLOW_CONSUMER)."""

    code: U16
    message: Text
    ref_type: U8 | None = None  # type of the offending frame, nil if undecodable
    ref_id: U32 | None = None  # its prompt id (ACTION) or nonce (PING)

    @classmethod
    def refusing(
        cls, err: PaijuError, ref: Frame | None = None, *, ref_type: int | None = None, ref_id: int | None = None
    ) -> Error:
        """The ERROR frame that answers ``ref`` (or an undecodable frame of type ``ref_type``,
        whose prompt id or nonce, when readable, is ``ref_id``) refused with ``err``: the one
        place where a refusal becomes a frame.

        >>> Error.refusing(PaijuError(ErrorCode.NOT_YOUR_TURN, "wait"), Action(7, 0))
        Error(code=300, message='wait', ref_type=7, ref_id=7)
        """
        if ref is not None:
            ref_type = ref.TYPE
        if ref is not None:
            ref_id = getattr(ref, "prompt_id", getattr(ref, "nonce", None))
        return cls(err.code, err.message[:1024], ref_type, ref_id)


@frame(0x48, SERVER)
@dataclass(frozen=True)
class Pong(Frame):
    """The answer to PING."""

    nonce: U32


@frame(0x49, SERVER)
@dataclass(frozen=True)
class Ack(Frame):
    """The action for this prompt is accepted (sent again for a retried ACTION)."""

    prompt_id: U32  # the action for this prompt is accepted (sent again for a retry)


@frame(0x4A, SERVER)
@dataclass(frozen=True)
class Identity(Frame):
    """Who the connection plays as: after WELCOME when HELLO's session is valid, and as the
    answer to ACCOUNT. A new session token comes with register and login: keep it for HELLO."""

    player: Name  # the name the connection plays under
    registered: bool  # an account's name (False: a guest)
    session: Text | None = None


@frame(0x4B, SERVER)
@dataclass(frozen=True)
class Redirect(Frame):
    """The request belongs to another node of the service (several `paiju serve --redis`
    nodes): connect to ``url``, say HELLO with the same token, and send the request again.
    Nothing was changed here. Answers HELLO (a resume whose room lives elsewhere), JOIN,
    CREATE_ROOM and QUICK_PLAY."""

    url: Text  # the WebSocket URL of the node that holds the room (ws://host:port/ws)
    room: Name | None = None  # the room concerned, when there is one
    ref_type: U8 | None = None  # the type of the frame this answers

    @classmethod
    def answering(cls, moved: Moved, ref: Frame | None) -> Redirect:
        """The REDIRECT that answers ``ref``, refused here with ``moved``."""
        return cls(moved.url, moved.room, ref.TYPE if ref is not None else None)


@frame(0x4C, SERVER)
@dataclass(frozen=True)
class ChatLine(Frame):
    """A line of the room's chat, shown as text (never markup); ids increase within a room.

    On joining or resuming, the room's last lines come again: a known id is a duplicate."""

    room: Name
    id: U32
    channel: U8  # ChatChannel: 0 the table, 1 the spectators
    seat: Seat | None  # the speaker's seat (nil: a spectator)
    speaker: Name  # the speaker's name
    text: ChatText


@frame(0x4D, SERVER)
@dataclass(frozen=True)
class RematchOffer(Frame):
    """The rematch offer to each human after a match, and its outcome (state: RematchState).

    OFFER: answer with REMATCH_ANSWER before ``ms_left`` runs out; ACCEPTED: the new match
    follows in ``next_room`` (its ROOM_STATE comes next); DECLINED, EXPIRED: the offer is over."""

    room: Name
    state: U8  # RematchState
    ms_left: U32
    accepted: list[Seat] = field(default_factory=list)  # the seats that accepted so far
    next_room: Name | None = None  # ACCEPTED: the room of the new match
    left: list[Seat] = field(default_factory=list)  # the seats whose player left or dropped during the offer

    LATER = 1  # left


@frame(0x4E, SERVER)
@dataclass(frozen=True)
class Token(Frame):
    """A new resume token for this connection's player, replacing the one it holds, which has
    ended: after LEAVE (the seat session is over) and after an ACCOUNT logout."""

    token: Text


@frame(0x4F, SERVER)
@dataclass(frozen=True)
class SessionList(Frame):
    """The answer to SESSIONS: the account's sessions, the newest first."""

    sessions: list[SessionInfo]


# ------------------------------------------------------------------ bus
@frame(0x81, BUS)
@dataclass(frozen=True)
class DecisionRequest(Frame):
    """A bot seat must decide: everything a human in the seat would see, and the options."""

    room: Name
    game: Name
    ruleset: Name
    seat: Seat
    prompt_id: U32
    deadline_ms: U64  # unix time in milliseconds
    robot: Name
    mask: U8
    options: list[Option]
    view: View  # exactly what a human in this seat would see
    reply_to: Name = ""  # the server process that owns the room


@frame(0x82, BUS)
@dataclass(frozen=True)
class Decision(Frame):
    """A robot's answer to a DECISION_REQUEST."""

    room: Name
    seat: Seat
    prompt_id: U32
    code: U8
    cards: ActBytes = b""


# ------------------------------------------------------------------ the codec
# Each frame and record class gets a layout, compiled once from its type hints: the
# attribute getter that lists its fields in wire order, the converter of each field that
# holds records, and a fast checker per field. ``decode`` runs the fast checkers only;
# when one of them refuses a value, the reference checks below (``_build``/``_check``) run
# instead, to raise the precise ProtocolError, so both paths accept and refuse alike.


class _Invalid(Exception):
    """A fast checker refused a value (the reference checks then say why)."""


_Fast = typing.Callable[[Any], Any]


@dataclass(frozen=True)
class _Layout:
    cls: type
    names: tuple[str, ...]
    fast: tuple[_Fast, ...]  # per field: the value (checked), or _Invalid
    required: int


_LAYOUTS: dict[type, _Layout] = {}


def _layout(cls: type) -> _Layout:
    lay = _LAYOUTS.get(cls)
    if lay is None:
        hints = _hints(cls)
        names = tuple(n for n, _ in hints)
        required = sum(
            1
            for x in dataclasses.fields(cls)
            if x.default is dataclasses.MISSING and x.default_factory is dataclasses.MISSING
        )
        fast = tuple(_fast_of(tp) for _, tp in hints)
        lay = _LAYOUTS[cls] = _Layout(cls, names, fast, required)
    return lay


def _strip(tp: Any) -> tuple[Any, tuple[Any, ...]]:
    """``(type, metadata)`` of a possibly Annotated type."""
    if get_origin(tp) is Annotated:
        base, *m = get_args(tp)
        return base, tuple(m)
    return tp, ()


_ENCODERS: dict[type, typing.Callable[[Any], bytes]] = {}
_Wire = typing.Callable[[Any], Any]


def _encoder(cls: type[Frame]) -> typing.Callable[[Any], bytes]:
    """The encoder of frame class ``cls``, made once from its fields: one ``attrgetter``
    reads them in wire order, the fields that hold records are turned into arrays, and the
    LATER fields are left out while they hold their defaults (:attr:`Frame.LATER`).

    >>> _encoder(Event)(Event("r", 1, 2, None)).hex(" ")  # text, the LATER field, left out
    '97 44 a1 72 01 02 c0 c4 00 00'
    >>> _encoder(Prompt)(Prompt("r", 3, 0, 100, 1, [Option(0, b"\\x01", 1)])).hex(" ")
    '98 45 a1 72 03 00 64 01 91 93 00 c4 01 01 01 00'
    """
    hints = _hints(cls)
    get = _getter(tuple(n for n, _ in hints))
    wire = tuple((i + 1, w) for i, (_, tp) in enumerate(hints) if (w := _wire(tp)) is not None)
    later = tuple(
        x.default if x.default_factory is dataclasses.MISSING else x.default_factory()
        for x in dataclasses.fields(typing.cast(Any, cls))[len(hints) - cls.LATER :]
    )
    least = 1 + len(hints) - len(later)  # the values always sent, the type included
    t, full = cls.TYPE, 1 + len(hints)
    pack: typing.Callable[[list[Any]], bytes] = _PACKER.pack
    one = operator.attrgetter(hints[0][0] if hints else "__class__")

    def encode_one(f: Any) -> bytes:  # (an attrgetter of one name gives no tuple)
        return pack([t, one(f)])

    def encode_plain(f: Any) -> bytes:
        return pack([t, *get(f)])

    def encode_later(f: Any) -> bytes:
        v = [t, *get(f)]
        if v[-1] != later[-1]:
            return pack(v)
        n = full - 1
        while n > least and v[n - 1] == later[n - 1 - least]:
            n -= 1
        return pack(v[:n])

    def encode_records(f: Any) -> bytes:
        v = [t, *get(f)]
        for i, w in wire:
            v[i] = w(v[i])
        n = full
        while n > least and v[n - 1] == later[n - 1 - least]:
            n -= 1
        return pack(v if n == full else v[:n])

    enc = encode_records if wire else encode_later if later else encode_one if len(hints) == 1 else encode_plain
    _ENCODERS[cls] = enc
    return enc


def _getter(names: tuple[str, ...]) -> typing.Callable[[Any], tuple[Any, ...]]:
    """The values of fields ``names`` of an object, as a tuple (msgpack writes it as an array)."""
    if len(names) == 1:
        one = operator.attrgetter(names[0])
        return lambda obj: (one(obj),)
    if not names:
        return lambda obj: ()
    return operator.attrgetter(*names)


def _wire(tp: Any) -> _Wire | None:
    """What puts a value of type ``tp`` on the wire: None when the value goes as it is (no
    records inside), else a function (a record goes as an array of its fields)."""
    tp, _ = _strip(tp)
    origin = get_origin(tp)
    if origin in (Union, types.UnionType):
        (inner,) = [a for a in get_args(tp) if a is not type(None)]
        w = _wire(inner)
        return None if w is None else (lambda v: None if v is None else w(v))
    if origin is list:
        each = _wire(get_args(tp)[0])
        return None if each is None else (lambda v: [each(x) for x in v])
    if isinstance(tp, type) and issubclass(tp, Record):
        hints = _hints(tp)
        get = _getter(tuple(n for n, _ in hints))
        inner = tuple((i, w) for i, (_, t) in enumerate(hints) if (w := _wire(t)) is not None)
        if not inner:
            return get

        def record(r: Any) -> list[Any]:
            v = list(get(r))
            for i, w in inner:
                v[i] = w(v[i])
            return v

        return record
    return None


def _fast_of(tp: Any) -> _Fast:
    """The fast checker of a field of type ``tp``: returns the value, raises _Invalid."""
    tp, meta = _strip(tp)
    origin = get_origin(tp)
    if origin in (Union, types.UnionType):
        (inner,) = [a for a in get_args(tp) if a is not type(None)]
        f = _fast_of(inner)
        return lambda v: None if v is None else f(v)
    if tp is bool:

        def is_bool(v: Any) -> Any:
            if type(v) is not bool:
                raise _Invalid
            return v

        return is_bool
    if tp is int:
        (r,) = [m for m in meta if isinstance(m, Range)]
        lo, hi = r.lo, r.hi

        def is_int(v: Any) -> Any:
            if type(v) is not int or not lo <= v <= hi:
                raise _Invalid
            return v

        return is_int
    if tp is str:
        (n,) = [m for m in meta if isinstance(m, MaxLen)]
        most = n.n

        def is_str(v: Any) -> Any:
            if type(v) is not str or len(v) > most:
                raise _Invalid
            return v

        return is_str
    if tp is bytes:
        allowed = next((_ALLOWED[m] for m in meta if m in _ALLOWED), None)

        def is_bytes(v: Any) -> Any:
            if type(v) is not bytes or (allowed is not None and v.translate(None, allowed)):
                raise _Invalid
            return v

        return is_bytes
    if origin is list:
        inner = _fast_of(get_args(tp)[0])

        def is_list(v: Any) -> Any:
            if type(v) is not list:
                raise _Invalid
            return [inner(i) for i in v]

        return is_list
    if origin is Mapping:

        def is_view(v: Any) -> Any:
            if not _view_ok(v, 0):
                raise _Invalid
            return v

        return is_view
    if isinstance(tp, type) and issubclass(tp, Record):
        lay = _layout(tp)

        def is_record(v: Any) -> Any:
            if type(v) is not list or not lay.required <= len(v) <= len(lay.fast):
                raise _Invalid
            return lay.cls(*[f(x) for f, x in zip(lay.fast, v, strict=False)])

        return is_record
    raise TypeError(f"no codec rule for {tp!r}")


# the bytes each byte-string kind may hold, for bytes.translate(None, allowed): what is
# left after deleting them is exactly the bytes outside the domain
_ALLOWED = {_CardBytes: bytes(sorted(CARD_DOMAIN)), _ActionBytes: bytes(sorted(ACTION_DOMAIN))}
_CARDS = _ALLOWED[_CardBytes]
_INT64 = (-(2**63), 2**64)


def _view_ok(v: Any, depth: int) -> bool:
    """Whether ``_check_view`` accepts ``v`` (the same rules, without building paths)."""
    if depth > MAX_VIEW_DEPTH:
        return False
    t = type(v)
    if t is dict:
        return all(type(k) is str and _view_ok(x, depth + 1) for k, x in v.items())
    if t is list:
        return all(_view_ok(x, depth + 1) for x in v)
    if t is bytes:
        return not v.translate(None, _CARDS)
    if t is int:
        return bool(_INT64[0] <= v < _INT64[1])
    return v is None or t is bool or t is str


def encode(f: Frame) -> bytes:
    """The msgpack bytes of a frame (``[type, *fields]``)."""
    enc = _ENCODERS.get(type(f)) or _encoder(type(f))
    return enc(f)


_PACKER = msgpack.Packer(use_bin_type=True)  # one for every encode (msgpack.packb makes one a call)


def _reject(data: Any) -> Any:
    raise ValueError("ext types are not used")


def decode(data: bytes) -> Frame:
    """Decode one frame; raises ProtocolError (and nothing else) for any bad input."""
    try:
        _check_size(data)
        try:
            obj = msgpack.unpackb(data, raw=False, strict_map_key=True, ext_hook=_reject)
        except msgpack.ExtraData:
            raise ProtocolError(ErrorCode.TRAILING_BYTES, "bytes after the frame") from None
        except Exception as e:
            raise ProtocolError(ErrorCode.MALFORMED, f"not msgpack: {type(e).__name__}") from None
        return _frame_of(obj)
    except ProtocolError:
        raise
    except RecursionError:
        raise ProtocolError(ErrorCode.MALFORMED, "nested too deeply") from None
    except Exception as e:  # a bug in the checks below must still honour the contract
        raise ProtocolError(ErrorCode.MALFORMED, f"undecodable: {type(e).__name__}") from None


def decode_all(data: bytes) -> list[Frame]:
    """Decode one message of a connection granted :attr:`Feature.BATCH`: one or more frames,
    one after the other (a single frame is a batch of one); ProtocolError for any bad input.

    >>> (message,) = batch([encode(Ping(1)), encode(Ping(2))])
    >>> decode_all(message)
    [Ping(nonce=1), Ping(nonce=2)]
    """
    try:
        _check_size(data)
        u = msgpack.Unpacker(raw=False, strict_map_key=True, ext_hook=_reject, max_buffer_size=len(data) or 1)
        u.feed(data)
        objs = []
        end = 0  # where the last whole frame ends (tell() moves on over a partial one too)
        try:
            for obj in u:
                objs.append(obj)
                end = u.tell()
        except Exception as e:
            raise ProtocolError(ErrorCode.MALFORMED, f"not msgpack: {type(e).__name__}") from None
        if not objs or end != len(data):
            raise ProtocolError(ErrorCode.MALFORMED, "not msgpack: a frame is cut short")
        return [_frame_of(obj) for obj in objs]
    except ProtocolError:
        raise
    except RecursionError:
        raise ProtocolError(ErrorCode.MALFORMED, "nested too deeply") from None
    except Exception as e:
        raise ProtocolError(ErrorCode.MALFORMED, f"undecodable: {type(e).__name__}") from None


def batch(frames: list[bytes], limit: int = MAX_FRAME) -> list[bytes]:
    """Encoded frames joined into as few messages as keep each within ``limit`` bytes (a
    frame longer than that travels alone), in order: what a connection granted
    :attr:`Feature.BATCH` is sent.

    >>> [m.hex(" ") for m in batch([encode(Ping(1)), encode(Ping(2)), encode(Ping(3))], limit=6)]
    ['92 08 01 92 08 02', '92 08 03']
    """
    if len(frames) == 1:
        return frames
    if frames and sum(map(len, frames)) <= limit:  # (nearly always: a move's frames are a few hundred bytes)
        return [b"".join(frames)]
    out: list[bytes] = []
    group: list[bytes] = []
    size = 0
    for f in frames:
        if size + len(f) > limit and group:
            out.append(b"".join(group))
            group, size = [], 0
        group.append(f)
        size += len(f)
    if group:
        out.append(b"".join(group) if len(group) > 1 else group[0])
    return out


def _check_size(data: Any) -> None:
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise ProtocolError(ErrorCode.MALFORMED, "a frame is bytes")
    if len(data) > MAX_FRAME:
        raise ProtocolError(ErrorCode.TOO_LARGE, f"frame of {len(data)} bytes exceeds {MAX_FRAME}")


def _frame_of(obj: Any) -> Frame:
    """The frame that the unpacked msgpack value ``obj`` is (ProtocolError: none)."""
    if type(obj) is not list or not obj:
        raise ProtocolError(ErrorCode.MALFORMED, "a frame is a non-empty array")
    t = obj[0]
    if type(t) is not int or t not in FRAMES:
        raise ProtocolError(ErrorCode.UNKNOWN_FRAME, f"unknown frame type {t!r}")
    cls = FRAMES[t]
    try:
        return (_READERS.get(cls) or _reader(cls))(obj)
    except _Invalid:
        return _build(cls, obj[1:], cls.__name__)  # type: ignore[no-any-return]  # raises the precise error


_READERS: dict[type, typing.Callable[[list[Any]], Frame]] = {}


def _reader(cls: type[Frame]) -> typing.Callable[[list[Any]], Frame]:
    """The fast reader of frame class ``cls``: the frame from its unpacked array, each field
    through its fast checker, or _Invalid (after which the reference checks say why).

    >>> _reader(Action)([7, 3, 1, b"\\x01"])
    Action(prompt_id=3, code=1, cards=b'\\x01')
    >>> _reader(Action)([7, 3, 256])
    Traceback (most recent call last):
    paiju.protocol.frames._Invalid
    """
    lay = _layout(cls)
    fast, least, most = lay.fast, lay.required + 1, len(lay.fast) + 1

    def read(o: list[Any]) -> Frame:
        if not least <= len(o) <= most:
            raise _Invalid
        return cls(*map(operator.call, fast, islice(o, 1, None)))

    _READERS[cls] = read
    return read


_HINTS: dict[type, list[tuple[str, Any]]] = {}


def _hints(cls: type) -> list[tuple[str, Any]]:
    if cls not in _HINTS:
        h = get_type_hints(cls, include_extras=True)
        _HINTS[cls] = [(x.name, h[x.name]) for x in dataclasses.fields(cls)]
    return _HINTS[cls]


def field_types(cls: type) -> list[tuple[str, Any]]:
    """``[(name, annotated type)]`` of a frame or record, in wire order (used by tests, SPEC)."""
    return _hints(cls)


def _build(cls: type, values: list[Any], where: str) -> Any:
    hints = _hints(cls)
    required = sum(
        1
        for x in dataclasses.fields(cls)
        if x.default is dataclasses.MISSING and x.default_factory is dataclasses.MISSING
    )
    if not required <= len(values) <= len(hints):
        raise ProtocolError(ErrorCode.BAD_FIELD, f"{where} takes {required}..{len(hints)} fields, not {len(values)}")
    kwargs = {name: _check(tp, v, f"{where}.{name}") for (name, tp), v in zip(hints, values, strict=False)}
    return cls(**kwargs)


def _check(tp: Any, v: Any, where: str) -> Any:
    meta: tuple[Any, ...] = ()
    if get_origin(tp) is Annotated:
        tp, *m = get_args(tp)
        meta = tuple(m)
    origin = get_origin(tp)
    if origin in (Union, types.UnionType):
        args = get_args(tp)
        if v is None and type(None) in args:
            return None
        (inner,) = [a for a in args if a is not type(None)]
        return _check(inner, v, where)
    if tp is bool:
        if type(v) is not bool:
            raise _bad(where, "a bool", v)
        return v
    if tp is int:
        if type(v) is not int:
            raise _bad(where, "an int", v)
        for m in meta:
            if isinstance(m, Range) and not m.lo <= v <= m.hi:
                raise ProtocolError(ErrorCode.BAD_FIELD, f"{where} = {v} is outside {m.lo}..{m.hi}")
        return v
    if tp is str:
        if type(v) is not str:
            raise _bad(where, "a string", v)
        for m in meta:
            if isinstance(m, MaxLen) and len(v) > m.n:
                raise ProtocolError(ErrorCode.BAD_FIELD, f"{where} is longer than {m.n}")
        return v
    if tp is bytes:
        if type(v) is not bytes:
            raise _bad(where, "bin", v)
        for m in meta:
            if m in (_CardBytes, _ActionBytes):
                _check_cards(v, m.domain, m.name, where)
        return v
    if origin is list:
        if type(v) is not list:
            raise _bad(where, "an array", v)
        (inner,) = get_args(tp)
        return [_check(inner, i, f"{where}[{k}]") for k, i in enumerate(v)]
    if origin is Mapping:
        return _check_view(v, where, 0)
    if isinstance(tp, type) and issubclass(tp, Record):
        if type(v) is not list:
            raise _bad(where, "an array", v)
        return _build(tp, v, where)
    raise ProtocolError(ErrorCode.BAD_FIELD, f"{where}: no rule for {tp!r}")


def _check_cards(v: bytes, domain: frozenset[int], name: str, where: str) -> None:
    for i, b in enumerate(v):
        if b not in domain:
            raise ProtocolError(ErrorCode.BAD_CARD, f"{where}[{i}] = 0x{b:02x} is not a {name} byte")


def _check_view(v: Any, where: str, depth: int) -> Any:
    if depth > MAX_VIEW_DEPTH:
        raise ProtocolError(ErrorCode.BAD_FIELD, f"{where} nests deeper than {MAX_VIEW_DEPTH}")
    if type(v) is dict:
        for k, x in v.items():
            if type(k) is not str:
                raise _bad(where, "string keys", k)
            _check_view(x, f"{where}.{k}", depth + 1)
        return v
    if type(v) is list:
        for i, x in enumerate(v):
            _check_view(x, f"{where}[{i}]", depth + 1)
        return v
    if type(v) is bytes:
        _check_cards(v, CARD_DOMAIN, "card", where)
        return v
    if v is None or type(v) in (bool, str):
        return v
    if type(v) is int:
        if not -(2**63) <= v < 2**64:
            raise _bad(where, "a 64-bit int", v)
        return v
    raise _bad(where, "nil, bool, int, str, bin, array or map", v)


def _bad(where: str, expected: str, v: Any) -> ProtocolError:
    return ProtocolError(ErrorCode.BAD_FIELD, f"{where} must be {expected}, not {type(v).__name__}")


def type_name(tp: Any) -> str:
    """The SPEC.md name of a field type: ``u8``, ``seat``, ``name?``, ``[Option]``, ``cards`` ..."""
    meta: tuple[Any, ...] = ()
    if get_origin(tp) is Annotated:
        tp, *m = get_args(tp)
        meta = tuple(m)
    origin = get_origin(tp)
    if origin in (Union, types.UnionType):
        (inner,) = [a for a in get_args(tp) if a is not type(None)]
        return type_name(inner) + "?"
    if tp is int:
        (r,) = [m for m in meta if isinstance(m, Range)]
        return _INT_NAMES[(r.lo, r.hi)]
    if tp is str:
        (n,) = [m for m in meta if isinstance(m, MaxLen)]
        return {64: "name", 200: "chattext", 1024: "text", 60_000: "longtext"}[n.n]
    if tp is bool:
        return "bool"
    if tp is bytes:
        return "cards" if _CardBytes in meta else "actbytes"
    if origin is list:
        return f"[{type_name(get_args(tp)[0])}]"
    if origin is Mapping:
        return "view"
    if isinstance(tp, type) and issubclass(tp, Record):
        return tp.__name__
    raise TypeError(f"no SPEC name for {tp!r}")


_INT_NAMES = {
    (0, 0xFF): "u8",
    (0, 0xFFFF): "u16",
    (0, 0xFFFF_FFFF): "u32",
    (-(2**63), 2**63 - 1): "i64",
    (0, 2**63 - 1): "u64",
    (0, 3): "seat",
}


def describe(cls: type) -> list[tuple[str, str, str]]:
    """``[(field, SPEC type name, default)]`` of a frame or record, as SPEC.md tables list them."""
    out = []
    for x, (name, tp) in zip(dataclasses.fields(cls), field_types(cls), strict=True):
        if x.default is not dataclasses.MISSING:
            d = x.default
            if d is None:
                default = "nil"
            elif isinstance(d, bool):
                default = str(d).lower()
            elif isinstance(d, (bytes, str)) and not d:
                default = "empty"
            else:
                default = repr(d)
        elif x.default_factory is not dataclasses.MISSING:
            default = "[]" if x.default_factory is list else "{}"
        else:
            default = "required"
        out.append((name, type_name(tp), default))
    return out
