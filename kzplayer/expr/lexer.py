"""Text -> tokens. Newlines separate statements except inside parentheses; `#` starts a
comment that runs to the end of the line (outside references and strings).

References: `{...}` always; `<...>` only where Kanzi's mission-card spelling is meant: the
`<` is directly followed by `.`, `@`, `#` or a name, the text up to the next `>` on the line
is a path with at least one `/`, and the part after the last `/` is a property name.
Anything else is less-than: `a < b`, `a<b`, `x < y/2`, `a<b && c>d` compare, while
`<./Emission.Rate>` and `a<b/c>d` are references (write `a < b/c > d` to compare).

Ranges (Kanzi's "Using the light nodes"): `{pointLightsView ... PointLightColor}` reads a
property from each element of the range a variable holds, and
`{##RenderPass/DrawObjectsRenderPass.PointLights ... PointLightColor}` from each node of a
node list; both are one VIEW token. Outside braces `...` is the prefix fold operator
(`...* rangeB`).
"""
from __future__ import annotations

import bisect
import math
import re
from typing import Callable

from kzplayer.diagnostics import Diagnostic, Span
from kzplayer.expr.ast import Reference
from kzplayer.expr.errors import diagnostic
from kzplayer.expr.limits import INT_MAX
from kzplayer.expr.tokens import EOF, NAME, NEWLINE, NUMBER, OP, REF, STRING, VIEW, Token

_NUMBER = re.compile(r"(\d+\.\d*|\.\d+|\d+)([eE][+-]?\d+)?")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_SPACE = re.compile(r"[ \t\r\f]+")
_OPERATOR = re.compile("|".join(re.escape(op) for op in sorted(
    "... || && == != <= >= << >> | ^ & < > + - * / ! ~ ? : = ( ) , .".split(), key=len, reverse=True)))
# Characters people reach for from other languages, and what to write instead.
_CHAR_HINTS = {"%": "there is no % operator: write mod(a, b) or rem(a, b)",
               ";": "put each statement on its own line",
               "[": "there are no arrays; fields are read with a dot: v.x"}
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "0": "\0", "\\": "\\", '"': '"', "'": "'"}

# Item names may hold spaces (`Text Box 2D`); a property is dotted words (`Node.Width`).
_SEGMENT = r"[A-Za-z0-9_ \-]+"
_PROPERTY = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*")
_ANGLE_REF = re.compile(
    rf"<(@?(?:\.\.?|##?{_SEGMENT}|{_SEGMENT})(?:/(?:\.\.|{_SEGMENT}))*"
    rf"/[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)>")
_ANGLE_START = re.compile(r"<[.@#A-Za-z_]")
# `{source ... Property}`: the source is a variable or a reference without braces.
_VIEW = re.compile(r"\s*(?P<source>.*?\S)\s*\.\.\.\s*(?P<property>\S.*?)\s*")
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class _Positions:
    """Offset in the expression text -> (line, column) in the file."""

    def __init__(self, text: str, line: int, column: int):
        self.starts = [0] + [m.end() for m in re.finditer("\n", text)]
        self.line, self.column = line, column

    def __call__(self, offset: int) -> tuple[int, int]:
        row = bisect.bisect_right(self.starts, offset) - 1
        col = offset - self.starts[row] + (self.column if row == 0 else 1)
        return self.line + row, col


def parse_reference(content: str, spelling: str, span: Span | None = None) -> Reference | None:
    """The inside of `{...}` or `<...>` -> Reference, or None when it is not one."""
    body = content.strip()
    tracked = body.startswith("@")
    body = body[1:].strip() if tracked else body
    if body.isdigit():
        return Reference(spelling, "index", None, None, int(body), tracked, span)
    if body == "DataContext" or body.startswith("DataContext."):
        prop = body[len("DataContext."):] or None
        return Reference(spelling, "datacontext", "DataContext", prop, None, tracked, span)
    path, slash, prop = body.rpartition("/")
    if not slash:
        path = "."          # `{Prop}`: a property of this item
    elif not path:
        path = "/"          # `{/Prop}`: a property of the root
    if not _PROPERTY.fullmatch(prop):
        return None
    if path.startswith("##"):
        kind = "template"
    elif path.startswith("#"):
        kind = "alias"
    elif path.startswith("."):
        kind = "relative"
    else:
        kind = "absolute"
    return Reference(spelling, kind, path, prop, None, tracked, span)


def parse_view(content: str, spelling: str, span: Span | None = None):
    """The inside of `{source ... Property}` -> (source, property), the source a variable
    name (str) or a Reference; None when it is not a range view."""
    m = _VIEW.fullmatch(content)
    if m is None or not _PROPERTY.fullmatch(m["property"]):
        return None
    source = m["source"]
    if _IDENTIFIER.fullmatch(source) and source != "DataContext":
        return source, m["property"]
    ref = parse_reference(source, spelling, span)
    return (ref, m["property"]) if ref is not None else None


