"""Positions worked out when read: the loader stores how to find a position, the model
(kzplayer.project.model) turns it into a Span the first time it is asked for, since most are
never shown and a large project has tens of thousands (docs/format.md, "Positions").
"""
from __future__ import annotations

import threading
from typing import Callable


class Deferred:
    """A SpanField value worked out from the object that holds it, `make(obj)`, when read:
    one shared instance per kind of position, so that a loaded Property or Item keeps no
    tuple of its own (fewer objects for the garbage collector to scan after a big load)."""
    __slots__ = ("make",)

    def __init__(self, make: Callable) -> None:
        self.make = make


class SpanField:
    """A Span attribute that may also be set to `(function, *arguments)` or a Deferred: the
    loader defers working out line and column until the span is read, since most are never
    shown and a large project has tens of thousands."""

    def __set_name__(self, owner, name: str) -> None:
        self.key = "_" + name

    def __get__(self, obj, owner=None):
        if obj is None:
            return None                       # the dataclass field's default
        # attribute access, not obj.__dict__: reading __dict__ makes Python build a dict per
        # object (one more object for the collector to scan, per Property of a big project)
        value = getattr(obj, self.key, None)
        if value.__class__ is tuple:
            value = value[0](*value[1:])
            object.__setattr__(obj, self.key, value)
        elif value.__class__ is Deferred:
            value = value.make(obj)
            object.__setattr__(obj, self.key, value)
        return value

    def __set__(self, obj, value) -> None:
        object.__setattr__(obj, self.key, value)


def copy_spans(dst, src, names) -> None:
    """Copy SpanField attributes from `src` to `dst` as stored: a position not worked out
    yet stays so (the saver takes fresh positions for every property after a save). A
    Deferred position reads its object's `_source` and `element`: those come along."""
    deferred = False
    for name in names:
        key = "_" + name
        value = getattr(src, key, None)
        deferred = deferred or value.__class__ is Deferred
        object.__setattr__(dst, key, value)
    if deferred:
        dst._source, dst.element = src._source, src.element


# Built when read: the contents of a loaded Item (kzplayer.project.contents).
_BITS = {"properties": 1, "bindings": 2, "aliases": 4, "attributes": 8}
ALL_UNBUILT = 15                 # every field built when read
CONTENTS_UNBUILT = 7             # all but the attributes (given when made)
_BUILDING = threading.RLock()    # held only while a field is built, once per field and item


class BuiltOnRead:
    """An Item field (properties, bindings, aliases, attributes) that a loaded item builds
    from its element the first time it is read, `obj._contents.build(name, obj)`, and keeps
    as a plain attribute from then on: a non-data descriptor, so that later reads cost what
    any attribute costs. A clean load of a big project reads none of them (its checks look
    at the elements), and most are never read at all."""
    __slots__ = ("name", "bit")

    def __init__(self, name: str) -> None:
        self.name, self.bit = name, _BITS[name]

    def __get__(self, obj, owner=None):
        if obj is None:
            return self
        with _BUILDING:                         # the studio's threads may both read it first
            if not obj._unbuilt & self.bit:     # the other one did
                return getattr(obj, self.name)
            value = obj._contents.build(self.name, obj)
            setattr(obj, self.name, value)      # the instance's attribute hides this from now on
            obj._unbuilt &= ~self.bit
        return value


def is_built(obj, name: str) -> bool:
    """Whether field `name` of `obj` holds what it holds (an Item made by hand, or one whose
    field was read), as opposed to being built from its element when first read."""
    return not getattr(obj, "_unbuilt", 0) & _BITS[name]
