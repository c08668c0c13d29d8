"""Game views, declared once: what one seat (or a spectator) may know, as a typed map.

Each game declares its view in ``paiju/protocol/<game>.py`` as a :class:`typing.TypedDict` named
``View`` (the keys a view may lack — mahjong's end-of-hand keys — in a ``total=False``
subclass), with a comment on each field saying what it means. A view is a plain ``dict`` at run time, so the declaration
changes nothing on the wire; it is the one statement of the shape that the rest reads:

- the games build their views as these types (mypy checks the keys and value types);
- :func:`check` tests a value against its declaration — keys, msgpack types, card-only
  ``bin`` values, and the declared shape: a :data:`PerSeat` array has one entry per seat,
  an array marked ``Length(n)`` has n; with ``ordered``, each map's keys in the declared
  order too (the conformance kit runs it on every view of its random games);
- :func:`read` gives a robot the view of a DECISION_REQUEST as its declared type, checked;
- :func:`table` writes the view's table in SPEC.md (``python -m paiju.spec``).

>>> from typing import TypedDict
>>> class Demo(TypedDict):
...     hand: bytes  # the seat's cards
...     counts: PerSeat[int]  # cards in each hand
>>> check(Demo, {"hand": b"\\x12", "counts": [1, 0]}, seats=2)
>>> check(Demo, {"hand": b"\\x12", "counts": [1]}, seats=2)
Traceback (most recent call last):
...
paiju.protocol.views.ViewError: view.counts: 1 entries, the declaration says one per seat (2)
>>> check(Demo, {"counts": [1, 0], "hand": b"\\x12"}, seats=2, ordered=True)
Traceback (most recent call last):
...
paiju.protocol.views.ViewError: view: keys ['counts', 'hand'], declared in the order ['hand', 'counts']
"""

from __future__ import annotations

import ast
import functools
import inspect
import re
import sys
import textwrap
import types
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import IntEnum
from typing import (
    Annotated,
    Any,
    Literal,
    NotRequired,
    Required,
    TypeVar,
    Union,
    cast,
    get_args,
    get_origin,
    get_type_hints,
    is_typeddict,
)

from paiju.protocol.cards import CARD_DOMAIN

T = TypeVar("T")
V = TypeVar("V")


@dataclass(frozen=True)
class Length:
    """An array's declared length: a number, or ``"seats"`` for one entry per seat."""

    n: int | Literal["seats"]


PerSeat = Annotated[list[T], Length("seats")]
"""An array with one entry per seat, in seat order."""


class ViewError(ValueError):
    """A view that does not match its declaration."""


@functools.cache
def _ordered(decl: type) -> dict[str, Any]:
    """The declared fields of a view type, in their order, with their types (``Annotated`` kept)."""
    hints = get_type_hints(decl, sys.modules[decl.__module__].__dict__, include_extras=True)
    return {k: hints[k] for k in decl.__annotations__}


def check(decl: type, value: Any, *, seats: int | None, where: str = "view", ordered: bool = False) -> None:
    """Raise :class:`ViewError` unless ``value`` is a ``decl`` for a game of ``seats`` seats
    (None: as many as its first per-seat array has, the same in all of them); with
    ``ordered``, unless every map's keys also come in their declared order (SPEC.md §6)."""
    try:
        _checker(decl, ordered)(value, [-1 if seats is None else seats])
    except _Mismatch as e:
        raise ViewError(f"{where}{''.join(reversed(e.path))}: {e.problem}") from None


def read(decl: type[V], value: Mapping[str, Any], *, seats: int | None = None) -> V:
    """``value`` (a view off the wire: a DECISION_REQUEST's) as its declared type, checked."""
    check(decl, value, seats=seats)
    return cast(V, value)


def _unwrap(tp: Any) -> Any:
    """``tp`` without ``Required[...]`` / ``NotRequired[...]`` (they say whether a key must be there)."""
    while get_origin(tp) in (Required, NotRequired):
        (tp,) = get_args(tp)
    return tp


def _bases(decl: type) -> list[type]:
    """``decl`` and the view types it extends, the most basic first."""
    out = [decl]
    try:  # Python 3.11 keeps no record of a TypedDict's bases: read them from the class statement
        node = ast.parse(textwrap.dedent(inspect.getsource(decl))).body[0]
    except OSError:
        return out  # declared with TypedDict(...): no bases
    module = vars(sys.modules[decl.__module__])
    for b in node.bases if isinstance(node, ast.ClassDef) else []:
        base = module.get(b.id) if isinstance(b, ast.Name) else None
        if base is not None and is_typeddict(base):
            out = _bases(base) + out
    return out


