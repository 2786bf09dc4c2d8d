"""The literal syntax of property values: `500`, `2.5`, `true`, `"text"`, `(0, 1, 0)`,
`Vector3(0, 1, 0)`, `Color4(1, 0.5, 0, 1)`, `Srt3D(...)`, enum words, paths, and the
spelled-out references `Item("##RenderPass")` and `Resource("Image.Image2D.Image")`.

`parse_literal(text, type_name)` reads a value; with a catalog type it converts (an int
written for a float property) and refuses what does not fit, pointing at the column of the
problem. `format_literal(value)` writes a value back so that parsing gives it again exactly
(floats through `repr`).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from kzplayer.diagnostics import a_or_an, closest
from kzplayer.project.literal_format import format_literal  # noqa: F401  (its public home was here)
from kzplayer.project.value_rules import coerce, number_problem
from kzplayer.values import Color4, EnumValue, ItemRef, MaterialRef, Matrix, ResourceRef, Srt2D, Srt3D, Vector
from kzplayer.values import type_name as _type_name


class LiteralError(ValueError):
    """A literal that does not parse or does not fit its type. `start`/`end` are character
    offsets into the text (end exclusive), so the loader can turn them into file columns."""

    def __init__(self, message: str, start: int = 0, end: int | None = None, mismatch: bool = False):
        super().__init__(message)
        self.message = message
        self.start = start
        self.end = start + 1 if end is None else end
        self.mismatch = mismatch       # a well-formed literal of another type (`abc` for a float)

    def about(self, name: str, want: str | None, text: str) -> str:
        """The message for property `name` of type `want` written as `text`: one sentence."""
        if self.mismatch and want:
            return f"{name} takes {a_or_an(want)}, not `{text[self.start:self.end]}`"
        return f"{name}: {self.message}"


# One literal of each type, for hints that show how to write a value.
EXAMPLES = {"float": "2.5", "int": "100", "bool": "true", "string": '"text"', "vector2": "(0, 1)",
            "vector3": "(0, 1, 0)", "vector4": "(0, 0, 0, 1)", "color4": "Color4(1, 0.5, 0, 1)",
            "srt3d": "Srt3D(1,1,1, 0,0,0, 0,0,0)", "srt2d": "Srt2D(1,1, 0, 0,0)"}


def example_hint(type_name: str | None) -> str | None:
    """'write it like 2.5' for a type with an example literal."""
    return f"write it like {EXAMPLES[type_name]}" if type_name in EXAMPLES else None


_TOKEN = re.compile(r"""
    (?P<ws>\s+)
  | (?P<num>[+-]?(?:\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?|inf|nan)(?![\w.]))
  | (?P<str>"(?:[^"\\]|\\.)*"?)
  | (?P<word>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<punct>[(),])
