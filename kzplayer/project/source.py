"""Reading one file: bytes to text (BOM, XML declaration), refusal of DTDs that declare
entities or load external ones, the lxml parse, and the position of every start tag.

lxml only knows the line where a start tag ends, so a single scan of the raw text finds
where each element starts and ends; `SourceFile` turns offsets into Spans (file, line,
column). The problem codes of loading live here too, since reading a file is where most
of them arise. Nothing raises for bad input: problems are appended as Diagnostics.
"""
from __future__ import annotations

import bisect
import codecs
import gc
import os
import re
import stat
from dataclasses import dataclass, field
from functools import lru_cache

from lxml import etree

from kzplayer.diagnostics import Diagnostic, Severity, Span

# Codes of the problems found while loading (KZ0xx: files and structure).
UNREADABLE = ("KZ001", "file.unreadable")
MALFORMED = ("KZ002", "xml.malformed")
ENTITIES = ("KZ003", "xml.entities")
STRUCTURE = ("KZ004", "schema.invalid")
UNKNOWN_TYPE = ("KZ005", "item.unknown-type")
DUPLICATE = ("KZ006", "item.duplicate-name")
BAD_NAME = ("KZ007", "item.name")
OUTSIDE = ("KZ008", "path.outside-project")
MISSING_FILE = ("KZ009", "file.missing")
PROPERTY_TYPE = ("KZ010", "property.type")
ORPHAN = ("KZ011", "file.orphan")

_PARSER_OPTIONS = dict(resolve_entities=False, no_network=True, load_dtd=False,
                       huge_tree=False, remove_comments=False, dtd_validation=False)

# Every kind of markup, so that start tags are found in document order and nothing inside a
# comment, CDATA section or attribute value is mistaken for one.
_MARKUP = re.compile(r"""
    <!--.*?-->
  | <!\[CDATA\[.*?\]\]>
  | <\?.*?\?>
  | <!DOCTYPE(?:[^\[>]|\[.*?\])*>
  | </[^>]*+>
  | <(?P<tag>[^\s/>!?]+)(?:[^>"'/]++|"[^"]*+"|'[^']*+'|/(?!>))*+(?P<close>/?)>
""", re.VERBOSE | re.DOTALL)
_DOCTYPE = re.compile(r"<!DOCTYPE(?:[^\[>]|\[.*?\])*>", re.DOTALL)


def _diag(kind, message, span=None, hint=None, severity=Severity.ERROR, related=()):
    code, rule = kind
    return Diagnostic(code, rule, severity, message, span, hint, tuple(related))


@dataclass
class SourceFile:
    """One parsed file: its text, its lxml tree and where every element starts.

    The positions are worked out on first use, for the whole file at once (one scan of the
    raw text, `tags`; the line starts, `line_starts`): a clean project loads, binds and plays
    without showing any, and the scan is a third of a load. The tree must not be changed in
    place before (the saver splices text; it never edits the tree)."""
    path: str
    text: str
    tree: object
    encoding: str = "utf-8"          # what to write it back in ("utf-8-sig" keeps a BOM)
    # the loader's walk found nothing kzm.rng could reject (schema_fit.py): no RELAX NG run
    fits_schema: bool = field(default=False, repr=False)
    _line_starts: list | None = field(default=None, repr=False)
    _tags: dict | None = field(default=None, repr=False)
    _plain: bool | None = field(default=None, repr=False)

    @property
    def line_starts(self) -> list[int]:
        if self._line_starts is None:
            self._line_starts = [0] + [m.end() for m in re.finditer("\n", self.text)]
        return self._line_starts

    @property
    def tags(self) -> dict:
        """element -> (start offset of '<', offset just after the start tag's '>', self-closing)."""
        if self._tags is None:
            self._tags = _scan_tags(self.text, self.tree)
        return self._tags

    @property
    def plain(self) -> bool:
        """Whether the file spells every text as it reads (no entity, no CDATA): then no
        element's text needs anchors (see `anchors`), and none needs the positions to know."""
        if self._plain is None:
            self._plain = "&" not in self.text and "<![CDATA[" not in self.text
        return self._plain

    def position(self, offset: int) -> tuple[int, int]:
        line = bisect.bisect_right(self.line_starts, offset)
        return line, offset - self.line_starts[line - 1] + 1

    def span(self, start: int, end: int | None = None) -> Span:
        line, col = self.position(start)
        if end is None or end <= start:
            return Span(self.path, line, col, line, col + 1)
        if self.text.find("\n", start, end) < 0:
            return Span(self.path, line, col, line, col + end - start)
        eline, ecol = self.position(end)
        return Span(self.path, line, col, eline, ecol)

    def element_span(self, el) -> Span:
        """The start tag of `el`, from '<' to after its '>'."""
        start, end, _ = self.tags[el]
        return self.span(start, end)

    def lazy_element_span(self, el) -> tuple:
        """element_span(el), worked out when read (see model.SpanField)."""
        return (SourceFile.element_span, self, el)

    def value_span(self, el) -> Span:
        """The text of `el` as written, from after its start tag to the next '<'."""
        return self.span(*self.text_range(el))

    def text_end(self, end: int) -> int:
        """Where the text that starts at `end` (after a start tag) stops: the next '<'."""
        stop = self.text.find("<", end)
        return len(self.text) if stop < 0 else stop

    def text_range(self, el) -> tuple[int, int]:
        """Offsets of the text content of `el` as written (before its first child or end tag)."""
        start, end, closed = self.tags[el]
        return end, (end if closed else self.text_end(end))

    def anchors(self, start: int, stop: int, text: str) -> tuple:
        """Where `text` (an element's text as lxml gives it) and the file's characters from
        `start` stop counting alike: after each entity (`&lt;` is one character of text) and
        around CDATA markers. () in the usual case of plain text."""
        raw = self.text[start:stop]
        if raw == text or ("&" not in raw and "<![CDATA[" not in raw):
            return ()
        out, t, r = [], 0, 0
        while r < len(raw):
            if raw.startswith("<![CDATA[", r):
                r += 9
            elif raw.startswith("]]>", r):
                r += 3
            elif raw[r] == "&" and ";" in raw[r:r + 12]:
                r = raw.index(";", r) + 1
                t += 1
            else:
                r += 1
                t += 1
                continue
            out.append((t, *self.position(start + r)))
        return tuple(out)

    def attribute_span(self, el, name: str) -> Span:
        """The value of attribute `name` in the start tag (the start tag if not found)."""
        start, end, _ = self.tags[el]
        m = re.compile(r"\s" + re.escape(name) + r"""\s*=\s*(["'])""").search(self.text, start, end)
        if not m:
            return self.element_span(el)
        vstart = m.end()
        vend = self.text.find(m.group(1), vstart, end)
        return self.span(vstart, vend if vend >= 0 else vstart)


