"""The file is XML but not a valid `.kzm` project.

The structure of a project is fixed by `kzm_schema/kzm.rng`: a `<Project>` root with a
`format` attribute, libraries (`<Screens>`, `<Materials>`, `<PropertyTypes>`), items whose
tag is their type and whose `name` is unique among their siblings, `<Property name=...>`,
`<Binding target=...>` and `<BindingItem>` elements. Names may not contain `/`.

To fix: move or rename the element as the hint says (it lists what the parent element may
hold).

Failing:

    <ParticleEmitter>                       <!-- no name -->
      <Property>500</Property>              <!-- no property name -->
    </ParticleEmitter>

Passing:

    <ParticleEmitter name="Nozzle">
      <Property name="Emission.Rate">500</Property>
    </ParticleEmitter>
"""
from kzplayer.diagnostics import Severity

CODE = "KZ004"
RULE = "schema.invalid"
SEVERITY = Severity.ERROR

# No check(): found while loading; the engine reports it as found.
