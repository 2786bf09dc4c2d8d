"""A consumer buffer bound but not declared on the item (events page, gotcha 1).

`Emission.SourceEventBuffer` and `Emission.SourceParticleDataBuffer` must be present on the
subemitter node even though a binding fills them: if the property is missing, the binding
has nowhere to write and the subemitter never sees the source's events. Declare them with an
empty value, which counts as declared.

kzplayer applies this to every buffer-typed property, the only kind that exists solely
to be bound. Other properties need no declaration: a binding to `Emission.Rate` or to
`ParticleEmitter.MaximumAmount` creates the value. The binding graph does not run such a
binding, as Kanzi would not, and `kzplayer play` shows the subemitter unwired (one answer
to "what runs": kzplayer.bindings.binding.undelivered).

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

CODE = "KZ103"
RULE = "binding.target-undeclared"
SEVERITY = Severity.ERROR

# No check(): found by the binding graph (kzplayer.bindings.binding.undelivered), as found.
