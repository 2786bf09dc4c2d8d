"""`kzplayer validate PROJECT...`: every problem of every project, in one pass.

Exit codes (cli.md): 0 clean, 1 errors (with --strict also warnings), 2 a path that cannot be
read. Diagnostics go to standard output: they are what the command produces.
"""
from __future__ import annotations

import sys

from kzplayer.commands.report import wants_color
from kzplayer.diagnostics import Severity
from kzplayer.validate.engine import Result, validate_paths
from kzplayer.validate.formats import render_github, render_json, render_text


def exit_code(result: Result, strict: bool = False) -> int:
    if result.unreadable:
        return 2
    failing = {Severity.ERROR, Severity.WARNING} if strict else {Severity.ERROR}
    return 1 if any(d.severity in failing for d in result.diagnostics) else 0


def run(projects, fmt: str = "text", strict: bool = False, stream=None) -> int:
    stream = stream or sys.stdout
    result = validate_paths(projects)
    if fmt == "json":
        out = render_json(result)
    elif fmt == "github":
        out = render_github(result)
    else:
        out = render_text(result, color=wants_color(stream))
    stream.write(out)
    stream.flush()
    return exit_code(result, strict)
