"""A property name the catalog does not know, or one its item cannot carry.

Every property name has a declared type in the catalog (`kzm_schema/`): the stock node and
material properties, plus the project's own `<PropertyTypes>` and the properties of its
`<MaterialType>`s. An unknown name is usually a typo, and Kanzi silently ignores it: the
value never reaches the material. The same check applies to a binding's target property
and to the `Source` of a BindingSourceItem. The hint names the closest known property.

A known property set on an item type that has no use for it (an `Emission.*` property on a
ParticleAffector, whose materials never read it), or bound there, is reported too, naming
the item types that carry it.

Items of a type kzplayer does not model are not checked (the loader reports the type), nor
are the bindings they hold or receive, nor material uniforms' bindings (their targets are
uniform names). Kanzi's own property families on the node types kzplayer plays are known,
not played (`kanzi_prefixes` in the catalog: `Window.Width` or `Node.Locale` on a Screen, as
a project converted from Kanzi Studio holds them): not an error, unless the name is a near
miss of a property the type carries (`Node3D.RenderTransformaton`). A misspelt particle
property (`Emission.Lifetim`) is always an error. In a Kanzi Studio project (`.kzproj`),
which carries every Kanzi property, only names of the families kzplayer knows
(`Emission.`, `ParticleEmitter.`, ...) are checked.

To fix: correct the name (the hint names the closest property), move the property to an item
that reads it, or declare a custom property in `<PropertyTypes>`.

Failing:

    <Property name="Emission.Lifetim">2</Property>
    <ParticleAffector name="Gravity">
      <Property name="Emission.Rate">10</Property>
    </ParticleAffector>

Passing:

    <Property name="Emission.Lifetime">2</Property>
"""
from kzplayer.diagnostics import Severity
from kzplayer.validate.context import did_you_mean
from kzplayer.validate.engine import Problem, from_pipeline

CODE = "KZ301"
RULE = "property.unknown"
SEVERITY = Severity.ERROR
# The binding graph finds a misspelt BindingSourceItem.Source too, at the source item; this
# rule reports it where the name is written, and passes on what it does not check itself.
OWNS_PIPELINE = True


def check(context):
    cat = context.catalog
    families = _checked_families(context)
    said = set()            # the BindingSourceItems whose Source is reported here
    for item in context.items:
        if cat.item_type(item.type) is None:
            continue        # an item kzplayer does not model: the loader says so once
        for name, prop in item.properties.items():
            spec = cat.property(name)
            if spec is None:
                if _checked(cat, item, name, families):
                    yield _unknown(context, name, context.name_span(prop), f"{item.type} '{item.name}'")
            elif spec.item_types and not cat.carries(item.type, name):
                yield _misplaced(spec, name, item, context.name_span(prop))
    for owner, binding in context.bindings:
        if cat.item_type(owner.type) is None or owner.type.endswith("MaterialType"):
            continue        # not modelled, or a material uniform's binding: not properties
        where = binding.target_span or binding.span
        spec = cat.property(binding.target) if binding.target else None
        target = context.push_target(owner, binding)
        if binding.target and spec is None and _checked(cat, target, binding.target, families):
            yield _unknown(context, binding.target, where, "the binding's target")
        elif spec is not None and spec.item_types:
            if target is not None and cat.item_type(target.type) is not None \
                    and not cat.carries(target.type, binding.target):
                yield _misplaced(spec, binding.target, target, where)
        for source in binding.sources:
            item = context.find(source.item, owner) if source.item else owner
            if source.source and cat.property(source.source) is None \
                    and _checked(cat, item, source.source, families):
                said.add(source.span)
                where = context.property_value_span(source.span, "BindingSourceItem.Source", source.source)
                yield _unknown(context, source.source, where, f"BindingSourceItem '{source.name}'")
    yield from (p for p in from_pipeline(context, RULE) if p.span not in said)


def _checked_families(context):
    """None: every name is checked. A Kanzi Studio project holds every Kanzi property type and
    kzplayer models the particle ones, so there only the particle families are checked."""
    if context.project.layout != "kzproj":
        return None
    return {p.prefix for p in context.catalog.properties.values()
            if p.materials or p.prefix.startswith("Particle")}


def _checked(cat, item, name: str, families) -> bool:
    """Whether an unknown `name` on `item` (None: not found; the graph reports the path) is
    an error here: not on an item kzplayer does not model, not one of Kanzi's own properties
    of the item's type, and (in a .kzproj) of a family kzplayer plays."""
    if item is not None and (cat.item_type(item.type) is None or cat.known_unplayed(item.type, name)):
        return False
    return families is None or name.split(".", 1)[0] in families


def _misplaced(spec, name, item, span):
    return Problem(span, f"{name} is not a property of {item.type} '{item.name}': nothing on it reads the value",
                   f"it belongs on: {', '.join(sorted(spec.item_types))}")


def _unknown(context, name, span, where):
    return Problem(span, f"unknown property '{name}' on {where}",
                   did_you_mean(context.catalog.suggest_property(name)))
