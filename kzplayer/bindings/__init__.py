"""Bindings: evaluate every bound property of a project in dependency order, and re-run
exactly the dependents when a value changes (docs/bindings.md).

    graph = kzplayer.bindings.resolve(project)             # evaluates every binding once
    graph.value(item, "ParticleEmitter.MaximumAmount")     # value after bindings (else item.get)
    graph.is_bound(item, name)                             # an enabled binding writes it
    graph.is_set(item, name)                               # own value (file, binding, set_value)
    changed = graph.set_value(item, "Emission.Rate", 800)  # -> {(item, name), ...} that changed
    graph.set_data_context("gauges.battery", 39)           # {DataContext.gauges.battery}
    graph.diagnostics, graph.evaluations, graph.order, graph.bindings_of(item), graph.dependents(item, name)
    item, name, value = parse_override("Screens/Screen/...:Emission.Rate=800", project)  # --set
"""
from __future__ import annotations

from kzplayer.bindings.graph import BindingGraph, resolve  # noqa: F401
from kzplayer.bindings.overrides import parse_override  # noqa: F401
