"""A project's material type named like a stock material (a warning).

A `<MaterialType>` of the project's `<Materials>` that has a shader of its own
(`shader=`, or `vertex=` / `fragment=`) but the name of a stock material, an alias or a
legacy name of one (`Gravity`, `Affector_Gravity`, `Emitter_Fountain`...) is not played:
a slot that names it gets the stock material, and the shader is never read (stock names
keep their stock entry, docs/catalog.md). The effect then looks fine and ignores every edit
to the shader, which is the hardest kind of mistake to find.

To fix: give the material a name of its own (`MyGravity`) and name that in the slots.

Failing:

    <MaterialType name="Gravity" slot="Affector" shader="shaders/my_gravity.glsl"/>

Passing:

    <MaterialType name="MyGravity" slot="Affector" shader="shaders/my_gravity.glsl"/>
"""
from kzplayer.diagnostics import Severity
from kzplayer.validate.engine import Problem

CODE = "KZ407"
RULE = "material.stock-name"
SEVERITY = Severity.WARNING
SHADERS = ("shader", "vertex", "fragment")


def check(context):
    cat = context.catalog
    for item in context.project.items("MaterialType"):
        own = [a for a in SHADERS if str(item.attributes.get(a) or "").strip()]
        spec = cat.material(item.name) if own else None
        if spec is None or spec.custom:
            continue
        stock = (f"a legacy name of the stock material {spec.replacement}" if spec.legacy
                 else f"the name of the stock material {spec.name}")
        yield Problem(context.item_name_span(item),
                      f"MaterialType '{item.name}' has {stock}: a slot that names it plays the stock one, "
                      f"and {item.attributes[own[0]]} is never read",
                      f"rename it, e.g. 'My{item.name.split('_')[-1]}', and name that in the slots that use it")

