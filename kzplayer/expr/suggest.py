"""Did-you-mean for function names: `mx` -> `max`, `sinn` -> `sin`, `lenght` -> `length`."""
from __future__ import annotations

import os

from kzplayer.expr import ast
from kzplayer.expr.functions import FUNCTIONS


def edit_distance(a: str, b: str) -> int:
    """Levenshtein distance counting a swap of neighbours as one edit."""
    prev2, prev = None, list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb))
            if prev2 is not None and i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        prev2, prev = prev, cur
    return prev[-1]


def suggest(name: str) -> str | None:
    """The nearest known function name (`mx` -> `max`): fewest edits, at most a third of the
    name (at least one); ties go to the longest common prefix (`sinn` -> `sin`), then to the
    function listed first (common math before the rest)."""
    key = name.lower()
    limit = max(1, len(key) // 3)
    best = min(((edit_distance(key, k), -len(os.path.commonprefix([key, k])), i, k)
                for i, k in enumerate(FUNCTIONS)), default=None)
    if best is None or best[0] > limit:
        return None
    return FUNCTIONS[best[3]].name


def unknown_function(node: ast.Call) -> tuple[str, str | None]:
    if node.name.lower() == "if":
        return "there is no if() function", "write condition ? value : other"
    near = suggest(node.name)
    return (f"unknown function '{node.name}'",
            f"did you mean '{near}()'?" if near else None)
