"""Text helpers of the in-place save (splice.py): where an element ends, the range that cuts
it with its line, edits of a start tag's attributes, an element's text moved to another
depth, and applying a list of edits. They read a file's text and its tag table
(`SourceFile.tags`) and never change the lxml tree.
"""
from __future__ import annotations

import re
from xml.sax.saxutils import escape

from lxml import etree

from kzplayer.project.source import _MARKUP

# one attribute of a start tag: the space before it, its name, its quoted value
_ATTRIBUTE = re.compile(r"""(\s+)([^\s=/>]+)\s*=\s*(["'])(.*?)\3""", re.DOTALL)


class NotSpliceable(Exception):
    """The model changed in a way no splice writes (the saver writes the files anew)."""


def apply(text: str, edits: list) -> str:
    """`text` with the edits made, last first, so that offsets stay right; edits at the same
    offset keep the order they were planned in."""
    for start, end, rep, _ in sorted(edits, key=lambda e: (e[0], e[1], e[3]), reverse=True):
        text = text[:start] + rep + text[end:]
    return text


def line_indent(text: str, offset: int) -> str:
    start = text.rfind("\n", 0, offset) + 1
    m = re.match(r"[ \t]*", text[start:offset])
    return m.group() if m else ""


def element_end(src, el) -> int:
    """Offset just after the end tag of `el` (after '/>' when self-closing): past the last
    element inside it, then past as many end tags as there are levels up to `el`."""
    start, end, closed = src.tags[el]
    if closed:
        return end
    last = el
    for last in el.iterdescendants(etree.Element):
        pass
    if last is el:
        levels, pos = 1, end
    else:
        levels = (0 if src.tags[last][2] else 1) + sum(1 for _ in last.iterancestors()) \
            - sum(1 for _ in el.iterancestors())
        pos = src.tags[last][1]
    for m in _MARKUP.finditer(src.text, pos):
        if m.group().startswith("</"):
            levels -= 1
            if levels == 0:
                return m.end()
    return len(src.text)


def removal(text: str, start: int, end: int) -> tuple[int, int]:
    """The range to cut for an element: its whole line(s) when nothing else is on them."""
    line = text.rfind("\n", 0, start) + 1
    m = re.compile(r"[ \t]*(\r?\n|$)").match(text, end)
    if m and text[line:start].strip() == "":
        return line, m.end()
    return start, end


def newline(text: str) -> str:
    return "\r\n" if "\r\n" in text else "\n"


def attribute_value(value: str, quote: str) -> str:
    """`value` as the text between `quote`s (whitespace as references: it reads back as is)."""
    return escape(value, {quote: "&quot;" if quote == '"' else "&apos;",
                          "\n": "&#10;", "\r": "&#13;", "\t": "&#9;"})


def start_tag_edits(src, el, tag: str, attributes: list[tuple[str, str | None]]) -> list[tuple[int, int, str]]:
    """(start, end, text) edits that make the start tag of `el` (and its end tag) say `tag`
    and each (name, value) of `attributes` (None: no such attribute): a changed value is
    new text between its quotes, a removed attribute is cut with the space before it, a
    new one goes after the last attribute. Everything else in the tag keeps its bytes."""
    start, end, closed = src.tags[el]
    found = {m.group(2): m for m in _ATTRIBUTE.finditer(src.text, start, end)}
    edits, added = [], ""
    for name, value in attributes:
        m = found.get(name)
        if m is None and value is not None:
            added += f' {name}="{attribute_value(value, chr(34))}"'
        elif m is not None and value is None:
            edits.append((m.start(1), m.end(), ""))
        elif m is not None and el.get(name) != value:
            edits.append((m.start(4), m.end(4), attribute_value(value, m.group(3))))
    if added:
        last = max((m.end() for m in found.values()), default=start + 1 + len(el.tag))
        edits.append((last, last, added))
    if tag != el.tag:
        edits.append((start + 1, start + 1 + len(el.tag), tag))
        if not closed:
            stop = element_end(src, el)
            close = src.text.rfind("</", start, stop)
            edits.append((close + 2, close + 2 + len(el.tag), tag))
    return edits


def moved_text(text: str, pad: str, nl: str):
    """The text of an element written at indent `pad` (its first line starts at the '<'),
    as a function of the indent it goes to and the line end of the file it goes into:
    each line that starts with markup trades `pad` for the new indent; lines inside a
    text (a multi-line value) keep their bytes."""
    def at(inner: str, to_nl: str) -> str:
        lines = text.split(nl)
        out = [lines[0]]
        for line in lines[1:]:
            body = line.lstrip(" \t")
            if body.startswith("<") and line.startswith(pad):
                line = inner + line[len(pad):]
            out.append(line)
        return to_nl.join(out)
    return at