def read_source(path: str, diagnostics: list) -> SourceFile | None:
    """Read and parse one file; refuse DTDs that declare entities or load external ones."""
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except IsADirectoryError:
        diagnostics.append(_diag(UNREADABLE, f"{path} is a folder without a project file in it"))
        return None
    except OSError as e:
        diagnostics.append(_diag(UNREADABLE, f"cannot read {path}: {e.strerror or e}",
                                 Span(path, 1, 1) if os.path.exists(path) else None))
        return None
    text, encoding = decode_text(raw)
    src = SourceFile(path, text, None, encoding=encoding)
    first = re.search(r"<[^\s!?/]", text)
    prolog = text[:first.start()] if first else text
    dt = _DOCTYPE.search(prolog) or (re.search(r"<!DOCTYPE", prolog))
    if dt:
        body = dt.group()
        if "<!ENTITY" in body or re.search(r"\b(SYSTEM|PUBLIC)\b", body):
            what = "declares entities" if "<!ENTITY" in body else "loads an external DTD"
            diagnostics.append(_diag(
                ENTITIES, f"refused: the DOCTYPE {what}; kzplayer never expands entities "
                          "or reads external files named in a document",
                src.span(dt.start(), dt.start() + len("<!DOCTYPE")),
                hint="remove the <!DOCTYPE ...> declaration; .kzm files need none"))
            return None
    parser = etree.XMLParser(**_PARSER_OPTIONS)
    try:
        src.tree = etree.fromstring(raw, parser).getroottree()
    except etree.XMLSyntaxError as e:
        line, col = e.position if e.position else (1, 1)
        msg = re.sub(r"\s*,? line \d+, column \d+$", "", (e.msg or str(e)).strip()).strip()
        # libxml2's advice names a parser flag the user cannot set (and kzplayer keeps off)
        msg = re.sub(r",? use XML_PARSE_HUGE option", " levels of elements (the limit)", msg)
        diagnostics.append(_diag(MALFORMED, f"not well-formed XML: {msg}", _error_span(src, msg, line, col),
                                 hint=malformed_hint(msg)))
        return None
    except ValueError as e:       # e.g. unicode strings with an encoding declaration
        diagnostics.append(_diag(MALFORMED, f"not well-formed XML: {e}", Span(path, 1, 1)))
        return None
    return src


def _scan_tags(text: str, tree) -> dict:
    """Every element's start tag in the raw text, in document order (SourceFile.tags)."""
    # tens of thousands of new tuples: the collector would scan the heap again and again
    was_on = gc.isenabled()
    gc.disable()
    try:
        marks = [(m.start(), m.end(), bool(m.group("close")))
                 for m in _MARKUP.finditer(text) if m.group("tag")]
        elements = list(tree.getroot().iter(etree.Element))
    finally:
        if was_on:
            gc.enable()
    tags = dict(zip(elements, marks))
    if len(marks) != len(elements):   # should not happen; keep positions usable anyway
        for el in elements[len(marks):]:
            tags[el] = tags.get(el) or (0, 0, True)
    return tags


