"""A binding source with no value in the file (Kanzi's rule: it reads its property type's
default).

A project's own property (a PropertyType of the project, or of an imported .kzproj) that
the source item does not set and no binding writes is set by someone else in Kanzi: a prefab
instance, a plugin or the application, at run time. Kanzi reads the property type's default
meanwhile; so does kzplayer, and says so with a `binding.source-default` note (never an
error). Stock properties have their catalog defaults and are read silently; a buffer, item
or material has no default to read (the binding cannot run: expr.value).
"""
from __future__ import annotations

from kzplayer.bindings.problems import problem
from kzplayer.bindings.sources import node_label
from kzplayer.diagnostics import Severity
from kzplayer.project.literal_format import format_literal

_NO_DEFAULT = ("buffer", "item", "material")


def reads_type_default(spec) -> bool:
    """Whether a source of this property may read its type's default (when unset)."""
    return spec is not None and spec.custom and spec.type not in _NO_DEFAULT and spec.default is not None


def unset_custom_source(graph, node: tuple, what: str, span):
    """(default, note) for a source node that is a project's own property without a value
    of its own; (None, None) for any other node (read as it is)."""
    item, name = node
    project = getattr(item, "project", None) if item is not None else None
    spec = project.property_spec(name) if project is not None else None
    if not reads_type_default(spec):
        return None, None
    if graph.is_set(item, name):
        return None, None
    shown = format_literal(spec.default, spec.type)
    note = problem("binding.source-default",
                   f"{what}: {node_label(node)} has no value in the file; the binding reads its type's "
                   f"default, {shown}, as Kanzi does until a prefab instance, a plugin or the application "
                   f"sets it", span, severity=Severity.NOTE,
                   hint=f"give {name} a value in the file (or with --set) to read another one")
    return spec.default, note
