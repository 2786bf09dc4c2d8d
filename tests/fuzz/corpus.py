"""The seed corpus of the fuzz harness: every project file of the samples and of the tests'
data (the validator's cases included: each one a small, real mistake), and every binding
expression found in them, plus hand-made hostile expressions from the issue."""
from __future__ import annotations

import re
from functools import cache
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent.parent
_SOURCES = ("sample_projects", "tests/project/data", "tests/bindings/data", "tests/validate/cases")
_MAX_BYTES = 40_000         # small files mutate fast; the large ones add nothing new

# Expressions from the issue and the language's corners, to mutate from.
HOSTILE_EXPRESSIONS = (
    "(" * 39 + "1" + ")" * 39,
    " + ".join(["1"] * 1000),
    "1 & 100000000000",
    "1 & 9223372036854775807",
    'format("{:99999999999}", 1)',
    "2147483647 + 1",
    "1 << 31",
    "-2147483648 / -1",
    'splitString("a,b,c", ",", 1)',
    "{DataContext}",
    "{DataContext.gauges.battery} * 2",
    "{./Emission.Rate} * ({./Emission.Lifetime} + {./Emission.LifetimeVariance})",
    "A = {./Emission.Rate}\nA.x = 2\nA",
    "continueIf({./Emission.Rate} > 0)\ngetCurrentValue() + 1",
    "clamp(0, 1, {./Node.Opacity}) ? 1.5 : 2",
    "Srt3D(1, 1, 1, 0, 90, 0, 0, 0, 0) * createRotationZ(45)",
    'int("99999999999")',
    "sqrt(-1) + pow(10, 400)",
    "1.0 / 0",
    'string(2.0) + "x"',
    "<./Emission.Rate> < 5",
    "{view ../List/Items Value}",
)


@cache
def project_files() -> tuple[tuple[str, str], ...]:
    """(relative name, text) of every small .kzm of the corpus, in a stable order."""
    out = []
    for folder in _SOURCES:
        for path in sorted((REPO / folder).rglob("*.kzm")):
            if path.stat().st_size <= _MAX_BYTES:
                out.append((str(path.relative_to(REPO)), path.read_text(encoding="utf-8", errors="replace")))
    return tuple(out)


def small_projects() -> tuple[tuple[str, str], ...]:
    """The single-file projects small enough to play in a fuzz run (no folder layout
    item files: those are not projects on their own)."""
    return tuple((n, t) for n, t in project_files() if "<Project" in t and "<Child" not in t)


_BINDING = re.compile(r"<Binding[^>]*>(.*?)</Binding>|SourceExpression\">(.*?)</Property>", re.S)


@cache
def expressions() -> tuple[str, ...]:
    """Every binding expression of the corpus (XML entities decoded), then the hostile ones."""
    import html
    found = []
    for _, text in project_files():
        for m in _BINDING.finditer(text):
            expr = html.unescape(m.group(1) or m.group(2) or "").strip()
            if expr and expr not in found:
                found.append(expr)
    return tuple(found) + HOSTILE_EXPRESSIONS
