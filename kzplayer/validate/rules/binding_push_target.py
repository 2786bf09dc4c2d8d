"""A subemitter's buffer binding whose PushTarget is not the subemitter (events page, gotcha 2).

The two bindings that wire a subemitter to its source live on the subemitter: they pull
from the source emitter and push into the subemitter's own `Emission.SourceEventBuffer` and
`Emission.SourceParticleDataBuffer`. Their PushTarget must therefore be the subemitter
itself. Pointing it at the source (an easy mix-up, since the source is what the binding
reads) writes the buffer handle into the wrong node and the subemitter never fires.

A BindingItem without any PushTarget is an error too: Kanzi delivers the handle nowhere
("load-bearing", says the page), so the subemitter never fires; the binding graph does not
run such a binding either, and `kzplayer play` shows the effect as Kanzi would, without it
(one answer to "what runs": kzplayer.bindings.binding.undelivered).

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
    # no PushTarget at all: found by the binding graph (it does not run the binding), as found
    for owner, b in context.bindings:
        if b.target not in CONSUMERS or b.short or not b.push_target:
            continue        # the short <Binding> form always pushes into its own item
        fix = f"set BindingItem.PushTarget to {owner.path}"
        target = context.find(b.push_target, owner)
        if target is not None and target is not owner:
            yield Problem(b.push_target_span or b.span,
                          f"the PushTarget of this {b.target} binding is '{target.name}', not the subemitter "
                          f"'{owner.name}' that holds it: the binding pulls from the source and pushes into "
                          "the subemitter", fix)
