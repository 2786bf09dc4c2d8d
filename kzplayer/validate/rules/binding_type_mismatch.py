"""A binding whose value cannot go into its target property.

Only like types bind: a float into a float (int and bool convert), a Vector3 into a
Vector3, a colour into a colour, and a buffer only into a buffer. A subemitter's
`Emission.SourceEventBuffer` takes the source emitter's `ParticleEmitter.EventBuffer`,
nothing else. A TargetPropertyAttribute (`VECTOR_X`, `TRANSLATION_Y`, ...) must be a field
the target's type has.

The two consumer buffers of a subemitter take one output buffer each: the source's
`ParticleEmitter.EventBuffer` into `Emission.SourceEventBuffer`, its
`ParticleEmitter.ParticleDataBuffer` into `Emission.SourceParticleDataBuffer`. Both are
buffers, but the other one holds records of another layout (the usual slip: a copied binding
whose Target or expression was not changed).

To fix: bind a value of the target's type: for a consumer buffer, the source emitter's
matching output buffer; for a field, one the target type has.

Failing:

    <Binding target="Emission.SourceEventBuffer">{../Source/Emission.Rate}</Binding>
    <Binding target="Emission.SourceParticleDataBuffer">{@../Source/ParticleEmitter.EventBuffer}</Binding>

Passing:

    <Binding target="Emission.SourceEventBuffer">{@../Source/ParticleEmitter.EventBuffer}</Binding>
"""
from kzplayer.diagnostics import Severity
from kzplayer.validate.context import FED_BY
from kzplayer.validate.engine import Problem, from_pipeline

CODE = "KZ106"
RULE = "binding.type-mismatch"
SEVERITY = Severity.ERROR


def check(context):
    by_id = {id(b): b for _, b in context.bindings}
    for p in from_pipeline(context, RULE):      # found while evaluating the bindings
        b = by_id.get(context.binding_at(p.span))
        want = FED_BY.get(b.target) if b is not None else None
        yield p._replace(hint=p.hint or (want and f"make it read the source emitter's {want}"))
    outputs = set(FED_BY.values())
    for owner, b in context.bindings:
        want = FED_BY.get(b.target)
        if want is None:
            continue
        for name in sorted(_reads(context, b) & outputs - {want}):
            yield Problem(b.target_span or b.span, f"{b.target} takes the source's {want}, not its {name}",
                          f"make it read {want} (the {name} belongs in "
                          f"{next(c for c, o in FED_BY.items() if o == name)})")


def _reads(context, b) -> set[str]:
    """The properties the binding means to read: its SourceExpression's (a BindingSourceItem
    that disagrees with it is binding.source-mismatch), else what RawCode reads."""
    shown = context.programs[id(b)][0]
    named = {r.property for r in shown.references if r.kind != "index" and r.property}
    return named or {name for _, name in context.reads(b)}