def tokenize(text: str, *, file: str | None = None, line: int = 1, column: int = 1,
             position: Callable[[int], tuple[int, int]] | None = None
             ) -> tuple[list[Token], list[Diagnostic]]:
    """Tokens (ending in EOF) and the lexical errors found; bad characters are skipped.
    `position(offset) -> (line, column)` maps offsets when the file does not spell the text
    character for character (`&lt;` in XML); by default the text starts at (line, column)."""
    fname = file or "<expression>"
    where = position or _Positions(text, line, column)
    tokens: list[Token] = []
    errors: list[Diagnostic] = []
    depth = 0
    pos = 0

    def span(start: int, end: int) -> Span:
        (l0, c0), (l1, c1) = where(start), where(end)
        return Span(fname, l0, c0, l1, c1)

    def emit(kind: str, start: int, end: int, value) -> None:
        (l0, c0), (l1, c1) = where(start), where(end)
        tokens.append(Token(kind, text[start:end], value, l0, c0, l1, c1, fname))

    while pos < len(text):
        ch = text[pos]
        if m := _SPACE.match(text, pos):
            pos = m.end()
        elif ch == "\n":
            if depth == 0 and tokens and tokens[-1].kind != NEWLINE:
                emit(NEWLINE, pos, pos + 1, "\n")
            pos += 1
        elif ch == "#":
            end = text.find("\n", pos)
            pos = len(text) if end < 0 else end
        elif m := _NUMBER.match(text, pos):
            lit = m.group()
            value, problem = _number(lit, tokens[-1] if tokens else None)
            if problem:
                errors.append(diagnostic("expr.value", problem, span(pos, m.end()),
                                         hint="write a float (with a '.') for larger numbers"))
            emit(NUMBER, pos, m.end(), value)
            pos = m.end()
        elif m := _NAME.match(text, pos):
            emit(NAME, pos, m.end(), m.group())
            pos = m.end()
        elif ch in "\"'":
            pos = _string(text, pos, emit, errors, span)
        elif ch == "{":
            end = text.find("}", pos)
            nl = text.find("\n", pos)
            if end < 0 or 0 <= nl < end:
                errors.append(diagnostic("expr.syntax", "unterminated reference: '{' without '}'",
                                         span(pos, pos + 1), hint="close the reference with '}'"))
                pos += 1
                continue
            content = text[pos + 1:end]
            if "..." in content:
                view = parse_view(content, text[pos:end + 1], span(pos, end + 1))
                if view is not None:
                    emit(VIEW, pos, end + 1, view)
                else:
                    errors.append(diagnostic(
                        "expr.syntax", f"not a range view: '{text[pos:end + 1]}'", span(pos, end + 1),
                        hint="write {view ... Property} or {path/NodeList ... Property}"))
            elif ref := parse_reference(content, text[pos:end + 1], span(pos, end + 1)):
                emit(REF, pos, end + 1, ref)
            else:
                errors.append(diagnostic(
                    "expr.syntax", f"not a reference: '{text[pos:end + 1]}'", span(pos, end + 1),
                    hint="write {path/Property}, e.g. {./Emission.Rate}"))
            pos = end + 1
        elif ch == "<" and _ANGLE_START.match(text, pos) and (m := _ANGLE_REF.match(text, pos)) \
                and (ref := parse_reference(m.group(1), m.group(), span(pos, m.end()))):
            emit(REF, pos, m.end(), ref)
            pos = m.end()
        else:
            m = _OPERATOR.match(text, pos)
            op = m.group() if m else None
            if op is None:
                errors.append(diagnostic("expr.syntax", f"unexpected character '{ch}'",
                                         span(pos, pos + 1), hint=_CHAR_HINTS.get(ch)))
                pos += 1
                continue
            if op == "(":
                depth += 1
            elif op == ")" and depth:
                depth -= 1
            emit(OP, pos, pos + len(op), op)
            pos += len(op)
    emit(EOF, len(text), len(text), None)
    return tokens, errors


def _number(lit: str, before: Token | None) -> tuple[int | float, str | None]:
    """The value of a number literal, and what is wrong with it: an int must fit Kanzi's 32
    bits (2147483648 only right after a minus sign), a float must be finite."""
    if any(c in lit for c in ".eE"):
        value = float(lit)
        return (value, None) if math.isfinite(value) else (0.0, f"{lit} is too large for a float")
    top = INT_MAX + 1 if before is not None and before.kind == OP and before.value == "-" else INT_MAX
    if len(lit.lstrip("0")) > 10 or int(lit) > top:
        shown = lit if len(lit) <= 24 else f"{lit[:12]}...({len(lit)} digits)"
        return 0, f"{shown} does not fit Kanzi's 32-bit int (at most {INT_MAX})"
    return int(lit), None


def _string(text, pos, emit, errors, span) -> int:
    quote, start, out = text[pos], pos, []
    pos += 1
    while pos < len(text) and text[pos] not in (quote, "\n"):
        if text[pos] == "\\" and pos + 1 < len(text):
            esc = text[pos + 1]
            if esc == "u" and re.fullmatch(r"[0-9a-fA-F]{4}", text[pos + 2:pos + 6]):
                out.append(chr(int(text[pos + 2:pos + 6], 16)))
                pos += 6
                continue
            if esc not in _ESCAPES:
                errors.append(diagnostic("expr.syntax", f"unknown escape '\\{esc}' in a string",
                                         span(pos, pos + 2)))
            out.append(_ESCAPES.get(esc, esc))
            pos += 2
        else:
            out.append(text[pos])
            pos += 1
    if pos >= len(text) or text[pos] != quote:
        errors.append(diagnostic("expr.syntax", "unterminated string", span(start, pos),
                                 hint=f"close the string with {quote}"))
        emit(STRING, start, pos, "".join(out))
        return pos
    emit(STRING, start, pos + 1, "".join(out))
    return pos + 1
