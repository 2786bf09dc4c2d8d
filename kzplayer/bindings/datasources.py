"""`{DataContext.a.b}` from a Kanzi Studio project's own data sources.

A node's data context is set by its `DataContext.DataContext` property (or inherited from the
node above it): a data source, whose root data object is the context, or a data object.
`{DataContext.compass.destination}` then reads the data object `compass/destination` below it.
At runtime a data source plugin gives the values; the project holds the data objects Kanzi
Studio previews with (Interpolate.kzproj: destination 30, direction 60), and kzplayer starts
from those, as Kanzi Studio's Preview does. A value given with `--set 'DataContext.x=...'`
wins; a data object the project does not hold (a list item's, set by the list at runtime)
stays an input without a value (`binding.data-context`).
"""
from __future__ import annotations

from kzplayer.project import paths, prefabs
from kzplayer.values import ItemRef

CONTEXT = "DataContext.DataContext"
_VALUE, _TYPE = "DataObjectValue", "DataObjectDataType"
_CASTS = {"INTEGER": int, "REAL": float, "FLOAT": float, "STRING": str,
          "BOOLEAN": lambda text: str(text).strip().lower() in ("true", "1")}


def context_of(project, item):
    """The data object that is `item`'s data context, or None."""
    node, seen = prefabs.attachment(project, item), set()
    while node is not None and id(node) not in seen:
        seen.add(id(node))
        prop = node.properties.get(CONTEXT)
        if prop is not None and isinstance(prop.value, ItemRef):
            target = project.find(prop.value.path, relative_to=node)
            if target is not None and target.type == "DataSource":
                target = next((c for c in target.children if c.type == "DataObject"), None)
            return target
        up = paths.runtime_parents(project, node)
        node = up[0] if up else node.parent
    return None


def preview_value(project, owner, key: str):
    """The value of `{DataContext.<key>}` for a binding held by `owner`, from the project's
    data objects; None where the project holds none."""
    obj = context_of(project, owner)
    for name in key.split(".") if key else ():
        obj = obj.child(name) if obj is not None else None
    if obj is None or obj.type != "DataObject":
        return None
    prop, kind = obj.properties.get(_VALUE), obj.properties.get(_TYPE)
    cast = _CASTS.get(str(kind.value) if kind is not None else "")
    if prop is None or prop.value is None or cast is None:
        return None
    try:
        return cast(prop.value)
    except (TypeError, ValueError):
        return None
