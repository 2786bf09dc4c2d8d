"""Diagnostics are values: every stage collects them instead of raising.

A `Span` counts lines and columns from 1; `end_column` is exclusive. Rules and the loader
create `Diagnostic`s; the command line renders them (text with a caret, JSON, GitHub).
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from enum import Enum

from kzplayer.codes import CODES


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"
    NOTE = "note"

    @property
    def rank(self) -> int:
        return {"error": 0, "warning": 1, "note": 2}[self.value]


@dataclass(frozen=True, order=True)
class Span:
    file: str
    line: int
    column: int
    end_line: int | None = None
    end_column: int | None = None

    def __post_init__(self) -> None:
        if self.end_line is None:
            object.__setattr__(self, "end_line", self.line)
        if self.end_column is None:
            object.__setattr__(self, "end_column", self.column + 1)

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


MAX_MESSAGE = 1000       # characters of a diagnostic's message or hint


def shorten(text: str, limit: int = MAX_MESSAGE) -> str:
    """`text` cut to about `limit` characters, saying how much was left out."""
    if len(text) <= limit:
        return text
    keep = limit - 40
    return f"{text[:keep]}... ({len(text) - keep:,} more characters)"


@dataclass(frozen=True)
class Diagnostic:
    code: str            # stable code, e.g. "KZ104"
    rule: str            # stable slug from cli.md, e.g. "binding.push-target"
    severity: Severity
    message: str
    span: Span | None = None
    hint: str | None = None
    related: tuple[Span, ...] = field(default=())

    def __post_init__(self) -> None:
        # The code always comes from the one table (kzplayer/codes.py), whatever a stage passed.
        code = CODES.get(self.rule)
        if code is not None and code != self.code:
            object.__setattr__(self, "code", code)
        # A message that quotes the input (a 100 MB attribute) stays readable.
        for name in ("message", "hint"):
            text = getattr(self, name)
            if text is not None and len(text) > MAX_MESSAGE:
                object.__setattr__(self, name, shorten(text))

    def sort_key(self):
        s = self.span
        return (s.file, s.line, s.column, self.rule) if s else ("", 0, 0, self.rule)

    def __str__(self) -> str:
        where = f"{self.span}: " if self.span else ""
        return f"{where}{self.severity.value}: {self.message} [{self.rule}]"


class KzError(Exception):
    """Raised where work cannot go on (a file that is not XML, say). Carries the diagnostics."""

    def __init__(self, diagnostics: list[Diagnostic] | Diagnostic, exit_code: int = 1):
        if isinstance(diagnostics, Diagnostic):
            diagnostics = [diagnostics]
        self.diagnostics = list(diagnostics)
        self.exit_code = exit_code
        super().__init__("\n".join(str(d) for d in self.diagnostics))


def a_or_an(word: str) -> str:
    """The word with its article, for messages: 'an int', 'a float', 'an Affector'."""
    return ("an " if word[:1].lower() in "aeiou" else "a ") + word


def closest(word: str, names, cutoff: float = 0.6) -> str | None:
    """The one of `names` nearest to `word` (difflib's similarity ratio, at least `cutoff`)
    for a "did you mean" hint; None when none is close. Every stage suggests through this."""
    near = difflib.get_close_matches(word, list(names), n=1, cutoff=cutoff)
    return near[0] if near else None
