"""The binding graph: every binding evaluated once in dependency order, then kept current.

Nodes are `(item, property)`; a binding reads the nodes of its references and writes its
target. Binding B depends on binding A when B reads what A writes. Bindings on a cycle are
reported once per loop (`binding.cycle`, every member named) and do not run; the rest run in
topological order, ties in tree order. `set_value` re-runs the bindings downstream of the
change in that order, and stops where a value comes out unchanged.
"""
from __future__ import annotations

import dataclasses
import gc
import heapq
from contextlib import contextmanager

from kzplayer.bindings.binding import TWO_WAY, CompiledBinding, compile_binding
from kzplayer.bindings.conversions import ConversionError, coerce, read_field, write_field
from kzplayer.bindings.datasources import preview_value
from kzplayer.bindings.environment import BindingEnv
from kzplayer.bindings.lookups import Lookups
from kzplayer.bindings.order import sort
from kzplayer.bindings.problems import problem
from kzplayer.bindings.rebind import rebind
from kzplayer.bindings.record import LIVE, ByNode
from kzplayer.bindings.sources import (CONSUMERS, OUTPUTS, data_context_key, node_label, node_type,
                                       output_value)
from kzplayer.diagnostics import Diagnostic, KzError, Severity
from kzplayer.expr import ExprError, evaluate
from kzplayer.expr.limits import wrap32

_ABSENT = object()


def resolve(project, data_context: dict | None = None) -> "BindingGraph":
    """Compile every binding of `project` and evaluate each once, in dependency order."""
    with _no_collections():
        graph = BindingGraph(project, data_context)
        graph.evaluate_all()
    return graph


