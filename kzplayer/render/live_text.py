"""A live save that edits only literals, read without reading the project again
(kzplayer.render.live's fast path; GL-free): the last good text of a project file, where
the text of each of its <Property> and short <Binding> elements lies in it, and what a new
text of the file changed among them, typed as the loader types it.

An editor's save of one literal changes one stretch of the file: the common prefix and
suffix of the old and the new text leave it, and when it lies inside the text of one
element, the new text of that element is plain (no '<', '&', CDATA, comment, carriage
return or character XML refuses), the file is the old one with that literal alone
rewritten. Anything else (markup touched, two literals apart, an entity) is no fast edit:
the caller reads the file as always. The session reads the file in full after the frame
that shows the edit, with the checks, and compares (kzplayer.render.live.LiveSession.settle).
"""
from __future__ import annotations

import bisect
import dataclasses
import re
from dataclasses import dataclass
from pathlib import Path

from kzplayer.diagnostics import Diagnostic
from kzplayer.project import contents
from kzplayer.project.source import SourceFile, decode_text
from kzplayer.render.live_diff import _same

# a literal the fast path may take as written: what lxml would read as the same text
_PLAIN = re.compile("[^<&\r\x00-\x08\x0b\x0c\x0e-\x1f\ufffd\ufffe\uffff\ud800-\udfff]*")


@dataclass(frozen=True)
class Literal:
    """The text of one element in a file: [start, end) offsets, the item's path, and the
    property's name (None: the item's short binding number `binding`)."""
    start: int
    end: int
    item: str
    name: str | None
    binding: int = -1


@dataclass(frozen=True)
class FileText:
    """A project file as last read (or last edited by a fast edit), with its literals in
    order of their offsets: where each starts and ends, and whose it is ((item path,
    property name or None, binding number), `Literal`'s)."""
    path: str
    text: str
    encoding: str
    starts: tuple[int, ...]
    ends: tuple[int, ...]
    owners: tuple[tuple, ...]

    def literal(self, k: int) -> Literal:
        return Literal(self.starts[k], self.ends[k], *self.owners[k])


@dataclass(frozen=True)
class FastEdit:
    """A new text of a file that differs from the last in one literal: `text` is that
    literal's new text, `after` the file as it is now (the next save's baseline)."""
    literal: Literal
    text: str
    after: FileText


def source_of(project, path: Path):
    """The loader's SourceFile of the project file at `path` (resolved), or None."""
    for name, src in project.document.sources.items():
        if Path(name).name == path.name and Path(name).resolve() == path:
            return src
    return None


def index(project, path: Path) -> FileText | None:
    """The literals of one file of a loaded project, from the loader's own offsets; None
    for a file the project was not read from."""
    src = source_of(project, path)
    if src is None:
        return None
    text, tags, found = src.text, src.tags, []
    for item in project.walk():
        for name, prop in item.properties.items():
            found.append(_literal(src, tags.get(prop.element), prop.text, item.path, name))
        for k, binding in enumerate(item.bindings):
            if binding.short:
                found.append(_literal(src, tags.get(binding.element), binding.expression, item.path, None, k))
    literals = sorted((lit for lit in found if lit is not None), key=lambda lit: lit.start)
    return FileText(str(path), text, src.encoding, tuple(lit.start for lit in literals),
                    tuple(lit.end for lit in literals), tuple((lit.item, lit.name, lit.binding) for lit in literals))


def _literal(src, tag, text: str, item: str, name, binding: int = -1) -> Literal | None:
    """The element's text as a Literal, when the file spells it as the model holds it."""
    if tag is None or tag[2]:                    # not of this file; self-closing: no text to edit
        return None
    start = tag[1]
    end = src.text_end(start)
    return Literal(start, end, item, name, binding) if src.text[start:end] == text else None


def text_of(item, lit: Literal) -> str | None:
    """What the model holds as the literal's text (None: the item has no such one now)."""
    if lit.name is not None:
        prop = item.properties.get(lit.name)
        return None if prop is None else prop.text
    bindings = item.bindings
    ok = 0 <= lit.binding < len(bindings) and bindings[lit.binding].short
    return bindings[lit.binding].expression if ok else None


def read(path: Path) -> tuple[str, str] | None:
    """(text, encoding) of a file as the loader decodes it; None when it cannot be read."""
    try:
        return decode_text(path.read_bytes())
    except OSError:
        return None


def find(before: FileText, text: str, encoding: str) -> FastEdit | None:
    """The one literal whose text alone changed from `before` to `text`, or None."""
    old = before.text
    if encoding != before.encoding or text == old:
        return None
    head = _common_prefix(old, text)
    tail = _common_suffix(old, text, min(len(old), len(text)) - head)
    k = bisect.bisect_right(before.starts, head) - 1
    if k < 0:
        return None
    lit = before.literal(k)
    if len(old) - tail > lit.end:               # the change goes on past the element's text
        return None
    delta = len(text) - len(old)
    new = text[lit.start:lit.end + delta]
    if not _PLAIN.fullmatch(new) or "]]>" in new:
        return None
    starts = before.starts[:k + 1] + tuple(x + delta for x in before.starts[k + 1:])
    ends = before.ends[:k] + tuple(x + delta for x in before.ends[k:])
    return FastEdit(lit, new, FileText(before.path, text, encoding, starts, ends, before.owners))


def _common_prefix(a: str, b: str) -> int:
    """Length of the common prefix (a bisection over slices: string compares run in C)."""
    lo, hi = 0, min(len(a), len(b))
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[lo:mid] == b[lo:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _common_suffix(a: str, b: str, limit: int) -> int:
    """Length of the common suffix, at most `limit`."""
    lo, hi = 0, max(limit, 0)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[len(a) - mid:len(a) - lo] == b[len(b) - mid:len(b) - lo]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def type_literal(catalog, name: str, edit: FastEdit) -> tuple[object, list[Diagnostic]]:
    """(value, []) of a property's new literal as the loader types it (kzm_reader's
    parse_values), or (None, [the loader's diagnostic, at the same file:line:column])."""
    return contents.type_literal(catalog, name, edit.text, _source(edit.after), edit.literal.start)


def rebound(binding, edit: FastEdit):
    """A copy of a short binding with its new expression (for the running graph: no owner),
    its expression's span where the new text has it."""
    start = edit.literal.start
    span = _source(edit.after).span(start, start + len(edit.text))
    copy = dataclasses.replace(binding, owner=None, expression=edit.text, expression_span=span, expression_anchors=())
    copy.as_loaded = copy.key()
    return copy


def _source(text: FileText) -> SourceFile:
    """The file's text as a SourceFile (positions only: no tree)."""
    return SourceFile(text.path, text.text, None, encoding=text.encoding)


def same_edit(diff, edits, reason, project, running) -> bool:
    """Whether a full read of the file (`diff`: kzplayer.render.live_diff's, against the last
    good load) finds what the fast path applied: the same value `edits`, or (`reason`: the
    diff's words for it) the one item's bindings with the texts it runs now. The last good
    load may be the running project itself, its item rebound already: the diff shows none."""
    if [(e.path, e.name) for e in diff.edits] != [(e.path, e.name) for e in edits] or \
            not all(_same(a.value, b.value) for a, b in zip(diff.edits, edits)):
        return False
    if reason is None:
        return diff.structural is None
    path = reason.rsplit(":", 1)[0]
    new = project.find(path)
    return (diff.rebound in ([], [path]) and diff.structural in (None, reason) and new is not None
            and [b.key() for b in new.bindings] == [b.key() for b in running[path].bindings])
