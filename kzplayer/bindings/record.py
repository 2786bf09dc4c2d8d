"""CompiledBinding: the graph's record of one binding (kzplayer.bindings.binding compiles it).

Slotted and small, since a big project has tens of thousands: a binding that runs its
text's shared tree (binding._compile_shared) keeps the nodes it reads as one tuple, and its
positioned program and its `inputs` (Reference.key -> Input, with the file's positions) are
made only if something reads them (validate's rules, a problem found when it runs).
"""
from __future__ import annotations

from kzplayer.bindings.programs import parse_program
from kzplayer.bindings.sources import Input, node_label

LIVE = object()         # target_type: the target's type is worked out when written (no spec)
LATER = object()        # program: parsed with the file's positions when first read


class CompiledBinding:
    __slots__ = ("binding", "owner", "item", "name", "field", "mode", "enabled", "index", "target",
                 "_program", "runs", "shown", "_inputs", "nodes", "back", "ok", "mismatched",
                 "run", "target_type", "consumer")

    def __init__(self, binding, owner, item, name: str, field: str | None, mode: str,
                 enabled: bool, index: int):
        self.binding = binding      # kzplayer.project.model.Binding
        self.owner = owner          # the item that holds the binding; relative paths start here
        self.item = item            # the push target: the item whose property receives the value
        self.name = name            # the target property
        self.field = field          # TargetPropertyAttribute (None: whole property)
        self.mode = mode
        self.enabled = enabled
        self.index = index          # position in tree order
        self.target = (item, name)  # the node written (set again where the push target is found)
        self._program = None        # what runs with the file's positions: RawCode, else the expression
        self.runs = None            # the tree the graph evaluates: `program`, or the shared one
        self.shown = None           # the SourceExpression's program where RawCode runs (compared)
        self._inputs = {}           # Reference.key -> Input; None: made from `nodes` when read
        self.nodes = ()             # the nodes read, in the order of `inputs`
        self.back = None            # the single source Input that TWO_WAY writes back
        self.ok = True              # False: a problem keeps it from running (reported)
        self.mismatched = False     # SourceExpression and RawCode read different properties (reported)
        self.run = None             # expr.compiled's function of the shared tree, where it runs the quick way
        self.target_type = LIVE     # the target's declared type (LIVE: asked when written)
        self.consumer = None        # the buffer kind a consumer target takes (sources.CONSUMERS)

    @property
    def program(self):
        program = self._program
        if program is LATER:
            program = self._program = parse_program(self.binding, "expression")
        return program

    @program.setter
    def program(self, value) -> None:
        self._program = value

    @property
    def inputs(self) -> dict:
        inputs = self._inputs
        if inputs is None:           # a shared tree's references, placed in the file when read
            inputs = self._inputs = {
                ref.key: Input(node, None, (_reference_span, self, k))
                for k, (ref, node) in enumerate(zip(self.runs.shared_references, self.nodes))}
        return inputs

    @inputs.setter
    def inputs(self, value: dict) -> None:
        self._inputs = value

    @property
    def reads(self) -> set[tuple]:
        return set(self.nodes)

    @property
    def writes(self) -> tuple:
        return self.target

    @property
    def span(self):
        b = self.binding
        return b.target_span or b.span

    @property
    def label(self) -> str:
        return node_label(self.target)

    def __repr__(self) -> str:
        return f"<binding {self.label} {self.mode}>"


def _reference_span(cb: CompiledBinding, index: int):
    return cb.program.unique_references[index].span


class ByNode:
    """node -> the bindings that write (or read) it, in the order added: kept as the binding
    itself where one does and as a list where several do, since nearly every node has one
    (an object less a binding for the collector to scan after a build)."""
    __slots__ = ("_table",)

    def __init__(self):
        self._table: dict[tuple, object] = {}

    def get(self, node: tuple) -> list:
        """The bindings of `node` (the table's own list where several: read it, do not change it)."""
        found = self._table.get(node)
        return [] if found is None else found if found.__class__ is list else [found]

    def add(self, node: tuple, cb: CompiledBinding) -> None:
        table = self._table
        found = table.get(node)
        if found is None:
            table[node] = cb
        elif found.__class__ is list:
            found.append(cb)
        else:
            table[node] = [found, cb]

    def discard(self, node: tuple, cb: CompiledBinding) -> None:
        rest = [b for b in self.get(node) if b is not cb]
        if not rest:
            self._table.pop(node, None)
        else:
            self._table[node] = rest if len(rest) > 1 else rest[0]
