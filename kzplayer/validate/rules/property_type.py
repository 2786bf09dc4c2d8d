"""A property value of the wrong type.

Each property has one type in the catalog (`float`, `int`, `bool`, `vector3`, `color4`,
`enum`, `buffer`, `material`, ...). The value must be a literal of that type: an int is
accepted where a float is expected (`500` for `Emission.Rate`), nothing else converts. An
enum value must be one of its words. A buffer property (`Emission.SourceEventBuffer`)
never has a literal value: declare it empty and bind it.

To fix: write a literal of the property's type (the hint shows one), or a word the enum has.

Failing:

    <Property name="Emission.InitialVelocityDirection">1.5</Property>
    <Property name="ParticleSystem.IntegrationMethod">RungeKutta</Property>

Passing:

    <Property name="Emission.InitialVelocityDirection">(0, 1, 0)</Property>
    <Property name="ParticleSystem.IntegrationMethod">Verlet</Property>
"""
from kzplayer.diagnostics import Severity, a_or_an, closest
from kzplayer.project.literals import example_hint
from kzplayer.validate.context import did_you_mean, value_span
from kzplayer.validate.engine import Problem, from_pipeline
from kzplayer.values import type_name

CODE = "KZ302"
RULE = "property.type"
SEVERITY = Severity.ERROR

_ACCEPTS = {            # declared type -> value types that may stand for it
    "float": {"float", "int"},
    "int": {"int"},
    "color4": {"color4", "vector4"},
    "item": {"item", "string"},
    "material": {"material", "string"},
    "enum": {"enum", "string"},
}


def check(context):
    unparsed = {}       # (file, line) -> declared type of a value the loader could not read
    for item in context.items:
        for name, prop in item.properties.items():
            spec = context.catalog.property(name)
            if spec is None:
                continue
            if prop.value is None:
                if prop.text.strip() and prop.span is not None:
                    unparsed[(prop.span.file, prop.span.line)] = spec.type
                continue
            problem = _mismatch(context, name, spec, prop)
            if problem:
                yield problem
    # The loader reports a literal it cannot read (at the exact spot inside it); the rule
    # adds how to write one.
    for p in from_pipeline(context, RULE):
        want = unparsed.get((p.span.file, p.span.line)) if p.span else None
        yield p._replace(hint=p.hint or (example_hint(want) if want else None))


def _mismatch(context, name, spec, prop):
    value, want = prop.value, spec.type
    if want == "buffer":
        return Problem(value_span(prop), f"{name} is a buffer: it gets its value from a binding, not a literal",
                       f'declare it empty, <Property name="{name}"/>, and bind it')
    try:
        have = type_name(value)
    except TypeError:
        have = type(value).__name__
    if want == "int" and have == "float" and float(value).is_integer():
        return None
    if want == "enum" and have == "int" and (not spec.enum or 0 <= value < len(spec.enum)):
        return None         # a Kanzi Studio enum stored as its number (the word's place in the list)
    if have != want and have not in _ACCEPTS.get(want, ()):
        return Problem(value_span(prop), f"{name} is {a_or_an(want)}, not {a_or_an(have)} ('{prop.text or value}')",
                       example_hint(want))
    if want == "enum" and spec.enum:
        word = str(value)
        if word not in spec.enum:
            hint = did_you_mean(closest(word, spec.enum)) or f"one of: {', '.join(spec.enum)}"
            return Problem(value_span(prop), f"'{word}' is not a value of {name}", hint)
    return None



