"""A diagnostic for people: `file:line:col: severity: message [rule]`, the source line with
a caret under the span (a long line cut to a window around it), `see also:` the related
places and the hint. The text format of `kzplayer validate` (formats.py) and what every
command prints (commands/report.py).
"""
from __future__ import annotations

from kzplayer.diagnostics import Diagnostic
from kzplayer.project.source import source_lines

_COLOURS = {"error": "1;31", "warning": "1;33", "note": "1;36"}


def _paint(text: str, code: str, on: bool) -> str:
    return f"\x1b[{code}m{text}\x1b[0m" if on else text


def format_diagnostic(d: Diagnostic, *, color: bool = False) -> str:
    """`file:line:col: severity: message [rule]`, the source line, a caret under the span
    (to the end of the line when the span goes on), `see also:` the related places, and
    `hint:`; ANSI colours if asked."""
    sev = d.severity.value
    where = ""
    if d.span:      # line 0: the file as a whole
        where = _paint(f"{d.span.file}: " if not d.span.line else f"{d.span}: ", "1", color)
    out = [f"{where}{_paint(sev, _COLOURS[sev], color)}: {d.message} {_paint(f'[{d.rule}]', '2', color)}"]
    if d.span and d.span.line:
        lines = source_lines(d.span.file)
        if 0 < d.span.line <= len(lines):
            src = lines[d.span.line - 1].expandtabs(1)      # one column per character, as spans count
            if d.span.end_line == d.span.line and d.span.end_column:
                width = d.span.end_column - d.span.column
            else:
                width = len(src) - d.span.column + 1
            shown, column, width = source_window(src, d.span.column, max(1, width))
            out.append(f"    {shown}")
            out.append("    " + " " * (column - 1) + _paint("^" * width, _COLOURS[sev], color))
    others = [r for r in d.related if r is not None and r.line and r != d.span]
    if others:          # the other places of the same problem (a loop's other bindings, ...)
        shown = [f"{r.line}:{r.column}" if d.span and r.file == d.span.file else str(r) for r in others[:5]]
        more = f" and {len(others) - 5} more" if len(others) > 5 else ""
        out.append(f"    {_paint('see also:', '1', color)} {', '.join(shown)}{more}")
    if d.hint:
        out.append(f"    {_paint('hint:', '1;32', color)} {d.hint}")
    return "\n".join(out)


WINDOW = 200        # characters of a source line shown around a diagnostic's column


def source_window(line: str, column: int, width: int, window: int = WINDOW) -> tuple[str, int, int]:
    """(the part of `line` to show, the column and width of the caret in it): a line longer
    than `window` is cut to `window` characters around `column`, each cut marked with '...',
    so a 100 MB attribute prints a short line."""
    if len(line) <= window:
        return line, column, width
    start = max(0, min(column - 1 - window // 4, len(line) - window))
    end = start + window
    head = "..." if start > 0 else ""
    tail = "..." if end < len(line) else ""
    caret = column - start + len(head)
    return head + line[start:end] + tail, caret, max(1, min(width, end - (column - 1)))
