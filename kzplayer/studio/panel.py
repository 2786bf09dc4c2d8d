"""What the page shows of the model, as JSON-ready dicts: the item tree and the property
panel of one item.

The panel lists the item's material slots, then exactly the properties that its assigned
materials read (the catalog's `reads`, stock and custom materials alike), one group per
material, then the item type's own properties (`ParticleEmitter.MaximumAmount`), then any
property the file sets that none of them names. Each row: catalog type, unit, range, default, the value now
(after bindings), whether the file sets it, and the binding that writes it.
"""
from __future__ import annotations

import math

from kzplayer.project.literal_format import format_literal

PLACED = ("Node3D.RenderTransformation",)     # where a node is: shown with its type's own properties


def tree(project) -> list[dict]:
    """Every item in tree order: path, name, type, depth (libraries at 0)."""
    out = []
    for item in project.walk():
        depth = item.path.count("/")
        out.append({"path": item.path, "name": item.name, "type": item.type, "depth": depth,
                    "node": _is_particle(item.type)})
    return out


def _is_particle(kind: str) -> bool:
    return kind in ("ParticleSystem", "ParticleEmitter", "ParticleAffector", "ParticleCollider",
                    "Camera", "Model3D", "DirectionalLight", "PointLight", "SpotLight")


def material_slots(project, item) -> list[tuple[str, str]]:
    """(slot property, material name) for every material-typed property the item's type
    carries, in catalog order: `ParticleEmitter.EmissionMaterial` -> `Emitter_Point`."""
    cat = project.catalog
    out = []
    for spec in cat.properties.values():
        if spec.type == "material" and item.type in spec.item_types:
            value = item.get(spec.name)
            if value is not None and str(value):
                out.append((spec.name, str(value)))
    return out


def panel(project, graph, item) -> dict:
    cat = project.catalog
    groups, shown = [], set()
    slot_props = [s.name for s in cat.properties.values() if s.type == "material" and item.type in s.item_types]
    own = [n for n, s in cat.properties.items()
           if item.type in s.item_types and n.split(".", 1)[0] == item.type and n not in slot_props]
    own += [n for n in PLACED if cat.property(n) is not None and item.type in cat.property(n).item_types]
    if slot_props:
        groups.append({"title": "materials", "material": None,
                       "rows": [row(project, graph, item, n) for n in slot_props]})
    shown.update(slot_props + own)
    for slot_property, name in material_slots(project, item):
        spec = cat.material(name)
        if spec is None:
            groups.append({"title": f"{name} (unknown material)", "material": name, "rows": []})
            continue
        reads = [n for n in spec.properties if n not in shown and cat.property(n) is not None]
        shown.update(reads)
        groups.append({"title": f"{spec.name} ({spec.slot})", "material": spec.name, "slot": slot_property,
                       "missing": [n for n in reads if item.own_property(n) is None],
                       "rows": [row(project, graph, item, n) for n in reads]})
    if own:
        groups.append({"title": item.type, "material": None, "rows": [row(project, graph, item, n) for n in own]})
    rest = [n for n in item.properties if n not in shown and cat.canonical(n) not in shown]
    if rest:
        groups.append({"title": "set in the file, read by none of its materials", "material": None,
                       "rows": [row(project, graph, item, n) for n in rest]})
    bindings = [{"index": k, "target": b.target, "expression": b.expression} for k, b in enumerate(item.bindings)]
    return {"path": item.path, "name": item.name, "type": item.type, "groups": groups, "bindings": bindings}


def row(project, graph, item, name: str) -> dict:
    spec = project.property_spec(name)
    prop = item.own_property(name)
    try:
        value = graph.value(item, name) if graph is not None else item.get(name)
    except Exception:       # a value the graph cannot give (a broken binding): show the file's
        value = item.get(name)
    binding = next((k for k, b in enumerate(item.bindings)
                    if b.target == name or (spec is not None and project.catalog.canonical(b.target) == spec.name)),
                   None)
    out = {"name": name, "type": spec.type if spec else None, "unit": spec.unit if spec else "",
           "min": _number(spec.min) if spec else None, "max": _number(spec.max) if spec else None,
           "default": _text(spec.default, spec.type) if spec else "",
           "enum": list(spec.enum) if spec else [], "doc": spec.doc if spec else "",
           "set": prop is not None and prop.value is not None,
           "value": _text(value, spec.type if spec else None), "binding": binding,
           "output": bool(spec and spec.output)}
    if spec is not None and spec.type == "material":
        out["choices"] = [m.name for m in project.catalog.materials_for_slot(spec.slot)]
    return out


def _number(x):
    return None if x is None or (isinstance(x, float) and not math.isfinite(x)) else x


def _text(value, type_name) -> str:
    try:
        return format_literal(value, type_name)
    except TypeError:
        return str(value)
