"""Bindings: evaluate every bound property of a project in dependency order, and re-run
exactly the dependents when a value changes.

The interface the player, `inspect` and the validator use:

    graph = kzplayer.bindings.resolve(project)     # evaluates every binding once
    graph.value(item, "ParticleEmitter.MaximumAmount")   # value after bindings (catalog default if unset)
    graph.is_bound(item, name)                     # True if a binding writes this property
    changed = graph.set_value(item, "Emission.Rate", 800)  # -> set of (item, name) that changed
    graph.diagnostics                              # binding errors found, as Diagnostic values

(The first version below only reads literal values; kzplayer/bindings/graph.py replaces it.)
"""
from __future__ import annotations

try:
    from kzplayer.bindings.graph import BindingGraph, resolve  # noqa: F401
except ImportError:  # pragma: no cover - bootstrap stub until graph.py lands
    class BindingGraph:  # type: ignore[no-redef]
        def __init__(self, project):
            self.project = project
            self.diagnostics = []
            self._overrides = {}

        def value(self, item, name):
            if (item, name) in self._overrides:
                return self._overrides[(item, name)]
            getter = getattr(item, "get", None)
            if getter is not None:
                return getter(name)
            prop = item.properties.get(name)
            return None if prop is None else prop.value

        def is_bound(self, item, name):
            return False

        def set_value(self, item, name, value):
            self._overrides[(item, name)] = value
            return {(item, name)}

    def resolve(project):  # type: ignore[no-redef]
        return BindingGraph(project)
