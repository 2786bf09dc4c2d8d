"""Output formats of `kzplayer validate` (contract: shared/design/cli.md): text for people,
JSON for tools, GitHub workflow commands for annotations on pull requests."""
from __future__ import annotations

import json

from kzplayer.diagnostics import Diagnostic, Severity
from kzplayer.validate.engine import Result
from kzplayer.validate.text import format_diagnostic


def summary_counts(result: Result) -> dict[str, int]:
    return {"errors": result.count(Severity.ERROR), "warnings": result.count(Severity.WARNING),
            "notes": result.count(Severity.NOTE)}


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def summary_line(result: Result) -> str:
    c = summary_counts(result)
    files = _plural(len(result.files), "file")
    if not any(c.values()):
        return f"{files} checked: no problems."
    return (f"{files} checked: {_plural(c['errors'], 'error')}, {_plural(c['warnings'], 'warning')}"
            f", {_plural(c['notes'], 'note')}.")


def render_text(result: Result, *, color: bool = False) -> str:
    parts = [format_diagnostic(d, color=color) for d in result.diagnostics]
    parts.append(summary_line(result))
    return "\n".join(parts) + "\n"


def diagnostic_json(d: Diagnostic) -> dict:
    s = d.span
    at = s if s is not None and s.line else None       # line 0: the file as a whole, no position
    return {"code": d.code, "rule": d.rule, "severity": d.severity.value, "message": d.message,
            "file": s.file if s else None,
            "line": at.line if at else None, "column": at.column if at else None,
            "end_line": at.end_line if at else None, "end_column": at.end_column if at else None,
            "hint": d.hint,
            "related": [{"file": r.file, "line": r.line, "column": r.column, "end_line": r.end_line,
                         "end_column": r.end_column} for r in d.related if r is not None and r != s]}


def render_json(result: Result) -> str:
    doc = {"files": list(result.files),
           "diagnostics": [diagnostic_json(d) for d in result.diagnostics],
           "summary": summary_counts(result)}
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


# https://docs.github.com/actions/reference/workflow-commands-for-github-actions
_GITHUB_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.NOTE: "notice"}


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def github_line(d: Diagnostic) -> str:
    props = []
    s = d.span
    if s is not None:
        props.append(f"file={_escape_property(s.file)}")
        if s.line:
            props += [f"line={s.line}", f"col={s.column}"]
            if s.end_line and s.end_line != s.line:
                props.append(f"endLine={s.end_line}")
            if s.end_column:
                props.append(f"endColumn={s.end_column}")
    props.append(f"title={_escape_property(d.rule)}")
    message = d.message + (f"\n{d.hint}" if d.hint else "")
    return f"::{_GITHUB_LEVEL[d.severity]} {','.join(props)}::{_escape_data(message)}"


def render_github(result: Result) -> str:
    lines = [github_line(d) for d in result.diagnostics]
    lines.append(summary_line(result))
    return "\n".join(lines) + "\n"
