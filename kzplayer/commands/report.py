"""Printing diagnostics for people, on a terminal in colour (the text itself is
kzplayer/validate/text.py's, which `kzplayer validate` writes too)."""
from __future__ import annotations

import os
import sys

from kzplayer.diagnostics import Diagnostic
from kzplayer.validate.text import format_diagnostic


def wants_color(stream) -> bool:
    """Colour on a terminal, unless NO_COLOR is set (https://no-color.org)."""
    return hasattr(stream, "isatty") and stream.isatty() and not os.environ.get("NO_COLOR")


def print_diagnostics(diags, stream=None) -> None:
    stream = stream or sys.stderr
    color = wants_color(stream)
    for d in sorted(diags, key=Diagnostic.sort_key):
        print(format_diagnostic(d, color=color), file=stream)
