"""Where each table and key of a TOML spec is written: tomllib gives values, no positions,
so the text is scanned for the header and key lines (enough for a spec's flat tables).

    where = positions(text)
    where[("count", 0)]            -> (line, column, end_column) of the first [[count]]
    where[("count", 0, "alive")]   -> the `alive = ...` key of that table
    where[("seed",)]               -> a top-level key
"""
from __future__ import annotations

import re

_HEADER = re.compile(r'^\s*(\[\[?)\s*([^\]]+?)\s*\]\]?')
_KEY = re.compile(r'^\s*("[^"]*"|\'[^\']*\'|[A-Za-z0-9_.-]+)\s*=')


def _parts(dotted: str) -> tuple[str, ...]:
    return tuple(p.strip().strip('"\'') for p in re.findall(r'"[^"]*"|\'[^\']*\'|[^.]+', dotted))


def positions(text: str) -> dict[tuple, tuple[int, int, int]]:
    """{key path: (line, column, end column exclusive)}, 1-based. Arrays of tables count
    their entries: ("count", 0) is the first [[count]]."""
    where: dict[tuple, tuple[int, int, int]] = {}
    counts: dict[tuple, int] = {}
    table: tuple = ()
    depth = 0                 # open brackets of a multi-line value: its lines hold no keys
    for number, line in enumerate(text.splitlines(), 1):
        bare = _strip_comment(line)
        if depth == 0 and (m := _HEADER.match(bare)):
            name = _parts(m.group(2))
            if m.group(1) == "[[":
                index = counts.get(name, 0)
                counts[name] = index + 1
                table = (*name, index)
            else:
                table = name
            where.setdefault(table, (number, m.start(1) + 1, len(bare.rstrip()) + 1))
            continue
        if depth == 0 and (m := _KEY.match(bare)):
            key = (*table, *_parts(m.group(1)))
            where.setdefault(key, (number, m.start(1) + 1, m.end(1) + 1))
        depth = max(0, depth + _brackets(bare))
    return where


def _strip_comment(line: str) -> str:
    """The line without a trailing # comment (a # inside a string stays)."""
    quote = None
    for i, ch in enumerate(line):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "\"'":
            quote = ch
        elif ch == "#":
            return line[:i]
    return line


def _brackets(line: str) -> int:
    """Opened minus closed [ and { outside strings, after the key's `=`."""
    value = line.split("=", 1)[1] if "=" in line and _KEY.match(line) else line
    n, quote = 0, None
    for ch in value:
        if quote:
            if ch == quote:
                quote = None
        elif ch in "\"'":
            quote = ch
        elif ch in "[{":
            n += 1
        elif ch in "]}":
            n -= 1
    return n
