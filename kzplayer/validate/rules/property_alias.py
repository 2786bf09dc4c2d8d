"""A Kanzi Particles 3.0 name of a stock material or property (a note).

Kanzi Particles 3.0 (Kanzi 4.1) names some stock materials and properties otherwise than the
seed pages kzplayer's catalog follows: `Affector_Gravity` for `Gravity`, the colliders page's
`ParticleCollider.Bounce` for `Collider.Bounce` (docs/catalog.md, "Other names"). Where the
catalog's entry carries Kanzi's name itself (`ParticlesOverLife.ColorStart`,
`ParticleEmitter.Mesh`), kzplayer's earlier name is the alias and reads silently. Both are one catalog entry: kzplayer reads and plays the Kanzi name as the entry it
names, and says so once per name, at its first use (the other uses are related positions).

To fix: nothing to fix; write the catalog's name instead to silence the note.

Noted:

    <Property name="ParticleAffector.AffectorMaterial">Affector_Gravity</Property>

Passing (nothing to note):

    <Property name="ParticleAffector.AffectorMaterial">Gravity</Property>
"""
from kzplayer.diagnostics import Severity
from kzplayer.validate.context import alias_problems

CODE = "KZ311"
RULE = "property.alias"
SEVERITY = Severity.NOTE

_KIND = {"material": "stock material", "property": "property", "enum": "word"}


def check(context):
    def say(a):
        return (f"{a.name} is Kanzi Particles 3.0's name of the {_KIND[a.kind]} {a.of}; kzplayer reads "
                f"it as {a.of}", None)
    yield from alias_problems(context, "kanzi", say)