class Locator:
    """Spans of elements and attributes for the schema check (schema.py): from the loader's
    SourceFile when there is one, else from a scan of the file made when first needed."""

    def __init__(self, root, file: str, source):
        self.file = file
        self.root = root
        self.source = source
        self.index = None
        self.tried = source is not None

    def _source_for(self, el):
        if self.source is not None and el in self.source.tags:
            return self.source, el
        if not self.tried:
            self.tried = True
            try:
                src = read_source(self.file, [])
            except Exception:          # the scan is a nicety; lxml's line still stands
                src = None
            if src is not None:
                self.source = src
                self.index = dict(zip(self.root.iter(etree.Element),
                                      src.tree.getroot().iter(etree.Element)))
        if self.index is not None and el in self.index:
            return self.source, self.index[el]
        return None, None

    def span(self, el, attribute: str | None, line: int) -> Span:
        if el is not None:
            src, their = self._source_for(el)
            if src is not None and their in src.tags:
                return src.attribute_span(their, attribute) if attribute else src.element_span(their)
            line = el.sourceline or line
        return Span(self.file, max(line or 1, 1), 1)


# The XML parser's (libxml2's) words -> what to do, for the usual slips in a .kzm file.
_MALFORMED_HINTS = [
    (r"Opening and ending tag mismatch: (\S+) line (\d+) and (\S+)",
     r"<\1> opened on line \2 is closed here by </\3>: correct the end tag, or close <\1> first"),
    (r"Premature end of data in tag (\S+) line (\d+)", r"<\1> opened on line \2 is never closed"),
    (r"Unescaped '<' not allowed in attributes? values",
     "an attribute value misses its closing quote (often on the line before)"),
    (r"StartTag: invalid element name|xmlParseStartTag: invalid element name",
     "write '<' in text as &lt; (a binding's {a} < {b} is {a} &lt; {b}), or use <![CDATA[ ... ]]>"),
    (r"xmlParseEntityRef: no name|EntityRef: expecting ';'",
     "write '&' in text as &amp; (a binding's && is &amp;&amp;)"),
]


def malformed_hint(message: str) -> str | None:
    """What to do about the XML parser's complaint `message`, in a .kzm author's words."""
    for pattern, fix in _MALFORMED_HINTS:
        m = re.search(pattern, message)
        if m:
            return m.expand(fix)
    return None


def _error_span(src: SourceFile, msg: str, line: int | None, col: int) -> Span:
    """Where libxml2's error is. It reports the column after what it read: for a mismatched
    end tag that is past the `>`, so the span goes back to the end tag's name."""
    line, col = line or 1, max(col, 1)
    m = re.search(r"tag mismatch: \S+ line \d+ and (\S+)", msg)
    if m and line <= len(src.line_starts):
        offset = src.line_starts[line - 1] + col - 1
        at = src.text.rfind("</" + m.group(1), 0, offset)
        if at >= 0:
            return src.span(at + 2, at + 2 + len(m.group(1)))
    return Span(src.path, line, col)


# a diagnostic about a file larger than this (a refused shader, a sparse mesh) is shown
# without its source line: reading it to print one line would take seconds
SHOWN_FILE_BYTES = 64 << 20


def source_lines(path: str) -> list[str]:
    """The lines of a project file as the loader read them (a BOM or the XML declaration's
    encoding, else UTF-8), so that columns count alike, for showing a diagnostic's line;
    re-read when the file changes. None of a file that is not a regular one, or is larger
    than SHOWN_FILE_BYTES."""
    try:
        st = os.stat(path)
    except OSError:
        return []
    if not stat.S_ISREG(st.st_mode) or st.st_size > SHOWN_FILE_BYTES:
        return []
    return _read_lines(path, st.st_mtime_ns, st.st_size)


@lru_cache(maxsize=64)
def _read_lines(path: str, mtime_ns: int, size: int) -> list[str]:
    try:
        with open(path, "rb") as f:
            raw = f.read(SHOWN_FILE_BYTES + 1)
    except OSError:
        return []
    return [] if len(raw) > SHOWN_FILE_BYTES else decode_text(raw)[0].splitlines()


def decode_text(raw: bytes) -> tuple[str, str]:
    """A project file's bytes as the loader reads them: the text (for columns, for showing
    source lines, for saving in place) and the encoding to write it back in: a BOM, else
    the XML declaration's encoding, else UTF-8."""
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        return raw.decode("utf-16", errors="replace"), "utf-16"
    if raw.startswith(b"\xef\xbb\xbf"):
        return raw[3:].decode("utf-8", errors="replace"), "utf-8-sig"
    # UTF-16 without a BOM, as libxml2 detects it from '<' (the DOCTYPE check reads this text)
    for head, name in ((b"<\x00", "utf-16-le"), (b"\x00<", "utf-16-be")):
        if raw.startswith(head):
            return raw.decode(name, errors="replace"), name
    m = re.match(rb"""<\?xml[^>]*encoding\s*=\s*["']([A-Za-z0-9._-]+)["']""", raw)
    if m:
        try:
            name = codecs.lookup(m.group(1).decode("ascii")).name
            return raw.decode(name, errors="replace"), name
        except LookupError:
            pass                      # lxml reports an unknown encoding itself
    return raw.decode("utf-8", errors="replace"), "utf-8"
