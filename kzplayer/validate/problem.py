"""What a validation rule yields (kzplayer.validate.engine makes it a Diagnostic)."""
from __future__ import annotations

from typing import NamedTuple

from kzplayer.diagnostics import Severity, Span


class Problem(NamedTuple):
    """What a rule yields; the engine turns it into a Diagnostic of that rule."""
    span: Span | None
    message: str
    hint: str | None = None
    severity: Severity | None = None      # None: the rule's SEVERITY
    related: tuple[Span, ...] = ()
