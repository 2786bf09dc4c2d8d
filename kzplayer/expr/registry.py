"""The table of functions: name (any case) -> FunctionSpec. Filled by `functions.py` and
`transforms.py`; use `kzplayer.expr.FUNCTIONS` so that both are loaded."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable


@dataclass(frozen=True)
class FunctionSpec:
    name: str                       # the spelling the documentation uses
    min_args: int
    max_args: int | None            # None: any number
    impl: Callable | None           # None: engine-only, or handled by the evaluator
    evaluable: bool = True
    result: str | None = None       # result type of an engine-only function, where known
    doc: str = ""
    counts: tuple[int, ...] = ()    # the only argument counts allowed, where not a range

    def accepts(self, n: int) -> bool:
        if self.counts:
            return n in self.counts
        return n >= self.min_args and (self.max_args is None or n <= self.max_args)

    def arity_text(self) -> str:
        if self.counts:
            return " or ".join(map(str, self.counts))
        if self.max_args is None:
            return f"at least {self.min_args}"
        if self.min_args == self.max_args:
            return str(self.min_args)
        return f"{self.min_args} to {self.max_args}"


FUNCTIONS: dict[str, FunctionSpec] = {}


def define(name: str, args: int | tuple[int, int | None] | set[int], doc: str = "", *, aliases=(),
           evaluable: bool = True, result: str | None = None):
    """Register a function. `args`: a count, a (min, max) range (max None: any), or a set of
    the counts allowed (`{1, 3}` for Vector3: one value to cast, or three components)."""
    counts: tuple[int, ...] = ()
    if isinstance(args, int):
        lo, hi = args, args
    elif isinstance(args, (set, frozenset)):
        counts = tuple(sorted(args))
        lo, hi = counts[0], counts[-1]
    else:
        lo, hi = args

    def register(impl):
        for n in (name, *aliases):
            FUNCTIONS[n.lower()] = FunctionSpec(n, lo, hi, impl, evaluable, result, doc, counts)
        return impl
    return register


def lookup(name: str) -> FunctionSpec | None:
    return FUNCTIONS.get(name.lower())
