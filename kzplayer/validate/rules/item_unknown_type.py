"""An element whose tag is not an item type kzplayer knows.

An item's tag is its type: `ParticleSystem`, `ParticleEmitter`, `ParticleAffector`,
`ParticleCollider`, `EmptyNode`, `Scene`, `Camera`, `Viewport2D`, `Screen`, ... A misspelt
tag makes the whole subtree something the player does not run: a tag close to a played
type is an error. Kanzi's own types that kzplayer keeps but does not play (`TextBlock2D`,
`ScreenLibrary`, ...; listed in docs/catalog.md) are silent, as in an imported `.kzproj`; any
other tag is kept and not played, with one warning per type.

To fix: correct the tag to the item type meant (the hint names the closest one).

Failing:

    <ParticleEmiter name="Nozzle"/>

Passing:

    <ParticleEmitter name="Nozzle"/>
"""
from kzplayer.diagnostics import Severity

CODE = "KZ005"
RULE = "item.unknown-type"
SEVERITY = Severity.ERROR

# No check(): found while loading; the engine reports it as found.
