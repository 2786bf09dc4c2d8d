"""A legacy material that has a replacement.

The stock catalog folded several old materials into newer, more general ones (the events
page lists them): `GenerateEvent_OnDeath` became `Event_Lifetime` with Min = Max = 1,
`GenerateEvent_IsAboveVelocity` became `Event_VelocityRange`, and so on. kzplayer loads a
legacy name as its replacement with that preset, so the effect still plays; this warning
names the replacement and the settings to write instead. The names Kanzi Particles 3.0
still ships (`EmissionCount_PerSecond`, `Emitter_DiscSurface`, `Emitter_Cone`... in its
release notes and migration guide) are played the same way without a warning.

To fix: set the slot to the replacement and add the preset values the message lists.

Failing:

    <Property name="ParticleEmitter.GenerateEventsMaterial">GenerateEvent_OnDeath</Property>

Passing:

    <Property name="ParticleEmitter.GenerateEventsMaterial">Event_Lifetime</Property>
    <Property name="Events.LifetimeMin">1</Property>
    <Property name="Events.LifetimeMax">1</Property>
"""
from kzplayer.diagnostics import Severity
from kzplayer.project.literals import format_literal
from kzplayer.validate.context import slotted_materials, value_span
from kzplayer.validate.engine import Problem

CODE = "KZ403"
RULE = "material.deprecated"
SEVERITY = Severity.WARNING


def check(context):
    for item, slot_property, name, spec in slotted_materials(context):
        if spec is None or not spec.legacy or spec.current:
            continue                   # a name Kanzi 3.0 still ships is no deprecated one
        replacement = spec.replacement or "its replacement"
        settings = _settings(context, item, spec)
        short = ", ".join(f"{k.split('.', 1)[1]} = {v}" for k, v in settings)
        use = f"{replacement} with {short}" if settings else replacement
        hint = f"set {slot_property} to {replacement}"
        if settings:
            hint += " and add " + ", ".join(f"{k} = {v}" for k, v in settings) + \
                " (kzplayer applies this preset meanwhile)"
        yield Problem(value_span(item.properties[slot_property]), f"{name} is deprecated: use {use}", hint)


def _settings(context, item, spec) -> list[tuple[str, str]]:
    """The preset values the node does not set itself (those it sets already win over the
    preset). Properties both materials read (a count's Rate) carry over and are not listed."""
    return [(k, format_literal(v, getattr(context.catalog.property(k), "type", None)))
            for k, v in spec.preset.items() if k not in item.properties]
