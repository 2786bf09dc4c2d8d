"""Positions worked out when read: the loader stores how to find a position, the model
(kzplayer.project.model) turns it into a Span the first time it is asked for, since most are
never shown and a large project has tens of thousands (docs/format.md, "Positions").
"""
from __future__ import annotations

import bisect
import threading
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from kzplayer.diagnostics import Span


class Deferred:
    """A SpanField value worked out from the object that holds it, `make(obj)`, when read:
    one shared instance per kind of position, so that a loaded Property or Item keeps no
    tuple of its own (fewer objects for the garbage collector to scan after a big load)."""
    __slots__ = ("make",)

    def __init__(self, make: Callable) -> None:
        self.make = make


# Where a loaded Item, Property or short Binding is written (its element's start tag), and where
# its text starts, worked out from the element and the file (`_source`) it was read from.
ELEMENT_SPAN = Deferred(lambda obj: obj._source.element_span(obj.element))
VALUE_SPAN = Deferred(lambda obj: obj._source.value_span(obj.element))


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


# Where a character of a text is in its file (a binding's expression, for an error's column).
def text_position(text: str, span: Span | None, anchors, offset: int) -> tuple[int, int]:
    """(line, column) of `text[offset]`, for text that starts at `span` in a file."""
    return text_positions(text, span, anchors)(offset)


def text_positions(text: str, span: Span | None, anchors):
    """`position(offset) -> (line, column)` for text that starts at `span` in a file, each
    look-up a bisection over the anchors and the newlines (a binding of 16,000 terms full of
    character references has as many anchors as tokens: a scan per token was quadratic)."""
    if span is None:
        return lambda offset: (0, 0)
    at = [a[0] for a in anchors]
    newlines = [i for i, c in enumerate(text) if c == "\n"] if "\n" in text else []

    def position(offset: int) -> tuple[int, int]:
        k = bisect.bisect_right(at, offset) - 1
        base, line, col = anchors[k] if k >= 0 else (0, span.line, span.column)
        first = bisect.bisect_left(newlines, base)
        last = bisect.bisect_left(newlines, offset)
        if last == first:
            return line, col + offset - base
        return line + last - first, offset - newlines[last - 1]
    return position


# Built when read: the contents of a loaded Item (kzplayer.project.contents).
_BUILDING = threading.RLock()    # held only while a load's contents are built, once per load


class BuiltOnRead:
    """A field (properties, bindings, aliases, attributes) of the class of one load's items
    (model.unread_class): the first read of any of them, on any item of the load, builds the
    contents of all its items from their elements, `obj._contents.build_all()` (a field set
    by hand before is kept)."""
    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __get__(self, obj, owner=None):
        if obj is None:
            return self
        with _BUILDING:                          # the studio's threads may both read first
            if obj._contents is not None:        # (not built meanwhile by the other)
                obj._contents.build_all()
        return getattr(obj, self.name)