class _Mismatch(Exception):
    """Where (built up as it unwinds) and what: turned into a ViewError by :func:`check`."""

    def __init__(self, problem: str) -> None:
        self.problem = problem
        self.path: list[str] = []


_Check = Callable[[Any, list[int]], None]  # value, [seat count, or -1 until known]


def _within(step: str, check: _Check, v: Any, seats: list[int]) -> None:
    try:
        check(v, seats)
    except _Mismatch as e:
        e.path.append(step)
        raise


def _of_type(t: type, name: str) -> _Check:
    def check(v: Any, seats: list[int]) -> None:
        if type(v) is not t:
            raise _Mismatch(f"{name}, not {type(v).__name__}")

    return check


@functools.cache
def _checker(tp: Any, ordered: bool = False) -> _Check:
    """A function that checks a value against ``tp`` (made once per declared type: the
    conformance kit checks every view of thousands of games)."""
    tp = _unwrap(tp)
    length: int | Literal["seats"] | None = None
    if get_origin(tp) is Annotated:
        tp, *meta = get_args(tp)
        length = next((m.n for m in meta if isinstance(m, Length)), None)
    origin = get_origin(tp)
    if is_typeddict(tp):
        declared = {k: _checker(t, ordered) for k, t in _ordered(tp).items()}
        order = tuple(declared)
        required = tp.__required_keys__

        def check_map(v: Any, seats: list[int]) -> None:
            if type(v) is not dict:
                raise _Mismatch(f"a map, not {type(v).__name__}")
            if not required <= v.keys() <= declared.keys():
                missing, extra = sorted(required - v.keys()), sorted(v.keys() - declared.keys())
                raise _Mismatch(f"keys {missing} missing, {extra} not declared")
            if ordered and tuple(v) != order and list(v) != [k for k in order if k in v]:
                raise _Mismatch(f"keys {list(v)}, declared in the order {[k for k in order if k in v]}")
            for k, x in v.items():
                try:
                    declared[k](x, seats)
                except _Mismatch as e:
                    e.path.append(f".{k}")
                    raise

        return check_map
    if origin in (Union, types.UnionType):
        alts = [_checker(a, ordered) for a in get_args(tp)]

        def check_union(v: Any, seats: list[int]) -> None:
            problems = []
            for alt in alts:
                try:
                    alt(v, seats)
                    return
                except _Mismatch as e:
                    problems.append(e.problem)
            raise _Mismatch(" or ".join(problems))

        return check_union
    if origin is Literal:
        values = get_args(tp)

        def check_literal(v: Any, seats: list[int]) -> None:
            if type(v) is not type(values[0]) or v not in values:
                raise _Mismatch(f"{v!r} is none of {values}")

        return check_literal
    if origin is list:
        item = _checker(get_args(tp)[0], ordered)

        def check_list(v: Any, seats: list[int]) -> None:
            if type(v) is not list:
                raise _Mismatch(f"an array, not {type(v).__name__}")
            if length == "seats" and seats[0] < 0:
                seats[0] = len(v)
            n = seats[0] if length == "seats" else length
            if n is not None and len(v) != n:
                says = f"one per seat ({n})" if length == "seats" else str(n)
                raise _Mismatch(f"{len(v)} entries, the declaration says {says}")
            for i, x in enumerate(v):
                try:
                    item(x, seats)
                except _Mismatch as e:
                    e.path.append(f"[{i}]")
                    raise

        return check_list
    if origin is tuple:
        items = [_checker(a, ordered) for a in get_args(tp)]

        def check_tuple(v: Any, seats: list[int]) -> None:
            if type(v) not in (list, tuple) or len(v) != len(items):
                raise _Mismatch(f"an array of {len(items)}, not {v!r}")
            for i, (c, x) in enumerate(zip(items, v, strict=True)):
                _within(f"[{i}]", c, x, seats)

        return check_tuple
    if tp is type(None) or tp is None:
        return _of_type(type(None), "nil")
    if tp is bytes:

        def check_bin(v: Any, seats: list[int]) -> None:
            if type(v) is not bytes:
                raise _Mismatch(f"bin, not {type(v).__name__}")
            if not CARD_DOMAIN.issuperset(v):
                raise _Mismatch(f"bin holds card bytes only, not {v.hex()}")

        return check_bin
    if tp is bool:
        return _of_type(bool, "bool")
    if tp is str:
        return _of_type(str, "str")
    if tp is int:

        def check_int(v: Any, seats: list[int]) -> None:
            if not isinstance(v, int) or isinstance(v, bool):
                raise _Mismatch(f"int, not {type(v).__name__}")

        return check_int
    if isinstance(tp, type) and issubclass(tp, IntEnum):
        codes = frozenset(int(e) for e in tp)
        name = tp.__name__

        def check_code(v: Any, seats: list[int]) -> None:
            if not isinstance(v, int) or isinstance(v, bool) or v not in codes:
                raise _Mismatch(f"{v!r} is no {name}")

        return check_code
    raise TypeError(f"a view may not declare {tp!r}")


