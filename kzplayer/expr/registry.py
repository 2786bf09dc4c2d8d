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

    def arity_text(self) -> str:
        if self.max_args is None:
            return f"at least {self.min_args}"
        if self.min_args == self.max_args:
            return str(self.min_args)
        return f"{self.min_args} to {self.max_args}"


FUNCTIONS: dict[str, FunctionSpec] = {}


def define(name: str, args: int | tuple[int, int | None], doc: str = "", *, aliases=(),
            evaluable: bool = True, result: str | None = None):
    lo, hi = (args, args) if isinstance(args, int) else args

    def register(impl):
        for n in (name, *aliases):
            FUNCTIONS[n.lower()] = FunctionSpec(n, lo, hi, impl, evaluable, result, doc)
        return impl
    return register


def lookup(name: str) -> FunctionSpec | None:
    return FUNCTIONS.get(name.lower())