""", re.VERBOSE)

# Constructors: name (lower case) -> (value type, accepted argument counts)
_CONSTRUCTORS = {
    "vector2": ("vector2", (2,)), "vector3": ("vector3", (3,)), "vector4": ("vector4", (4,)),
    "color4": ("color4", (3, 4)), "color": ("color4", (3, 4)),
    "srt3d": ("srt3d", (9,)), "srt2d": ("srt2d", (5,)),
    "matrix3": ("matrix3", (9,)), "matrix4": ("matrix4", (16,)),
    "matrix3x3": ("matrix3", (9,)), "matrix4x4": ("matrix4", (16,)),
}
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\", "'": "'", "0": "\0"}
_NUMERIC = {"int", "float"}
# References spelled out with a quoted text: what an untyped property needs for a path
# without '/' (`Item("##RenderPass")`) or a resource ID (`Resource("LOCATION INFORMATION")`).
_REFERENCES = {"item": ItemRef, "resource": ResourceRef}
_SPELLED = re.compile(r'(?i:item|resource)\s*\(\s*".*"\s*\)', re.S)
_COMPOUND = {"vector2", "vector3", "vector4", "color4", "srt2d", "srt3d", "matrix3", "matrix4"}
_TUPLE_TYPES = {None, "vector2", "vector3", "vector4", "color4", "srt3d", "srt2d"}


@dataclass
class _Tok:
    kind: str
    text: str
    start: int

    @property
    def end(self) -> int:
        return self.start + len(self.text)


def _tokenize(text: str) -> list[_Tok]:
    toks, pos = [], 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None:
            raise LiteralError(f"unexpected character {text[pos]!r}", pos)
        if m.lastgroup != "ws":
            toks.append(_Tok(m.lastgroup, m.group(), pos))
        pos = m.end()
    return toks


_INT = re.compile(r"[+-]?\d+")
_FLOAT = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")


_MAX_INT_DIGITS = 40      # far past any int a property holds (32 bits), far below Python's limit


def _int_or_float(t: str) -> int | float:
    """An integer literal as an int; one of more than 40 digits as the float it reads as
    (infinite past 1e308), which the value check then refuses, instead of an int that no
    float conversion or printing can take."""
    if len(t.lstrip("+-").lstrip("0")) > _MAX_INT_DIGITS:
        return float(t)
    return int(t)


def _number(tok: _Tok) -> int | float:
    t = tok.text
    if _INT.fullmatch(t):
        return _int_or_float(t)
    return float(t)


def _unescape(tok: _Tok) -> str:
    body = tok.text
    if len(body) < 2 or not body.endswith('"') or body.endswith('\\"') and not body.endswith('\\\\"'):
        raise LiteralError("unterminated string: a closing \" is missing", tok.start, tok.end)
    out, i, s = [], 1, body[:-1]
    while i < len(s):
        c = s[i]
        if c != "\\":
            out.append(c)
            i += 1
            continue
        nxt = s[i + 1] if i + 1 < len(s) else ""
        if nxt in _ESCAPES:
            out.append(_ESCAPES[nxt])
            i += 2
        elif nxt == "u" and re.fullmatch(r"[0-9a-fA-F]{4}", s[i + 2:i + 6]):
            out.append(chr(int(s[i + 2:i + 6], 16)))
            i += 6
        elif nxt == "U" and re.fullmatch(r"[0-9a-fA-F]{8}", s[i + 2:i + 10]):
            code = int(s[i + 2:i + 10], 16)
            if code > 0x10FFFF:
                raise LiteralError(f"'\\U{s[i + 2:i + 10]}' is past the last Unicode character "
                                   "(\\U0010FFFF)", tok.start + i, tok.start + i + 10)
            out.append(chr(code))
            i += 10
        else:
            raise LiteralError(f"unknown escape '\\{nxt}' in a string", tok.start + i, tok.start + i + 2)
    return "".join(out)


def _build(kind: str, nums: list, start: int, end: int):
    """A compound value of `kind` from its numbers (counts already checked)."""
    f = [float(n) for n in nums]
    if kind.startswith("vector"):
        return Vector(f)
    if kind == "color4":
        return Color4(f)
    if kind == "srt3d":
        return Srt3D(tuple(f[0:3]), tuple(f[3:6]), tuple(f[6:9]))
    if kind == "srt2d":
        return Srt2D(tuple(f[0:2]), f[2], tuple(f[3:5]))
    return Matrix(tuple(f))


def _expected_count(kind: str) -> tuple[int, ...]:
    if kind.startswith("vector"):
        return (int(kind[-1]),)
    return next(c for k, c in _CONSTRUCTORS.values() if k == kind)


class _Reader:
    def __init__(self, text: str):
        self.text = text
        self.toks = _tokenize(text)
        self.i = 0

    def peek(self) -> _Tok | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def next(self) -> _Tok:
        tok = self.peek()
        if tok is None:
            raise LiteralError("the value ends too early", len(self.text.rstrip()) or 0)
        self.i += 1
        return tok

    def numbers_in_parens(self, open_tok: _Tok) -> tuple[list, int]:
        """`( n, n, ... )` after an opening paren; returns the numbers and the end offset."""
        nums = []
        while True:
            tok = self.next()
            if tok.kind == "punct" and tok.text == ")" and not nums:
                return nums, tok.end
            if tok.kind != "num":
                raise LiteralError(f"expected a number, found {tok.text!r}", tok.start, tok.end)
            nums.append(_number(tok))
            sep = self.next()
            if sep.text == ")":
                return nums, sep.end
            if sep.text != ",":
                raise LiteralError(f"expected ',' or ')', found {sep.text!r}", sep.start, sep.end)


def parse_literal(text: str | None, type_name: str | None = None, *, enum: tuple[str, ...] | None = None,
                  enum_aliases: tuple[tuple[str, str], ...] = ()):
    """Parse a property value. `type_name` is the catalog type (None: infer from the text);
    `enum` its words, `enum_aliases` other words read as one of them (`None` for `Identity`).

    Empty text gives None (a declared property that only a binding fills). Raises
    LiteralError with the offsets of the problem.
    """
    if text is None or not text.strip():
        return None
    lead = len(text) - len(text.lstrip())
    body = text.strip()
    try:
        value = _parse(body, type_name, enum, dict(enum_aliases))
    except LiteralError as e:
        raise LiteralError(e.message, e.start + lead, e.end + lead, e.mismatch) from None
    return value


def _parse(text: str, type_name: str | None, enum, aliases=None) -> object:
    t = type_name
    if t is None or t == "float" or t == "int":      # the common case, without the tokenizer
        if _INT.fullmatch(text):
            value = float(text) if t == "float" else _int_or_float(text)
            if t == "int" and isinstance(value, float):
                raise LiteralError(f"an int of {len(text.lstrip('+-'))} digits; an int property holds "
                                   "32 bits", 0, len(text))
            return value
        if t != "int" and _FLOAT.fullmatch(text):
            return float(text)
    if text[0] == "(" and t in _TUPLE_TYPES:           # (0, 1, 0): common, and plain numbers
        parts = text[1:-1].split(",") if text[-1] == ")" else None
        if parts and all(_FLOAT.fullmatch(p.strip()) for p in parts):
            nums = [float(p) for p in parts]
            if t is None and 2 <= len(nums) <= 4:
                return Vector(nums)
            if t is not None and len(nums) in _expected_count(t):
                return _build(t, nums, 0, len(text))
    spelled = _SPELLED.fullmatch(text) is not None and t in (None, "item")
    # Reference types and strings take the text as written: paths may hold spaces.
    if t in ("item",) and not spelled:
        return ItemRef(text)
    if t == "material":
        return MaterialRef(text)
    if t == "buffer":
        raise LiteralError("a buffer property takes its value from a binding; leave it empty",
                           0, len(text))
    if t == "bool" and text.lower() in ("true", "false"):
        return text.lower() == "true"      # Kanzi Studio writes True/False
    if t == "string" and not text.startswith('"'):
        return text
    if t == "color4" and text.startswith("#"):
        return _hex_color(text)
    if t is None and ("/" in text or text in (".", "..")) and not text.startswith('"') and not spelled:
        return ItemRef(text)            # "." (this item) and ".." are paths without a '/'
    if t == "enum" or (t is None and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", text)
                        and text not in ("true", "false", "inf", "nan")
                        and text.lower() not in _CONSTRUCTORS):
        return _enum(aliases.get(text, text) if aliases else text, enum)

    r = _Reader(text)
    value, kind, start, end = _value(r)
    extra = r.peek()
    if extra is not None:
        raise LiteralError(f"unexpected {extra.text!r} after the value", extra.start, len(text))
    return _fit(value, kind, t, start, end, text)


def _value(r: _Reader):
    """One value: (value, kind, start, end). `kind` is a type name, or "tuple" for `( ... )`."""
    tok = r.next()
    if tok.kind == "num":
        v = _number(tok)
        return v, type(v).__name__, tok.start, tok.end
    if tok.kind == "str":
        return _unescape(tok), "string", tok.start, tok.end
    if tok.kind == "word" and tok.text in ("true", "false"):
        return tok.text == "true", "bool", tok.start, tok.end
    if tok.kind == "word" and tok.text.lower() in _REFERENCES and r.peek() is not None and r.peek().text == "(":
        r.next()
        inner = r.next()
        close = r.next()
        if inner.kind != "str" or close.text != ")":
            raise LiteralError(f'{tok.text}(...) takes one quoted text, e.g. {tok.text}("Name")', tok.start,
                               close.end)
        kind = tok.text.lower()
        return _REFERENCES[kind](_unescape(inner)), kind, tok.start, close.end
    if tok.kind == "word" and tok.text.lower() in _CONSTRUCTORS:
        kind, counts = _CONSTRUCTORS[tok.text.lower()]
        paren = r.next()
        if paren.text != "(":
            raise LiteralError(f"expected '(' after {tok.text}", paren.start, paren.end)
        nums, end = r.numbers_in_parens(paren)
        if len(nums) not in counts:
            want = " or ".join(str(c) for c in counts)
            raise LiteralError(f"{tok.text}(...) takes {want} numbers, not {len(nums)}", tok.start, end)
        return _build(kind, nums, tok.start, end), kind, tok.start, end
    if tok.text == "(":
        nums, end = r.numbers_in_parens(tok)
        return nums, "tuple", tok.start, end
    if tok.kind == "word":
        return EnumValue(tok.text), "enum", tok.start, tok.end
    raise LiteralError(f"unexpected {tok.text!r}", tok.start, tok.end)


def _fit(value, kind: str, want: str | None, start: int, end: int, text: str):
    """Convert a parsed value to the wanted type, or explain why it does not fit."""
    if kind == "tuple":
        n = len(value)
        if want is None:
            if n not in (2, 3, 4):
                raise LiteralError(f"a vector has 2, 3 or 4 components, not {n}", start, end)
            return Vector([float(x) for x in value])
        if want in _COMPOUND:
            counts = _expected_count(want)
            if n not in counts:
                raise LiteralError(f"{a_or_an(want)} needs {' or '.join(map(str, counts))} numbers, "
                                   f"this has {n}", start, end)
            return _build(want, value, start, end)
        raise LiteralError(f"expected {a_or_an(want)}, found a tuple of {n} numbers", start, end, True)
    if want is None or want == kind:
        return value
    if want == "float" and kind == "int":
        return float(value)
    if want == "int" and kind == "float":
        raise LiteralError(f"expected an int, found {text[start:end]}", start, end, True)
    if want == "color4" and kind == "vector4":
        return Color4(value)
    if want == "item" and kind == "resource":
        return value                  # a resource (an image, a text) where an item may go
    raise LiteralError(f"expected {a_or_an(want)}, found {a_or_an(kind)} ({text[start:end]})", start, end, True)


def _enum(text: str, words) -> EnumValue:
    # digits too: Kanzi Studio stores the values of custom enums as numbers
    # (an enum word's integer is its place in the list: a custom enum's own numbers, as
    # Kanzi Studio stores them, are 0, 1, 2... in that order)
    if not re.fullmatch(r"[A-Za-z0-9_]+", text):
        raise LiteralError(f"expected an enum word, found {text!r}", 0, len(text))
    if words and text.isdigit() and int(text) < len(words):
        return EnumValue(words[int(text)], int(text))
    if words and text not in words:
        near = closest(text, words)
        hint = f"; did you mean {near!r}?" if near else f"; one of: {', '.join(words)}"
        raise LiteralError(f"{text!r} is not allowed here{hint}", 0, len(text))
    return EnumValue(text, list(words).index(text) if words else None)


def _hex_color(text: str) -> Color4:
    m = re.fullmatch(r"#([0-9a-fA-F]{6})([0-9a-fA-F]{2})?", text)
    if not m:
        raise LiteralError("a hex colour is #RRGGBB or #RRGGBBAA", 0, len(text))
    digits = m.group(1) + (m.group(2) or "ff")
    return Color4([int(digits[i:i + 2], 16) / 255.0 for i in range(0, 8, 2)])


def check_value(value, spec, name: str = ""):
    """A value for `item.set` and `--set`: converted to the property's declared type (`spec`
    from the catalog; None: any property value) and checked by the catalog's one rule for
    values (`PropertySpec.problem`: finite, 32-bit ints, enum words, range, work limit).
    Strings for non-string properties are read as literals. Raises ValueError."""
    if spec is None:
        if value is not None:
            _type_name(value)          # TypeError for things that are no property value
            if (bad := number_problem(value)):
                raise ValueError(f"{name} {bad}")
        return value
    want = spec.type
    if value is None:
        return None
    if isinstance(value, str) and want != "string":
        try:
            return check_value(parse_literal(value, want, enum=spec.enum or None,
                                             enum_aliases=getattr(spec, "enum_aliases", ())), spec, name)
        except LiteralError as e:
            raise ValueError(e.about(name, want, value)) from None
    if want == "item" and hasattr(value, "path") and hasattr(value, "children"):
        value = ItemRef(value.path)           # an Item given directly
    try:
        have = _type_name(value)
    except TypeError:
        have = None
    if have != want:
        try:
            value = coerce(want, value)
        except OverflowError:         # float(10**400)
            raise ValueError(f"{name} must be a finite number, not an int of "
                             f"{len(str(abs(value)))} digits") from None
        except ValueError:
            raise ValueError(f"{name} takes {a_or_an(want)}, not {value!r}") from None
    if want == "enum" and spec.enum and str(value) not in spec.enum:
        raise ValueError(f"{name}: {value} is not one of {', '.join(spec.enum)}")
    if (bad := spec.problem(value)):
        raise ValueError(f"{name} {bad}")
    return value
