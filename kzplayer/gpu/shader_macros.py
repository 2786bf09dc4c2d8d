"""What a GLSL program's macros expand to, counted without expanding them, and the value of
an integer constant expression (an array's size): the arithmetic of kzplayer.gpu.shader_limits.

A macro bomb (`#define A1 (A0+A0)`, 24 levels) expands to 2^24 times its first macro: the
counts are memoised per macro (object-like) and per macro and argument sizes (function-like),
and saturate at a cap, so counting is linear in the text however far the macros expand."""
from __future__ import annotations

import ast
import re

MAX_MACRO_DEPTH = 200              # macros expanding inside one another (and macro arguments)

TOKEN = re.compile(r"[A-Za-z_]\w*|\d[\w.]*(?:[eE][+-]?\d+)?|\.\d[\w]*|<<=?|>>=?|##|&&|\|\||\+\+|--|[-+*/%&|^<>=!]=|\S")


class TooDeep(Exception):
    """Macros inside one another deeper than MAX_MACRO_DEPTH."""


class Macros:
    """What each macro expands to, as token counts: object-like macros memoised, function-
    like ones per (name, sizes of the arguments). Counts saturate at `cap`, so no count
    grows past what is needed to say "too many"."""

    def __init__(self, cap: int):
        self.cap = cap
        self.objects: dict[str, list[str]] = {}
        self.functions: dict[str, tuple[list[str], list[str]]] = {}
        self.memo: dict[tuple, int] = {}
        self.names: set[str] = set()           # every macro name
        self.level = 0

    def define(self, name: str, params: str | None, body: str) -> None:
        self.memo.clear()
        self.objects.pop(name, None)
        self.functions.pop(name, None)
        tokens = TOKEN.findall(body)
        self.names.add(name)
        if params is None:
            self.objects[name] = tokens
        else:
            self.functions[name] = ([p.strip() for p in params.split(",") if p.strip()], tokens)

    def undef(self, name: str) -> None:
        self.memo.clear()
        self.names.discard(name)
        self.objects.pop(name, None)
        self.functions.pop(name, None)

    def size(self, tokens: list, active: frozenset = frozenset()) -> int:
        """Tokens after expansion; an entry of `tokens` is a name or an int (an argument
        already counted)."""
        self.level += 1
        try:
            return self._size(tokens, active)
        finally:
            self.level -= 1

    def _size(self, tokens: list, active: frozenset) -> int:
        if self.level > MAX_MACRO_DEPTH:
            raise TooDeep
        total, i = 0, 0
        while i < len(tokens) and total <= self.cap:
            tok = tokens[i]
            if isinstance(tok, int):
                total += tok
            elif tok in self.objects and tok not in active:
                key = (tok, active)
                if key not in self.memo:
                    self.memo[key] = self.size(self.objects[tok], active | {tok})
                total += self.memo[key]
            elif tok in self.functions and tok not in active and i + 1 < len(tokens) and tokens[i + 1] == "(":
                args, i = _arguments(tokens, i + 2)
                total += self._call(tok, tuple(self.size(a, active) for a in args), active)
                continue
            else:
                total += 1
            i += 1
        return min(total, self.cap + 1)

    def _call(self, name: str, sizes: tuple, active: frozenset) -> int:
        key = (name, sizes, active)
        if key not in self.memo:
            params, body = self.functions[name]
            weights = dict(zip(params, sizes))
            self.memo[key] = self.size([weights.get(t, t) for t in body], active | {name})
        return self.memo[key]

    def constant(self, tokens: list[str], consts: dict[str, int], depth: int = 0) -> list[str]:
        """`tokens` with object-like macros and known `const int`s put in (for an array's size)."""
        out: list[str] = []
        for tok in tokens:
            if tok in consts:
                out.append(str(consts[tok]))
            elif tok in self.objects and depth < 16 and len(out) < 256:
                out.extend(["(", *self.constant(self.objects[tok], consts, depth + 1), ")"])
            else:
                out.append(tok)
        return out


def _arguments(tokens: list, i: int) -> tuple[list[list], int]:
    """The arguments of a call whose '(' is just before `i`; returns them and the index past ')'."""
    args, current, depth = [], [], 0
    while i < len(tokens):
        tok = tokens[i]
        if tok == "(":
            depth += 1
        elif tok == ")":
            if depth == 0:
                args.append(current)
                return [a for a in args if a], i + 1
            depth -= 1
        elif tok == "," and depth == 0:
            args.append(current)
            current = []
            i += 1
            continue
        current.append(tok)
        i += 1
    args.append(current)
    return args, i


_SAFE = (ast.Expression, ast.BinOp, ast.UnaryOp, ast.Constant, ast.Add, ast.Sub, ast.Mult, ast.FloorDiv,
         ast.Mod, ast.LShift, ast.RShift, ast.USub, ast.UAdd)


def evaluate(tokens: list[str]) -> int | None:
    """An integer constant expression of literals (an array's size), None when it is not one."""
    text = " ".join(tokens).replace("/", "//")
    text = re.sub(r"\b(\d+)[uU]\b", r"\1", text)
    if len(text) > 2000:
        return None
    try:
        tree = ast.parse(text, mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    try:
        if not all(isinstance(n, _SAFE) for n in ast.walk(tree)):
            return None
        return _value(tree.body)
    except RecursionError:
        return None


def _value(node) -> int | None:
    if isinstance(node, ast.Constant):
        return node.value if isinstance(node.value, int) else None
    if isinstance(node, ast.UnaryOp):
        v = _value(node.operand)
        return None if v is None else (-v if isinstance(node.op, ast.USub) else v)
    a, b = _value(node.left), _value(node.right)
    if a is None or b is None or abs(a) > 1 << 62 or abs(b) > 1 << 62:
        return None
    op = type(node.op)
    if op in (ast.LShift, ast.RShift):
        return (a << b if op is ast.LShift else a >> b) if 0 <= b < 64 else None
    if op in (ast.FloorDiv, ast.Mod) and b == 0:
        return None
    return {ast.Add: a + b, ast.Sub: a - b, ast.Mult: a * b}.get(op) if op not in (ast.FloorDiv, ast.Mod) \
        else (a // b if op is ast.FloorDiv else a % b)
