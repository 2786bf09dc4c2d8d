"""A subemitter's buffer binding whose PushTarget is not the subemitter (events page, gotcha 2).

The two bindings that wire a subemitter to its source live on the subemitter: they pull
from the source emitter and push into the subemitter's own `Emission.SourceEventBuffer` and
`Emission.SourceParticleDataBuffer`. Their PushTarget must therefore be the subemitter
itself. Pointing it at the source (an easy mix-up, since the source is what the binding
reads) writes the buffer handle into the wrong node and the subemitter never fires.

A BindingItem without any PushTarget is an error too: Kanzi delivers the handle nowhere
("load-bearing", says the page), so the effect is broken in Kanzi even though kzplayer,
more forgiving, pushes into the binding's own item and plays it.

To fix: set `BindingItem.PushTarget` to the absolute path of the subemitter that holds the
binding.

Failing (a binding on Subemitter):

    <Property name="BindingItem.Target">Emission.SourceEventBuffer</Property>
    <Property name="BindingItem.PushTarget">Screens/.../Source</Property>

Passing:

    <Property name="BindingItem.Target">Emission.SourceEventBuffer</Property>
    <Property name="BindingItem.PushTarget">Screens/.../Subemitter</Property>
"""
from kzplayer.diagnostics import Severity
from kzplayer.validate.context import CONSUMERS
from kzplayer.validate.engine import Problem

CODE = "KZ104"
RULE = "binding.push-target"
SEVERITY = Severity.ERROR


def check(context):
    for owner, b in context.bindings:
        if b.target not in CONSUMERS or b.short:
            continue        # the short <Binding> form always pushes into its own item
        fix = f"set BindingItem.PushTarget to {owner.path}"
        if not b.push_target:
            yield Problem(b.span, f"this {b.target} binding has no PushTarget: Kanzi delivers the buffer "
                          "handle nowhere and the subemitter never fires (kzplayer, more forgiving, pushes into the "
                          "binding's own item)", fix)
            continue
        target = context.find(b.push_target, owner)
        if target is not None and target is not owner:
            yield Problem(b.push_target_span or b.span,
                          f"the PushTarget of this {b.target} binding is '{target.name}', not the subemitter "
                          f"'{owner.name}' that holds it: the binding pulls from the source and pushes into "
                          "the subemitter", fix)
