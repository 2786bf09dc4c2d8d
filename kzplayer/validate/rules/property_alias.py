"""A Kanzi-style name of a stock material or property that no page of the manual states (a note).

Some Kanzi Particles 3.0 names are kzplayer's reading, not the manual's: `Affector_Wind`
for `Wind` (only `Affector_Gravity` is named by a page; the prefix of the others is
inferred), the sizing page's `AmountPerSecond` as `Emission.AmountPerSecond` (the prefix
inferred) (docs/catalog.md, "Other names"). A name the manual states is read silently: the
catalog's entry carries it (`ParticleCollider.Bounce`, `ParticlesOverLife.ColorStart`, with
kzplayer's earlier name as the alias), or it is the manual's other name of an entry that is
Kanzi's too (`Affector_Gravity`, `ParticlesOverLife`). Both are one catalog entry: kzplayer
reads and plays the inferred name as the entry it names, and says so once per name, at its
first use (the other uses are related positions).

To fix: nothing to fix; write the catalog's name instead to silence the note.

Noted:

    <Property name="ParticleAffector.AffectorMaterial">Affector_Wind</Property>

Passing (nothing to note):

    <Property name="ParticleAffector.AffectorMaterial">Wind</Property>
"""
from kzplayer.diagnostics import Severity
from kzplayer.validate.context import alias_problems

CODE = "KZ311"
RULE = "property.alias"
SEVERITY = Severity.NOTE

_KIND = {"material": "stock material", "property": "property", "enum": "word"}


def check(context):
    def say(a):
        return (f"{a.name} is a Kanzi-style name of the {_KIND[a.kind]} {a.of} that no page of the Kanzi "
                f"Particles 3.0 manual states; kzplayer reads it as {a.of}", None)
    yield from alias_problems(context, "inferred", say)
