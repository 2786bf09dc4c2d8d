"""Tokens of the binding-expression language and the stream the parser reads them from.

Every token carries its position in the FILE (1-based lines and columns, end column
exclusive), so a parse error points into the file, not into the expression string.
"""
from __future__ import annotations

from typing import Any, NamedTuple

from kzplayer.diagnostics import Span

NUMBER, STRING, NAME, REF, VIEW, OP, NEWLINE, EOF = (
    "number", "string", "name", "reference", "view", "operator", "newline", "end of input")

# Display names for "expected ..." messages.
DISPLAY = {NUMBER: "a number", STRING: "a string", NAME: "a name", REF: "a reference",
           VIEW: "a range view", NEWLINE: "end of line", EOF: "end of input"}


class Token(NamedTuple):     # a tuple: tokens are made by the thousand, cheaply
    kind: str
    text: str             # the source text of the token
    value: Any            # number, unescaped string, operator text or Reference
    line: int
    column: int
    end_line: int
    end_column: int
    file: str = "<expression>"

    @property
    def span(self) -> Span:
        return Span(self.file, self.line, self.column, self.end_line, self.end_column)

    def is_op(self, *ops: str) -> bool:
        return self.kind == OP and self.value in ops

    def describe(self) -> str:
        if self.kind in (NEWLINE, EOF):
            return DISPLAY[self.kind]
        return f"'{self.text}'"


class TokenStream:
    """Tokens with one-token look-ahead in the style of jinja's TokenStream."""

    def __init__(self, tokens: list[Token]):
        self.tokens = tokens
        self.pos = 0
        self.last = tokens[0]     # the token consumed most recently: where a node ends

    @property
    def current(self) -> Token:
        return self.tokens[self.pos]

    def look(self, ahead: int = 1) -> Token:
        return self.tokens[min(self.pos + ahead, len(self.tokens) - 1)]

    def next(self) -> Token:
        tok = self.tokens[self.pos]
        if tok.kind != EOF:
            self.pos += 1
            self.last = tok
        return tok

    def next_if(self, kind: str, value: str | None = None) -> Token | None:
        tok = self.current
        if tok.kind == kind and (value is None or tok.value == value):
            return self.next()
        return None

    def skip_op(self, *ops: str) -> Token | None:
        return self.next() if self.current.is_op(*ops) else None