@contextmanager
def _no_collections():
    """The garbage collector paused: a graph of 10,000 bindings is some 100,000 new, linked
    objects, and the collections their allocation triggers scan the whole heap (the project
    too) again and again; nothing becomes cyclic garbage while a graph is built."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


class BindingGraph:
    def __init__(self, project, data_context: dict | None = None):
        self.project = project
        self.evaluations = 0                  # binding evaluations so far (tests count them)
        self.order_steps = 0                  # dependency edges the ordering followed (tests count them)
        self.bindings: list[CompiledBinding] = []
        self.order: list[CompiledBinding] = []     # the bindings that run, in evaluation order
        self._static: list[Diagnostic] = []
        self._runtime: dict[tuple, Diagnostic] = {}
        self._values: dict[tuple, object] = {}     # node -> value written by a binding or set_value
        self._data: dict[str, object] = dict(data_context or {})
        self._readers = ByNode()                   # node -> the bindings that read it
        self._writers = ByNode()                   # node -> the enabled bindings that write it
        self._rank: dict[CompiledBinding, int] = {}
        self._compiled_diags: dict[CompiledBinding, list] = {}     # each binding's own (rebind)
        with _no_collections():
            self._compile()
            sort(self)
            self._preview_data(set(self._data))

    # -- the interface ----------------------------------------------------------------------

    def value(self, item, name: str):
        """The value after bindings; the item's own value (or catalog default) if unbound.
        A property is one node under any of its names (`ParticlesOverLife.ColorStart` is
        `ColorOverLife.StartColor`)."""
        node = self._key(item, name)
        name = node[1]
        if node in self._values:
            return self._values[node]
        if item is None:
            return self._data.get(data_context_key(name) or name)
        out = output_value(item, name)
        return out if out is not None else item.get(name)

    def is_bound(self, item, name: str) -> bool:
        return bool(self._writers.get(self._key(item, name)))

    def is_set(self, item, name: str) -> bool:
        """Whether the property has a value of its own: written in the file, written by a
        binding that ran, or given by `set_value` (also when equal to the catalog default),
        as opposed to `value()` falling back to the catalog default. A bound property whose
        binding could not run (an error, a DataContext input without a value) keeps the value
        written in the file, as Kanzi keeps the local value, and is set only if the file gives
        one (`is_evaluated` tells whether the binding ran)."""
        node = self._key(item, name)
        if node in self._values:
            return True
        if item is None:
            return node[1] in self._data
        prop = item.own_property(name)
        return (prop is not None and prop.value is not None) or output_value(item, name) is not None

    def is_evaluated(self, item, name: str) -> bool:
        """Whether (item, name) holds a value a binding (or `set_value`) gave it; False for a
        bound property whose binding could not run, which shows its stale own value."""
        return self._key(item, name) in self._values or (item is None and self.is_set(item, name))

    def bindings_of(self, item) -> list[CompiledBinding]:
        """The bindings an item holds, in file order (their push target may be another item)."""
        return [b for b in self.bindings if b.owner is item]

    def dependents(self, item, name: str) -> list[tuple]:
        """Every node a change of (item, name) can reach, in evaluation order."""
        reached, todo = [], list(self._readers.get(self._key(item, name)))
        seen = set()
        while todo:
            b = todo.pop()
            if b in seen or b not in self._rank:
                continue
            seen.add(b)
            reached.append(b)
            todo.extend(self._readers.get(b.writes))
        reached.sort(key=self._rank.__getitem__)
        return list(dict.fromkeys(b.writes for b in reached))

    @property
    def diagnostics(self) -> list[Diagnostic]:
        found = self._static + list(self._runtime.values()) + self._missing_data()
        return sorted(found, key=Diagnostic.sort_key)

    def set_data_context(self, key: str, value) -> set[tuple]:
        """Give `{DataContext.<key>}` a value; re-runs what reads it."""
        return self.set_value(None, key, value)

    def set_value(self, item, name: str, value) -> set[tuple]:
        """Set a property as the application would; re-run exactly the bindings downstream.

        Returns the (item, name) nodes whose value changed. A TWO_WAY binding whose target is
        set writes the value back to its source first."""
        node = self._key(item, name)
        if item is not None and name in OUTPUTS:
            raise KzError(problem("binding.output-target", f"{node_label(node)} is an output of the emitter "
                                  "and cannot be set", None), exit_code=2)
        if item is not None:
            try:
                value = coerce(value, self._type_of(node))
            except ConversionError as exc:
                raise KzError(problem("binding.type-mismatch", f"{node_label(node)}: {exc}", None),
                              exit_code=2) from None
        changed: set[tuple] = set()
        if not self._store(node, value):
            return changed
        changed.add(node)
        seeds = [node]
        for b in self._writers.get(node):
            if b.mode == TWO_WAY and b.back is not None and b in self._rank:
                if self._write(b, b.back.node, read_field(value, b.field), b.back.field):
                    changed.add(b.back.node)
                    seeds.append(b.back.node)
        self._propagate(seeds, changed)
        return changed

    # -- building -----------------------------------------------------------------------------

    def _preview_data(self, given: set) -> None:
        """Start each `{DataContext.x}` the caller did not give from the project's own data
        objects, where it holds them (kzplayer.bindings.datasources)."""
        for b in self.bindings:
            for item, key in b.nodes:
                if item is None and key not in given and key not in self._data:
                    value = preview_value(self.project, b.owner, key)
                    if value is not None:
                        self._data[key] = value

    def _compile(self) -> None:
        look = Lookups(self.project)
        for item in self.project.walk():
            for binding in item.bindings:
                if binding.owner is None:
                    binding.owner = item
                self._add(binding, len(self.bindings), look)

    def _add(self, binding, index: int, look: Lookups) -> CompiledBinding:
        cb, diags = compile_binding(binding, index, self.project, look)
        self.bindings.append(cb)
        if diags:
            self._static.extend(diags)
            self._compiled_diags[cb] = diags
        writes = cb.target
        if cb.enabled and writes[0] is not None:
            self._writers.add(writes, cb)
            if cb.ok:
                nodes = cb.nodes
                for node in (nodes if len(nodes) < 2 else dict.fromkeys(nodes)):
                    self._readers.add(node, cb)
        return cb

    def rebind(self, item, bindings) -> set[tuple]:
        """Give `item` these bindings instead of its own, re-running only what they reach
        (kzplayer.bindings.rebind)."""
        return rebind(self, item, bindings)

    # -- running ------------------------------------------------------------------------------

    def evaluate_all(self) -> None:
        run = self._run
        for b in self.order:
            run(b, True)

    def _propagate(self, seeds: list[tuple], changed: set[tuple], run=()) -> None:
        """Re-run the readers of `seeds` (and the bindings `run`), and theirs, in order."""
        queue, queued = [], set()

        def enqueue(node):
            for r in self._readers.get(node):
                if r in self._rank and r not in queued:
                    queued.add(r)
                    heapq.heappush(queue, (self._rank[r], r.index, r))
        for node in seeds:
            enqueue(node)
        for b in run:
            if b in self._rank and b not in queued:
                queued.add(b)
                heapq.heappush(queue, (self._rank[b], b.index, b))
        while queue:
            *_, b = heapq.heappop(queue)
            if self._run(b):
                changed.add(b.writes)
                enqueue(b.writes)

    def _run(self, b: CompiledBinding, fresh: bool = False) -> bool:
        """Evaluate one binding and store its result; True when the written value changed
        (`fresh`: evaluate_all, which does not ask)."""
        run = b.run
        if run is not None:          # the shared tree's function of the values read (expr.compiled)
            values, args = self._values, []
            for node in b.nodes:
                v = values.get(node, _ABSENT)
                if v is _ABSENT:
                    v = self._own(node)
                if v.__class__ is int:
                    v = wrap32(v)    # Kanzi's ints are 32-bit, as the evaluator reads them
                elif v is None:
                    break            # no value to compute with: the evaluator says so
                args.append(v)
            else:
                try:
                    value = run(args)
                except Exception:    # the evaluator runs it again, and says what went wrong where
                    pass
                else:
                    self.evaluations += 1
                    return self._write(b, b.target, value, b.field, fresh)
        for item, name in b.nodes:
            if item is None and (data_context_key(name) or name) not in self._data:
                return False     # waits for its DataContext input (reported by _missing_data)
        self.evaluations += 1
        result, notes, error = self._attempt(b, b.runs)
        if (notes or error) and b.runs is not b.program:
            # the shared tree ran: what it found is placed in the file by the exact program
            result, notes, exact_error = self._attempt(b, b.program)
            error = exact_error or error
        for note in notes:
            self._report(note)
        if error is not None:
            self._report(error.diagnostic)
            return False
        if result.skipped:       # continueIf(false): the target keeps its value
            return False
        return self._write(b, b.target, result.value, b.field, fresh)

    def _attempt(self, b: CompiledBinding, tree):
        """(result, notes, ExprError or None) of one run of the binding on `tree`."""
        env = BindingEnv(self, b)
        try:
            return evaluate(tree, env), env.notes, None
        except ExprError as exc:
            return None, env.notes, exc

    def _write(self, b: CompiledBinding, node: tuple, value, field: str | None, fresh: bool = False) -> bool:
        """Write `value` (one field of it when `field`) into a node, converted to its type."""
        target = node is b.target
        try:
            if field is not None:
                value = write_field(self.value(*node), field, value)
            kind = b.target_type if target else LIVE
            value = coerce(value, self._type_of(node) if kind is LIVE else kind)
        except (ConversionError, TypeError) as exc:
            self._report(problem("binding.type-mismatch", f"binding of {node_label(node)}: {exc}",
                                 b.binding.expression_span or b.span))
            return False
        want = b.consumer if target else CONSUMERS.get(node[1])
        if want and getattr(value, "kind", want) != want:
            # both are buffers, but records of another layout: the player would misread them
            if not b.mismatched:    # else binding.source-mismatch has said so, where the fix goes
                self._report(problem("binding.type-mismatch", f"{node[1]} takes the source's "
                                     f"ParticleEmitter.{want}, not its ParticleEmitter.{value.kind}", b.span,
                                     hint=f"make it read the source emitter's ParticleEmitter.{want}"))
            return False
        return self._store(node, value, fresh)

    def _store(self, node: tuple, value, fresh: bool = False) -> bool:
        if node[0] is None:
            key = data_context_key(node[1]) or node[1]
            if key in self._data and self._data[key] == value:
                return False
            self._data[key] = value
            return True
        values = self._values
        current = values.get(node, _ABSENT)
        if current is _ABSENT:
            if fresh:            # stored whether or not it equals the item's own value
                values[node] = value
                return True
            current = self._own(node)
        if current == value and type(current) is type(value):
            values.setdefault(node, value)
            return False
        values[node] = value
        return True

    @staticmethod
    def _own(node: tuple):
        """An item's property as it is without bindings (value(), for a node not written)."""
        item, name = node
        out = output_value(item, name) if name in OUTPUTS else None
        return out if out is not None else item.get(name)

    def _type_of(self, node: tuple) -> str | None:
        return node_type(self.project, node)

    def _report(self, d: Diagnostic) -> None:
        if d.rule == "expr.not-evaluable":     # fine in Kanzi; kzplayer leaves the target as it is
            d = dataclasses.replace(d, severity=Severity.NOTE)
            if d in self._static:               # the checker's note on the same call
                return
        self._runtime.setdefault((d.rule, d.span, d.message), d)

    def _missing_data(self) -> list[Diagnostic]:
        out = {}
        for b in self.order:
            for k, (item, key) in enumerate(b.nodes):
                if item is None and key not in self._data and key not in out:
                    span = list(b.inputs.values())[k].span
                    out[key] = problem("binding.data-context", f"{{DataContext.{key}}} has no value",
                                       span, severity=Severity.WARNING,
                                       hint=f"give one with --set 'DataContext.{key}=VALUE'")
        return list(out.values())

    def _key(self, item, name: str) -> tuple:
        if item is None:
            return (None, data_context_key(name) or name)
        cat = self.project.catalog
        return (item, cat.canonical(name) if cat is not None else name)
