"""Rendering diagnostics for people: `file:line:col: severity: message [rule]`, the source
line with a caret under the span, and the hint. (kzplayer validate adds JSON and GitHub.)"""
from __future__ import annotations

import sys
from functools import lru_cache
from pathlib import Path

from kzplayer.diagnostics import Diagnostic


@lru_cache(maxsize=64)
def _lines(path: str) -> list[str]:
    try:
        return Path(path).read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return []


def format_diagnostic(d: Diagnostic, *, color: bool = False) -> str:
    sev = d.severity.value
    if color:
        sev = {"error": "\x1b[1;31merror\x1b[0m", "warning": "\x1b[1;33mwarning\x1b[0m",
               "note": "\x1b[1;36mnote\x1b[0m"}[sev]
    where = f"{d.span}: " if d.span else ""
    out = [f"{where}{sev}: {d.message} [{d.rule}]"]
    if d.span and d.span.line:
        lines = _lines(d.span.file)
        if 0 < d.span.line <= len(lines):
            src = lines[d.span.line - 1].expandtabs(1)
            width = 1
            if d.span.end_line == d.span.line and d.span.end_column:
                width = max(1, d.span.end_column - d.span.column)
            out.append(f"    {src}")
            out.append("    " + " " * (d.span.column - 1) + "^" * width)
    if d.hint:
        out.append(f"    hint: {d.hint}")
    return "\n".join(out)


def print_diagnostics(diags, stream=None) -> None:
    stream = stream or sys.stderr
    color = hasattr(stream, "isatty") and stream.isatty()
    for d in sorted(diags, key=Diagnostic.sort_key):
        print(format_diagnostic(d, color=color), file=stream)
