"""Binding expressions: the language of Kanzi bindings (see docs/expressions.md).

    program = parse("{./Emission.Rate} * 2", file="effect.kzm", line=42, column=7)
    program.diagnostics          # syntax errors (rule expr.syntax), positions in the file
    program.references           # Reference(kind, path, property, index, tracked, span)
    check(program, ref_type)     # type diagnostics; ref_type(ref) -> "float" | None
    evaluate(program, env)       # Result(value, skipped); env.lookup(ref), env.current_value()
    to_text(program)             # source text that parses back to the same tree
"""
from kzplayer.expr.ast import Program, Reference
from kzplayer.expr.errors import ExprError
from kzplayer.expr.evaluator import Environment, Result, evaluate
from kzplayer.expr.functions import FUNCTIONS, FunctionSpec
from kzplayer.expr.parser import parse
from kzplayer.expr.printer import to_text
from kzplayer.expr.types import check, infer

__all__ = ["parse", "check", "infer", "evaluate", "to_text", "Program", "Reference", "Result",
           "ExprError", "FUNCTIONS", "FunctionSpec", "Environment"]