def type_name(tp: Any) -> str:
    """How SPEC.md writes a declared type, in msgpack's terms.

    >>> type_name(PerSeat[bytes]), type_name(int | None), type_name(Literal["turn", "over"])
    ('[bin] per seat', 'int?', 'str: "turn", "over"')
    """
    tp = _unwrap(tp)
    suffix = ""
    if get_origin(tp) is Annotated:
        tp, *meta = get_args(tp)
        for m in meta:
            if isinstance(m, Length):
                suffix = " per seat" if m.n == "seats" else f" of {m.n}"
    origin = get_origin(tp)
    if is_typeddict(tp):
        return str(tp.__name__)
    if origin in (Union, types.UnionType):
        alts = [a for a in get_args(tp) if a is not type(None)]
        return " \\| ".join(type_name(a) for a in alts) + ("?" if len(alts) < len(get_args(tp)) else "")
    if origin is Literal:
        return "str: " + ", ".join(f'"{a}"' for a in get_args(tp))
    if origin is list:
        return f"[{type_name(get_args(tp)[0])}]{suffix}"
    if origin is tuple:
        return "[" + ", ".join(type_name(a) for a in get_args(tp)) + "]"
    if isinstance(tp, type) and issubclass(tp, IntEnum):
        return f"int ({tp.__name__})"
    names: dict[Any, str] = {bytes: "bin", bool: "bool", int: "int", str: "str"}
    return names[tp]


def comments(decl: type) -> dict[str, str]:
    """The comment after each field of ``decl`` in its source (a field's documentation)."""
    try:
        source = inspect.getsource(decl)
    except OSError:  # declared as ``Name = TypedDict("Name", {...})`` (a key that is a keyword)
        text = inspect.getsource(sys.modules[decl.__module__])
        m = re.search(rf"^{decl.__name__} = TypedDict\(.*?^\S", text, re.S | re.M)
        source = m.group(0) if m else ""
    out: dict[str, str] = {}
    for line in source.splitlines():
        m = re.match(r'\s+"?([a-z_]\w*)"?\s*:[^#]*#\s*(.*)', line)
        if m:
            out[m.group(1)] = m.group(2).strip().replace("|", "\\|")
    return out


def table(decl: type) -> str:
    """SPEC.md's table of a view type: key, type, meaning (a key that may be absent says so)."""
    rows = [f"`{decl.__module__}.{decl.__qualname__}`", ""]
    if decl.__doc__ and decl.__doc__ != dict.__doc__:
        rows += [" ".join(inspect.cleandoc(decl.__doc__).split()), ""]
    notes: dict[str, str] = {}
    for base in _bases(decl):
        notes |= comments(base)
    rows += ["| key | type | meaning |", "|---|---|---|"]
    for k, tp in _ordered(decl).items():
        key = f"`{k}`" + (" (optional)" if k in getattr(decl, "__optional_keys__", ()) else "")
        rows.append(f"| {key} | {type_name(tp)} | {notes.get(k, '')} |")
    return "\n".join(rows) + "\n"


def nested(decl: type) -> list[type]:
    """``decl`` and every view type it contains, in the order SPEC.md lists them."""
    out: list[type] = []

    def walk(tp: Any) -> None:
        if is_typeddict(tp):
            if tp not in out:
                out.append(tp)
                for t in _ordered(tp).values():
                    walk(t)
        else:
            for a in get_args(tp):
                walk(a)

    walk(decl)
    return out
