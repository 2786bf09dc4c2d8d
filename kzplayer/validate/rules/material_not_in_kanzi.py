"""A material that works in kzplayer but not in Kanzi (a warning).

`Event_AccelerationRange` is held back from Kanzi's shipped catalog (events page): Kanzi's
integrator clears each particle's acceleration before the event pass runs, so the band is
never entered for any non-zero `Events.AccelerationMin`. kzplayer resets acceleration before
the affectors instead, so the material fires here; an effect that relies on it looks right
in kzplayer and publishes no events in Kanzi.

To fix: where the effect must also run in Kanzi, use a material Kanzi ships (the hint names
them).

Failing:

    <Property name="ParticleEmitter.GenerateEventsMaterial">Event_AccelerationRange</Property>

Passing (a speed band, which Kanzi ships):

    <Property name="ParticleEmitter.GenerateEventsMaterial">Event_VelocityRange</Property>
"""
from kzplayer.diagnostics import Severity
from kzplayer.validate.context import slotted_materials, value_span
from kzplayer.validate.engine import Problem

CODE = "KZ404"
RULE = "material.not-in-kanzi"
SEVERITY = Severity.WARNING
# Stock materials Kanzi does not ship, with what happens there instead (the events page).
NOT_IN_KANZI = {
    "Event_AccelerationRange": ("Kanzi clears the acceleration before the event pass, so the band is "
                                "never entered for a non-zero Events.AccelerationMin"),
}


def check(context):
    for item, slot_property, name, spec in slotted_materials(context):
        if spec is not None and spec.name in NOT_IN_KANZI and not spec.custom:
            yield Problem(value_span(item.properties[slot_property]),
                          f"{spec.name} is not shipped with Kanzi: kzplayer runs it, but {NOT_IN_KANZI[spec.name]}",
                          "for an effect that must also work in Kanzi, use Event_VelocityRange or Event_Lifetime")
