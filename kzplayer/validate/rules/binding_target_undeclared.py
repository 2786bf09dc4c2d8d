"""A consumer buffer bound but not declared on the item (events page, gotcha 1).

`Emission.SourceEventBuffer` and `Emission.SourceParticleDataBuffer` must be present on the
subemitter node even though a binding fills them: if the property is missing, the binding
has nowhere to write and the subemitter never sees the source's events. Declare them with an
empty value, which counts as declared.

kzplayer applies this to every buffer-typed property, the only kind that exists solely
to be bound. Other properties need no declaration: a binding to `Emission.Rate` or to
`ParticleEmitter.MaximumAmount` creates the value.

To fix: declare the property on the item, empty: `<Property
name="Emission.SourceEventBuffer"/>`.

Failing (on the subemitter, no `<Property name="Emission.SourceEventBuffer"/>`):

    <BindingItem name="Events">
      <Property name="BindingItem.Target">Emission.SourceEventBuffer</Property>
      ...
    </BindingItem>

Passing:

    <Property name="Emission.SourceEventBuffer"/>
    <BindingItem name="Events">
      <Property name="BindingItem.Target">Emission.SourceEventBuffer</Property>
      ...
    </BindingItem>
"""
from kzplayer.diagnostics import Severity
from kzplayer.validate.context import CONSUMERS
from kzplayer.validate.engine import Problem

CODE = "KZ103"
RULE = "binding.target-undeclared"
SEVERITY = Severity.ERROR


def check(context):
    for owner, b in context.bindings:
        spec = context.catalog.property(b.target)
        if spec is None or spec.type != "buffer" or spec.output:
            continue        # unknown names and outputs have rules of their own
        target = context.push_target(owner, b)
        if target is None or (b.target in CONSUMERS and target is not owner):
            continue        # path.unresolved / binding.push-target say what is wrong
        if b.target not in target.properties:
            yield Problem(b.target_span or b.span,
                          f"{b.target} is not declared on '{target.name}': the binding has nowhere to write",
                          f'add <Property name="{b.target}"/> to {target.type} \'{target.name}\' '
                          "(empty: the binding fills it)")
