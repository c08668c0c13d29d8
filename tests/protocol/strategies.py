"""Hypothesis strategies for valid frames, derived from the same schema the codec checks."""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Mapping
from typing import Annotated, Any, Union, get_args, get_origin

from hypothesis import strategies as st

from paiju.protocol.cards import ACTION_DOMAIN, CARD_DOMAIN
from paiju.protocol.frames import FRAMES, MaxLen, Range, Record, _ActionBytes, _CardBytes, field_types

_cards = st.lists(st.sampled_from(sorted(CARD_DOMAIN)), max_size=20).map(bytes)
_act = st.lists(st.sampled_from(sorted(ACTION_DOMAIN)), max_size=8).map(bytes)
_scalar = st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | st.text(max_size=8) | _cards
views = st.recursive(
    _scalar,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)
view_maps = st.dictionaries(st.text(max_size=8), views, max_size=5)


def for_type(tp: Any) -> st.SearchStrategy[Any]:
    meta: tuple[Any, ...] = ()
    if get_origin(tp) is Annotated:
        tp, *m = get_args(tp)
        meta = tuple(m)
    origin = get_origin(tp)
    if origin in (Union, types.UnionType):
        (inner,) = [a for a in get_args(tp) if a is not type(None)]
        return st.none() | for_type(inner)
    if tp is int:
        (r,) = [m for m in meta if isinstance(m, Range)]
        return st.integers(r.lo, r.hi)
    if tp is str:
        (n,) = [m for m in meta if isinstance(m, MaxLen)]
        return st.text(max_size=min(n.n, 40))
    if tp is bool:
        return st.booleans()
    if tp is bytes:
        return _cards if _CardBytes in meta else _act if _ActionBytes in meta else st.binary(max_size=8)
    if origin is list:
        return st.lists(for_type(get_args(tp)[0]), max_size=5)
    if origin is Mapping:  # a view
        return view_maps
    if isinstance(tp, type) and issubclass(tp, Record):
        return instances(tp)
    raise TypeError(tp)


def instances(cls: type) -> st.SearchStrategy[Any]:
    return st.builds(cls, **{name: for_type(tp) for name, tp in field_types(cls)})


frames = st.one_of([instances(cls) for cls in FRAMES.values()])
assert all(dataclasses.is_dataclass(c) for c in FRAMES.values())
