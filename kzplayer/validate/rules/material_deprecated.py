"""A legacy material that has a replacement.

The stock catalog folded several old materials into newer, more general ones (the
emission and events pages list them): `EmissionCount_PerSecond`, `_Periodic` and `_Burst`
became presets of `EmissionCount_Schedule`; `Emitter_DiscSurface` became `Emitter_Disc`;
`GenerateEvent_OnDeath` became `Event_Lifetime` with Min = Max = 1, and so on. kzplayer
loads a legacy name as its replacement with that preset, so the effect still plays; this
warning names the replacement and the settings to write instead.

Failing:

    <Property name="ParticleEmitter.EmissionCountMaterial">EmissionCount_PerSecond</Property>

Passing:

    <Property name="ParticleEmitter.EmissionCountMaterial">EmissionCount_Schedule</Property>
    <Property name="Emission.OnDuration">0</Property>
    <Property name="Emission.OffDuration">0</Property>
"""
from kzplayer.diagnostics import Severity
from kzplayer.validate.context import slotted_materials, value_span
from kzplayer.validate.engine import Problem

CODE = "KZ403"
RULE = "material.deprecated"
SEVERITY = Severity.WARNING


def check(context):
    for item, slot_property, name, spec in slotted_materials(context):
        if spec is None or not spec.legacy:
            continue
        replacement = spec.replacement or "its replacement"
        preset = _preset(spec.preset)
        use = f"{replacement} with {preset}" if preset else replacement
        yield Problem(value_span(item.properties[slot_property]), f"{name} is deprecated: use {use}",
                      f"set {slot_property} to {replacement}" + (f" and {preset}" if preset else ""))


def _preset(preset) -> str:
    """The catalog's preset, a mapping or already a phrase, as 'Rate = R, OnDuration = 0'."""
    if not preset:
        return ""
    if isinstance(preset, dict):
        return ", ".join(f"{k.split('.')[-1]} = {v}" for k, v in preset.items())
    return str(preset)
