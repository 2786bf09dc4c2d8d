"""An earlier name of a property, or an earlier word of an enum (a warning).

Kanzi Particles renamed a few things the seed pages and older kzplayer projects still use:
`ColorOverLife.StartColor` / `EndColor` are now `ParticlesOverLife.ColorStart` /
`ColorEnd`, and `ParticleEmitter.SortingType` takes `Identity`, `Depth`, `ReverseDepth`
and `Unsorted` where it took `None`, `BackToFront` and `FrontToBack`. The earlier names load
as the new ones (the catalog lists them as `aliases` and `enum_aliases`), so the effect
plays the same; this warning names what to write instead.

To fix: rename the property, or write the new enum word.

Failing:

    <Property name="ColorOverLife.StartColor">Color4(1, 0.5, 0, 1)</Property>
    <Property name="ParticleEmitter.SortingType">BackToFront</Property>

Passing:

    <Property name="ParticlesOverLife.ColorStart">Color4(1, 0.5, 0, 1)</Property>
    <Property name="ParticleEmitter.SortingType">Depth</Property>
"""
from kzplayer.diagnostics import Severity
from kzplayer.validate.context import value_span
from kzplayer.validate.engine import Problem

CODE = "KZ304"
RULE = "property.deprecated"
SEVERITY = Severity.WARNING


def check(context):
    cat = context.catalog
    for item in context.items:
        for name, prop in item.properties.items():
            new = cat.alias_of(name)
            if new is not None:
                yield Problem(context.name_span(prop), f"{name} is the earlier name of {new}",
                              f"rename it to {new} (kzplayer reads it as {new} meanwhile)")
            spec = cat.property(name)
            word = getattr(prop.value, "word", None)
            if spec is not None and word in spec.enum_aliases:
                yield Problem(value_span(prop), f"'{word}' is the earlier word for '{spec.enum_aliases[word]}' "
                                                f"in {name}",
                              f"write {spec.enum_aliases[word]} (kzplayer plays it as {spec.enum_aliases[word]} "
                              "meanwhile)")
