"""An absolute path that no longer names the item the binding means (the rename problem).

A full BindingItem names its items twice: relatively in the SourceExpression
(`{@../Source/ParticleEmitter.EventBuffer}`) and absolutely in `BindingSourceItem.Item` and
`BindingItem.PushTarget` (`Screens/Screen/.../On Hit/Source`), and the Kanzi runtime uses the
absolute ones. Renaming or moving the source or the subemitter leaves the absolute paths
behind (events page, gotcha 5): they lead nowhere, or to another item, while the relative
path still names the right one. The message says which item the binding means; the hint is
the path to write.

A PushTarget is stale when it leads nowhere and differs from the path of the binding's own
item in exactly one name (that item or one above it was renamed).

To fix: write the path the hint gives: the absolute path of the item the binding's relative
path names now.

Failing (the source emitter was renamed from "Source" to "Primary"):

    <Property name="BindingItem.SourceExpression">{@../Primary/ParticleEmitter.EventBuffer}</Property>
    <BindingSourceItem name="0">
      <Property name="BindingSourceItem.Item">Screens/.../On Hit/Source</Property>

Passing:

    <Property name="BindingItem.SourceExpression">{@../Primary/ParticleEmitter.EventBuffer}</Property>
    <BindingSourceItem name="0">
      <Property name="BindingSourceItem.Item">Screens/.../On Hit/Primary</Property>
"""
from kzplayer.diagnostics import Severity
from kzplayer.validate.engine import Problem, from_pipeline

CODE = "KZ102"
RULE = "path.stale"
SEVERITY = Severity.ERROR
# A stale PushTarget is also a path leading nowhere to the binding graph; this rule names
# the item meant, so it reports instead.
SUPERSEDES = ("path.unresolved",)


def check(context):
    # A BindingSourceItem left behind: the binding graph compares it with the expression.
    yield from from_pipeline(context, RULE)
    for owner, b in context.bindings:
        stale = _stale_push_target(context, owner, b)
        if stale:
            yield stale


def _stale_push_target(context, owner, b):
    """A PushTarget that leads nowhere, one name away from the binding's own item."""
    if not b.push_target or context.find(b.push_target, owner) is not None:
        return None
    written = [s for s in b.push_target.strip().strip("/").split("/") if s]
    own = owner.path.split("/")
    if len(written) == len(own) + 1:
        written = written[1:]           # a leading project name
    if len(written) != len(own) or sum(a != c for a, c in zip(written, own)) != 1:
        return None
    return Problem(b.push_target_span or b.span,
                   f"PushTarget '{b.push_target}' leads to no item; if it meant the item that holds "
                   f"the binding, that is now '{owner.path}' (renamed or moved?)",
                   f"set BindingItem.PushTarget to {owner.path}",
                   related=(b.push_target_span,) if b.push_target_span else ())
