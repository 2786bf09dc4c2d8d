"""Two children of one item with the same name.

Sibling names are unique: a ProjectItemPath names one item. With two `Nozzle`s, a path to
`../Nozzle` would be ambiguous (kzplayer takes the first).

To fix: rename one of the two items, then update the paths that should lead to it.

Failing:

    <ParticleEmitter name="Nozzle"/>
    <ParticleEmitter name="Nozzle"/>

Passing:

    <ParticleEmitter name="Nozzle"/>
    <ParticleEmitter name="Nozzle 2"/>
"""
from kzplayer.diagnostics import Severity

CODE = "KZ006"
RULE = "item.duplicate-name"
SEVERITY = Severity.ERROR

# No check(): found while loading; the engine reports it as found.
