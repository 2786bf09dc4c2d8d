"""Property values as the scene plays them, and where the file gives them: the one value rule.

Two layers, one reader (`Values`):

* `bound(item, name)`: the value after bindings and run-time overrides (`--set`), the
  node's own or the catalog default; None where the item's type has no such property (the
  renderer asks cameras for optional properties). Validate's rules read this layer: a
  range check must see the value as written, not as clamped.
* `value(item, name)`: as it plays. Where the node has no value of its own, or one that is
  no number (NaN, infinite, an int past 32 bits: validate's property.range error),
  `catalog.default_for` (a legacy material's preset, e.g. Emitter_Cone's 30 degrees, else
  the catalog default); then the catalog's clamp where the catalog asks the player to
  clamp, and the work limit (`work_max`: validate's property.work-limit warning says so).
"""
from __future__ import annotations

from contextlib import contextmanager

from kzplayer.project.catalog import number_problem
from kzplayer.project.prefab_instances import value_holder

_READ_ERRORS = (AttributeError, KeyError, LookupError, TypeError, ValueError)


class Values:
    def __init__(self, graph, catalog):
        self.graph = graph          # None: no bindings resolved (validate on a broken project)
        self.catalog = catalog
        self._slot_properties = [p.name for p in catalog.properties.values() if p.slot]
        self._steady: dict | None = None    # value() worked out once each, inside steady()

    @contextmanager
    def steady(self):
        """Within it nothing changes the graph, so each value() is worked out once: a refresh
        of the records and of their GPU side reads the same values many times (a live edit
        at 200 emitters: ~500 reads, most falling to the slot materials' presets)."""
        if self._steady is not None:
            yield
            return
        self._steady = {}
        try:
            yield
        finally:
            self._steady = None

    def value(self, item, name: str):
        memo = self._steady
        if memo is None:
            return self._value(item, name)
        key = (id(item), name)
        if key not in memo:
            memo[key] = self._value(item, name)
        return memo[key]

    def _value(self, item, name: str):
        value = self.bound(item, name)
        spec = self.catalog.property(name)
        plain_default = spec.default if spec is not None else None
        if value is None or (value == plain_default and not self.authored(item, name)) \
                or number_problem(value):
            value = self.catalog.default_for(name, self._slot_materials(item))
        if spec is not None and spec.clamped and value is not None:
            value = spec.clamp(value)
        if spec is not None and spec.work_max is not None:
            value = spec.within_work(value)
        return value

    def authored(self, item, name: str) -> bool:
        # Written in the file, bound, or set at run time (even to the catalog default):
        # only then does the node's own value beat a legacy material's preset.
        if self.graph is None:
            return name in getattr(item, "properties", {})
        return self.graph.is_set(item, name)

    def span(self, item, name: str):
        """Where the file gives the property its value: the binding that writes it, else the
        value text of its <Property>, else the item; None when the value was set at run time
        (--set): the file does not say it."""
        for cb in (self.graph.bindings if self.graph is not None else ()):
            if cb.item is item and cb.name == name and getattr(cb.binding, "span", None):
                return cb.binding.span
        prop = getattr(item, "properties", {}).get(name)
        if self.bound(item, name) != (prop.value if prop is not None else _get(item, name)):
            return None
        return getattr(prop, "value_span", None) or getattr(prop, "span", None) or getattr(item, "span", None)

    def bound(self, item, name: str):
        """The value after bindings and overrides (no presets, no clamps)."""
        try:
            if self.graph is None:
                return item.get(name)
            # a node of a prefab instance reads its placeholder's or its template's value
            return self.graph.value(value_holder(item, name, self.graph.is_set), name)
        except _READ_ERRORS:
            prop = getattr(item, "properties", {}).get(name)
            return None if prop is None else prop.value

    def _slot_materials(self, item) -> list:
        """The materials named in the item's slots (legacy names included: their presets)."""
        memo, key = self._steady, (id(item), "#slots")
        if memo is not None and key in memo:
            return memo[key]
        found = [self.bound(item, n) for n in self._slot_properties if self.authored(item, n)]
        if memo is not None:
            memo[key] = found
        return found


def _get(item, name: str):
    try:
        return item.get(name)
    except _READ_ERRORS:
        return None
