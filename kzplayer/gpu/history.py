"""How many positions an emitter keeps per particle (docs/player.md, "Position history").

A rendering material that draws trails says so in the catalog (`history = "Trail.Length"`:
the emitter's property whose value is N) or, for a custom MaterialType, with its `history=`
attribute (a property name or a number). The simulation then keeps a ring of N positions
per pool slot, written by the step (kzplayer/gpu/generate.py, Particles/history.glsl). No
GL here: the renderer and validate ask the same question.
"""
from __future__ import annotations

from kzplayer.gpu.layout import MAX_HISTORY

MIN_HISTORY = 2             # a trail needs two points for one segment


def history_spec(cat, material_ref) -> str:
    """The catalog's `history` of the rendering material a ParticleMaterial value names
    ("" for none, an empty slot, an unknown material)."""
    if material_ref is None or str(material_ref).strip() == "":
        return ""
    spec = cat.material(str(material_ref))
    if spec is not None and spec.legacy and spec.replacement:
        spec = cat.material(spec.replacement)
    if spec is None or spec.slot != "Particle":
        return ""
    return spec.history or ""


def history_length(cat, material_ref, value) -> int:
    """N for an emitter whose ParticleMaterial is `material_ref`; `value(name)` reads its
    properties. 0 when the material keeps none; else clamped to 2..MAX_HISTORY."""
    spec = history_spec(cat, material_ref)
    if not spec:
        return 0
    try:
        n = int(spec)
    except ValueError:
        got = value(spec)
        if got is None:
            prop = cat.property(spec)
            got = prop.default if prop is not None else None
        try:
            n = int(round(float(got)))
        except (TypeError, ValueError):
            n = 0
    return min(max(n, MIN_HISTORY), MAX_HISTORY)
