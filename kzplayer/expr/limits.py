"""The limits of the binding language, in one place (docs/expressions.md, "Limits").

Generous for real projects (generated expressions run to thousands of terms) and explicit:
an expression beyond them is an `expr.limit` diagnostic at the spot, never a crash. And
Kanzi's values: its ints are 32-bit two's complement, so every int the evaluator makes
wraps into 32 bits, and a string a binding computes is bounded.

    MAX_LENGTH    characters of one expression's text
    MAX_NESTING   brackets, calls, unary operators and ?: inside one another
    MAX_DEPTH     depth of the syntax tree: each operator of a chain `a + b + c` is a level
    MAX_STRING    characters of a string a binding computes (format widths, `+` on strings)

Every walk over a syntax tree (parse, check, evaluate, print) runs inside `deep_recursion()`,
which lets Python recurse as deep as these limits need (the default limit of 1,000 frames
would stop at about 30 nested brackets).
"""
from __future__ import annotations

import sys
from contextlib import contextmanager

MAX_LENGTH = 100_000
MAX_NESTING = 200
MAX_DEPTH = 2_000
MAX_STRING = 100_000

INT_MIN = -(2 ** 31)
INT_MAX = 2 ** 31 - 1

# Python frames one level of the tree or of nesting can take (the parser's precedence
# levels take two each), with room to spare; well within the C stack on Python 3.11+.
_FRAMES = 40_000


def wrap32(x: int) -> int:
    """An int as Kanzi's 32-bit int holds it: two's complement wrap (2147483647 + 1 is
    -2147483648), as C++ does on every machine Kanzi runs on."""
    return (int(x) - INT_MIN) % 2 ** 32 + INT_MIN


def fits32(x: int) -> bool:
    return INT_MIN <= x <= INT_MAX


class LimitError(ValueError):
    """A value beyond the limits (a string too long); the evaluator reports it as expr.value."""


def check_string_length(n: int) -> None:
    """Before a string of `n` characters is made: LimitError when it would be too long."""
    if n > MAX_STRING:
        raise LimitError(f"the result would be a string of {n:,} characters; a binding's strings "
                         f"hold at most {MAX_STRING:,}")


@contextmanager
def deep_recursion():
    """Let the tree walks inside recurse as deep as MAX_NESTING and MAX_DEPTH need."""
    old = sys.getrecursionlimit()
    if old < _FRAMES:
        sys.setrecursionlimit(_FRAMES)
    try:
        yield
    finally:
        if old < _FRAMES:
            sys.setrecursionlimit(old)

