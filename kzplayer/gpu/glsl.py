"""Just enough of GLSL's grammar to generate programs from material files: a tokenizer that
keeps each token's line and column, the top-level declarations of a file (uniforms,
per-step constants, functions, globals, structs, macros), and a rewrite that renames
identifiers while remembering, per line, where each column of the new text came from.

The program generator (kzplayer.gpu.generate) inlines several materials into one program;
their names would collide, so each material's own text is renamed with a per-node prefix
(`kz_n3_affectParticle`), and its `uniform` declarations become parameters read from a
uniform block. Renaming in the text, not with `#define`, keeps every other character where
the user wrote it, and the column maps turn a driver's column back into the user's one.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_NUMBER = re.compile(r"(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?(?:lf|LF|[uUfF])?|0[xX][0-9A-Fa-f]+[uU]?")

QUALIFIERS = {"const", "uniform", "in", "out", "inout", "highp", "mediump", "lowp", "precise",
              "invariant", "flat", "smooth", "noperspective", "shared", "coherent", "volatile",
              "restrict", "readonly", "writeonly", "centroid", "sample", "patch", "buffer"}
# The types a material parameter may have (a uniform of another type stays a real uniform).
PARAM_TYPES = {"float": 1, "int": 1, "uint": 1, "bool": 1,
               "vec2": 2, "vec3": 3, "vec4": 4, "ivec2": 2, "ivec3": 3, "ivec4": 4,
               "uvec2": 2, "uvec3": 3, "uvec4": 4, "mat2": 4, "mat3": 9, "mat4": 16}
PER_STEP = "KZ_PER_STEP"


@dataclass
class Token:
    text: str
    line: int            # index into the file's lines, from 0
    col: int             # index into the line, from 0
    directive: bool = False

    @property
    def is_ident(self) -> bool:
        return bool(_IDENT.fullmatch(self.text))


def tokenize(lines: list[str]) -> list[Token]:
    """Tokens of GLSL text, comments dropped; tokens on preprocessor lines are marked."""
    tokens: list[Token] = []
    in_comment = False
    continued = False
    for n, line in enumerate(lines):
        i = 0
        directive = continued or (not in_comment and line.lstrip().startswith("#"))
        continued = directive and line.rstrip().endswith("\\")
        while i < len(line):
            if in_comment:
                end = line.find("*/", i)
                if end < 0:
                    break
                in_comment, i = False, end + 2
                continue
            c = line[i]
            if c in " \t\r\\":
                i += 1
            elif line.startswith("//", i):
                break
            elif line.startswith("/*", i):
                in_comment, i = True, i + 2
            elif c.isalpha() or c == "_":
                m = _IDENT.match(line, i)
                tokens.append(Token(m.group(), n, i, directive))
                i = m.end()
            elif c.isdigit() or (c == "." and i + 1 < len(line) and line[i + 1].isdigit()):
                m = _NUMBER.match(line, i)
                end = m.end() if m and m.end() > i else i + 1
                tokens.append(Token(line[i:end], n, i, directive))
                i = end
            else:
                tokens.append(Token(c, n, i, directive))
                i += 1
    return tokens


@dataclass
class Uniform:
    """`uniform <type> <name> [= <initializer>];` of a material."""
    name: str
    type: str
    default: tuple | None        # the initializer's numbers (None: none, or not a literal)
    span: tuple[int, int, int, int]   # first line, first col, last line, end col (the statement)


@dataclass
class Declarations:
    """What a GLSL file declares at top level (names as written)."""
    uniforms: list[Uniform] = field(default_factory=list)
    opaque_uniforms: list[str] = field(default_factory=list)     # samplers, images: left as they are
    per_step: list[tuple[str, str, tuple[int, int, int, int]]] = field(default_factory=list)
    functions: set[str] = field(default_factory=set)
    prototypes: set[str] = field(default_factory=set)
    globals: set[str] = field(default_factory=set)
    structs: set[str] = field(default_factory=set)
    macros: set[str] = field(default_factory=set)
    identifiers: set[str] = field(default_factory=set)          # every identifier used
    indexed: set[str] = field(default_factory=set)              # identifiers followed by '['

    @property
    def names(self) -> set[str]:
        """Every name the file defines (what a per-node prefix must rename)."""
        return (self.functions | self.prototypes | self.globals | self.structs | self.macros
                | {u.name for u in self.uniforms} | {p[0] for p in self.per_step})


def scan(lines: list[str]) -> Declarations:
    tokens = tokenize(lines)
    decl = Declarations()
    for k, t in enumerate(tokens):
        if t.is_ident:
            decl.identifiers.add(t.text)
            if k + 1 < len(tokens) and tokens[k + 1].text == "[":
                decl.indexed.add(t.text)
    _directives(tokens, decl)
    code = [t for t in tokens if not t.directive]
    i = 0
    while i < len(code):
        start = i
        depth = 0
        while i < len(code):
            text = code[i].text
            if text in "([":
                depth += 1
            elif text in ")]":
                depth -= 1
            elif depth == 0 and text in ";{":
                break
            i += 1
        stmt = code[start:i]
        if i < len(code) and code[i].text == "{":
            i = _skip_block(code, i)
            _block_statement(stmt, decl)
            # declarators after a struct body: `struct S { ... } s;`
            if i < len(code) and code[i].text != ";" and stmt and stmt[0].text == "struct":
                rest_start = i
                while i < len(code) and code[i].text != ";":
                    i += 1
                for name in _declarators(code[rest_start:i]):
                    decl.globals.add(name)
            if i < len(code) and code[i].text == ";":
                i += 1
            continue
        end_token = code[i] if i < len(code) else (stmt[-1] if stmt else None)
        _statement(stmt, end_token, decl)
        i += 1
    return decl


def _directives(tokens: list[Token], decl: Declarations) -> None:
    for k, t in enumerate(tokens):
        if t.directive and t.text == "#" and k + 2 < len(tokens) and tokens[k + 1].text == "define" \
                and tokens[k + 1].line == t.line and tokens[k + 2].line == t.line:
            decl.macros.add(tokens[k + 2].text)


def _skip_block(code: list[Token], i: int) -> int:
    """Index after the '}' matching the '{' at i."""
    depth = 0
    while i < len(code):
        if code[i].text == "{":
            depth += 1
        elif code[i].text == "}":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return i


def _strip_qualifiers(stmt: list[Token]) -> list[Token]:
    i = 0
    while i < len(stmt):
        text = stmt[i].text
        if text == "layout" and i + 1 < len(stmt) and stmt[i + 1].text == "(":
            depth, i = 0, i + 1
            while i < len(stmt):
                depth += {"(": 1, ")": -1}.get(stmt[i].text, 0)
                i += 1
                if depth == 0:
                    break
            continue
        if text in QUALIFIERS:
            i += 1
            continue
        break
    return stmt[i:]


def _block_statement(stmt: list[Token], decl: Declarations) -> None:
    """A statement followed by a `{...}` body: a function, a struct or an interface block."""
    if not stmt:
        return
    if stmt[0].text == "struct" and len(stmt) > 1:
        decl.structs.add(stmt[1].text)
        return
    if any(t.text in ("buffer", "uniform", "in", "out") for t in stmt) and not any(t.text == "(" for t in
                                                                                   _strip_qualifiers(stmt)):
        return      # an interface block: its names stay (one block per program)
    name = _function_name(stmt)
    if name:
        decl.functions.add(name)


def _function_name(stmt: list[Token]) -> str | None:
    for k in range(1, len(stmt)):
        if stmt[k].text == "(" and stmt[k - 1].is_ident:
            return stmt[k - 1].text
    return None


def _statement(stmt: list[Token], end: Token | None, decl: Declarations) -> None:
    if not stmt or stmt[0].text == "precision":
        return
    body = _strip_qualifiers(stmt)
    is_uniform = any(t.text == "uniform" for t in stmt[:len(stmt) - len(body)])
    if not body:
        return
    if body[0].text == PER_STEP and len(body) >= 3:
        span = (stmt[0].line, stmt[0].col, end.line, end.col + 1)
        for name in _declarators(body[2:]):
            decl.per_step.append((name, body[1].text, span))
        return
    if not is_uniform and _function_name(body) and body[1:2] and body[1].is_ident \
            and any(t.text == "(" for t in body[:3]):
        decl.prototypes.add(_function_name(body))
        return
    if len(body) < 2:
        return
    type_ = body[0].text
    names = _declarators(body[1:])
    if is_uniform:
        span = (stmt[0].line, stmt[0].col, end.line, end.col + 1)
        if type_ in PARAM_TYPES and len(names) == 1 and not any(t.text == "[" for t in body[1:3]):
            decl.uniforms.append(Uniform(names[0], type_, _initializer(body[2:]), span))
        else:
            decl.opaque_uniforms.extend(names)
        return
    decl.globals.update(names)


def _declarators(tokens: list[Token]) -> list[str]:
    """The declared names of `a [N] [= init], b, ...`."""
    names, depth, expect = [], 0, True
    for t in tokens:
        if t.text in "([{":
            depth += 1
        elif t.text in ")]}":
            depth -= 1
        elif depth == 0 and t.text == ",":
            expect = True
        elif depth == 0 and expect and t.is_ident:
            names.append(t.text)
            expect = False
        elif depth == 0 and t.text == "=":
            expect = False
    return names


def _initializer(tokens: list[Token]) -> tuple | None:
    """The numbers of a literal initializer `= 1.0`, `= vec3(0.0, 1.0, 0.0)`, `= true`,
    `= mat4(1.0)`; None when there is none or it is not a literal."""
    if not tokens or tokens[0].text != "=":
        return None
    rest = [t.text for t in tokens[1:]]
    sign = 1.0
    if rest[:1] == ["-"]:
        sign, rest = -1.0, rest[1:]
    if len(rest) == 1:
        value = _literal(rest[0])
        return None if value is None else (sign * value,)
    if len(rest) >= 3 and rest[1] == "(" and rest[-1] == ")" and rest[0] in PARAM_TYPES:
        values, neg = [], 1.0
        for text in rest[2:-1]:
            if text == ",":
                continue
            if text == "-":
                neg = -1.0
                continue
            value = _literal(text)
            if value is None:
                return None
            values.append(neg * value)
            neg = 1.0
        if sign < 0:
            values = [-v for v in values]
        return _expand(rest[0], values)
    return None


def _literal(text: str) -> float | None:
    if text in ("true", "false"):
        return 1.0 if text == "true" else 0.0
    t = text.rstrip("uUfF")
    if t.lower().endswith("lf"):
        t = t[:-2]
    try:
        return float(int(t, 16)) if t.lower().startswith("0x") else float(t)
    except ValueError:
        return None


def _expand(type_: str, values: list[float]) -> tuple | None:
    """A constructor's arguments as all the components of the type (GLSL's rules for one
    scalar: a vector repeats it, a matrix puts it on the diagonal)."""
    n = PARAM_TYPES[type_]
    if type_.startswith("mat"):
        size = int(type_[3])
        if len(values) == 1:
            return tuple(values[0] if r == c else 0.0 for c in range(size) for r in range(size))
        return tuple(values) if len(values) == n else None
    if len(values) == 1:
        return tuple(values) * n
    return tuple(values) if len(values) == n else None


@dataclass
class Rewritten:
    lines: list[str]
    # per changed line: (new column, old column, inside a renamed name) segment starts
    colmaps: dict[int, list[tuple[int, int, bool]]]


def rewrite(lines: list[str], renames: dict[str, str], blank=()) -> Rewritten:
    """Rename identifiers (not member names after '.') and blank the given spans (replaced by
    spaces, so the rest of each line keeps its columns)."""
    out = list(lines)
    for (l0, c0, l1, c1) in blank:
        for n in range(l0, l1 + 1):
            a = c0 if n == l0 else 0
            b = c1 if n == l1 else len(out[n])
            out[n] = out[n][:a] + " " * (b - a) + out[n][b:]
    if not renames:
        return Rewritten(out, {})
    by_line: dict[int, list[Token]] = {}
    previous = None
    for t in tokenize(out):
        if t.text in renames and not (previous is not None and previous.text == "." and previous.line == t.line):
            by_line.setdefault(t.line, []).append(t)
        previous = t
    colmaps: dict[int, list[tuple[int, int, bool]]] = {}
    for n, found in by_line.items():
        line, pieces, cmap, at, shift = out[n], [], [(0, 0, False)], 0, 0
        for t in found:
            new = renames[t.text]
            pieces.append(line[at:t.col])
            pieces.append(new)
            cmap.append((t.col + shift, t.col, True))
            shift += len(new) - len(t.text)
            cmap.append((t.col + len(t.text) + shift, t.col + len(t.text), False))
            at = t.col + len(t.text)
        pieces.append(line[at:])
        out[n] = "".join(pieces)
        colmaps[n] = cmap
    return Rewritten(out, colmaps)


def map_column(cmap, col: int) -> int:
    """A 0-based column of rewritten text -> the column of the text as written (inside a
    renamed identifier: where the name starts)."""
    if not cmap:
        return col
    new, old, name = 0, 0, False
    for segment in cmap:
        if segment[0] > col:
            break
        new, old, name = segment
    return old if name else old + (col - new)
