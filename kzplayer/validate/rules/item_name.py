"""An item without a name, or a name a path cannot hold.

Every item needs a `name`; names may contain spaces but not `/` (it separates the names of
a path), and cannot be empty.

To fix: give the item a non-empty `name` without `/`.

Failing:

    <ParticleEmitter name="Sparks/Left"/>

Passing:

    <ParticleEmitter name="Sparks Left"/>
"""
from kzplayer.diagnostics import Severity

CODE = "KZ007"
RULE = "item.name"
SEVERITY = Severity.ERROR

# No check(): found while loading; the engine reports it as found.
