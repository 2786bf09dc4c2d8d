"""What the expression evaluator asks while a BindingGraph runs one binding: each
reference's value (one field of it), getCurrentValue(), and the notes of the run (an unset
project property read as its type's default), which the graph reports once it knows the run's
exact place in the file."""
from __future__ import annotations

from kzplayer.bindings.conversions import ConversionError, read_field
from kzplayer.bindings.problems import problem
from kzplayer.bindings.source_default import unset_custom_source
from kzplayer.bindings.sources import node_label
from kzplayer.expr import ExprError


class BindingEnv:
    """What the expression evaluator asks while running one binding."""

    def __init__(self, graph, b):
        self.graph, self.b = graph, b
        self.notes = []               # reported by the graph once the run's place is exact

    def lookup(self, ref):
        src = self.b.inputs[ref.key]
        return self._read(src.node, src.field, ref.spelling, ref.span)

    def current_value(self):
        return self._read(self.b.target, self.b.field, "getCurrentValue()", self.b.span)

    def _read(self, node: tuple, field: str | None, what: str, span):
        """A node's value (one field of it); an empty property (a consumer buffer or a dynamic
        property declared without a value) has none to compute with."""
        value = self.graph.value(*node)
        default, note = unset_custom_source(self.graph, node, what, span)
        if note is not None:                # a project's own property unset in the file
            self.notes.append(note)
            value = default
        if value is None:
            raise ExprError(problem("expr.value", f"{what}: {node_label(node)} has no value", span,
                                    hint="give the property a value in the file, or bind it"))
        try:
            return read_field(value, field)
        except ConversionError as exc:
            raise ExprError(problem("binding.type-mismatch", f"{what}: {exc}", span)) from None
